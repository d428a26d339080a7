"""Reading a photo knowing the board before it: what a game's sequence of photos adds to one photo.

Owns the policy that reconciles one photo's fresh reading with the board the game already holds. Tiles
on a Scrabble board do not change once played (a withdrawn phony leaves its squares empty again), so a
tile read once keeps its letter unless the photo clearly shows otherwise: glare, a hand over part of
the board or a tile nudged off its square make single squares unreadable far more often than a board
really changes. And a move's new tiles lie in one line joined to the board, so marks the photo is unsure
of that no legal play can include (a finger, a glare spot beside the play) are not new tiles.

`reconcile(fresh, before, p_known)` is called by `vision.read.read_board` when a previous board is given,
before the move is scored; `Disagreement` lists what the photo said about the squares it overruled.
Every limit was measured with `benchmarks/vision_sequence.py` (photos of whole games, clean and with
painted glare and hands).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules.board import Board, Layout, PlacedTile, Square, Tile, load_layout
from companion.rules.errors import IllegalPlacement
from companion.rules.placement import validate_placement
from companion.rules.tiles import TileSet

SIZE = 15
BLANK = "?"
# A known tile is reported changed only when the photo shows the change at least this surely: the
# square read empty with P(empty) >= CHANGE_SURE, or another letter with confidence >= CHANGE_SURE while
# the known letter gets less than 1 - CHANGE_SURE. On the clean photos of the three cava games every
# known tile read back as itself (the fresh reader's errors there: none); with painted glare and hands
# the overruled squares were read with 0.3-0.9 (see the benchmark's `--show` output).
CHANGE_SURE = 0.98
# ... and a known tile read empty must also look like the empty squares of its premium kind: at most this
# robust z from their colour (empty squares of the labelled photos: almost all below 2; glare, a hand or a
# shadow over a tile: 4 and more, which is the reader's own limit for an odd empty square).
EMPTY_LOOK_Z = 3.0
# ... and a known tile read as another letter must look like the board's other tiles: at most this robust z
# from their colour (lettered tiles of the labelled photos: 99% below 2.9 on cava_ro, 4.8 on umich; a tile
# under painted glare: 17).
TILE_LOOK_Z = 5.0
# This many known tiles not shown clearly make the reading doubtful (the app asks). Measured with painted
# faults on the cava games: glare and a nudged tile hid 1-2 known tiles; a hand 1-12, and the moves read
# wrongly under a hand were those with 5 or more hidden (or the moves after them, on a board that had
# missed tiles).
UNSEEN_DOUBTFUL = 5
# New tiles the photo is less sure of than this may be dropped when, without them, the rest forms a legal
# play and with them it does not (at most DROP_AT_MOST of them: more is not a stray mark but a bad photo).
NEW_SURE = 0.9
DROP_AT_MOST = 3
UNSURE_AT_MOST = 8  # with more unsure new marks than this the photo is poor: nothing is dropped
# A new tile whose letter the photo shows less surely than this makes the reading doubtful (the app asks
# for that square instead of scoring a letter it guessed). Measured with benchmarks/vision_sequence.py,
# models trained without each game, every fault: of the 452 readings, 11 held a new tile under 0.9; the
# wrong ones were all jheidel 170219's Q of a seven-tile play, read R at 0.25-0.53 (scored 71 for 80
# without a doubt at first), the right ones 0.46, 0.51, 0.56 and 0.80-0.81. 0.7 asks about every wrong one
# and the three right ones below it, and leaves the gap 0.56-0.80 as margin.
NEW_LETTER_DOUBT = 0.7


@dataclass(frozen=True)
class Disagreement:
    """A square where the photo's fresh reading was overruled: `read` is what it showed (`.` none)."""

    square: str
    row: int
    col: int
    known: str  # what the game's board holds there ('.' for a mark that was not a new tile)
    read: str
    confidence: float
    why: str  # "unclear" (a known tile the photo did not clearly show) or "not in the play"


def _matches(known: str, read: str) -> bool:
    if known in (BLANK,) or known.islower():  # a blank tile: any tile without a clear other letter
        return read != "."
    return read == known


def reconcile(grid: list[list[str]], conf: list[list[float]], before: Sequence[str],
              p_known: dict[tuple[int, int], float], tileset: TileSet,
              empty_z: Sequence[Sequence[float]] | None = None,
              tile_z: Sequence[Sequence[float]] | None = None) -> list[Disagreement]:
    """Overrule the fresh reading (`grid`, `conf`, changed in place) where the known board and the rules
    say more than the photo; return the overruled squares.

    `p_known[(r, c)]` is the letter network's probability of the known letter on a known square it read as
    a tile (absent: the square was read empty or blank). Kept tiles take the known letter (`?` for a known
    blank) with confidence 1.0: the game's record, not a guess from this photo. `empty_z[r][c]` is how
    unlike the board's empty squares of its premium kind the square looks (robust z of its colour; see
    `vision.occupancy`): a known tile read empty is clearly gone only if its square looks like them;
    `tile_z` likewise against the board's tiles: a known tile read as another letter is clearly another
    tile only if it looks like the other tiles (glare over a tile bleaches it and can turn a U into a J).
    """
    out: list[Disagreement] = []
    for r in range(SIZE):
        for c in range(SIZE):
            known, read = before[r][c], grid[r][c]
            if known == ".":
                continue
            kept = BLANK if known == BLANK or known.islower() else known
            if _matches(known, read):
                grid[r][c] = kept
                conf[r][c] = 1.0
                continue
            sure = conf[r][c]
            looks_empty = empty_z is None or empty_z[r][c] <= EMPTY_LOOK_Z
            looks_tile = tile_z is None or tile_z[r][c] <= TILE_LOOK_Z
            clear = (read == "." and sure >= CHANGE_SURE and looks_empty) or (
                read not in (".", BLANK) and sure >= CHANGE_SURE and p_known.get((r, c), 0.0) < 1 - CHANGE_SURE
                and looks_tile and not known.islower())
            if clear:
                continue  # the photo clearly shows something else: `detect_move` reports it as changed
            out.append(Disagreement(Square(r, c).name, r, c, known, read, round(sure, 4), "unclear"))
            grid[r][c] = kept
            conf[r][c] = 1.0
    out += _drop_strays(grid, conf, before, tileset)
    return out


