"""The seventh blind style of issue 27, ivory_burgundy (ivory tiles printed in a near-black geometric sans, URW
Gothic Demi, on a dark burgundy board with gold lines, so the empty squares are darker than the tiles; a little
glare, cold daylight), read by the shipped models, which were trained before its blind read and never saw it.
Read once blind with held-out models (rules of 880c28d): letters 122/122, occupancy 900/900, blanks 3/3, no
square wrong at >= 0.98. These renders (the blind read's four, and one more) hold the reader to that: every
board found and not doubtful, every square's occupancy right, every letter right, sure means right. Renders only:
they run in any clone."""

from __future__ import annotations

from functools import cache

import cv2
import pytest

from vision.labelled import read_right, sure_and_wrong
from vision.read import BoardReading, read_board
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES, render
from vision.train import TEST_SEED_FROM

SURE = 0.98
STYLE = "ivory_burgundy"


@cache
def _read(k: int) -> tuple[list[str], BoardReading]:
    case = render(STYLE, TEST_SEED_FROM + k, varied=k < 4)  # the blind read's renders, as vision_styles.py makes them
    ok, buf = cv2.imencode(".png", case.image)
    assert ok
    return case.grid, read_board(buf.tobytes(), tiles="en", second_opinion=k < 4)


def test_the_seventh_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    # the empty squares darker than the tiles: no other style's board is
    plain, tile = STYLES[STYLE].plain, STYLES[STYLE].tile
    assert sum(plain) < sum(tile) / 2
    assert all(sum(s.plain) > sum(STYLES[STYLE].plain) for name, s in STYLES.items() if name != STYLE)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 20])
def test_ivory_tiles_on_a_dark_burgundy_board_are_read_whole_and_sure_means_right(k: int) -> None:
    truth, reading = _read(k)
    assert not reading.doubtful, reading.warnings
    assert not sure_and_wrong(truth, reading.grid, reading.confidence, SURE)
    assert all((truth[r][c] != ".") == (reading.grid[r][c] != ".") for r in range(15) for c in range(15))
    wrong = [(r, c, truth[r][c], reading.grid[r][c]) for r in range(15) for c in range(15)
             if truth[r][c].isupper() and not read_right(truth[r][c], reading.grid[r][c])]
    assert not wrong, wrong
