"""Which side is down on dark tiles printed light in a face no model learned (issue 27, the side of boards whose
letters are square): the turn is voted on the tiles' letters as the letter network reads them (`vision.stages.
letter_crops`), not on the square's first mark, which on such a tile is often the tile itself. Renders of the
fourth blind style, plum_slab (cream slab print on plum tiles), read by the shipped models: they run in any clone.
The models shipped before issue 27's last retraining never saw plum_slab; the retrained ones train on its renders
0-11 (these read 500 and up), so the figures in the comments are those of the older models."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules.tiles import load_tileset
from vision.decode import decode_photo
from vision.labelled import sure_and_wrong
from vision.orientation import numbers_lean, turned_points
from vision.read import read_board
from vision.stages import Models, _letter_scores, letter_crops, place_grid, see_squares
from vision.synth import render

ORIENTATION = "which side of the board is at the bottom of the photo is unclear"
SURE = 0.98


@pytest.mark.parametrize("seed", [501, 503, 506])
def test_plum_slab_photographed_from_another_side_is_read_the_right_side_up(seed: int) -> None:
    # Main (c85ab7a), shipped models: these three renders are photographed a quarter or half turn round and were
    # read as photographed, asked, 0 of 28, 1 of 46 and 1 of 28 letters right: the letters' network read every
    # turn about alike, the shape said no axis and 2-4 numbers were found. Voted on the letters as read, the
    # network reads the right turn 0.1-0.15 ahead of any other.
    case = render("plum_slab", seed, varied=True)  # as the benchmarks render their test boards
    reading = read_board(case.image, second_opinion=False)
    want = np.array(case.corners, np.float64)
    got = np.array(reading.corners, np.float64)
    assert int(np.argmin(np.linalg.norm(want - got[0], axis=1))) == 0, reading.doubts
    letters = [(a, b) for want_row, row in zip(case.grid, reading.grid) for a, b in zip(want_row, row) if a.isupper()]
    assert sum(a == b for a, b in letters) >= 0.85 * len(letters), (case.grid, reading.grid)
    sure_wrong = sure_and_wrong(case.grid, reading.grid, reading.confidence, SURE)
    assert not sure_wrong


@pytest.mark.parametrize("k", [1, 2])
def test_plum_slab_turned_is_never_read_the_wrong_side_up_and_sure(k: int) -> None:
    # Main (c85ab7a), shipped models: render 506 turned a quarter or a half turn more was read a wrong side up
    # WITHOUT a doubt, 18 squares wrong at >= 0.98 each time (0 of 28 letters right). Now the right side up.
    case = render("plum_slab", 506, varied=True)
    turned = np.ascontiguousarray(np.rot90(case.image, k))
    reading = read_board(turned, second_opinion=False)
    want = turned_points(np.array(case.corners, np.float64), case.image.shape[1], case.image.shape[0], k)
    got = np.array(reading.corners, np.float64)
    assert int(np.argmin(np.linalg.norm(want - got[0], axis=1))) == 0, reading.doubts
    assert not sure_and_wrong(case.grid, reading.grid, reading.confidence, SURE)


def test_the_side_is_voted_on_the_light_letters_not_on_pieces_of_the_dark_tiles() -> None:
    # plum_slab 501 is photographed a quarter turn round (one counter-clockwise quarter turn reads it upright).
    # The square's first mark is, on most tiles, a piece of the dark tile around the light letter (not inverted,
    # 0.56-0.77 of a square high): read turned, those pieces put a wrong turn first (shipped models: 0.919 for
    # three quarter turns against 0.829 for the right one). The letters as the network reads them are the light
    # print (inverted), and read the right turn 0.11 ahead of any other.
    case = render("plum_slab", 501, varied=True)
    ok, buf = cv2.imencode(".png", case.image)
    assert ok
    tileset = load_tileset("en")
    models = Models.of(tileset)
    seen = see_squares(place_grid(decode_photo(buf.tobytes()), None), tileset, models)
    marks = [c for c in seen.crops if c.glyph is not None]
    letters = letter_crops(seen)
    assert len(letters) == len(marks) >= 20
    assert sum(not c.glyph.inverted for c in marks) >= len(marks) // 2  # type: ignore[union-attr]
    assert sum(c.glyph.inverted for c in letters) >= 0.9 * len(letters)  # type: ignore[union-attr]
    by_marks = _letter_scores(models.letters, marks)
    by_letters = _letter_scores(models.letters, letters)
    assert by_marks is not None and by_letters is not None
    # The letters vote the right turn first, clearly, and more clearly than the marks: the models that never saw
    # plum_slab put a wrong turn first by the marks (0.09 behind), the retrained ones the right turn by 0.05 (by the
    # letters 0.13 ahead). That the marks' vote is wrong was one model's number; that it is the weaker is the rule.
    def lead(scores: list[float]) -> float:
        return scores[1] - max(v for k, v in enumerate(scores) if k != 1)

    assert int(np.argmax(by_letters)) == 1
    assert lead(by_letters) >= 0.1
    assert lead(by_letters) > lead(by_marks)


def test_a_clear_quarter_look_confirms_the_numbers_of_an_unclear_first_look() -> None:
    # plum_slab 504 turned 90 degrees (shipped models): the first look's letters read as photographed best (0.894
    # against 0.866 for the right turn), 2 numbers stand for the right turn and none for another: unclear. Looked
    # at a quarter turn round, 3 numbers and the letters say the same turn clearly. Main read it the right side
    # up but asked about its side; the two looks agreeing, it is not asked now.
    case = render("plum_slab", 504, varied=True)
    turned = np.ascontiguousarray(np.rot90(case.image, 1))
    reading = read_board(turned, second_opinion=False)
    want = turned_points(np.array(case.corners, np.float64), case.image.shape[1], case.image.shape[0], 1)
    got = np.array(reading.corners, np.float64)
    assert int(np.argmin(np.linalg.norm(want - got[0], axis=1))) == 0, reading.doubts
    assert not any(ORIENTATION in d for d in reading.doubts), reading.doubts


def test_numbers_lean_needs_two_numbers_and_no_tie() -> None:
    assert numbers_lean(np.array([0, 0, 0, 2])) == 3
    assert numbers_lean(np.array([1, 0, 0, 3])) == 3
    assert numbers_lean(np.array([0, 1, 0, 0])) is None  # one number is a speck's word
    assert numbers_lean(np.array([2, 0, 2, 0])) is None  # a tie says nothing
