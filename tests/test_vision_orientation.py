"""Which side of the board is at the bottom of the photo: the reader turns the reading so the letters
stand upright, and when the letters do not say it clearly the reading is doubtful (issue 15: nothing is
confidently wrong). A board read a quarter turn wrong puts every tile on another square, so a wrong side
taken with confidence is the worst reading there is (jheidel 170032, blurred, was read so: 71 squares
wrong, 36 of them sure, before the orientation vote could make a reading doubtful)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from tests.conftest import shared_path
from vision.confidence import SURE
from vision.labelled import labelled_photos
from vision.read import read_board

ORIENTATION = "which side of the board is at the bottom of the photo is unclear"


def _photo(set_name: str, stem: str):  # type: ignore[no-untyped-def]
    shared_path("boards", set_name, f"{stem}.json")  # skips with the reason when the shared data is absent
    return next(p for p in labelled_photos(set_name) if p.stem == stem)


def _occupied(grid: list[str]) -> npt.NDArray[np.bool_]:
    return np.array([[ch != "." for ch in row] for row in grid])


def _agreement(grid: list[str], truth: list[str]) -> float:
    return sum(a == b for row, want in zip(grid, truth) for a, b in zip(row, want)) / 225


@pytest.mark.parametrize("stem", ["IMG_20151016_170032", "IMG_20151016_165412"])
def test_a_board_whose_letters_do_not_say_which_side_is_down_is_read_right_or_doubtful(stem: str) -> None:
    photo = _photo("jheidel", stem)
    reading = read_board(photo.image.read_bytes(), second_opinion=False)
    if _agreement(reading.grid, photo.grid) < 0.95:
        assert reading.doubtful and any(ORIENTATION in d for d in reading.doubts), reading.doubts
    wrong_and_sure = [(r, c) for r in range(15) for c in range(15)
                      if reading.grid[r][c] != photo.grid[r][c] and reading.confidence[r][c] >= SURE]
    assert not wrong_and_sure


@pytest.mark.parametrize(("set_name", "stem"), [("cava_ro", "2_18"), ("jheidel", "IMG_20151016_170803"),
                                                ("jheidel", "IMG_20151016_170219")])
def test_a_board_with_upright_or_turned_letters_is_not_doubted_for_its_orientation(set_name: str,
                                                                                   stem: str) -> None:
    # 170219 was photographed with the board turned a quarter: the reading turns it back, surely.
    photo = _photo(set_name, stem)
    reading = read_board(photo.image.read_bytes(), second_opinion=False)
    assert not any(ORIENTATION in d for d in reading.doubts)
    # Read the right way round: tiles or not, the reading matches the label far better than any turn of it.
    here = _occupied(reading.grid)
    agree = [float((np.rot90(here, k) == _occupied(photo.grid)).mean()) for k in range(4)]
    assert agree[0] >= 0.95 and agree[0] - max(agree[1:]) >= 0.1, agree


def test_a_board_with_too_few_letters_to_vote_is_not_doubted_for_its_orientation() -> None:
    # cava_ro's empty board: no letter to vote with, so nothing is said about which side is down.
    photo = _photo("cava_ro", "template_1")
    reading = read_board(photo.image.read_bytes(), second_opinion=False)
    assert not any(ORIENTATION in d for d in reading.doubts)
