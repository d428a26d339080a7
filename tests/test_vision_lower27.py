"""Blanks printed with the lower-case letter they stand for (issue 27): read as that letter, a blank that scores 0,
never sure; capitals stay capitals. Renders only (no ../shared needed)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.rules.tiles import load_tileset
from vision.confidence import BLANK_AT_MOST
from vision.lowercase import LOWER_FROM, CaseReader, shipped_reader
from vision.read import BoardReading, detect_move, read_board
from vision.synth import case_glyphs, render

# Test renders (seeds from vision.train.TEST_SEED_FROM, never trained on) of trained styles holding a blank printed
# lower case: (style, seed, square, letter). The letter network reads each as a capital or a blank (main at
# 995c925: a read B, k read R twice, r read C).
LOWER_CASE_RENDERS = (
    ("worn_wood", 503, (10, 3), "a"),
    ("black_tiles", 503, (10, 6), "k"),
    ("maroon_tiles", 502, (7, 8), "k"),
    ("navy_condensed", 503, (7, 8), "r"),
)


@pytest.mark.parametrize(("style", "seed", "square", "letter"), LOWER_CASE_RENDERS)
def test_a_blank_printed_in_lower_case_is_read_as_its_letter(style: str, seed: int, square: tuple[int, int],
                                                            letter: str) -> None:
    case = render(style, seed, varied=True)
    r, c = square
    assert case.grid[r][c] == letter  # the render holds it
    reading = read_board(case.image, tiles="en", second_opinion=False)
    assert reading.grid[r][c] == letter, (reading.grid[r][c], reading.recogniser[r][c])
    assert reading.recogniser[r][c] == "lowercase"
    # a blank is never sure: asked, with its letter offered
    assert reading.confidence[r][c] <= BLANK_AT_MOST
    assert any("lower-case" in w and letter in w for w in reading.warnings)
    # no capital of the board became lower case
    for rr in range(15):
        for cc in range(15):
            if reading.grid[rr][cc].islower():
                assert case.grid[rr][cc] == reading.grid[rr][cc], (rr, cc)


def test_no_capital_is_read_lower_case_on_renders_without_lower_case_blanks() -> None:
    """Renders of several styles whose tiles are all capitals (and plain blanks): nothing is read lower case."""
    for style, seed in (("cream_red_letters", 500), ("pale_wood", 501), ("thin_tall", 500), ("crossword_blue", 502)):
        case = render(style, seed, varied=True)
        assert not any(ch.islower() for row in case.grid for ch in row)
        reading = read_board(case.image, tiles="en", second_opinion=False)
        assert not any(ch.islower() for row in reading.grid for ch in row), (style, seed, reading.grid)


def test_a_lower_case_blank_played_scores_nothing_for_its_tile() -> None:
    """The move with a blank printed `f` scores as a blank standing for F (0 for that tile), not as an F tile."""
    before = ["." * 15] * 15
    rows = [list(r) for r in before]
    for k, ch in enumerate("fAT"):  # FAT across from H8 (the centre): f on H8 is a blank
        rows[7][7 + k] = ch
    now = ["".join(r) for r in rows]
    reading = BoardReading(grid=now, confidence=[[0.9] * 15 for _ in range(15)], corners=[[0, 0]] * 4,
                           located="given")
    detect_move(reading, before, load_tileset("en"))
    assert reading.score is not None
    # FAT with F a blank: (0 + 1 + 1) x 2 for the centre's double word = 4 (with an F tile: (4 + 1 + 1) x 2 = 12)
    assert reading.score == 4
    assert [t.letter for t in reading.new_tiles or []] == ["f", "A", "T"]


def test_the_case_reader_tells_capitals_from_lower_case_on_fresh_renders() -> None:
    """The shipped case reader on a draw of rendered glyphs it was not trained on (another seed): capitals read
    lower case at LOWER_FROM well under 1%, lower-case letters read as themselves most of the time."""
    reader = shipped_reader()
    assert isinstance(reader, CaseReader)
    images, heights, labels = case_glyphs(per_font=1, seed=7)
    p = reader.probabilities(images, heights)
    best = [reader.net.classes[int(k)] for k in p.argmax(axis=1)]
    taken = (p[:, reader.lower].sum(axis=1) >= LOWER_FROM) & np.array([b.islower() for b in best])
    upper = np.array([ch.isupper() for ch in labels])
    assert (taken & upper).sum() <= 0.01 * upper.sum()
    right = np.array([b == ch for b, ch in zip(best, labels, strict=True)])
    assert (taken & right & ~upper).sum() >= 0.75 * (~upper).sum()


def test_watch_mode_asks_about_a_lower_case_blank_with_its_letter_offered() -> None:
    """A move whose new tiles hold a blank printed `f` is not recorded unasked: the question names the square and
    offers the letter (a blank for F, scoring 0)."""
    from vision.watch import Watcher

    before = ["." * 15] * 15
    rows = [list(r) for r in before]
    for k, ch in enumerate("fAT"):
        rows[7][7 + k] = ch
    reading = BoardReading(grid=["".join(r) for r in rows], confidence=[[0.9] * 15 for _ in range(15)],
                           corners=[[0, 0]] * 4, located="given", evidence=[[""] * 15 for _ in range(15)])
    detect_move(reading, before, load_tileset("en"))
    question, squares = Watcher(before)._doubt(reading)
    assert question is not None and "H8" in question and "blank for F" in question and "scores 0" in question
    assert squares == ((7, 7),)
