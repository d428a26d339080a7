"""Placement validation: is this set of new tiles a legal placement on this board?

Each refusal raises `IllegalPlacement` with the rule broken and the squares involved, worded for the
table. Word validity is not judged here (that is the lexicon's job, and at a real table only on a
challenge).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.rules.board import Board, Direction, Layout, PlacedTile, Square
from companion.rules.errors import IllegalPlacement
from companion.rules.tiles import BLANK, TileSet


def rack_letters_used(tiles: Sequence[PlacedTile]) -> Counter[str]:
    """Rack tiles a placement uses: its letters, with `?` for every blank."""
    return Counter(BLANK if p.tile.blank else p.tile.letter for p in tiles)


def validate_placement(
    board: Board,
    tiles: Sequence[PlacedTile],
    layout: Layout,
    tileset: TileSet | None = None,
    rack: str | None = None,
    first_play_min_tiles: int = 2,
) -> None:
    """Raise `IllegalPlacement` unless the tiles may be placed on `board` as one play.

    `rack` (letters, `?` for a blank) is checked only when given: at a table the referee usually
    does not see the racks.
    """
    if not tiles:
        raise IllegalPlacement("no tiles were placed")
    seen = set()
    for p in tiles:
        if not board.contains(p.square):
            raise IllegalPlacement(f"square {p.square} is off the board")
        if p.square in seen:
            raise IllegalPlacement(f"two tiles were placed on {p.square}")
        seen.add(p.square)
        covering = board.get(p.square)
        if covering is not None:
            raise IllegalPlacement(f"square {p.square} is already covered by {covering.letter}")
        if p.tile.blank and not (len(p.tile.letter) == 1 and p.tile.letter.isalpha()):
            raise IllegalPlacement(f"the blank on {p.square} must be given a letter")
        if not p.tile.blank and not (len(p.tile.letter) == 1 and p.tile.letter.isalpha()):
            raise IllegalPlacement(f"'{p.tile.letter}' on {p.square} is not a letter")
        if tileset is not None and not tileset.has_letter(p.tile.letter):
            raise IllegalPlacement(f"the {tileset.name} tile set has no letter {p.tile.letter} (on {p.square})")

    rows = {p.square.row for p in tiles}
    cols = {p.square.col for p in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlacement("the new tiles must all be in one row or one column")

    ordered = sorted(tiles, key=lambda p: (p.square.row, p.square.col))
    first, last = ordered[0].square, ordered[-1].square
    new_squares = {p.square for p in tiles}
    if len(rows) == 1:
        line = [Square(first.row, c) for c in range(first.col, last.col + 1)]
    else:
        line = [Square(r, first.col) for r in range(first.row, last.row + 1)]
    gaps = [sq for sq in line if sq not in new_squares and board.get(sq) is None]
    if gaps:
        raise IllegalPlacement(
            "the new tiles leave a gap at " + ", ".join(str(s) for s in gaps) + ": a play must be one unbroken line"
        )

    if board.is_empty():
        if layout.centre not in new_squares:
            raise IllegalPlacement(f"the first play must cover the centre square {layout.centre}")
        if len(tiles) < first_play_min_tiles:
            raise IllegalPlacement(f"the first word must have at least {first_play_min_tiles} letters")
    else:
        touches = any(
            board.get(sq.step(d, n)) is not None
            for sq in new_squares
            for d in (Direction.ACROSS, Direction.DOWN)
            for n in (-1, 1)
        )
        if not touches:
            raise IllegalPlacement("the new tiles must touch a tile already on the board")

    if rack is not None:
        have = Counter(rack.upper())
        need = rack_letters_used(tiles)
        missing = need - have
        if missing:
            names = ", ".join(("a blank" if k == BLANK else k) + (f" x{v}" if v > 1 else "") for k, v in missing.items())
            raise IllegalPlacement(f"the rack {rack.upper()} does not hold {names}")
