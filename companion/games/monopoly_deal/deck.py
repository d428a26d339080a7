"""The Monopoly Deal deck as validated data: every card with a stable id, the colours with their set
sizes and rent ladders, and the numbers the rules name (draw 2, three plays, hand limit 7...).

The deck ships as `assets/decks/monopoly_deal.json`; its schema (`monopoly_deal.schema.json` beside it)
is the pydantic model `Deck` below (`Deck.model_json_schema()`). A start event embeds the whole deck,
so a game log replays the same after the file is edited.

Card ids are what events name (`money-10-1`, `prop-dark-blue-boardwalk`, `wild-multi-1`,
`rent-dark-blue-green-1`, `action-just-say-no-1`, `house-1`, `hotel-1`...). Every value carries a
`confidence`: `confirmed` (two or more independent sources agree), `inferred` (one reading of an
ambiguous text), `table` (a value the table changed).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from companion.rules.board import ASSETS
from companion.rules.errors import RulesDataError, first_validation_error

Confidence = Literal["confirmed", "inferred", "table"]
CardKind = Literal["money", "property", "wild", "rent", "action", "building"]
ActionKind = Literal["deal_breaker", "just_say_no", "sly_deal", "forced_deal", "debt_collector",
                     "its_my_birthday", "double_the_rent", "pass_go", "house", "hotel"]
ANY = "any"  # the colour list of a multicolour wild and of the any-colour rent card
DECK_PATH = ASSETS / "decks" / "monopoly_deal.json"
SCHEMA_PATH = ASSETS / "decks" / "monopoly_deal.schema.json"


class Colour(BaseModel):
    """One property colour: cards in a full set, rent by number of cards owned, the printed card value."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    name: str
    set_size: int = Field(ge=1, le=6)
    rent: list[int] = Field(description="rent with 1, 2, ... set_size cards of the colour")
    card_value: int = Field(ge=0)
    buildings: bool = Field(description="whether a House and Hotel may stand on a full set")
    confidence: Confidence = "confirmed"

    @model_validator(mode="after")
    def _check(self) -> Colour:
        if len(self.rent) != self.set_size:
            raise ValueError(f"colour {self.id} has {len(self.rent)} rents for a set of {self.set_size}")
        if any(r <= 0 for r in self.rent) or self.rent != sorted(self.rent):
            raise ValueError(f"colour {self.id}: rents must be positive and never fall as the set grows")
        return self


class Card(BaseModel):
    """One physical card. `colours`: a property's colour, a wild's two colours, a rent card's two
    colours, or ["any"] for the multicolour wild and the any-colour rent; empty for the rest.
    `value`: what it is worth in a bank or as a payment (M)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    kind: CardKind
    name: str
    value: int = Field(ge=0, le=10)
    colours: list[str] = Field(default_factory=list)
    action: ActionKind | None = None
    confidence: Confidence = "confirmed"
    note: str = ""

    @property
    def any_colour(self) -> bool:
        return self.colours == [ANY]

    def can_be(self, colour: str) -> bool:
        """Whether this property or wild may lie in a set of `colour`."""
        return self.kind in ("property", "wild") and (self.any_colour or colour in self.colours)


class TurnRules(BaseModel):
    """The numbers of the rules (each printed on the rule cards and in every source)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    deal: int = Field(default=5, ge=1)
    draw: int = Field(default=2, ge=1)
    draw_if_hand_empty: int = Field(default=5, ge=1)
    pass_go_draw: int = Field(default=2, ge=1)
    plays_per_turn: int = Field(default=3, ge=1)
    hand_limit: int = Field(default=7, ge=0)
    sets_to_win: int = Field(default=3, ge=1)
    house_rent: int = Field(default=3, ge=0)
    hotel_rent: int = Field(default=4, ge=0)
    debt_collector: int = Field(default=5, ge=0)
    birthday: int = Field(default=2, ge=0)
    confidence: Confidence = "confirmed"


