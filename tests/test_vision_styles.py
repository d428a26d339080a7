"""Tile and board styles no labelled photo set shows, as rendered boards with known labels
(`vision/synth.py`): each style is read with automatic corners by the shipped models, on renders whose
seeds no model was trained on (`vision.train.TEST_SEED_FROM` and up), and nothing is read wrongly with a
sure confidence. The leave-one-style-out figures are `benchmarks/vision_styles.py`'s."""

from __future__ import annotations

import itertools
import json

import cv2
import numpy as np
import pytest

from tests.conftest import shared_path
from vision.cells import Glyph, cell_window, find_glyph, glyph_features, warp_board
from vision.confidence import SURE
from vision.labelled import ADDED_LABELS, labelled_photos
from vision.locate import locate_grid
from vision.occupancy import FEATURES, SquareLook, measure
from vision.read import read_board
from vision.recognise import MlpRecogniser, TileCrop, tile_letter, without_point_number
from vision.synth import STYLES, TRAINED_STYLES, render
from vision.train import SYNTH_TRAIN_SEEDS, TEST_SEED_FROM

# Floors under what render TEST_SEED_FROM+20 of each style measured with the shipped models (trained on other
# renders of every style). Since the reader reads the tile's letter rather than a piece of the tile
# (`vision.recognise.tile_letter`: the light letter on a dark tile, the letter inside a tile's frame) every
# letter found is read right: black, coloured plastic and green board 100% (were 100 / 97 / 96), maroon 29 of
# 32 and navy 36 of 37, the rest being tiles the occupancy step missed (maroon 98.7% occupancy, navy 99.6%);
# the other styles read whole. These guard the styles against regressions; what matters most is the line
# below them: whatever is wrong is never sure.
# Issue 27's styles, with the models retrained on renders of every style (b2b0c1c's training): render +20 of
# the Crossword boards, whose halves are now two planes, read 48 of 50 (blue) and 38 of 41 (yellow tiles, thin
# tall print) letters right, every wrong one below sure; the other new styles read at the default floors.
MIN_OCCUPANCY = {"maroon_tiles": 0.98, "navy_tiles": 0.99}
# black_gold_serif (the third blind round's style, read once; the shipped models have not trained on it): render
# +20 reads 15 of 16 letters, the wrong one below sure. plum_slab (the fourth, read once, docs/reader-dark.md; the
# shipped models have not trained on it either): 29 of 32, every wrong one below sure.
# teal_fold_steep (the sixth, read once; the shipped models were trained before its read): render +20 reads 17 of
# 19 letters without Tesseract, both wrong ones asked (H8 Y taken for a blank printed "d" at 0.67, J8 E read R
# at 0.38).
MIN_LETTERS = {"maroon_tiles": 0.88, "navy_tiles": 0.95, "crossword_blue": 0.95, "crossword_yellow": 0.92,
               "black_gold_serif": 0.9, "plum_slab": 0.9, "teal_fold_steep": 0.85}


def test_renders_show_the_conditions_of_issue_27() -> None:
    """Besides the styles' colours and print, varied renders (as training and the benchmarks read them) of
    every style are sometimes photographed a quarter or
    half turn round (the corners, named from the board, are then not the photo's top-left first), at a steep
    angle, and hold blanks plain (`?`) or printed with their letter in lower case. The new styles are there,
    the Crossword board with yellow tiles folding and printed thin and tall."""
    cases = [render("crossword_blue", TEST_SEED_FROM + k, varied=True) for k in range(24)]
    turned = [c for c in cases if int(np.argmin(np.array(c.corners).sum(axis=1))) != 0]
    assert turned and len(turned) < len(cases)
    cells = "".join("".join(c.grid) for c in cases)
    assert "?" in cells and any(ch.islower() for ch in cells)
    # without `varied`, a seed gives the photo it gave before issue 27 (no blanks, not turned)
    plain = [render("crossword_blue", TEST_SEED_FROM + k) for k in range(24)]
    assert all(ch == "." or ch.isupper() for c in plain for ch in "".join(c.grid))
    assert all(int(np.argmin(np.array(c.corners).sum(axis=1))) == 0 for c in plain)
    assert {"thin_tall", "pale_wood", "black_condensed", "green_tiles", "crossword_yellow"} <= set(STYLES)
    assert STYLES["crossword_yellow"].fold and STYLES["crossword_yellow"].squeeze < 1


