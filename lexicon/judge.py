"""The word judge: is a play acceptable under a named lexicon?

A play is judged as a whole (at the table a challenge never says which word failed); each word's own
result is kept for the `--each` listing and the game log. Every ruling carries the lexicon's name.
A placement is judged by every word it forms, as the rules core's scorer finds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.rules.board import Board, Layout, PlacedTile, load_layout
from companion.rules.placement import validate_placement
from companion.rules.scoring import score_play
from companion.rules.tiles import TileSet
from lexicon.store import Lexicon, load_lexicon


class NotAWordError(ValueError):
    """Input that is not a word at all (digits, punctuation, empty); one sentence for the user."""


@dataclass(frozen=True)
class WordRuling:
    word: str
    ok: bool


@dataclass(frozen=True)
class Ruling:
    """The verdict on one play under one lexicon."""

    lexicon: str
    words: tuple[WordRuling, ...]

    @property
    def acceptable(self) -> bool:
        return all(w.ok for w in self.words)

    @property
    def verdict(self) -> str:
        return "ACCEPTABLE" if self.acceptable else "UNACCEPTABLE"

    def lines(self) -> list[str]:
        """One line per word: `WORD ok` or `WORD not in <lexicon>`."""
        return [f"{w.word} ok" if w.ok else f"{w.word} not in {self.lexicon}" for w in self.words]


def check_word(text: str) -> str:
    """`text` in upper case, or `NotAWordError` when it is not made of letters only."""
    word = text.strip()
    if not word:
        raise NotAWordError("an empty word was given: give the words of the play, letters only")
    if not word.isalpha():
        raise NotAWordError(f"'{text}' is not a word: use letters only (no digits, spaces or punctuation)")
    return word.upper()


def judge_words(words: Iterable[str], lexicon: Lexicon | None = None) -> Ruling:
    """Judge the words of one play; raises `NotAWordError` (before judging anything) on bad input."""
    lex = lexicon if lexicon is not None else load_lexicon()
    checked = [check_word(w) for w in words]
    if not checked:
        raise NotAWordError("no words were given: give the words the play forms")
    return Ruling(lex.name, tuple(WordRuling(w, w in lex) for w in checked))


def words_formed(board: Board, tiles: Sequence[PlacedTile], layout: Layout, tileset: TileSet) -> list[str]:
    """Every word a legal placement forms, main word first (raises `IllegalPlacement` otherwise)."""
    validate_placement(board, tiles, layout, tileset)
    return score_play(board, tiles, layout, tileset).word_texts


def judge_placement(board: Board, tiles: Sequence[PlacedTile], tileset: TileSet,
                    lexicon: Lexicon | None = None, layout: Layout | None = None) -> Ruling:
    """Judge every word a placement forms on `board` (which does not hold the tiles yet)."""
    words = words_formed(board, tiles, layout or load_layout("standard"), tileset)
    if not words:
        raise NotAWordError("the placement forms no word of two or more letters")
    return judge_words(words, lexicon)
