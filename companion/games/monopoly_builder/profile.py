"""The Monopoly Builder board profile: what the box on the table decides, as validated data.

A profile (`assets/profiles/monopoly_builder.json`, schema = the pydantic model `Profile` below,
written to `assets/profiles/monopoly_builder.schema.json`) holds:

- `colours` and `tokens`: the four resource colours and which token plays which colour;
- `amounts`: every sum of money the rules name (starting cash and bills, GO salary, Jail fee, auction
  start and least raise, the Bank's float);
- `counts`: every number of chips or blocks the rules name (starting resources, the hand limit of 6,
  chips per roll, the Bank trade rate, chips per colour in the box, blocks per player, floors before
  the penthouse);
- `groups` (colour groups and the points a monopoly of each scores) and the 16 `deeds` (name, group,
  price, rent, monopoly rent, mortgage value, dice number, resource);
- `track`: the spaces around the board in order from GO (kind, name, the deed, the colour a Collect
  space gives, the chart of a Roll for Resources space);
- `reference_cards`: per colour, the resources each floor costs (floor 1..4, then the penthouse);
- `chance`: the Chance cards (what each does, how many of each);
- `foundations`: the building foundations of the board's centre as a grid of rows (`#` = a
  foundation, `.` = none); a cell is named by its column letter and row number (`A1` top left);
- `building_points` (by height) and `bonus_points` (the two Builder's Bonus cards).

The rules text gives the amounts, the counts, the scoring, one deed (Oriental Avenue) and one floor-cost
chart; the other deeds, the track, the Chance texts and the foundations are in no source we could reach.
Every value carries a `confidence` (`rules_text`, `confirmed`, `inferred`, `placeholder`, `table`):
placeholders let a game run out of the box and are meant to be edited to match the box (`table` marks a
value the table entered).

Loading, saving, validating and the edit API are the shared ones (`companion.rules.profile_io`, bound
here as `PROFILE_IO`: `load_profile`, `validate_profile`, `save_profile`, `set_value`/`set_values`,
`set_space`, `Profile.placeholders`), plus this box's own edits (`set_floor_cost`, `toggle_foundation`).
No edit mutates: each returns a new validated profile or raises `RulesDataError` with one sentence saying
what is wrong.
"""

from __future__ import annotations

import functools
import re

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.rules.errors import RulesDataError
from companion.rules.profile_io import BoxAmounts, BoxProfile, ProfileIO, TrackOf, by_id
from companion.rules.sourced import Confidence, Sourced

SPACE_KINDS = ("go", "deed", "chance", "collect", "roll_for_resources", "steal", "free_parking", "jail",
               "go_to_jail")
CHANCE_EFFECTS = ("get_out_of_jail", "forced_trade", "collect", "pay", "resources", "move_to", "go_to_jail",
                  "none")
KEPT_CARDS = ("get_out_of_jail", "forced_trade")  # a player keeps these until used
FOUNDATION = "#"
DICE_TOTALS = range(2, 13)


class Amounts(BoxAmounts):
    """Sums of money (M)."""

    go_salary: Sourced[int]
    jail_fee: Sourced[int]
    auction_start: Sourced[int]
    auction_raise: Sourced[int]
    bank_float: Sourced[int]

    @model_validator(mode="after")
    def _check(self) -> Amounts:
        if self.auction_raise.value < 1 or self.auction_start.value < 1:
            raise ValueError("the auction's opening bid and least raise must be at least M1")
        return self


class Counts(BaseModel):
    """Numbers of resource chips and builder's blocks."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    starting_resources: Sourced[int]
    hand_limit: Sourced[int]
    gather: Sourced[int]
    six_bonus: Sourced[int]
    collect: Sourced[int]
    roll_for_resources: Sourced[int]
    bank_trade_rate: Sourced[int]
    free_parking_give: Sourced[int]
    chips_per_colour: Sourced[int]
    blocks_per_player: Sourced[int]
    max_floors: Sourced[int]

    @model_validator(mode="after")
    def _check(self) -> Counts:
        for name in type(self).model_fields:
            if getattr(self, name).value < 1:
                raise ValueError(f"the count {name} must be at least 1")
        return self


class Group(BaseModel):
    """A colour group of deeds; a monopoly of it scores `points` at the end."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    points: Sourced[int]