def test_renders_are_labelled_boards_and_repeatable() -> None:
    a, b = render("worn_wood", 3), render("worn_wood", 3)
    assert a.grid == b.grid and (a.image == b.image).all()
    assert len(a.grid) == 15 and all(len(row) == 15 for row in a.grid)
    assert a.grid[7][7] != "." and sum(ch != "." for row in a.grid for ch in row) >= 3  # the first word covers H8
    assert len(STYLES) >= 6 and max(SYNTH_TRAIN_SEEDS) < TEST_SEED_FROM


@pytest.mark.parametrize("style", sorted(TRAINED_STYLES))  # blind styles still to be read: only blind
def test_each_style_reads_with_automatic_corners_and_is_never_sure_when_wrong(style: str) -> None:
    case = render(style, TEST_SEED_FROM + 20)
    reading = read_board(case.image, tiles="en", second_opinion=False)
    occ_ok = let_ok = let_n = 0
    for r in range(15):
        for c in range(15):
            truth, got = case.grid[r][c], reading.grid[r][c]
            occ_ok += (truth == ".") == (got == ".")
            if truth != ".":
                let_n += 1
                let_ok += truth == got
            # The table trusts sure squares: none may be wrong.
            assert truth == got or reading.confidence[r][c] < SURE, (style, r, c, truth, got)
    assert occ_ok / 225 >= MIN_OCCUPANCY.get(style, 0.99), (style, reading.grid)
    assert let_ok / let_n >= MIN_LETTERS.get(style, 0.97), (style, let_ok, let_n)


@pytest.mark.parametrize(("set_name", "stem"), [
    ("b3nkang_stream", "19-5"),  # tournament board, yellow plastic tiles, NASPA-printed blanks
    ("radosz99_pl", "resources_tests_test3"),  # green Mattel board, wooden tiles
])
def test_real_photos_of_other_boards_read_and_are_never_sure_when_wrong(set_name: str, stem: str) -> None:
    """Photos this project labelled (tests/data/board_labels, checked square by square): read with automatic
    corners by the shipped models (which trained on them: this guards against regressions)."""
    shared_path("boards", set_name, f"{stem}.json")
    photo = next(p for p in labelled_photos(set_name) if p.stem == stem)
    reading = read_board(photo.image, tiles="en", second_opinion=False)
    letters = [(r, c) for r in range(15) for c in range(15) if photo.grid[r][c].isupper()]
    right = sum(reading.grid[r][c] == photo.grid[r][c] for r, c in letters)
    assert right / len(letters) >= 0.97, (right, len(letters), reading.grid)
    for r in range(15):
        for c in range(15):
            truth, got = photo.grid[r][c], reading.grid[r][c]
            ok = got == truth or (truth == "?" and got == "?")
            assert ok or reading.confidence[r][c] < SURE, (r, c, truth, got, reading.confidence[r][c])


def test_added_labels_say_how_they_were_checked_and_tiles_stay_put_between_frames() -> None:
    """The labels made for issue 15: each file says how it was checked; b3nkang's frames are one game in
    order, so a tile labelled in one frame is labelled with the same letter in every later frame."""
    for path in sorted(ADDED_LABELS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert len(data["how"]) > 80 and data["photos"]
        for label in data["photos"].values():
            assert len(label["grid"]) == 15 and all(len(r) == 15 for r in label["grid"]) and len(label["corners"]) == 4
    frames = json.loads((ADDED_LABELS / "b3nkang_stream.json").read_text(encoding="utf-8"))["photos"]
    order = sorted(frames)
    for before, after in itertools.pairwise(order):
        a, b = frames[before]["grid"], frames[after]["grid"]
        assert all(a[r][c] in (".", b[r][c]) for r in range(15) for c in range(15)), (before, after)


def _straightened(set_name: str, stem: str) -> tuple[np.ndarray, SquareLook]:
    shared_path("boards", set_name, f"{stem}.json")
    photo = next(p for p in labelled_photos(set_name) if p.stem == stem)
    warped = warp_board(cv2.imread(str(photo.image)), photo.corners)
    return cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY), measure(warped)


