"""Plays written as in GCG: a position (`8D`, `D8`) and a word where `.` (or a parenthesised run, in
older files) stands for a tile already on the board and a lower-case letter is a blank.
"""

from __future__ import annotations

import re

from companion.rules.board import Board, PlacedTile, Position, Tile, parse_position
from companion.rules.errors import IllegalPlacement

_WORD_RE = re.compile(r"^[A-Za-z.()]+$")


def parse_play(position: str | Position, word: str, board: Board) -> list[PlacedTile]:
    """The new tiles of a play written as `8D QUI.Z` (or `8D QUI(E)Z`).

    A letter written on a square that already holds the same letter is read as played through, as
    some older records do; a different letter there is an error.
    """
    pos = parse_position(position, board.size) if isinstance(position, str) else position
    if not _WORD_RE.match(word):
        raise IllegalPlacement(f"'{word}' is not a word: use letters, '.' for a tile already on the board")
    through = False
    tiles: list[PlacedTile] = []
    sq = pos.start
    for ch in word:
        if ch == "(":
            through = True
            continue
        if ch == ")":
            through = False
            continue
        if not board.contains(sq):
            raise IllegalPlacement(f"the word {word} at {pos} runs off the board")
        on_board = board.get(sq)
        if ch == "." or through:
            if on_board is None:
                raise IllegalPlacement(f"{pos} {word}: square {sq} should hold a tile already but is empty")
            if ch != "." and on_board.letter != ch.upper():
                raise IllegalPlacement(f"{pos} {word}: square {sq} holds {on_board.letter}, not {ch.upper()}")
        elif on_board is not None:
            if on_board.letter != ch.upper():
                raise IllegalPlacement(f"{pos} {word}: square {sq} is already covered by {on_board.letter}")
        else:
            tiles.append(PlacedTile(sq, Tile(ch.upper(), blank=ch.islower())))
        sq = sq.step(pos.direction)
    return tiles


def format_play(position: Position, tiles: list[PlacedTile], board: Board) -> str:
    """`8D QUI.Z`: the main word from `position`, `.` for tiles already on `board`."""
    new = {p.square: p.tile for p in tiles}
    out = []
    sq = position.start
    while board.contains(sq) and (sq in new or board.get(sq) is not None):
        out.append(new[sq].symbol if sq in new else ".")
        sq = sq.step(position.direction)
    return f"{position} {''.join(out)}"
