"""How the letter network reads print faces it was never trained on: glyphs rendered in held-out faces.

    python benchmarks/vision_faces.py --model NAME=letters.npz [--model NAME=letters.npz ...]
                                      [--faces a.otf,b.ttf] [--per-letter N] [--seed S]

Renders `--per-letter` glyphs of every letter A-Z in each face of `--faces` (default: the installed
`vision.synth.KEPT_OUT_FONTS` that no unread blind style prints with: reading an unread blind style's face
here would be looking at it before its blind read), drawn by training's sampler (`vision.synth._glyph_sample`:
a tile with a point number, a quarter dark tiles with light print, width, rotation, blur, noise and JPEG
varied) with the stroke weights of the training before issue 27's faces round (`AS_BEFORE`: 0.5-1 px thinner
or bolder, no slab serifs added), so the glyphs stay the same whatever training draws, and passed through the
reader's own glyph finder; then
each model reads them (the letter network's argmax over A-Z, its "not a letter" and blank classes left out,
as `vision.train.evaluate` does). Prints per face and model: letters right, those on dark tiles, the share
read at >= 0.98 and right of those, and the most frequent confusions. The glyphs are the same for every
model (one seed), so the figures compare models; they are not a reading of a board (no grid, no occupancy,
no point-number evidence): `benchmarks/vision_styles.py` is.

A model is any letters .npz (`assets/vision/letters.npz`, or a leave-out model of
`python -m vision.train --leave-out SET`, printed by that command).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from vision.cells import glyph_features
from vision.mlp import Mlp
from vision.synth import (
    BLIND_STYLES,
    FONT_DIR,
    KEPT_OUT_FONTS,
    LETTERS,
    READ_BLIND_STYLES,
    STYLES,
    GlyphDraw,
    _glyph_sample,
    training_fonts,
)

# How the glyphs are drawn: as the main renders were drawn before the faces round, fixed here so a change of
# training's augmentation does not change the test glyphs.
AS_BEFORE = GlyphDraw(bolder_share=0.15, strokes=(3, 5), slab_share=0.0)
URW = Path("/usr/share/fonts/opentype/urw-base35")
FREE = Path("/usr/share/fonts/truetype/freefont")


def installed(name: str) -> Path | None:
    """The installed file of a face named by its file name (DejaVu, URW base35, FreeFont), or None."""
    for folder in (FONT_DIR, URW, FREE, Path("/usr/share/fonts/truetype/liberation")):
        if (folder / name).exists():
            return folder / name
    return None


def default_faces() -> list[Path]:
    """KEPT_OUT_FONTS that are installed, less the faces of blind styles not read yet."""
    unread = {Path(STYLES[s].font).name for s in BLIND_STYLES if s not in READ_BLIND_STYLES}
    return [p for name in KEPT_OUT_FONTS if name not in unread and (p := installed(name)) is not None]


def face_glyphs(face: Path, per_letter: int, seed: int) -> tuple[np.ndarray, list[str], list[bool]]:
    """`per_letter` rendered glyphs of each letter in `face`, their letters and whether each is on a dark tile."""
    rng = np.random.default_rng([seed, sum(map(ord, face.name))])
    bold_rng = np.random.default_rng([seed, sum(map(ord, face.name)), 1])
    xs, ys, dark = [], [], []
    for letter in LETTERS:
        got = 0
        for _ in range(per_letter * 3):  # a glyph the finder does not find whole is drawn again
            state = rng.bit_generator.state
            img = _glyph_sample(face, letter, rng, bold_rng, AS_BEFORE)
            if img is None:
                continue
            # whether that draw was a dark tile: _glyph_sample's second draw (the first is the size)
            probe = np.random.default_rng()
            probe.bit_generator.state = state
            probe.uniform()
            dark.append(bool(probe.random() < 0.25))
            xs.append(img)
            ys.append(letter)
            got += 1
            if got == per_letter:
                break
    return np.array(xs, np.float32), ys, dark


def read_letters(model: Mlp, glyphs: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The model's letter (A-Z only) and its probability for each glyph."""
    probs = model.predict_proba(glyph_features(glyphs))
    keep = [i for i, c in enumerate(model.classes) if c in LETTERS]
    sub = probs[:, keep]
    best = sub.argmax(axis=1)
    return [model.classes[keep[i]] for i in best], probs[np.arange(len(best)), [keep[i] for i in best]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", action="append", required=True, help="NAME=path/to/letters.npz (repeatable)")
    ap.add_argument("--faces", default="", help="comma-separated face file names (default: kept-out faces)")
    ap.add_argument("--per-letter", type=int, default=20)
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args(argv)
    models = {}
    for spec in args.model:
        name, _, path = spec.partition("=")
        if not path or not Path(path).exists():
            print(f"--model {spec!r}: give NAME=PATH of an existing letters .npz", file=sys.stderr)
            return 2
        models[name] = Mlp.load(Path(path))
    faces = [installed(n) for n in args.faces.split(",") if n] if args.faces else default_faces()
    if not faces or any(f is None for f in faces):
        print(f"--faces {args.faces!r}: name installed face files (e.g. NimbusMonoPS-Bold.otf)", file=sys.stderr)
        return 2
    trained = {p.name for p in training_fonts()}
    print(f"{'face':28s} {'model':12s} {'letters right':>16s} {'on dark tiles':>16s} {'read >= 0.98':>13s}"
          f" {'right of those':>15s}  most confused")
    for face in faces:
        assert face is not None
        glyphs, truth, dark = face_glyphs(face, args.per_letter, args.seed)
        note = " (trained)" if face.name in trained else ""
        for name, model in models.items():
            got, p = read_letters(model, glyphs)
            right = [g == t for g, t in zip(got, truth, strict=True)]
            n, ok = len(truth), sum(right)
            nd = sum(dark)
            okd = sum(r for r, d in zip(right, dark, strict=True) if d)
            sure = p >= 0.98
            sure_ok = sum(r for r, s in zip(right, sure, strict=True) if s)
            wrong = Counter(f"{t}->{g}" for g, t in zip(got, truth, strict=True) if g != t).most_common(5)
            print(f"{face.name + note:28s} {name:12s} {ok:5d}/{n:5d} = {ok / max(n, 1):6.2%}"
                  f" {okd:5d}/{nd:5d} = {okd / max(nd, 1):6.2%} {int(sure.sum()):6d}/{n:5d}"
                  f" {sure_ok:6d}/{int(sure.sum()):6d}  {', '.join(f'{k} {v}' for k, v in wrong)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
