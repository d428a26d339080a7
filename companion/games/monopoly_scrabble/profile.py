"""The Monopoly Scrabble board profile: what the box on the table decides, as validated data.

A profile (`assets/profiles/*.json`, schema = the pydantic model `Profile` below) holds:

- `amounts`: every sum of money the rules name (starting cash, Free Parking seed, GO salary, jail fee,
  bank tile price, blank replacement fee, bingo cash, unplayed tile fee, sale fraction, the Bank's
  float);
- `groups`: the ten Property Cards (group id, name, printed card value, printed rent) and the squares
  of the 15x15 grid that capture each card;
- `track`: the spaces around the board in order from GO (type, name, group for property spaces,
  printed rent when the space prints its own);
- `layout`: the premium layout of the grid (a name in `assets/layouts/` or a path) and the first-word
  multiplier.

The rules text gives the amounts and the Orange rent; it does not give the track, the other rents,
the card values or where the property squares are. Every value carries a `confidence`
(`rules_text`, `confirmed`, `inferred`, `placeholder`, `table`): placeholders let a game run out of
the box and are meant to be edited to match the real board (`table` marks a value the table entered).

Loading, saving, validating and the edit API are the shared ones (`companion.rules.profile_io`, bound
here as `PROFILE_IO`: `load_profile`, `validate_profile`, `save_profile`, `set_values`, `set_track_space`,
`Profile.placeholders`), plus this box's own edits (`set_card`, `set_amount`, `toggle_property_square`,
each a `set_values` of the paths it changes). No edit mutates: each returns a new validated profile or
raises `RulesDataError` with one sentence saying what is wrong.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.rules.board import Layout, Square, load_layout, parse_square
from companion.rules.errors import RulesDataError
from companion.rules.profile_io import BoxAmounts, BoxProfile, ProfileIO, TrackOf, by_id
from companion.rules.sourced import Confidence, Sourced

SpaceType = Literal["go", "property", "chance", "community_chest", "free_parking", "jail", "go_to_jail", "tax",
                    "plain"]
RESERVED_ACCOUNTS = ("bank", "pot")


class Amounts(BoxAmounts):
    free_parking_seed: Sourced[int]
    go_salary: Sourced[int]
    jail_fee: Sourced[int]
    bank_tile_price: Sourced[int]
    blank_replacement_fee: Sourced[int]
    bingo_cash: Sourced[int]
    unplayed_tile_fee: Sourced[int]
    sale_fraction_percent: Sourced[int]
    bank_float: Sourced[int]

    @model_validator(mode="after")
    def _check(self) -> Amounts:
        if not 0 < self.sale_fraction_percent.value <= 100:
            raise ValueError("the sale fraction must be a percentage between 1 and 100")
        return self


class Group(BaseModel):
    """One Property Card: its colour group, printed value and rent, and the grid squares that capture it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    card_value: Sourced[int | None]
    rent: Sourced[int | None]
    squares: Sourced[list[str]]