def unseen_doubt(overruled: Sequence[Disagreement]) -> str | None:
    """The reason a reading is doubtful when the photo failed to show many known tiles, else None.

    Glare or a nudged tile hides one or two known tiles; a hand or a sleeve across the board hides more,
    and then it may hide the move's own tiles as well, which no reading can recover."""
    hidden = [d.square for d in overruled if d.why == "unclear"]
    if len(hidden) < UNSEEN_DOUBTFUL:
        return None
    return (f"{len(hidden)} tiles of the board ({', '.join(hidden[:6])}{' ...' if len(hidden) > 6 else ''}) "
            "did not show clearly in the photo: something may cover the board, and the new tiles too")


def unclear_letter_doubt(grid: Sequence[str], conf: Sequence[Sequence[float]], before: Sequence[str]) -> str | None:
    """The reason a reading is doubtful when a new tile's letter is a guess (a blank, which shows no
    letter, is named by the table anyway), else None."""
    unclear = [(Square(r, c).name, grid[r][c], conf[r][c]) for r in range(SIZE) for c in range(SIZE)
               if before[r][c] == "." and grid[r][c] not in (".", BLANK) and conf[r][c] < NEW_LETTER_DOUBT]
    if not unclear:
        return None
    said = ", ".join(f"{name} (read {letter})" for name, letter, _ in unclear[:4])
    return (f"the letter of the new tile{'s' if len(unclear) > 1 else ''} on {said} did not show clearly: "
            "check it before the play is scored")


def illegal_doubt(grid: Sequence[str], before: Sequence[str], tileset: TileSet) -> str | None:
    """The reason a reading is doubtful when its new tiles cannot be one legal play, else None."""
    new = [(r, c) for r in range(SIZE) for c in range(SIZE) if before[r][c] == "." and grid[r][c] != "."]
    if not new or _legal([list(row) for row in grid], Board.from_rows(list(before)), new, tileset):
        return None
    names = ", ".join(Square(r, c).name for r, c in new[:8]) + (" ..." if len(new) > 8 else "")
    return (f"the new tiles read ({names}) are not one legal play: a mark may have been read as a tile or "
            "a tile missed")


def _drop_strays(grid: list[list[str]], conf: list[list[float]], before: Sequence[str],
                 tileset: TileSet) -> list[Disagreement]:
    """Unsure new tiles that keep the rest from being a legal play: dropped (the fewest, least sure first)."""
    new = [(r, c) for r in range(SIZE) for c in range(SIZE) if before[r][c] == "." and grid[r][c] != "."]
    board = Board.from_rows(list(before))
    if len(new) < 2 or _legal(grid, board, new, tileset):
        return []
    # a blank (a tile on which no letter was found) is as likely glare or a bare square: never sure
    unsure = sorted((sq for sq in new if conf[sq[0]][sq[1]] < NEW_SURE or grid[sq[0]][sq[1]] == BLANK),
                    key=lambda sq: conf[sq[0]][sq[1]])
    if len(unsure) > UNSURE_AT_MOST:
        return []  # not a stray mark or two but a poor photo: nothing is dropped, the reading shows it all
    for k in range(1, min(DROP_AT_MOST, len(unsure), len(new) - 1) + 1):
        for drop in itertools.combinations(unsure, k):
            rest = [sq for sq in new if sq not in drop]
            if _legal(grid, board, rest, tileset):
                out = []
                for r, c in drop:
                    out.append(Disagreement(Square(r, c).name, r, c, ".", grid[r][c], round(conf[r][c], 4),
                                            "not in the play"))
                    conf[r][c] = 1.0 - conf[r][c]
                    grid[r][c] = "."
                return out
    return []


@functools.lru_cache(maxsize=1)
def _layout() -> Layout:
    return load_layout("standard")


def _legal(grid: list[list[str]], board: Board, squares: list[tuple[int, int]], tileset: TileSet) -> bool:
    """Whether tiles on `squares` (letters from `grid`) form a legal placement on `board`."""
    tiles = [PlacedTile(Square(r, c), Tile("A", blank=True) if grid[r][c] == BLANK else Tile(grid[r][c]))
             for r, c in squares]
    try:
        validate_placement(board, tiles, _layout(), tileset)
    except IllegalPlacement:
        return False
    except ValueError:
        return False
    return True