class Deed(BaseModel):
    """One Title Deed as printed (None = not entered yet: the profile is refused until it is)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: Sourced[str]
    group: Sourced[str]
    price: Sourced[int | None]
    rent: Sourced[int | None]
    monopoly_rent: Sourced[int | None]
    mortgage: Sourced[int | None]
    dice_number: Sourced[int | None]
    resource: Sourced[str | None]


class Space(BaseModel):
    """One space of the track. `deed` for a deed space, `resource` for a Collect space, `chart` (dice total
    -> colour, keys "2".."12") for a Roll for Resources space."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: str
    name: str
    deed: str | None = None
    resource: str | None = None
    chart: dict[str, str] | None = None
    confidence: Confidence = "placeholder"
    note: str = ""


class Track(TrackOf[Space]):
    pass


class FloorCost(BaseModel):
    """The resources one floor costs: so many of named colours plus `any` of any colour."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    colours: dict[str, int] = Field(default_factory=dict)
    any: int = Field(default=0, ge=0)

    @property
    def total(self) -> int:
        return sum(self.colours.values()) + self.any

    def describe(self) -> str:
        parts = [f"{n} {c}" for c, n in self.colours.items() if n]
        if self.any:
            parts.append(f"{self.any} of any colour")
        return " + ".join(parts) if parts else "nothing"


class ChanceCard(BaseModel):
    """A Chance card: what it does (`effect`), with its `amount` (M), `resource`/`resources` (chips from
    the Bank) or `space` (track index), and how many are in the deck."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    text: str
    effect: str
    count: int = Field(default=1, ge=1)
    amount: int | None = Field(default=None, ge=0)
    resource: str | None = None
    resources: int | None = Field(default=None, ge=1)
    space: int | None = Field(default=None, ge=0)
    collect_go: bool = True
    confidence: Confidence = "placeholder"
    note: str = ""


