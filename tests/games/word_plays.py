"""Concrete plays for the word games' random games (the liveness law): the rules offer "a play" (the
referee does not see the rack), so the walk draws a rack at random from the tiles not on the board and
asks the project's move generator (`lexicon.movegen`, ENABLE) for the plays it can make. A phony is one
of those with a new letter changed: a legal placement of a word the judge will not find, so the walk
also meets challenges that succeed."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cache

from companion.rules.board import Board, Layout
from companion.rules.tiles import BLANK, TileSet
from lexicon.movegen import Move, generate_moves
from lexicon.store import Lexicon, load_lexicon

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@cache
def enable() -> Lexicon:
    return load_lexicon("ENABLE")


def judge(words: list[str]) -> bool:
    """The word judge of the random games: every word of the play is in ENABLE."""
    lex = enable()
    return all(w.upper() in lex for w in words)


def unseen(board: Board, tileset: TileSet) -> list[str]:
    """The tiles not on the board (bag and racks), one entry per tile, `?` for a blank."""
    left = tileset.bag()
    for placed in board.tiles():
        left[BLANK if placed.tile.blank else placed.tile.letter] -= 1
    return sorted((+left).elements())


BINGO_FRIENDLY = "?SATIRENLDO"  # letters of many seven-letter words, most useful first


def draw(pool: list[str], n: int, rng: random.Random, friendly: float = 0.15) -> str:
    """`n` tiles of `pool` at random; with chance `friendly`, as many as the pool has of the letters most
    seven-letter words use (so the random games meet bingos: a random rack rarely has one)."""
    n = min(n, len(pool))
    if rng.random() >= friendly:
        return "".join(rng.sample(pool, n))
    left = list(pool)
    out: list[str] = []
    for ch in BINGO_FRIENDLY:
        if len(out) < n and ch in left:
            left.remove(ch)
            out.append(ch)
    out += rng.sample(left, n - len(out))
    return "".join(out)


@dataclass(frozen=True)
class SampledPlay:
    position: str
    word: str
    rack: str | None  # the rack it came from (None for a phony: its changed letter is not on it)
    phony: bool
    uses: Counter[str]  # rack tiles used, `?` for a blank


def sample_plays(board: Board, layout: Layout, tileset: TileSet, rack: str, rng: random.Random,
                 k: int = 3, phony_chance: float = 0.3) -> list[SampledPlay]:
    """Up to `k` plays of `rack` (random among all the generator finds, not only the best), one of those
    placing the most tiles (a bingo whenever there is one), and now and then a phony made from one."""
    moves = generate_moves(board, rack, enable(), layout, tileset)
    if not moves:
        return []
    chosen: list[Move] = rng.sample(moves, min(k, len(moves)))
    most = max(_new_tiles(m) for m in moves)
    longest = [m for m in moves if _new_tiles(m) == most]
    chosen.append(rng.choice(longest))  # a bingo whenever the rack has one
    out = [SampledPlay(m.position.notation, m.word, rack, False, _uses(m.word)) for m in chosen]
    if rng.random() < phony_chance:
        base = rng.choice(chosen)
        new_at = [i for i, ch in enumerate(base.word) if ch != "."]
        i = rng.choice(new_at)
        letter = rng.choice([c for c in ALPHABET if c != base.word[i].upper()])
        word = base.word[:i] + letter + base.word[i + 1:]
        out.append(SampledPlay(base.position.notation, word, None, True, _uses(word)))
    return out


def _uses(word: str) -> Counter[str]:
    return Counter(BLANK if ch.islower() else ch for ch in word if ch != ".")


def _new_tiles(move: Move) -> int:
    return len(move.word) - move.word.count(".")


def empty_run(board: Board, length: int, rng: random.Random) -> str | None:
    """The position (`8D` form) of `length` empty squares in a row, or None: a near-miss laid there places
    every one of its letters as a new tile (no letter is read as played through a tile already there)."""
    if length > board.size:
        return None
    rows = board.rows()
    starts = [(r, c) for r in range(board.size) for c in range(board.size - length + 1)
              if rows[r][c:c + length] == "." * length]
    if not starts:
        return None
    r, c = rng.choice(starts)
    return f"{r + 1}{'ABCDEFGHIJKLMNO'[c]}"