def test_a_point_number_touching_its_letter_is_cut_off_and_the_letter_read() -> None:
    """umich's wooden tiles print the number close to the letter: on photo_278739028's C8 the D and its 2
    are one blob of ink, read as R before the number was cut off. Without it the glyph is narrower, keeps
    the D's height (the 2 hangs a little below it) and the shipped network reads D."""
    gray, look = _straightened("umich_kwwangkw", "photo_278739028_965210177525353_21108678248116")
    r, c = 7, 2  # C8
    glyph = look.glyphs[r][c]
    assert glyph is not None
    window = cell_window(gray, r, c, 1.5)
    cut = without_point_number(window, glyph)
    assert cut.width < 0.9 * glyph.width and cut.height >= 0.75 * glyph.height  # the 2 hangs below the D
    letter, _conf = MlpRecogniser.load().classify([TileCrop(window, glyph)])[0]
    assert letter == "D"


def test_a_number_joined_to_a_thin_letter_is_cut_off() -> None:
    """radosz99_pl's Mattel tiles print thin strokes that fall apart under the cut's erosion: straightened by
    the reader's own corners, 1632842381916's Z on D12 comes with its 10 joined (0.6 squares high) and, so
    unlike every Z, was not taken for the tile the occupancy model missed. The number is cut off by where it
    stands and the Z is read."""
    stem = "resources_tests_1632842381916"
    shared_path("boards", "radosz99_pl", f"{stem}.json")
    photo = next(p for p in labelled_photos("radosz99_pl") if p.stem == stem)
    image = cv2.imread(str(photo.image))
    warped = warp_board(image, locate_grid(image).corners)
    gray, look = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY), measure(warped)
    r, c = 11, 3  # D12
    glyph = look.glyphs[r][c]
    assert glyph is not None and photo.grid[r][c] == "Z"
    window = cell_window(gray, r, c, 1.5)
    cut = without_point_number(window, tile_letter(window, glyph))
    assert cut.height < 0.85 * glyph.height and cut.width < 0.75 * glyph.width, (glyph, cut)
    letter, _conf = MlpRecogniser.load().classify([TileCrop(window, glyph)])[0]
    assert letter == "Z"
    # No other lettered tile of the photo loses ink to this cut (their numbers stand clear).
    for rr in range(15):
        for cc in range(15):
            g = look.glyphs[rr][cc]
            if (rr, cc) != (r, c) and g is not None and photo.grid[rr][cc].isupper():
                w = cell_window(gray, rr, cc, 1.5)
                t = tile_letter(w, g)
                assert without_point_number(w, t) is t, (rr, cc)


def test_letters_without_a_touching_number_are_left_whole() -> None:
    """Thin strokes that break under the cut's erosion (an R's leg, a B's bowls, an E's arm) are never taken
    for a number: on a whole cava_ro game photo (bold print, numbers clear of the letters) no glyph changes."""
    gray, look = _straightened("cava_ro", "2_20")
    glyphs = [(r, c, g) for r in range(15) for c in range(15) if (g := look.glyphs[r][c]) is not None]
    assert len(glyphs) > 40
    for r, c, g in glyphs:
        assert without_point_number(cell_window(gray, r, c, 1.5), g) is g, (r, c)