class Chance(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    confidence: Confidence
    note: str = ""
    cards: list[ChanceCard]


class BonusPoints(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    billionaire: Sourced[int]
    community: Sourced[int]


class Profile(BoxProfile):
    """Schema of `assets/profiles/monopoly_builder.json`."""

    colours: Sourced[list[str]]
    tokens: Sourced[dict[str, str]]
    amounts: Amounts
    counts: Counts
    groups: list[Group]
    deeds: list[Deed]
    track: Track
    reference_cards: dict[str, Sourced[list[FloorCost]]]
    chance: Chance
    foundations: Sourced[list[str]]
    building_points: Sourced[list[int]]
    bonus_points: BonusPoints

    @model_validator(mode="after")
    def _check(self) -> Profile:  # one sentence per way a profile cannot be played
        colours = self.colours.value
        if len(colours) < 1 or len(set(colours)) != len(colours):
            raise ValueError("the resource colours must be listed once each")
        if self.min_players > self.max_players or self.max_players > len(colours):
            raise ValueError(f"the players must be between min_players and max_players, at most one per colour "
                             f"({len(colours)})")
        for colour in self.tokens.value:
            if colour not in colours:
                raise ValueError(f"the token colour {colour} is not a resource colour ({', '.join(colours)})")
        group_ids = [g.id for g in self.groups]
        _unique(group_ids, "colour group")
        deed_ids = [d.id for d in self.deeds]
        _unique(deed_ids, "deed")
        if not self.deeds:
            raise ValueError("the profile has no Title Deeds")
        for d in self.deeds:
            label = d.name.value or d.id
            for name in ("price", "rent", "monopoly_rent", "mortgage", "dice_number", "resource"):
                if getattr(d, name).value is None:
                    raise ValueError(f"the deed {label} has no {name.replace('_', ' ')}: enter it from its Title Deed")
            for name in ("price", "rent", "monopoly_rent", "mortgage"):
                if getattr(d, name).value < 0:
                    raise ValueError(f"the deed {label} has a negative {name.replace('_', ' ')}")
            if d.group.value not in group_ids:
                raise ValueError(f"the deed {label} is in the unknown colour group {d.group.value!r}")
            if d.dice_number.value not in DICE_TOTALS:
                raise ValueError(f"the deed {label} has dice number {d.dice_number.value}: it must be 2 to 12")
            if d.resource.value not in colours:
                raise ValueError(f"the deed {label} gives the unknown resource {d.resource.value!r}")
        for g in self.groups:
            if not any(d.group.value == g.id for d in self.deeds):
                raise ValueError(f"the colour group {g.name} has no deed")
        self._check_track(deed_ids, colours)
        for colour in colours:
            card = self.reference_cards.get(colour)
            floors = self.counts.max_floors.value + 1
            if card is None:
                raise ValueError(f"there is no reference card for the {colour} player")
            if len(card.value) != floors:
                raise ValueError(f"the {colour} reference card must give {floors} floor costs (floors 1-"
                                 f"{floors - 1} and the penthouse), not {len(card.value)}")
            for i, cost in enumerate(card.value, 1):
                if any(c not in colours or n < 0 for c, n in cost.colours.items()):
                    raise ValueError(f"floor {i} of the {colour} reference card names an unknown colour")
                if cost.total < 1:
                    raise ValueError(f"floor {i} of the {colour} reference card costs nothing")
        for colour in self.reference_cards:
            if colour not in colours:
                raise ValueError(f"there is a reference card for {colour}, which is not a resource colour")
        self._check_chance(colours)
        rows = self.foundations.value
        if not any(FOUNDATION in row for row in rows):
            raise ValueError("the building foundations grid has no foundation cell ('#'): mark at least one")
        if len({len(r) for r in rows}) != 1 or len(rows[0]) > 26 or any(set(r) - {FOUNDATION, "."} for r in rows):
            raise ValueError("the foundations grid must be rows of equal length (at most 26) of '#' and '.'")
        if len(self.building_points.value) != self.counts.max_floors.value + 1:
            raise ValueError("building_points must give the points of every height, up to the penthouse")
        return self

    def _check_track(self, deed_ids: list[str], colours: list[str]) -> None:
        spaces = self.track.spaces
        if len(spaces) < 2:
            raise ValueError("the track needs at least two spaces")
        for i, s in enumerate(spaces):
            if s.kind not in SPACE_KINDS:
                raise ValueError(f"track space {i} ({s.name}) is of unknown kind {s.kind!r}: the kinds are "
                                 f"{', '.join(SPACE_KINDS)}")
        if spaces[0].kind != "go":
            raise ValueError("the first track space (index 0) must be GO")
        for kind in ("go", "jail", "go_to_jail", "free_parking"):
            if sum(1 for s in spaces if s.kind == kind) > 1:
                raise ValueError(f"the track has more than one {kind.replace('_', ' ')} space")
        if not any(s.kind == "jail" for s in spaces):
            raise ValueError("the track has no Jail space (three doubles in a row go there)")
        on_track = [s.deed for s in spaces if s.kind == "deed"]
        for i, s in enumerate(spaces):
            if s.kind == "deed" and s.deed not in deed_ids:
                raise ValueError(f"track space {i} ({s.name}) is a deed space of unknown deed {s.deed!r}")
            if s.kind != "deed" and s.deed is not None:
                raise ValueError(f"track space {i} ({s.name}) is not a deed space and cannot name a deed")
            if s.kind == "collect" and s.resource not in colours:
                raise ValueError(f"track space {i} ({s.name}) is a Collect space without a resource colour")
            if s.kind == "roll_for_resources":
                chart = s.chart or {}
                missing = [str(t) for t in DICE_TOTALS if chart.get(str(t)) not in colours]
                if missing:
                    raise ValueError(f"track space {i} ({s.name}) has no resource colour for a roll of "
                                     f"{missing[0]} in its chart")
        for d in deed_ids:
            if on_track.count(d) != 1:
                raise ValueError(f"the deed {d} must be on exactly one track space (it is on {on_track.count(d)})")

    def _check_chance(self, colours: list[str]) -> None:
        _unique([c.id for c in self.chance.cards], "Chance card")
        for c in self.chance.cards:
            if c.effect not in CHANCE_EFFECTS:
                raise ValueError(f"the Chance card {c.id} has the unknown effect {c.effect!r}: the effects are "
                                 f"{', '.join(CHANCE_EFFECTS)}")
            if c.effect in ("collect", "pay") and c.amount is None:
                raise ValueError(f"the Chance card {c.id} ({c.effect}) needs an amount")
            if c.effect == "resources" and (c.resource not in colours or c.resources is None):
                raise ValueError(f"the Chance card {c.id} (resources) needs a resource colour and a number")
            if c.effect == "move_to" and (c.space is None or c.space >= len(self.track.spaces)):
                raise ValueError(f"the Chance card {c.id} (move_to) needs a track space 0-{len(self.track.spaces) - 1}")

    # ----- derived views used by the engine -----
    def deed(self, deed_id: str) -> Deed:
        return by_id(self.deeds, deed_id, f"there is no deed '{deed_id}'")

    def deed_name(self, deed_id: str) -> str:
        return self.deed(deed_id).name.value

    def group(self, group_id: str) -> Group:
        return by_id(self.groups, group_id, f"there is no colour group '{group_id}'")

    def group_deeds(self, group_id: str) -> list[str]:
        return [d.id for d in self.deeds if d.group.value == group_id]

    def number(self, deed_id: str, name: str) -> int:
        """A deed's printed number (`price`, `rent`, `monopoly_rent`, `mortgage`, `dice_number`)."""
        value = getattr(self.deed(deed_id), name).value
        assert isinstance(value, int)  # checked by the validator
        return value

    def deed_resource(self, deed_id: str) -> str:
        value = self.deed(deed_id).resource.value
        assert value is not None
        return value

    def deed_space(self, deed_id: str) -> int:
        return next(i for i, s in enumerate(self.track.spaces) if s.deed == deed_id)

    def space_index(self, kind: str) -> int | None:
        return next((i for i, s in enumerate(self.track.spaces) if s.kind == kind), None)

    def chance_card(self, card_id: str) -> ChanceCard:
        return by_id(self.chance.cards, card_id, f"there is no Chance card '{card_id}'")

    def floor_cost(self, colour: str, floor: int) -> FloorCost:
        """What floor `floor` (1 = first; max_floors + 1 = the penthouse) costs the `colour` player."""
        return self.reference_cards[colour].value[floor - 1]

    @property
    def grid_size(self) -> tuple[int, int]:
        """(rows, columns) of the foundations grid."""
        return len(self.foundations.value), len(self.foundations.value[0])

    def foundation_cells(self) -> list[str]:
        """Every foundation, named `A1` (column letter, row number), row by row."""
        return list(_foundation_cells(tuple(self.foundations.value)))


def _unique(ids: list[str], what: str) -> None:
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"the {what} {dup[0]} is listed twice")


def cell_name(row: int, col: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_cell(name: str) -> tuple[int, int]:
    """`A1` -> (row 0, column 0); ValueError with a sentence for anything else."""
    m = re.fullmatch(r"([A-Za-z])(\d{1,2})", name.strip())
    if m is None:
        raise ValueError(f"'{name}' is not a foundation name such as A1 (column letter, row number)")
    return int(m.group(2)) - 1, ord(m.group(1).upper()) - ord("A")


PROFILE_IO = ProfileIO(Profile, "monopoly_builder", "the board profile cannot be played")
validate_profile = PROFILE_IO.validate
load_profile = PROFILE_IO.load
save_profile = PROFILE_IO.save
set_value = PROFILE_IO.set_value
set_values = PROFILE_IO.set_values
set_space = PROFILE_IO.set_track_space


def set_floor_cost(profile: Profile, colour: str, floor: int, colours: dict[str, int], any_colour: int) -> Profile:
    """Set what floor `floor` (1..max_floors, then the penthouse) costs on the `colour` reference card."""
    if colour not in profile.reference_cards:
        raise RulesDataError(f"there is no {colour} reference card: the colours are {', '.join(profile.colours.value)}")
    floors = profile.counts.max_floors.value + 1
    if not 1 <= floor <= floors:
        raise RulesDataError(f"floor {floor} does not exist: the floors are 1-{floors} ({floors} = the penthouse)")
    costs: list[object] = [cost.model_dump(mode="json") for cost in profile.reference_cards[colour].value]
    costs[floor - 1] = {"colours": {c: n for c, n in colours.items() if n}, "any": any_colour}
    return set_value(profile, f"reference_cards.{colour}", costs)


def toggle_foundation(profile: Profile, cell: str) -> Profile:
    """Make the grid cell `cell` (e.g. "C4") a foundation, or not one when it is. Cells outside the grid
    grow it (up to 26 columns)."""
    try:
        row, col = parse_cell(cell)
    except ValueError as exc:
        raise RulesDataError(str(exc)) from None
    rows = [list(r) for r in profile.foundations.value]
    width = max(len(rows[0]), col + 1)
    while len(rows) <= row:
        rows.append([])
    rows = [r + ["."] * (width - len(r)) for r in rows]
    rows[row][col] = "." if rows[row][col] == FOUNDATION else FOUNDATION
    return set_value(profile, "foundations", ["".join(r) for r in rows])


@functools.lru_cache(maxsize=64)
def _foundation_cells(rows: tuple[str, ...]) -> tuple[str, ...]:
    """The foundations of a grid (cached: the rules ask for them on every build and every event)."""
    return tuple(cell_name(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == FOUNDATION)
