"""The seventh blind style of issue 27, ivory_burgundy (ivory tiles printed in a near-black geometric sans, URW
Gothic Demi, on a dark burgundy board with gold lines, so the empty squares are darker than the tiles; a little
glare, cold daylight), read by the shipped models, which were trained before its blind read and never saw it.
Read once blind with held-out models (rules of 880c28d): letters 122/122, occupancy 900/900, blanks 3/3, no
square wrong at >= 0.98. These renders (the blind read's four, and one more) hold the reader to that: every
board found and not doubtful, every square's occupancy right, every letter right, sure means right. Renders only:
they run in any clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "ivory_burgundy"


def test_the_seventh_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    # the empty squares darker than the tiles: no other style's board is
    plain, tile = STYLES[STYLE].plain, STYLES[STYLE].tile
    assert sum(plain) < sum(tile) / 2
    assert all(sum(s.plain) > sum(STYLES[STYLE].plain) for name, s in STYLES.items() if name != STYLE)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 20])
def test_ivory_tiles_on_a_dark_burgundy_board_are_read_whole_and_sure_means_right(k: int) -> None:
    # the blind read's renders, as vision_styles.py makes them, and one more (plain, no witness)
    assert_read_as_promised(*read_render(STYLE, k, varied=k < 4, second_opinion=k < 4))
