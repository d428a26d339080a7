"""The renders a blind style of issue 27 was read on, read again by the shipped models: one cached reading per
(style, render), shared by the blind styles' test files (`test_vision_<style>27.py`). `k` counts from
`vision.train.TEST_SEED_FROM`; renders 0-3 are made as `benchmarks/vision_styles.py` makes its test boards
(varied: blanks, light, angle, turn drawn per render) and read with Tesseract as a witness."""

from __future__ import annotations

from functools import cache

import cv2

from vision.confidence import SURE
from vision.labelled import read_right, sure_and_wrong
from vision.read import BoardReading, read_board
from vision.synth import render
from vision.train import TEST_SEED_FROM


@cache
def read_render(style: str, k: int, varied: bool = True, second_opinion: bool = True) -> tuple[list[str], BoardReading]:
    """The render's labels and the shipped models' reading of it, decoded from a PNG as a photo would be."""
    case = render(style, TEST_SEED_FROM + k, varied=varied)
    ok, buf = cv2.imencode(".png", case.image)
    assert ok
    return case.grid, read_board(buf.tobytes(), tiles="en", second_opinion=second_opinion)


def misread_letters(truth: list[str], reading: BoardReading) -> list[tuple[int, int, str, str]]:
    """The lettered squares (upper case in the labels) whose letter was read wrong: (row, column, truth, read)."""
    return [(r, c, truth[r][c], reading.grid[r][c]) for r in range(15) for c in range(15)
            if truth[r][c].isupper() and not read_right(truth[r][c], reading.grid[r][c])]


def assert_read_as_promised(truth: list[str], reading: BoardReading, missed_at_most: int = 0,
                            misread_at_most: int | None = 0) -> None:
    """What a blind style's test file holds its renders to: the board found and not doubtful, no square wrong and
    sure, at most `missed_at_most` squares whose occupancy is wrong and `misread_at_most` letters misread (None: not
    counted here), none of them sure."""
    assert not reading.doubtful, reading.warnings
    assert not sure_and_wrong(truth, reading.grid, reading.confidence, SURE)
    missed = [(r, c) for r in range(15) for c in range(15) if (truth[r][c] != ".") != (reading.grid[r][c] != ".")]
    assert len(missed) <= missed_at_most and all(reading.confidence[r][c] < SURE for r, c in missed), missed
    if misread_at_most is not None:
        wrong = misread_letters(truth, reading)
        assert len(wrong) <= misread_at_most and all(reading.confidence[r][c] < SURE for r, c, _, _ in wrong), wrong
