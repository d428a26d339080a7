"""The eighth blind style of issue 27, sand_bookman_steep (sand-coloured tiles printed in a dark green URW Bookman
Demi on a board whose plain squares are nearly the tiles' colour, a little grain, photographed from a seat under a
warm lamp). Read once blind with held-out models (rules of 954d152): letters 83/84 (an A read G at 0.81, asked),
occupancy 900/900, blanks 1/1, no square wrong at >= 0.98 (720 sure). These renders (the blind read's four) hold
the shipped models to it: every board found and not doubtful, every square's occupancy right, sure means right,
and at most one letter per render misread, never sure. Renders only: they run in any clone."""

from __future__ import annotations

import pytest

from tests.blind_renders import assert_read_as_promised, read_render
from vision.synth import READ_BLIND_STYLES, STYLES, TRAINED_STYLES

STYLE = "sand_bookman_steep"


def test_the_eighth_blind_style_is_read_and_now_trains() -> None:
    assert STYLE in READ_BLIND_STYLES and STYLE in TRAINED_STYLES
    # tiles nearly the colour of the board's plain squares: no other style's are this close
    gap = sum(abs(a - b) for a, b in zip(STYLES[STYLE].tile, STYLES[STYLE].plain, strict=True))
    assert all(sum(abs(a - b) for a, b in zip(s.tile, s.plain, strict=True)) > gap
               for name, s in STYLES.items() if name != STYLE)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_sand_tiles_on_a_board_of_their_colour_are_found_and_sure_means_right(k: int) -> None:
    assert_read_as_promised(*read_render(STYLE, k), misread_at_most=1)


def test_a_tile_whose_shadowed_side_was_taken_for_its_letter_is_read_where_the_letters_sit() -> None:
    """Render 502 D6, seen from a seat: the glyph finder took the tile's shadowed lower and right sides (a mark 0.52
    x 0.69 of a square, 0.22 below where the letters of the tiles around sit) for the A's mark, and the network read
    it G at 0.78. A mark away from where the letters around sit is looked past, and the letter looked for where they
    sit (`vision.stages._read_squares`, `displaced`): the A, its number 1 and its nearest stored example agreeing.
    Since d48b100 the letter network is given the letter inside that frame-sized mark (`vision.recognise.tile_letter`)
    and reads the A plainly on the first look, which is then kept; the number finder still measures from the mark
    (the shadow) and finds no number, so Tesseract is the witness from the photo (A at 0.95, asked)."""
    truth, reading = read_render(STYLE, 2)
    assert truth[5][3] == "A"
    assert reading.grid[5][3] == "A", (reading.grid[5][3], reading.confidence[5][3], reading.evidence[5][3])
    assert {"number", "tesseract"} & set(reading.evidence[5][3].split(",")), reading.evidence[5][3]
