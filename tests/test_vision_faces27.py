"""Issue 27, the faces round (docs/reader-faces.md): the letter network trained on print faces it had not been
shown (a slab-serif mono, narrow sans, book regulars, slab serifs grown on any face, hairline to heavy stroke
weights), two faces kept out so two blind styles stay in faces no glyph is rendered in, and the fifth blind
style, walnut_hairline (renders and installed font files only: runs in any clone).

The blind style is rendered here, never read: its first read is the blind one (`benchmarks/vision_styles.py
--blind`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from vision import synth
from vision.cells import GLYPH
from vision.synth import (
    BLIND_STYLES,
    FONT_DIR,
    KEPT_OUT_FONTS,
    READ_BLIND_STYLES,
    SPAN_FONTS,
    STYLES,
    TRAINED_STYLES,
    GlyphDraw,
    _glyph_sample,
    _slab_serifs,
    _tile_image,
    render,
    training_fonts,
)
from vision.train import TEST_SEED_FROM

NEW = "walnut_hairline"


def _installed_span_fonts() -> list[Path]:
    return [Path(f) for f in SPAN_FONTS if Path(f).exists()]


def test_the_fifth_blind_style_is_defined_and_trains_nothing_until_read() -> None:
    """walnut_hairline (dark walnut tiles with grain, cream hairline sans, cold daylight) is blind: in no model's
    training until its read, and its face is in no glyph render."""
    assert NEW in STYLES and NEW in BLIND_STYLES
    if NEW not in READ_BLIND_STYLES:
        assert NEW not in TRAINED_STYLES
    style = STYLES[NEW]
    assert Path(style.font).name == "DejaVuSans-ExtraLight.ttf" and (FONT_DIR / style.font).exists()
    assert Path(style.font).name in KEPT_OUT_FONTS
    assert max(style.tile) < 100 and min(style.letter) > 200 and style.grain > 0  # dark wood, light print
    assert style.light is not None and style.light[0] > 1.0 > style.light[2]  # cold: blue up, red down


def test_a_walnut_hairline_tile_is_printed_in_strokes_a_fraction_of_a_bold_face() -> None:
    """The same tile (letter H, same draws) printed in the style's face and in DejaVu Sans Bold: the hairline
    print covers well under half the bold one's pixels, and the tile stays dark around it."""
    style = STYLES[NEW]
    bold = dataclasses.replace(style, font="DejaVuSans-Bold.ttf")
    hair = _tile_image(style, "H", 52, np.random.default_rng(5), style.tile).astype(np.float64)
    heavy = _tile_image(bold, "H", 52, np.random.default_rng(5), style.tile).astype(np.float64)
    light_hair = int((hair.mean(axis=2) > 140).sum())
    light_heavy = int((heavy.mean(axis=2) > 140).sum())
    assert 0 < light_hair < 0.5 * light_heavy, (light_hair, light_heavy)
    assert float(np.median(hair.mean(axis=2))) < 90


def test_a_walnut_hairline_render_is_a_labelled_board_under_cold_light(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = TEST_SEED_FROM
    case = render(NEW, seed)
    assert len(case.grid) == 15 and sum(ch.isupper() for row in case.grid for ch in row) >= 10
    cold = case.image.astype(np.float64)
    monkeypatch.setitem(synth.STYLES, NEW, dataclasses.replace(STYLES[NEW], light=None))
    plain = render(NEW, seed).image.astype(np.float64)
    assert cold[..., 0].mean() > plain[..., 0].mean() + 5 and cold[..., 2].mean() < plain[..., 2].mean() - 5


def test_training_spans_mono_narrow_and_book_faces_and_keeps_the_blind_faces_out() -> None:
    """Every installed SPAN_FONTS face trains (main trained none of them); no KEPT_OUT_FONTS face does:
    plum_slab's Nimbus Mono, GNU FreeMono (drawn from the same outlines) and walnut_hairline's ExtraLight."""
    span = _installed_span_fonts()
    if not span:
        pytest.skip("none of vision.synth.SPAN_FONTS is installed (Debian: fonts-liberation, fonts-freefont-ttf, "
                    "fonts-urw-base35)")
    names = [p.name for p in training_fonts()]
    assert {p.name for p in span} <= set(names)
    assert len(names) == len(set(names))
    assert set(names).isdisjoint(KEPT_OUT_FONTS)
    for style in ("plum_slab", NEW):
        assert Path(STYLES[style].font).name not in names
    assert {"FreeMono.ttf", "FreeMonoBold.ttf", "NimbusMonoPS-Bold.otf"} <= set(KEPT_OUT_FONTS)


def test_each_new_face_yields_glyphs_the_finder_takes_whole() -> None:
    """Rendered letters in every SPAN_FONTS face pass the reader's glyph finder as training draws them (a glyph
    the finder does not take whole is dropped, so a face that yields none would train nothing)."""
    span = _installed_span_fonts()
    if not span:
        pytest.skip("none of vision.synth.SPAN_FONTS is installed")
    for face in span:
        rng, bold_rng = np.random.default_rng(1), np.random.default_rng(2)
        found = [_glyph_sample(face, letter, rng, bold_rng, GlyphDraw()) for letter in "AEHILMOSWX" for _ in range(3)]
        kept = [g for g in found if g is not None]
        assert len(kept) >= 0.7 * len(found), (face.name, len(kept))
        assert all(g.shape == (GLYPH, GLYPH) and 0.0 <= g.min() and g.max() <= 1.0 + 1e-5 for g in kept)


def _drawn(letter: str, font: str = "DejaVuSans.ttf", em: int = 160) -> np.ndarray:
    im = Image.new("L", (320, 320), 0)
    ImageDraw.Draw(im).text((160, 160), letter, font=ImageFont.truetype(str(FONT_DIR / font), em), fill=255,
                            anchor="mm")
    return np.asarray(im)


def _width_at(ink: np.ndarray, row: int) -> int:
    cols = np.flatnonzero(ink[row] > 127)
    return int(cols[-1] - cols[0] + 1) if len(cols) else 0


def test_slab_serifs_finish_upright_stems_and_leave_round_letters_alone() -> None:
    """An I gains a bar across its top and its foot several times its stem's width (a slab face's I); an H's
    stems gain bars at top and foot; an O, whose upright runs stand at mid-height, is left as drawn."""
    i_plain = _drawn("I")
    i_slab = _slab_serifs(i_plain, 160, np.random.default_rng(0))
    rows = np.flatnonzero((i_plain > 127).any(axis=1))
    top, foot, middle = int(rows[0]), int(rows[-1]), int(rows.mean())
    stem = _width_at(i_plain, middle)
    assert _width_at(i_slab, top + 1) >= 1.8 * stem and _width_at(i_slab, foot - 1) >= 1.8 * stem
    assert _width_at(i_slab, middle) == stem
    h_plain = _drawn("H")
    h_slab = _slab_serifs(h_plain, 160, np.random.default_rng(0))
    assert int((h_slab > 127).sum()) > int((h_plain > 127).sum()) * 1.1
    o_plain = _drawn("O")
    assert np.array_equal(_slab_serifs(o_plain, 160, np.random.default_rng(0)), o_plain)
