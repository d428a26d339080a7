"""Letters a photo leaves unclear, decided by the words through them (`vision.words`), with the real list.

The probabilities in the pure tests are the letter network's own on real photos (jheidel's game, read
with models that never saw it: `benchmarks/vision_styles.py --sets jheidel`); the photo tests read real
photos with the shipped models.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from companion.cli import main
from lexicon.store import Lexicon, load_lexicon
from tests.conftest import shared_path
from vision.confidence import SURE
from vision.labelled import LabelledPhoto, labelled_photos
from vision.read import read_board
from vision.words import CHANGE_BELOW, settle_by_words

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
Options = dict[tuple[int, int], list[tuple[str, float]]]


@functools.lru_cache(maxsize=1)
def _enable() -> Lexicon:
    return load_lexicon("ENABLE")


def _is_word() -> Callable[[str], bool]:
    return _enable().__contains__


# Three plain words in the top right corner: most lines of a board in play are words (`WORDS_SHARE_FROM`).
PLAIN = {(0, 12, True): "DOG", (2, 12, True): "CAT", (4, 12, True): "HEN"}


def _board(lines: dict[tuple[int, int, bool], str], plain: bool = True) -> list[list[str]]:
    """A board with the given words, (row, col, across) -> letters, and unless told not, PLAIN's."""
    grid = [["."] * 15 for _ in range(15)]
    for (r, c, across), word in (lines | (PLAIN if plain else {})).items():
        for k, ch in enumerate(word):
            grid[r + (0 if across else k)][c + (k if across else 0)] = ch
    return grid


def _settle(grid: Sequence[Sequence[str]], options: Options) -> dict[str, str]:
    return {s.square: s.letter for s in settle_by_words(grid, options, _is_word(), LETTERS)}


def test_a_line_that_is_no_word_takes_the_plausible_letter_that_makes_it_one() -> None:
    # jheidel 170755 A7: an N read X at 0.19 (N fifth at 0.09); BIX is no word, BIN is.
    grid = _board({(4, 0, False): "BIX", (2, 0, True): "TAB"})
    options: Options = {(6, 0): [("X", 0.186), ("Y", 0.158), ("W", 0.127), ("K", 0.097), ("N", 0.092),
                                 ("H", 0.089)]}
    assert _settle(grid, options) == {"A7": "N"}


def test_a_letter_read_surely_is_never_changed_by_the_list() -> None:
    # ROME stood on jheidel's board (a proper name nobody challenged); its R, read at 0.97, stays.
    grid = _board({(11, 4, False): "ROME"})
    options: Options = {(11, 4): [("R", 0.966), ("P", 0.029)]}
    assert options[(11, 4)][0][1] >= CHANGE_BELOW
    assert _settle(grid, options) == {}


def test_two_unclear_letters_of_one_word_are_decided_together() -> None:
    # jheidel 170032: MALES read MALEB and THESE read THLBE (B at 0.68, S 0.03; L at 0.83, E 0.16).
    grid = _board({(12, 7, True): "MALEB", (9, 11, False): "THLBE"})
    options: Options = {(12, 11): [("B", 0.676), ("S", 0.032), ("H", 0.012)],
                        (11, 11): [("L", 0.825), ("E", 0.162), ("I", 0.006)]}
    assert _settle(grid, options) == {"L13": "S", "L12": "E"}


def test_a_board_of_names_is_read_by_the_photo_alone() -> None:
    # A name-art board (umich): most lines are names; an unsure letter of one is not made into a word.
    grid = _board({(0, 0, True): "LEAH", (2, 0, True): "EMMA", (4, 0, True): "KATE", (6, 0, True): "RYAN"},
                  plain=False)
    options: Options = {(4, 1): [("A", 0.5), ("I", 0.45)]}  # KITE is a word, KATE a name
    assert _settle(grid, options) == {}


def test_an_implausible_letter_is_not_taken_whatever_the_words_say() -> None:
    grid = _board({(7, 7, True): "QAT", (6, 8, False): "XAX"})
    options: Options = {(7, 8): [("A", 0.6), ("O", 0.399), ("I", 0.001)]}
    assert _settle(grid, options) == {}  # QIT/XIX would need I at 0.001


