"""Board geometry: squares, directions, GCG placement notation, premium layouts and the board itself.

Squares are named as on the physical board and in GCG: column letter then row number (`H8` is the
centre). A placement position encodes its direction by order: `8D` is across from row 8, column D;
`D8` is down from column D, row 8. Internally rows and columns are 0-based.

Premium layouts are data (`assets/layouts/*.json`), so a board with another layout works by adding
a file, not by changing code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from companion.rules.errors import RulesDataError

ASSETS = Path(__file__).resolve().parents[2] / "assets"
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Direction(Enum):
    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


@dataclass(frozen=True, order=True)
class Square:
    """A square by 0-based row and column."""

    row: int
    col: int

    @property
    def name(self) -> str:
        return f"{COLUMNS[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name

    def step(self, direction: Direction, n: int = 1) -> Square:
        dr, dc = direction.step
        return Square(self.row + dr * n, self.col + dc * n)


_SQUARE_RE = re.compile(r"^([A-Za-z])(\d{1,2})$")
_POSITION_RE = re.compile(r"^(?:(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2}))$")


def parse_square(text: str, size: int = 15) -> Square:
    """`H8` -> Square(7, 7). Column letter first, then row number."""
    m = _SQUARE_RE.match(text.strip())
    if not m:
        raise ValueError(f"'{text}' is not a square name like H8 (column letter, then row number)")
    col = COLUMNS.index(m.group(1).upper())
    row = int(m.group(2)) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"square '{text}' is off the {size}x{size} board")
    return Square(row, col)


@dataclass(frozen=True)
class Position:
    """Where a placement starts and which way it reads."""

    start: Square
    direction: Direction

    @property
    def notation(self) -> str:
        row = str(self.start.row + 1)
        col = COLUMNS[self.start.col]
        return row + col if self.direction is Direction.ACROSS else col + row

    def __str__(self) -> str:
        return self.notation


def parse_position(text: str, size: int = 15) -> Position:
    """`8D` -> across from D8; `D8` -> down from D8 (GCG; lower case accepted as in older files)."""
    m = _POSITION_RE.match(text.strip())
    if not m:
        raise ValueError(
            f"'{text}' is not a position: use row then column for across (8D) or column then row for down (D8)"
        )
    if m.group(1):
        row, col, direction = int(m.group(1)) - 1, COLUMNS.index(m.group(2).upper()), Direction.ACROSS
    else:
        row, col, direction = int(m.group(4)) - 1, COLUMNS.index(m.group(3).upper()), Direction.DOWN
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"position '{text}' is off the {size}x{size} board")
    return Position(Square(row, col), direction)


class Premium(Enum):
    NONE = "."
    DOUBLE_LETTER = "d"
    TRIPLE_LETTER = "t"
    DOUBLE_WORD = "D"
    TRIPLE_WORD = "T"

    @property
    def letter_multiplier(self) -> int:
        return {"d": 2, "t": 3}.get(self.value, 1)

    @property
    def word_multiplier(self) -> int:
        return {"D": 2, "T": 3}.get(self.value, 1)


class LayoutFile(BaseModel):
    """Schema of `assets/layouts/*.json`: one string per row, one character per square."""

    model_config = ConfigDict(extra="forbid")

    name: str
    label: str = ""
    legend: dict[str, str] = Field(default_factory=dict)
    size: int = Field(ge=2, le=26)
    centre: str
    rows: list[str]

    @model_validator(mode="after")
    def _check(self) -> LayoutFile:
        if len(self.rows) != self.size:
            raise ValueError(f"layout has {len(self.rows)} rows, expected {self.size}")
        allowed = {p.value for p in Premium}
        for i, row in enumerate(self.rows, 1):
            if len(row) != self.size:
                raise ValueError(f"layout row {i} has {len(row)} squares, expected {self.size}")
            bad = set(row) - allowed
            if bad:
                raise ValueError(f"layout row {i} has unknown premium marks {sorted(bad)}")
        parse_square(self.centre, self.size)
        return self


@dataclass(frozen=True)
class Layout:
    """The premium squares of a board and where the first play must go."""

    name: str
    size: int
    centre: Square
    premiums: tuple[tuple[Premium, ...], ...]

    def premium(self, square: Square) -> Premium:
        return self.premiums[square.row][square.col]

    def contains(self, square: Square) -> bool:
        return 0 <= square.row < self.size and 0 <= square.col < self.size

    @classmethod
    def from_file(cls, data: LayoutFile) -> Layout:
        return cls(
            name=data.name,
            size=data.size,
            centre=parse_square(data.centre, data.size),
            premiums=tuple(tuple(Premium(ch) for ch in row) for row in data.rows),
        )


def load_layout(name_or_path: str | Path = "standard") -> Layout:
    """A layout by name from `assets/layouts/`, or from a JSON file path."""
    if not str(name_or_path).strip():
        raise RulesDataError("the premium layout has no name: give one (like 'standard') or a JSON file path")
    path = Path(name_or_path)
    if not path.suffix:
        path = ASSETS / "layouts" / f"{name_or_path}.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return Layout.from_file(LayoutFile.model_validate(raw))
    except FileNotFoundError:
        raise RulesDataError(f"no premium layout file at {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(f"layout file {path} is not valid JSON: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        raise RulesDataError(f"layout file {path} is invalid: {first['msg']}") from None


@dataclass(frozen=True)
class Tile:
    """A tile on the board: its letter, and whether it is a blank standing for that letter."""

    letter: str
    blank: bool = False

    @property
    def symbol(self) -> str:
        """Board-file character: upper case for a letter tile, lower case for a blank."""
        return self.letter.lower() if self.blank else self.letter


@dataclass(frozen=True)
class PlacedTile:
    square: Square
    tile: Tile


class Board:
    """A grid of tiles. Mutable through `place` and `remove` so a replay can push and pop plays."""

    def __init__(self, size: int = 15) -> None:
        self.size = size
        self._cells: list[list[Tile | None]] = [[None] * size for _ in range(size)]
        self.tile_count = 0

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """Rows of `.` (empty), upper case (tile) and lower case (blank); `?` is a blank of unknown letter."""
        size = len(rows)
        board = cls(size)
        for r, row in enumerate(rows):
            if len(row) != size:
                raise ValueError(f"board row {r + 1} has {len(row)} squares, expected {size}")
            for c, ch in enumerate(row):
                if ch == ".":
                    continue
                if ch == "?":
                    board.place(Square(r, c), Tile("?", blank=True))
                elif ch.isalpha():
                    board.place(Square(r, c), Tile(ch.upper(), blank=ch.islower()))
                else:
                    raise ValueError(f"board row {r + 1} has '{ch}' at column {COLUMNS[c]}: use '.', a letter or '?'")
        return board

    def rows(self) -> list[str]:
        return ["".join(t.symbol if t else "." for t in row) for row in self._cells]

    def copy(self) -> Board:
        other = Board(self.size)
        other._cells = [row[:] for row in self._cells]
        other.tile_count = self.tile_count
        return other

    def contains(self, square: Square) -> bool:
        return 0 <= square.row < self.size and 0 <= square.col < self.size

    def get(self, square: Square) -> Tile | None:
        if not self.contains(square):
            return None
        return self._cells[square.row][square.col]

    def __getitem__(self, square: Square) -> Tile | None:
        return self.get(square)

    def is_empty(self) -> bool:
        return self.tile_count == 0

    def place(self, square: Square, tile: Tile) -> None:
        if self._cells[square.row][square.col] is not None:
            raise ValueError(f"square {square} is already covered")
        self._cells[square.row][square.col] = tile
        self.tile_count += 1

    def remove(self, square: Square) -> Tile:
        tile = self._cells[square.row][square.col]
        if tile is None:
            raise ValueError(f"square {square} is empty")
        self._cells[square.row][square.col] = None
        self.tile_count -= 1
        return tile

    def push(self, tiles: Sequence[PlacedTile]) -> None:
        for placed in tiles:
            self.place(placed.square, placed.tile)

    def pop(self, tiles: Sequence[PlacedTile]) -> None:
        for placed in tiles:
            self.remove(placed.square)

    def tiles(self) -> Iterator[PlacedTile]:
        for r, row in enumerate(self._cells):
            for c, tile in enumerate(row):
                if tile is not None:
                    yield PlacedTile(Square(r, c), tile)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._cells == other._cells

    def __hash__(self) -> int:  # boards are mutable; hashing by identity would mislead
        raise TypeError("Board is mutable and not hashable")

    def __str__(self) -> str:
        return "\n".join(self.rows())
