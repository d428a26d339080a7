"""Words formed by a placement and their score.

Premiums count only under newly placed tiles; letter premiums apply before word multipliers; word
multipliers multiply together (two double-word squares make x4, two triple-word squares x9); a blank
scores 0 even on a letter premium but still triggers a word premium; the bingo bonus is paid when the
number of tiles placed is one of the tile set's bingo sizes (7, or 7-9 in the 9-tile variant).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules.board import Board, Direction, Layout, PlacedTile, Position, Square, Tile
from companion.rules.tiles import TileSet


@dataclass(frozen=True)
class Word:
    """One word formed by a play: its letters, where it lies, which squares are new, and its score."""

    text: str
    position: Position
    squares: tuple[Square, ...]
    new: tuple[bool, ...]
    score: int

    @property
    def length(self) -> int:
        return len(self.text)


@dataclass(frozen=True)
class ScoredPlay:
    tiles: tuple[PlacedTile, ...]
    direction: Direction
    words: tuple[Word, ...]
    bingo_bonus: int
    total: int

    @property
    def main_word(self) -> Word | None:
        return self.words[0] if self.words else None

    @property
    def word_texts(self) -> list[str]:
        return [w.text for w in self.words]


def play_direction(tiles: Sequence[PlacedTile], board: Board) -> Direction:
    """The direction the tiles lie in; a single tile takes the direction in which it forms a word."""
    if len(tiles) >= 2:
        return Direction.ACROSS if tiles[0].square.row == tiles[1].square.row else Direction.DOWN
    sq = tiles[0].square
    if board.get(sq.step(Direction.ACROSS, -1)) or board.get(sq.step(Direction.ACROSS, 1)):
        return Direction.ACROSS
    if board.get(sq.step(Direction.DOWN, -1)) or board.get(sq.step(Direction.DOWN, 1)):
        return Direction.DOWN
    return Direction.ACROSS


def _word_through(
    board: Board, new: dict[Square, Tile], square: Square, direction: Direction
) -> list[tuple[Square, Tile, bool]]:
    """The run of tiles through `square` along `direction`, counting both board and new tiles."""

    def tile_at(sq: Square) -> Tile | None:
        return new.get(sq) or board.get(sq)

    start = square
    while board.contains(start.step(direction, -1)) and tile_at(start.step(direction, -1)):
        start = start.step(direction, -1)
    run: list[tuple[Square, Tile, bool]] = []
    sq = start
    while board.contains(sq):
        tile = tile_at(sq)
        if tile is None:
            break
        run.append((sq, tile, sq in new))
        sq = sq.step(direction)
    return run


def _score_run(run: list[tuple[Square, Tile, bool]], layout: Layout, tileset: TileSet) -> int:
    total = 0
    word_multiplier = 1
    for square, tile, is_new in run:
        value = tileset.value(tile.letter, tile.blank)
        if is_new:
            premium = layout.premium(square)
            value *= premium.letter_multiplier
            word_multiplier *= premium.word_multiplier
        total += value
    return total * word_multiplier


def _make_word(run: list[tuple[Square, Tile, bool]], direction: Direction, layout: Layout,
               tileset: TileSet) -> Word:
    return Word(
        text="".join(t.letter for _, t, _ in run),
        position=Position(run[0][0], direction),
        squares=tuple(sq for sq, _, _ in run),
        new=tuple(n for _, _, n in run),
        score=_score_run(run, layout, tileset),
    )


def score_play(board: Board, tiles: Sequence[PlacedTile], layout: Layout, tileset: TileSet) -> ScoredPlay:
    """Every word the tiles form on `board` (which does not hold them yet), main word first.

    The placement is assumed legal (see `placement.validate_placement`); this only reads the board.
    """
    if not tiles:
        return ScoredPlay((), Direction.ACROSS, (), 0, 0)
    new = {p.square: p.tile for p in tiles}
    direction = play_direction(tiles, board)
    words: list[Word] = []
    main = _word_through(board, new, tiles[0].square, direction)
    if len(main) >= 2:
        words.append(_make_word(main, direction, layout, tileset))
    for placed in tiles:
        cross = _word_through(board, new, placed.square, direction.other)
        if len(cross) >= 2:
            words.append(_make_word(cross, direction.other, layout, tileset))
    bingo = tileset.bingo_bonus if len(tiles) in tileset.bingo_sizes else 0
    total = sum(w.score for w in words) + bingo
    return ScoredPlay(tuple(tiles), direction, tuple(words), bingo, total)
