"""The thirteenth blind style of issue 27, rose_roman_dim (dusty rose tiles printed in dark brown in URW Nimbus Roman
Bold on a classic board, in the dim warm light of an evening lamp), read by the shipped models, which never saw it.
Read once blind with held-out models (rules of cce976b): letters 91/92 (render 501's E on K10 read F at 0.95 with
Tesseract reading E, asked), occupancy 900/900, blanks 1/3, no square wrong at >= 0.98 (745 sure), no render
doubtful. These renders (the blind read's four) hold the shipped models to it: every board found and not doubtful,
every square's occupancy right, sure means right, and at most one letter per render misread, never sure. Renders
only: they run in any clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "rose_roman_dim"


def test_the_thirteenth_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    style = STYLES[STYLE]
    # the dimmest scene of every style (each channel at most 0.7), and pink tiles: red well above green and blue
    assert style.light is not None and max(style.light) <= 0.7
    assert all(s.light is None or max(s.light) > 0.7 for name, s in STYLES.items() if name != STYLE)
    b, g, r = style.tile
    assert r > g + 30 and r > b + 30 and abs(g - b) < 20
    assert "NimbusRoman-Bold" in style.font and sum(style.letter) < sum(style.tile)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_roman_print_on_rose_tiles_in_dim_lamplight_is_read_and_sure_means_right(k: int) -> None:
    assert_read_as_promised(*read_render(STYLE, k), misread_at_most=1)