def test_a_blank_stands_for_the_letter_that_makes_its_word() -> None:
    grid = _board({(7, 5, True): "C?TB"})
    options: Options = {(7, 8): [("B", 0.55), ("S", 0.4)]}
    assert _settle(grid, options) == {"I8": "S"}  # C?TB is no word for any blank; C?TS is (CATS)


# ---- on real photos, with the shipped models -----------------------------------------------------------

def _jheidel(stem: str) -> LabelledPhoto:
    shared_path("boards", "jheidel", f"{stem}.json")
    return next(p for p in labelled_photos("jheidel") if p.stem == stem)


def _right(grid: Sequence[str], photo: LabelledPhoto) -> int:
    return sum(grid[r][c] == photo.grid[r][c] for r in range(15) for c in range(15) if photo.grid[r][c].isupper())


@pytest.mark.parametrize("stem", ["IMG_20151016_170003", "IMG_20151016_170032", "IMG_20151016_170746"])
def test_words_mend_letters_a_poor_photo_left_unclear(stem: str) -> None:
    # A blurred photo (170003), one taken sideways (170032) and one with a J the network barely knew.
    photo = _jheidel(stem)
    alone = read_board(photo.image, tiles="en", second_opinion=False)
    worded = read_board(photo.image, tiles="en", second_opinion=False, words=_is_word())
    assert _right(worded.grid, photo) > _right(alone.grid, photo)
    changed = [(r, c) for r in range(15) for c in range(15) if worded.grid[r][c] != alone.grid[r][c]]
    note = next(w for w in worded.warnings if "decided by the words" in w)
    for r, c in changed:
        assert worded.confidence[r][c] < SURE  # the list is evidence, not proof: the square stays to check
        assert f"{chr(65 + c)}{r + 1} {worded.grid[r][c]} (read {alone.grid[r][c]})" in note


def test_words_the_list_lacks_stay_as_photographed() -> None:
    # declanfinerty board_003 holds UZI, QI, ZA, EXE and SAGED, none of them in ENABLE.
    shared_path("boards", "declanfinerty", "board_003.json")
    photo = next(p for p in labelled_photos("declanfinerty") if p.stem == "board_003")
    alone = read_board(photo.image, tiles="en", second_opinion=False)
    worded = read_board(photo.image, tiles="en", second_opinion=False, words=_is_word())
    assert worded.grid == alone.grid


def test_a_move_read_against_the_board_is_never_decided_by_the_list() -> None:
    # The move's word may be a phony about to be challenged: the referee must see what the photo shows.
    photo = _jheidel("IMG_20151016_170032")
    alone = read_board(photo.image, tiles="en", second_opinion=False)
    before = ["".join(ch if (r, c) != (14, 7) else "." for c, ch in enumerate(row)) for r, row in
              enumerate(alone.grid)]
    with_list = read_board(photo.image, tiles="en", second_opinion=False, previous=before, words=_is_word())
    without = read_board(photo.image, tiles="en", second_opinion=False, previous=before)
    assert with_list.grid == without.grid
    assert not any("decided by the words" in w for w in with_list.warnings)


def test_companion_read_uses_the_list_unless_told_not_to(capsys: pytest.CaptureFixture[str]) -> None:
    photo = _jheidel("IMG_20151016_170032")
    assert main(["read", str(photo.image), "--no-tesseract"]) == 0
    worded = json.loads(capsys.readouterr().out)
    assert main(["read", str(photo.image), "--no-tesseract", "--words", "none"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert _right(worded["grid"], photo) > _right(alone["grid"], photo)
    assert any("decided by the words" in w for w in worded["warnings"])
    assert any(t["recogniser"] == "words" for t in worded["tiles"])


def test_companion_read_refuses_a_word_list_it_cannot_load(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    # Any photo will do (the list is refused before the photo is read): a board rendered in memory.
    import cv2

    from vision.synth import render

    photo = tmp_path / "board.jpg"
    assert cv2.imwrite(str(photo), render("worn_wood", 7).image)
    assert main(["read", str(photo), "--words", str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert "could not be loaded" in err and err.count("\n") == 1
