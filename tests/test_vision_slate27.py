"""The ninth blind style of issue 27, slate_fold (slate tiles of a middle grey printed white in URW P052 Bold, on a
dark green board that folds in the middle, under cold daylight). Read once blind with held-out models (rules of
d649ea7): letters 123/123, occupancy 899/900 (502's blank on H8 read empty at 0.68, asked), blanks 1/2, no square
wrong at >= 0.98 (707 sure). These renders (the blind read's four) hold the shipped models, which never saw the
style, to it: every board found and not doubtful, sure means right, every letter read, and a square whose occupancy
is wrong never sure. Renders only: they run in any clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "slate_fold"


def test_the_ninth_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    style = STYLES[STYLE]
    # tiles of a middle grey, neither a dark style's nor a light one's, printed lighter; a board that folds
    assert 80 <= sum(style.tile) / 3 <= 140 and min(style.letter) > 200 and style.fold


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_mid_grey_tiles_on_a_folding_board_are_read_and_sure_means_right(k: int) -> None:
    assert_read_as_promised(*read_render(STYLE, k), missed_at_most=1)
