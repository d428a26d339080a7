"""The fifteenth blind style of issue 27, graphite_narrow_steep (graphite tiles printed in cream in Liberation Sans
Narrow drawn at 0.85 of its width, on a classic board with glare on its premium squares, photographed from a seat
under a warm lamp), read by the shipped models, which never saw it. Read once blind with held-out models (rules of
99b94b2), 8 renders: letters 180/180, occupancy 1800/1800, blanks 4/7 (the three missed printed in lower case, read
as capitals below sure), no square wrong at >= 0.98 (1568 sure), no render doubtful. Four of those renders hold the
shipped models to it: every board found and not doubtful, every square's occupancy right, sure means right, and
every letter read right. Renders only: they run in any clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "graphite_narrow_steep"


def test_the_fifteenth_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    style = STYLES[STYLE]
    # dark blue-grey tiles printed light, in a narrow face drawn narrower still, seen from a seat, with glare
    assert max(style.tile) <= 80 and min(style.letter) >= 200
    assert style.squeeze < 1.0 and "SansNarrow-Regular" in style.font
    assert style.steep and style.glare_spots > 0


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_thin_light_narrow_print_on_graphite_tiles_seen_from_a_seat_is_read_and_sure_means_right(k: int) -> None:
    assert_read_as_promised(*read_render(STYLE, k), misread_at_most=0)
