"""The eleventh blind style of issue 27, kraft_narrow_warm (kraft-brown card tiles printed near-black in URW Nimbus
Sans Narrow Bold, on a cream board, a little grain and glare, under a warm lamp), read by the shipped models, which
never saw it. Read once blind with held-out models (rules of 3b5069c): letters 118/120 (render 503's N read G at
0.59 and O read L at 0.55: each tile's glyph was taken with its shadowed sides; asked), occupancy 900/900, blanks
0/2 (printed in lower case, read as their capitals below sure), no square wrong at >= 0.98 (733 sure). These renders
(the blind read's four) hold the shipped models to it: every board found and not doubtful, every square's occupancy
right, sure means right, and at most two letters per render misread, never sure. Renders only: they run in any
clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "kraft_narrow_warm"


def test_the_eleventh_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    style = STYLES[STYLE]
    # of the styles printed darker than their tiles, the darkest tiles: the print closest to its tile
    printed_dark = [s for name, s in STYLES.items() if sum(s.letter) < sum(s.tile) and name != STYLE]
    assert sum(style.letter) < sum(style.tile) and all(sum(s.tile) > sum(style.tile) for s in printed_dark)
    assert "Narrow-Bold" in style.font


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_kraft_tiles_under_a_warm_lamp_are_read_and_sure_means_right(k: int) -> None:
    assert_read_as_promised(*read_render(STYLE, k), misread_at_most=2)
