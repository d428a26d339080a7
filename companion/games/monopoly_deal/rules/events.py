"""Monopoly Deal's events: the stored game id, the table's house rules, the settings and every event of the
log (pydantic, tagged by `type`, each naming cards by id; the format is `docs/event-format.md`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from companion.events import Event, PlayerEvent, StartEvent, Undo
from companion.games.monopoly_deal.deck import Deck
from companion.rules.players import check_player_names

VARIANT = "monopoly_deal"


class HouseRules(BaseModel):
    """What the rules text leaves open or sources disagree on; each a table setting (README lists them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    forced_deal_count: int | None = Field(default=None, ge=0, le=8,
                                          description="Forced Deal cards in the deck (None: as the deck says, 3)")
    hotel_count: int | None = Field(default=None, ge=0, le=8,
                                    description="Hotel cards in the deck (None: as the deck says, 2)")
    received_building: Literal["bank", "property"] = Field(
        default="bank", description="a House/Hotel received in payment: to the receiver's bank as money, or onto "
                                    "a complete set of theirs that can carry it (else the bank)")
    stack_double_rent: bool = Field(default=True, description="two Double the Rent on one rent card (x4)")
    double_with_any_rent: bool = Field(default=True, description="Double the Rent with the any-colour rent card")
    excess_cards_to: Literal["discard_pile", "draw_pile_bottom"] = Field(
        default="discard_pile", description="where cards over the hand limit go at the end of a turn")
    broken_set_buildings: Literal["stay", "bank", "discard"] = Field(
        default="stay", description="a House/Hotel whose set is no longer complete: stays with the set (counts "
                                    "again once complete), goes to its owner's bank, or to the discard pile")
    reshuffle_discards: bool = Field(default=True, description="an empty draw pile is refilled from the "
                                                               "shuffled discard pile")
    bank_property_wilds: bool = Field(default=True, description="a property wild with a money value may be "
                                                                "banked as money (rules text; the box says no)")
    forced_deal_from_full_set: bool = Field(default=False, description="Forced Deal may give a card out of "
                                                                       "one of your complete sets")


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    players: list[str] = Field(min_length=2, description="in turn order; the first plays first")
    deck: Deck
    house: HouseRules = Field(default_factory=HouseRules)
    dealt: dict[str, list[str]] = Field(default_factory=dict,
                                        description="cards the table saw dealt, by player (the rest unseen)")

    @model_validator(mode="after")
    def _check(self) -> Settings:
        check_player_names(self.players)
        return self

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Settings:
        return self  # frozen


class Start(StartEvent):
    settings: Settings


class Draw(PlayerEvent):
    """Start of turn: 2 cards, or 5 when the hand is empty. `cards`: the ones the table saw, if any."""

    type: Literal["draw"] = "draw"
    cards: list[str] = Field(default_factory=list)


class BankCard(PlayerEvent):
    type: Literal["bank"] = "bank"
    card: str


class Lay(PlayerEvent):
    """A property or wild into the property area. `colour`: needed for a wild (a property has one)."""

    type: Literal["lay"] = "lay"
    card: str
    colour: str | None = None


class MoveWild(PlayerEvent):
    type: Literal["move_wild"] = "move_wild"
    card: str
    colour: str


class PassGo(PlayerEvent):
    type: Literal["pass_go"] = "pass_go"
    card: str
    drawn: list[str] = Field(default_factory=list, description="the drawn cards the table saw, if any")


class Rent(PlayerEvent):
    type: Literal["rent"] = "rent"
    card: str
    colour: str
    target: str | None = Field(default=None, description="the one player charged by the any-colour rent")
    doubles: list[str] = Field(default_factory=list, description="Double the Rent cards played with it")


class DebtCollector(PlayerEvent):
    type: Literal["debt_collector"] = "debt_collector"
    card: str
    target: str


class Birthday(PlayerEvent):
    type: Literal["birthday"] = "birthday"
    card: str


class SlyDeal(PlayerEvent):
    type: Literal["sly_deal"] = "sly_deal"
    card: str
    target: str
    take: str


class ForcedDeal(PlayerEvent):
    type: Literal["forced_deal"] = "forced_deal"
    card: str
    target: str
    take: str
    give: str


class DealBreaker(PlayerEvent):
    type: Literal["deal_breaker"] = "deal_breaker"
    card: str
    target: str
    colour: str


class Build(PlayerEvent):
    type: Literal["build"] = "build"
    card: str
    colour: str


class JustSayNo(PlayerEvent):
    type: Literal["just_say_no"] = "just_say_no"
    card: str


class Accept(PlayerEvent):
    type: Literal["accept"] = "accept"


class Pay(PlayerEvent):
    type: Literal["pay"] = "pay"
    cards: list[str] = Field(default_factory=list)


class Discard(PlayerEvent):
    type: Literal["discard"] = "discard"
    cards: list[str] = Field(default_factory=list)
    unseen: int = Field(default=0, ge=0, description="cards discarded face down (draw_pile_bottom rule only)")


class EndTurn(PlayerEvent):
    type: Literal["end_turn"] = "end_turn"


class DoubleRent(PlayerEvent):
    """A Double the Rent card put down after the rent card it doubles (its own tap, its own play)."""

    type: Literal["double_rent"] = "double_rent"
    card: str


class EndByAgreement(Event):
    """The table agrees to end the game now (the rules text has no such end: a house rule, README)."""

    type: Literal["end_by_agreement"] = "end_by_agreement"


ActionEvent = Rent | DebtCollector | Birthday | SlyDeal | ForcedDeal | DealBreaker
DealEvent = Annotated[
    Start | Draw | BankCard | Lay | MoveWild | PassGo | Rent | DebtCollector | Birthday | SlyDeal | ForcedDeal
    | DealBreaker | Build | JustSayNo | Accept | Pay | Discard | EndTurn | DoubleRent | EndByAgreement | Undo,
    Field(discriminator="type")]
_EVENT_UNION: Any = DealEvent  # mypy reads the Annotated union as a type[] argument; the adapter stays typed
EVENT_ADAPTER: TypeAdapter[DealEvent] = TypeAdapter(_EVENT_UNION)


def all_events() -> Iterable[type[Event]]:
    """Every event class of the game (for documentation and tests)."""
    return (Start, Draw, BankCard, Lay, MoveWild, PassGo, Rent, DebtCollector, Birthday, SlyDeal, ForcedDeal,
            DealBreaker, Build, JustSayNo, Accept, Pay, Discard, EndTurn, DoubleRent, EndByAgreement)
