"""Which side is down on boards the reader never saw (issue 27): condensed print photographed a quarter turn
round. Sideways, condensed letters read as plausible wide letters and are partly missed by the glyph finder,
so the letters' network alone can pick the wrong turn; the point numbers and the letters' shape (taller than
wide) say the axis and which end is up (`vision/orientation.py`). Renders run in any clone; the real photo
skips without `../shared`."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import shared_path
from vision.decode import decode_image
from vision.labelled import labelled_photos
from vision.orientation import turned_points, upright_turn
from vision.read import read_board
from vision.synth import render
from vision.train import TEST_SEED_FROM

ORIENTATION = "which side of the board is at the bottom of the photo is unclear"


def _read_turned(image: np.ndarray, corners: list[list[float]], k: int) -> tuple[bool, list[str], list[str]]:
    """Read the image turned k quarter turns counter-clockwise: whether the reading names the labelled
    top-left corner first (the right side up), its grid and its doubts."""
    turned = np.ascontiguousarray(np.rot90(image, k))
    want = turned_points(np.array(corners, np.float64), image.shape[1], image.shape[0], k)
    reading = read_board(turned, second_opinion=False)
    got = np.array(reading.corners, np.float64)
    right = int(np.argmin(np.linalg.norm(want - got[0], axis=1))) == 0
    return right, reading.grid, reading.doubts


@pytest.mark.parametrize(("seed", "k"), [(TEST_SEED_FROM + 4, 1), (TEST_SEED_FROM + 4, 3), (TEST_SEED_FROM + 2, 3)])
def test_black_condensed_render_turned_a_quarter_is_read_at_the_right_turn(seed: int, k: int) -> None:
    # On main (shipped models): seed 504 turned 90 or 270 showed 3 of its 13 tiles, too few to vote, and was
    # read as photographed without a doubt (0 of 13 letters right); seed 502 turned 270 was read upright
    # (0 of 10), asked. The quarter-turned look and the numbers on the shape's axis read them right.
    case = render("black_condensed", seed, varied=True)  # as the benchmark renders its test boards
    right, grid, doubts = _read_turned(case.image, case.corners, k)
    assert right, doubts
    assert not any(ORIENTATION in d for d in doubts), doubts
    letters = [(a, b) for want, row in zip(case.grid, grid) for a, b in zip(want, row) if a.isupper()]
    assert sum(a == b for a, b in letters) >= len(letters) - 1, (case.grid, grid)


def test_numbers_on_the_shapes_axis_say_which_end_is_up() -> None:
    # Held-out readings (models trained without black condensed and thin tall), measured in this round:
    # black condensed 500 as rendered: the letters read the half turn 0.074 better, 4 numbers all for the
    # right turn, the letters lying on their side (shape -0.10). Main took the letters' turn (asked): every
    # tile on another square. Now the numbers' turn, still asked (the letters stand against it).
    assert upright_turn([0.765, 0.847, 0.787, 0.921], np.array([0, 4, 0, 0]), -0.10) == (1, True)
    # thin tall 500 turned 270: the letters read turns 1 and 3 alike (0.999, 0.997) and as photographed
    # 0.948 (a gain short of UPRIGHT_MARGIN): main read it as photographed, asked; two numbers for turn 1
    # on the shape's axis (-0.50) settle it, and the letters agree.
    assert upright_turn([0.948, 0.999, 0.818, 0.997], np.array([0, 2, 0, 0]), -0.50) == (1, False)
    # The shape alone decides nothing: umich boards with words on their premium squares read +0.71 lying on
    # their side; with no numbers the letters decide as before.
    assert upright_turn([0.815, 0.92, 0.766, 1.0], np.array([0, 0, 0, 0]), 0.71) == upright_turn(
        [0.815, 0.92, 0.766, 1.0], np.array([0, 0, 0, 0]))
    # Numbers on the other axis than the shape's, or one for the half turn: not this rule.
    assert upright_turn([0.9, 0.8, 0.85, 0.8], np.array([0, 3, 0, 0]), 0.2) == upright_turn(
        [0.9, 0.8, 0.85, 0.8], np.array([0, 3, 0, 0]))


def test_the_letters_alone_never_make_the_side_sure() -> None:
    # Navy condensed renders (print no model has learned) photographed a quarter turn round, shipped models,
    # their point numbers unfound. 502: letters 0.875 at best, as photographed; numbers 1 and 1; the shape
    # level. The letters-alone rule took that turn, sure: 19 squares wrong at >= 0.98.
    assert upright_turn([0.875, 0.765, 0.825, 0.849], np.array([0, 0, 1, 1]), 0.0) == (0, True)
    # 505: the letters read the wrong turn well (0.961), one number: 14 squares wrong at >= 0.98 before.
    assert upright_turn([0.961, 0.913, 0.945, 0.809], np.array([0, 0, 0, 1]), 0.0) == (0, True)
    # 500: two stray numbers on the axis the shape (0.055) says, letters 0.875 at best: 17 before.
    assert upright_turn([0.835, 0.875, 0.824, 0.796], np.array([2, 0, 0, 1]), 0.055) == (0, True)
    # Two numbers for a turn and letters that read it well and ahead: sure, as before.
    assert upright_turn([0.975, 0.865, 0.925, 0.949], np.array([2, 0, 0, 0]), 0.0) == (0, False)


@pytest.mark.parametrize(("style", "seed", "k"), [("navy_condensed", 502, 1), ("navy_condensed", 505, 3),
                                                   ("crossword_yellow", 502, 1), ("crossword_yellow", 502, 3)])
def test_a_board_of_print_never_trained_on_turned_a_quarter_is_never_sure_and_wrong(style: str, seed: int,
                                                                                  k: int) -> None:
    # Blind styles (read once in the second blind round) rendered and turned a quarter, shipped models.
    # navy condensed 502: the doubt above sends it to the look a quarter turn round, which reads it right
    # (before: 19 squares wrong at >= 0.98, no doubt). crossword yellow 502: its first look finds 1 letter of
    # 29 (tall thin print lying on its side is not taken for tiles), the quarter look 29, 21 of them on plain
    # squares, its side unclear: that look is kept, asked (before: the first look, 16 squares wrong at >= 0.98).
    from vision.confidence import SURE

    case = render(style, seed)
    reading = read_board(np.ascontiguousarray(np.rot90(case.image, k)), tiles="en", second_opinion=False)
    wrong_sure = [(r, c, case.grid[r][c], reading.grid[r][c]) for r in range(15) for c in range(15)
                  if reading.grid[r][c] != case.grid[r][c] and reading.confidence[r][c] >= SURE]
    assert not wrong_sure, wrong_sure


def test_a_real_board_photographed_from_each_side_is_read_right_side_up() -> None:
    shared_path("boards", "declanfinerty", "board_001.json")  # skips with the reason when the shared data is absent
    photo = next(p for p in labelled_photos("declanfinerty") if p.stem == "board_001")
    image = decode_image(photo.image.read_bytes())
    for k in range(4):
        right, _grid, doubts = _read_turned(image, photo.corners, k)
        assert right and not any(ORIENTATION in d for d in doubts), (k, doubts)