class Deck(BaseModel):
    """Schema of `assets/decks/*.json`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    label: str = ""
    about: str = ""
    sources: list[str] = Field(default_factory=list)
    min_players: int = Field(default=2, ge=2)
    max_players: int = Field(default=5, ge=2)
    rules: TurnRules = Field(default_factory=TurnRules)
    colours: list[Colour]
    cards: list[Card]
    _index: dict[str, Card] | None = PrivateAttr(default=None)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Deck:
        return self  # frozen: every copy of a game state may share it

    @model_validator(mode="after")
    def _check(self) -> Deck:
        colour_ids = [c.id for c in self.colours]
        dup = [i for i, n in Counter(colour_ids).items() if n > 1]
        if dup:
            raise ValueError(f"colour {dup[0]} is listed twice")
        ids = [c.id for c in self.cards]
        dup = [i for i, n in Counter(ids).items() if n > 1]
        if dup:
            raise ValueError(f"card id {dup[0]} is used twice")
        known = set(colour_ids)
        for card in self.cards:
            self._check_card(card, known)
        if self.min_players > self.max_players:
            raise ValueError("min_players is larger than max_players")
        return self

    @staticmethod
    def _check_card(card: Card, known: set[str]) -> None:
        where = f"card {card.id}"
        if card.kind == "property":
            if len(card.colours) != 1 or card.colours[0] not in known:
                raise ValueError(f"{where}: a property has exactly one known colour")
        elif card.kind in ("wild", "rent"):
            if not card.any_colour and (len(card.colours) != 2 or not set(card.colours) <= known
                                        or card.colours[0] == card.colours[1]):
                raise ValueError(f"{where}: a {card.kind} card has two different known colours or ['any']")
        elif card.colours:
            raise ValueError(f"{where}: a {card.kind} card has no colours")
        if card.kind == "action" and card.action in (None, "house", "hotel"):
            raise ValueError(f"{where}: an action card names its action (not house or hotel)")
        if card.kind == "building" and card.action not in ("house", "hotel"):
            raise ValueError(f"{where}: a building is a house or a hotel")
        if card.kind not in ("action", "building") and card.action is not None:
            raise ValueError(f"{where}: only action and building cards have an action")
        if card.kind == "wild" and card.any_colour and card.value != 0:
            raise ValueError(f"{where}: the multicolour wild has no money value")

    # ----- look-ups used by the engine and the screens -----
    def card(self, card_id: str) -> Card:
        found = self.card_index().get(card_id)
        if found is None:
            raise RulesDataError(f"there is no card '{card_id}' in the deck")
        return found

    def card_index(self) -> dict[str, Card]:
        # Read through `__pydantic_private__`: the private attribute's own look-up (pydantic's __getattr__)
        # was a tenth of the time of a random game's checks, as the engine looks cards up all the time.
        private = self.__pydantic_private__
        index: dict[str, Card] | None = private.get("_index") if private is not None else None
        if index is None:
            index = {c.id: c for c in self.cards}
            self._index = index
        return index

    def colour(self, colour_id: str) -> Colour:
        for c in self.colours:
            if c.id == colour_id:
                return c
        raise RulesDataError(f"there is no colour '{colour_id}': the colours are {', '.join(self.colour_ids)}")

    @property
    def colour_ids(self) -> list[str]:
        return [c.id for c in self.colours]

    def ids_of(self, *, kind: CardKind | None = None, action: ActionKind | None = None) -> list[str]:
        return [c.id for c in self.cards
                if (kind is None or c.kind == kind) and (action is None or c.action == action)]


def validate_deck(data: object) -> Deck:
    """A deck from parsed JSON, or `RulesDataError` saying what is wrong."""
    try:
        return Deck.model_validate(data)
    except ValidationError as exc:
        raise RulesDataError(f"the Monopoly Deal deck is inconsistent: {first_validation_error(exc)}") from None


def load_deck(path: str | Path = DECK_PATH) -> Deck:
    """The shipped deck, or a deck file of the same schema."""
    target = Path(path)
    try:
        raw = json.loads(target.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesDataError(f"no Monopoly Deal deck at {target}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(f"the Monopoly Deal deck {target} is not valid JSON: {exc}") from None
    return validate_deck(raw)


def with_counts(deck: Deck, counts: dict[ActionKind, int]) -> Deck:
    """The deck with as many cards of each named action as `counts` says (a house rule for editions that
    print more or fewer Forced Deals or Hotels): extra cards copy the first one with the next number, and
    the highest-numbered cards go first when there are fewer."""
    cards = list(deck.cards)
    for action, wanted in counts.items():
        have = [c for c in cards if c.action == action]
        if not have or len(have) == wanted:
            continue
        if wanted < len(have):
            drop = {c.id for c in have[wanted:]}
            cards = [c for c in cards if c.id not in drop]
            continue
        stem = have[0].id.rsplit("-", 1)[0]
        taken = {c.id for c in cards}
        n = len(have)
        while len(have) < wanted:
            n += 1
            new_id = f"{stem}-{n}"
            if new_id in taken:
                continue
            extra = have[0].model_copy(update={"id": new_id, "confidence": "table"})
            have.append(extra)
            cards.insert(cards.index(have[-2]) + 1, extra)
    return deck.model_copy(update={"cards": cards})
