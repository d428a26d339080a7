"""The twelfth blind style of issue 27, orange_gothic_fluorescent (orange plastic tiles of a middle tone printed in
white in URW Gothic Book, a light geometric sans, on a pale grey board with white lines, a little glare, under the
green cast of fluorescent tubes), read by the shipped models, which never saw it. Read once blind with held-out
models (rules of af7f6c3, the look inside a tile's shadow of d48b100 included): letters 99/99, occupancy 900/900,
blanks 2/2, no square wrong at >= 0.98 (743 sure), no render doubtful. These renders (the blind read's four) hold the
shipped models (trained before this style and before d48b100) to it: every board found and not doubtful, sure means
right, at most one square's occupancy wrong and one letter misread on a render (502's I on G7 read empty below
sure), never sure. Renders only: they run in any clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "orange_gothic_fluorescent"


def test_the_twelfth_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    style = STYLES[STYLE]
    # the only style under a green cast (its green gain the largest), and its tiles orange: red well above green
    # and blue, of a middle tone (neither a dark tile nor a light one)
    assert style.light is not None and style.light[1] > max(style.light[0], style.light[2])
    assert all(s.light is None or s.light[1] <= max(s.light[0], s.light[2])
               for name, s in STYLES.items() if name != STYLE)
    b, g, r = style.tile
    assert r > g + 60 > b + 60 and 90 < 0.114 * b + 0.587 * g + 0.299 * r < 170
    assert "URWGothic-Book" in style.font and sum(style.letter) > sum(style.tile)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_thin_white_print_on_orange_tiles_under_fluorescent_light_is_read_and_sure_means_right(k: int) -> None:
    assert_read_as_promised(*read_render(STYLE, k), missed_at_most=1, misread_at_most=1)