class Space(BaseModel):
    """One space of the track; `rent` only when the space prints its own (else the card's rent).

    `tax` spaces are not in the rules text; they exist in case the printed track has them: landing
    pays `amount` to `pay_to` (the Bank or the Free Parking pot).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: SpaceType
    name: str
    group: str | None = None
    rent: int | None = Field(default=None, ge=0)
    amount: int | None = Field(default=None, ge=0)
    pay_to: Literal["bank", "pot"] = "bank"
    confidence: Confidence = "placeholder"


class Track(TrackOf[Space]):
    pass


class Profile(BoxProfile):
    """Schema of `assets/profiles/*.json`."""

    tileset: Sourced[str]
    layout: Sourced[str]
    first_word_multiplier: Sourced[int]
    amounts: Amounts
    groups: list[Group]
    track: Track

    @model_validator(mode="after")
    def _check(self) -> Profile:
        ids = [g.id for g in self.groups]
        if not ids:
            raise ValueError("the profile has no Property Cards")
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"Property Card group {dup[0]} is listed twice")
        owner: dict[str, str] = {}
        for g in self.groups:
            if g.card_value.value is None or g.card_value.value <= 0:
                raise ValueError(f"the {g.name} Property Card has no printed value: enter it from the card")
            if g.rent.value is None or g.rent.value <= 0:
                raise ValueError(f"the {g.name} Property Card has no rent: enter it from the card")
            for text in g.squares.value:
                try:
                    sq = parse_square(text, 15)
                except ValueError as exc:
                    raise ValueError(f"{g.name} property square: {exc}") from None
                if sq.name in owner:
                    raise ValueError(f"square {sq.name} is a property square of both {owner[sq.name]} and {g.name}")
                owner[sq.name] = g.name
        spaces = self.track.spaces
        if len(spaces) < 2:
            raise ValueError("the track needs at least two spaces")
        if spaces[0].type != "go":
            raise ValueError("the first track space (index 0) must be GO")
        for kind in ("go", "jail", "free_parking", "go_to_jail"):
            count = sum(1 for s in spaces if s.type == kind)
            if count > 1:
                raise ValueError(f"the track has {count} spaces of type {kind}; it can have only one")
        if any(s.type == "go_to_jail" for s in spaces) and not any(s.type == "jail" for s in spaces):
            raise ValueError("the track has a Go to Jail space but no Jail space")
        known = set(ids)
        for i, s in enumerate(spaces):
            if s.type == "property":
                if s.group is None or s.group not in known:
                    raise ValueError(f"track space {i} ({s.name}) is a property of unknown group {s.group!r}")
            elif s.group is not None or s.rent is not None:
                raise ValueError(f"track space {i} ({s.name}) is not a property space and cannot have a group or rent")
            if s.type == "tax" and s.amount is None:
                raise ValueError(f"track space {i} ({s.name}) is a tax space without an amount")
            if s.type != "tax" and s.amount is not None:
                raise ValueError(f"track space {i} ({s.name}) is not a tax space and cannot have an amount")
        if self.first_word_multiplier.value < 1:
            raise ValueError("the first-word multiplier must be at least 1")
        if self.min_players > self.max_players:
            raise ValueError("min_players is larger than max_players")
        return self

    # ----- derived views used by the engine -----
    def group(self, group_id: str) -> Group:
        return by_id(self.groups, group_id,
                     f"there is no Property Card '{group_id}': the cards are {', '.join(self.group_ids)}")

    @property
    def group_ids(self) -> list[str]:
        return [g.id for g in self.groups]

    def card_value(self, group_id: str) -> int:
        value = self.group(group_id).card_value.value
        assert value is not None  # checked by the validator
        return value

    def space_rent(self, index: int) -> int:
        space = self.track.spaces[index]
        if space.rent is not None:
            return space.rent
        assert space.group is not None
        rent = self.group(space.group).rent.value
        assert rent is not None
        return rent

    def property_squares(self) -> dict[Square, str]:
        """Grid square -> group id."""
        return {parse_square(t, 15): g.id for g in self.groups for t in g.squares.value}

    def space_index(self, kind: SpaceType) -> int | None:
        for i, s in enumerate(self.track.spaces):
            if s.type == kind:
                return i
        return None

    def load_layout(self) -> Layout:
        layout = load_layout(self.layout.value)
        if layout.size != 15:
            raise RulesDataError(f"layout {self.layout.value} is {layout.size}x{layout.size}; the profile needs 15x15")
        return layout


def _layout_loads(profile: Profile) -> None:
    try:
        profile.load_layout()
    except RulesDataError as exc:  # load_layout turns every layout fault into one
        raise RulesDataError(f"the board profile's premium layout cannot be used: {exc}") from None


PROFILE_IO = ProfileIO(Profile, "monopoly_scrabble", "the board profile is inconsistent", check=_layout_loads)
validate_profile = PROFILE_IO.validate
load_profile = PROFILE_IO.load
save_profile = PROFILE_IO.save
set_values = PROFILE_IO.set_values
set_track_space = PROFILE_IO.set_track_space


def set_card(profile: Profile, group_id: str, *, card_value: int | None = None, rent: int | None = None,
             name: str | None = None) -> Profile:
    """Set a Property Card's printed value, rent or name, as read from the card (confidence `table`)."""
    profile.group(group_id)  # raises for an unknown group
    changes = {f"groups.{group_id}.{key}": value
               for key, value in (("card_value", card_value), ("rent", rent), ("name", name)) if value is not None}
    return set_values(profile, changes)


def set_amount(profile: Profile, name: str, value: int) -> Profile:
    """Change one amount (a house rule or a value read from the box), marked `table`."""
    if name not in Amounts.model_fields or name == "starting_bills":
        names = ", ".join(n for n in Amounts.model_fields if n != "starting_bills")
        raise RulesDataError(f"there is no amount '{name}': the amounts are {names}")
    changes: dict[str, object] = {f"amounts.{name}": value}
    if name == "starting_cash":
        # Keep the bills consistent: the difference in M100 bills (the rules give M500 + 5 x M100).
        bills = {"500": value // 500, "100": (value % 500) // 100}
        if bills["500"] * 500 + bills["100"] * 100 != value:
            raise RulesDataError(f"the starting cash M{value} cannot be paid in M500 and M100 bills")
        changes["amounts.starting_bills"] = bills
    return set_values(profile, changes)


def toggle_property_square(profile: Profile, square: str, group_id: str) -> Profile:
    """Make `square` a property square of `group_id`, or plain again when it already is one."""
    profile.group(group_id)
    try:
        name = parse_square(square, 15).name
    except ValueError as exc:
        raise RulesDataError(str(exc)) from None
    changes: dict[str, object] = {}
    for g in profile.groups:
        squares = [parse_square(t, 15).name for t in g.squares.value]
        if g.id == group_id:
            changes[f"groups.{g.id}.squares"] = [s for s in squares if s != name] if name in squares else [*squares, name]
        elif name in squares:
            squares.remove(name)  # a square captures one card only: moving it takes it off the other group
            changes[f"groups.{g.id}.squares"] = squares
    return set_values(profile, changes)
