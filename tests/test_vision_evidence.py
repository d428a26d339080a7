"""Sure means right: a letter is sure only when evidence besides the letter network agrees (`vision.evidence`):
the tile's point number read by `vision.points` must be the letter's value in the tile set, and the stored
training example nearest the glyph must not be of another letter (`vision.confidence.vouched`)."""

from __future__ import annotations

import numpy as np

from companion.rules.tiles import TileSet, load_tileset
from tests.rendered_tiles import lettered_tiles
from vision.confidence import SURE, vouched
from vision.evidence import letter_evidence
from vision.points import PointReader, number_patch
from vision.read import read_board
from vision.synth import render
from vision.train import TEST_SEED_FROM


def test_the_point_number_is_found_and_read_as_the_letters_value() -> None:
    """On renders no model saw (cream tiles with blue or red letters), the number is cut out of most tiles
    and read as the letter's English value; a clear reading of another value is rare."""
    en = load_tileset("en")
    reader = PointReader.load()
    for style in ("cream_blue_letters", "cream_red_letters"):
        letters, crops = lettered_tiles(style, TEST_SEED_FROM + 30)
        assert sum(number_patch(c) is not None for c in crops) >= 0.8 * len(crops), style
        values = reader.values(crops, set(en.values.values()))
        agree = sum(1 for ch, q in zip(letters, values, strict=True) if q and q[en.values[ch]] >= 0.5)
        against = sum(1 for ch, q in zip(letters, values, strict=True)
                      if q and q[en.values[ch]] < 0.05 and max(q.values()) >= 0.9)
        assert agree >= 0.6 * len(letters) and against <= 0.15 * len(letters), (style, agree, against, len(letters))


def test_evidence_tags_and_what_makes_a_letter_sure() -> None:
    values = {"O": 1, "M": 3, "N": 1}
    ev = letter_evidence(["O", "O", "N", "M"],
                         [{1: 0.97, 3: 0.03}, {1: 0.01, 3: 0.99}, None, {1: 0.4, 3: 0.6}],
                         ["O", "O", "A", "M"], values)
    assert [e.tags for e in ev] == ["number,shape", "!number,shape", "!shape", "number,shape"]
    assert vouched("number,shape") and vouched("number")
    assert not vouched("!number,shape") and not vouched("number,!shape") and not vouched("shape") and not vouched("")


def test_numbers_that_disagree_with_the_tile_set_leave_no_letter_sure() -> None:
    """The same render read with the English tile set and with a set whose values are all different (a wrong
    tile set chosen, or tiles of another edition): with English values letters are sure where their number
    agrees; with the other set every number reads against its letter, and no letter is sure. Before issue 27
    the numbers were not read: the letters were as sure with either set."""
    case = render("cream_blue_letters", TEST_SEED_FROM + 31)
    en = load_tileset("en")
    shifted = TileSet("shifted", {ch: (v % 10) + 1 if ch != "?" else 0 for ch, v in en.values.items()},
                      en.counts, label="English letters, other values")
    right = read_board(case.image, tiles=en, second_opinion=False)
    wrong = read_board(case.image, tiles=shifted, second_opinion=False)
    lettered = [(r, c) for r in range(15) for c in range(15) if case.grid[r][c].isupper()]
    assert right.grid == wrong.grid
    sure_right = sum(right.confidence[r][c] >= SURE for r, c in lettered)
    assert sure_right >= 0.5 * len(lettered), (sure_right, len(lettered))
    assert all(wrong.confidence[r][c] < SURE for r, c in lettered)
    assert sum("!number" in wrong.evidence[r][c] for r, c in lettered) >= 0.5 * len(lettered)
    # the reading says what vouched for each letter
    assert all(right.evidence[r][c] for r, c in lettered)


def test_a_blank_printed_in_lower_case_carries_no_number_and_is_never_sure() -> None:
    """Blanks printed with the lower-case letter they stand for (`vision.synth` renders them) show a letter but
    no number: whatever the network reads there is not vouched for, so not sure."""
    for seed in range(TEST_SEED_FROM, TEST_SEED_FROM + 40):
        case = render("cream_red_letters", seed, varied=True)
        lower = [(r, c) for r in range(15) for c in range(15) if case.grid[r][c].islower()]
        if lower:
            break
    assert lower
    reading = read_board(case.image, tiles="en", second_opinion=False)
    for r, c in lower:
        assert reading.confidence[r][c] < SURE, (r, c, reading.grid[r][c], reading.evidence[r][c])
    assert np.isfinite(np.array(reading.confidence)).all()
