"""The fourteenth blind style of issue 27, chalk_bookman_fold (chalk-white tiles printed in a faded charcoal URW
Bookman Light, on a taupe board darker than the tiles that folds in the middle, glare on its premium squares, cool
daylight), read by the shipped models, which never saw it. Read once blind with held-out models (rules of 0896c16),
8 renders: letters 226/228 (two L's beside the fold read I at 0.90 and 0.94, asked), occupancy 1800/1800, blanks
2/3, no square wrong at >= 0.98 (1425 sure), no render doubtful. Four of those renders hold the shipped models to
it: every board found and not doubtful, every square's occupancy right, sure means right, and at most one letter
per render misread, never sure. Renders only: they run in any clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "chalk_bookman_fold"


def test_the_fourteenth_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    style = STYLES[STYLE]
    # white tiles on a board darker than them, printed in grey (neither black nor the tile's colour), folding
    assert min(style.tile) >= 230 and sum(style.plain) < sum(style.tile) - 200
    assert 60 <= min(style.letter) and max(style.letter) <= 90
    assert style.fold and style.glare_spots > 0 and "URWBookman-Light" in style.font


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_light_grey_book_print_on_white_tiles_on_a_folding_taupe_board_is_read_and_sure_means_right(k: int) -> None:
    assert_read_as_promised(*read_render(STYLE, k), misread_at_most=1)
