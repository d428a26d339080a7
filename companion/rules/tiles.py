"""Tile sets as data: letter values, counts, rack size and bingo bonus.

Sets ship in `assets/tilesets/*.json`. Values may also come from any JSON file of the same schema or
from a CSV table with a `tile` column and one column per value scheme (`tile-values.csv:lewis`).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from companion.rules.board import ASSETS
from companion.rules.errors import RulesDataError

BLANK = "?"


class TileSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    value: int = Field(ge=0)
    count: int | None = Field(default=None, ge=0)


class TileSetFile(BaseModel):
    """Schema of `assets/tilesets/*.json`."""

    model_config = ConfigDict(extra="forbid")
    name: str
    label: str = ""
    rack_size: int = Field(default=7, ge=1, le=20)
    bingo_bonus: int = Field(default=50, ge=0)
    tiles: dict[str, TileSpec]

    @field_validator("tiles")
    @classmethod
    def _letters(cls, tiles: dict[str, TileSpec]) -> dict[str, TileSpec]:
        for key in tiles:
            if key != BLANK and not (len(key) == 1 and key.isalpha() and key.isupper()):
                raise ValueError(f"tile '{key}' is not one upper-case letter or '?'")
        return tiles


@dataclass(frozen=True)
class TileSet:
    """Values (and, when known, counts) of every tile; `?` is the blank."""

    name: str
    values: Mapping[str, int]
    counts: Mapping[str, int] | None = None
    rack_size: int = 7
    bingo_bonus: int = 50
    label: str = ""
    # Bingo sizes: the 9-tile variant pays the bonus for 7, 8 or 9 tiles.
    bingo_sizes: frozenset[int] = field(default_factory=lambda: frozenset({7}))

    def value(self, letter: str, blank: bool = False) -> int:
        if blank:
            return 0
        try:
            return self.values[letter]
        except KeyError:
            raise RulesDataError(f"the {self.name} tile set has no '{letter}' tile") from None

    def has_letter(self, letter: str) -> bool:
        return letter in self.values and letter != BLANK

    @property
    def alphabet(self) -> str:
        return "".join(sorted(k for k in self.values if k != BLANK))

    @property
    def total_tiles(self) -> int | None:
        return None if self.counts is None else sum(self.counts.values())

    def bag(self) -> Counter[str]:
        if self.counts is None:
            raise RulesDataError(f"the {self.name} tile set does not say how many of each tile there are")
        return Counter(dict(self.counts))

    def rack_value(self, letters: Iterable[str]) -> int:
        return sum(0 if ch == BLANK else self.values.get(ch, 0) for ch in letters)

    def with_rack_size(self, rack_size: int, bingo_sizes: Iterable[int]) -> TileSet:
        return TileSet(self.name, self.values, self.counts, rack_size, self.bingo_bonus, self.label,
                       frozenset(bingo_sizes))

    @classmethod
    def from_file(cls, data: TileSetFile) -> TileSet:
        values = {k: v.value for k, v in data.tiles.items()}
        values.setdefault(BLANK, 0)
        counts_known = all(v.count is not None for v in data.tiles.values())
        counts = {k: int(v.count or 0) for k, v in data.tiles.items()} if counts_known else None
        return cls(data.name, values, counts, data.rack_size, data.bingo_bonus, data.label,
                   frozenset({data.rack_size}))


def load_tileset(spec: str | Path = "en") -> TileSet:
    """`en`, `ro`, a JSON path, or `FILE.csv:COLUMN` (values only; counts unknown)."""
    text = str(spec)
    if ":" in text and text.split(":", 1)[0].lower().endswith(".csv"):
        path_text, column = text.rsplit(":", 1)
        return _from_csv(Path(path_text), column)
    path = Path(text)
    if not path.suffix:
        path = ASSETS / "tilesets" / f"{text}.json"
    if path.suffix.lower() == ".csv":
        raise RulesDataError(f"say which column of {path} holds the values, as {path}:COLUMN")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return TileSet.from_file(TileSetFile.model_validate(raw))
    except FileNotFoundError:
        raise RulesDataError(f"no tile set '{spec}': use en, ro, a JSON file or FILE.csv:COLUMN") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(f"tile set file {path} is not valid JSON: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RulesDataError(f"tile set file {path} is invalid at {where}: {first['msg']}") from None


def _from_csv(path: Path, column: str) -> TileSet:
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except FileNotFoundError:
        raise RulesDataError(f"no tile value table at {path}") from None
    if not rows or column not in rows[0]:
        have = ", ".join(k for k in (rows[0] if rows else {}) if k != "tile")
        raise RulesDataError(f"{path} has no column '{column}' (columns: {have})")
    values: dict[str, int] = {BLANK: 0}
    for i, row in enumerate(rows, 2):
        letter = (row.get("tile") or "").strip().upper()
        try:
            values[letter] = int(row[column])
        except (TypeError, ValueError):
            raise RulesDataError(f"{path}:{i}: value '{row[column]}' for '{letter}' is not a whole number") from None
    return TileSet(f"{path.stem}:{column}", values)