@pytest.mark.parametrize("style", ["black_tiles", "maroon_tiles", "navy_tiles"])
def test_dark_tiles_are_measured_by_their_colour_not_their_letters(style: str) -> None:
    """On a dark tile the light letter is the brightest thing in the square: the tile's colour is the rest
    (before, it was measured from the letter, matched the empty squares, and most tiles were never searched
    for a light letter). On a render in each dark style every tile measures darker than the empty squares,
    and the occupancy pass finds the light letter of at least nine tiles in ten (the reader looks again on
    the rest of the squares it judges to hold a tile)."""
    case = render(style, TEST_SEED_FROM + 21)
    look = measure(warp_board(case.image, case.corners))
    lightness = look.features[:, FEATURES.index("lightness")].reshape(15, 15)
    tiles = [(r, c) for r in range(15) for c in range(15) if case.grid[r][c] != "."]
    assert all(lightness[r, c] < -1.0 for r, c in tiles), [(r, c, lightness[r, c]) for r, c in tiles]
    found = [(r, c) for r, c in tiles if (g := look.glyphs[r][c]) is not None and g.inverted]
    assert len(found) >= 0.9 * len(tiles), sorted(set(tiles) - set(found))


def _letter_glyphs(case_or_photo: tuple[list[str], object, object]) -> list[tuple[str, Glyph, Glyph]]:
    """(label, glyph the measurement found, glyph the letter network reads) for every lettered tile."""
    grid, image, corners = case_or_photo
    warped = warp_board(image, corners)  # type: ignore[arg-type]
    gray, look = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY), measure(warped)
    out = []
    for r in range(15):
        for c in range(15):
            if not grid[r][c].isupper():
                continue
            window = cell_window(gray, r, c, 1.5)
            # as the reader looks on a square judged to hold a tile (vision.read)
            if (g := look.glyphs[r][c] or find_glyph(window, light_letters=True)) is not None:
                out.append((grid[r][c], g, tile_letter(window, g)))
    return out


@pytest.mark.parametrize(("style", "light"), [("black_tiles", True), ("maroon_tiles", True), ("navy_tiles", True),
                                              ("coloured_plastic", False), ("green_board", False)])
def test_the_letter_is_read_not_a_piece_of_the_tile(style: str, light: bool) -> None:
    """The glyph search may take a piece of the tile for its letter: on a dark tile the tile around a light
    letter or the letter's counter (a light O found as a filled oval), on a tile darker than the board its
    frame or shadow (an L-shaped edge read as E). `tile_letter` finds the letter instead. On four renders of
    each style, every glyph handed to the network is letter-sized (labelled letters: 0.28-0.78 of a square),
    in the print's polarity, and the shipped network reads each tile's label."""
    glyphs = []
    for k in range(4):
        case = render(style, TEST_SEED_FROM + k)
        glyphs += _letter_glyphs((case.grid, case.image, case.corners))
    assert any(found is not read for _, found, read in glyphs)  # pieces of tiles were found and replaced
    for label, _found, read in glyphs:
        assert 0.28 <= read.height <= 0.78 and read.width <= 0.78 and read.inverted == light, (label, read)
    net = MlpRecogniser.load()
    crops = [TileCrop(np.zeros((72, 72), np.uint8), g) for _, _, g in glyphs]
    images = np.array([g.image for _, _, g in glyphs], np.float32)
    p = net.letters_only(net.net.predict_proba(glyph_features(images)) * net.mask)
    got = [net.net.classes[k] for k in p.argmax(axis=1)]
    assert sum(g == label for g, (label, _, _) in zip(got, glyphs, strict=True)) >= 0.98 * len(crops)


def test_a_light_tile_taken_for_a_dark_one_gives_its_dark_letter() -> None:
    """b3nkang's yellow Q10 tiles sit on dark grid lines, which the Q's shadow joins into one blob too big
    for a letter: no dark letter is found, and the reader's look for a light one took the light tile between
    the Q's strokes (read as O). The tile's print is dark, so the Q itself is looked for, with firmer ink
    cut-offs that part it from the grid lines."""
    shared_path("boards", "b3nkang_stream", "19-5.json")
    photo = next(p for p in labelled_photos("b3nkang_stream") if p.stem == "19-5")
    glyphs = [(label, found, read) for label, found, read in
              _letter_glyphs((photo.grid, cv2.imread(str(photo.image)), photo.corners)) if label == "Q"]
    assert glyphs and all(found.inverted and not read.inverted for _, found, read in glyphs)
    assert all(0.4 <= read.height <= 0.6 for _, _, read in glyphs)
