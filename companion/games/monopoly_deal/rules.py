"""Monopoly Deal (Hasbro 01723) as a fold over an ordered log of events: the referee and bookkeeper.

The rules are the project's rules text (`rules-text/003_6715fa5a79f2cc48.txt`); the cards, set sizes and
rent ladders come from the deck (`companion.games.monopoly_deal.deck`, `assets/decks/monopoly_deal.json`),
embedded in the `start` event with the table's house rules (`HouseRules`), so a log replays the same
after the asset is edited.

What the referee knows. Hands are hidden at a real table: the app sees a card when it is PLAYED (banked,
laid, used as an action, given in payment, discarded face up). So the engine tracks every hand's COUNT
exactly and the cards it has seen; a card nobody has seen is "unseen": in the draw pile or in some hand.
An event names the card played by its stable id, and the engine accepts it from the player's hand when
the referee saw it go there (a draw that named it) or when it is still unseen and the player holds an
unseen card. Draws may name the cards drawn (a log written by hand, a player who shows them) or not.
So every one of the deck's cards is in exactly one place at every step: the unseen pool (whose size is
the draw pile count plus every hand's unseen cards), a hand (seen there), a bank, a property set (as a
card or a building), or the discard pile (`card_places()`, `problems()`).

Events (pydantic, tagged by `type`; the log format is `docs/event-format.md`), each naming cards by id:

- `start`          players in turn order, the deck, the house rules, optional dealt cards by player;
                   everyone is dealt 5.
- `draw`           start of turn: 2 cards, or 5 from an empty hand (`cards` names those the table saw).
- `bank`           a money card, an action card (as money for good) or a building into the bank: a play.
- `lay`            a property or property wild into the property area, with its colour: a play.
- `move_wild`      move a wild already laid to another of its colours, on your own turn: no play.
- `pass_go`        draw 2 more (`drawn` names the seen ones): a play.
- `rent`           a rent card for one colour (+ `doubles`: Double the Rent cards, each a play): a two-colour
                   rent charges every opponent, the any-colour rent one `target`.
- `debt_collector` one `target` owes 5M. `birthday`: every opponent owes 2M.
- `sly_deal`       take one property (`take`) not in a complete set from `target`.
- `forced_deal`    swap your `give` for the `target`'s `take` (neither from a complete set by default).
- `deal_breaker`   take the `target`'s complete set of `colour`, with its house and hotel.
- `build`          a house on a complete set of `colour` (not railroads or utilities), a hotel on one with a
                   house: a play.
- `double_rent`    a Double the Rent card joined to the rent card its player just played (before anyone
                   answers or pays): doubles every claim of that rent; a play. (A `rent` may also name its
                   `doubles`, as logs written before this event did.)
- `end_by_agreement` the table agrees to stop: most complete sets wins, then most money on the table
                   (bank + properties + buildings); still equal, a shared result.
- `just_say_no`    the player asked to answer cancels the action against them (or a Just Say No against the
                   actor); it costs no play, and chains alternate until someone accepts.
- `accept`         the player asked to answer lets the action (or the cancellation) stand.
- `pay`            the payer's chosen cards from bank and table (never the hand): at least the debt with no
                   card to spare, no change given; everything payable when short, the rest forgiven.
- `discard`        at the end of the turn, down to 7 (`cards` named; `unseen` hidden ones when the house rule
                   puts them face down under the draw pile).
- `end_turn`       the next player's turn.
- `undo`           (shared) cancels the latest event.

Money here is cards, not counted amounts: it moves card by card between banks and tables, so the card
check above is the conservation law (the shared `companion.rules.ledger` is for games whose money is
counted). No change is ever given; a short payer gives everything and the rest is forgiven.

Each claim of an action (one per target) is answered in seating order from the actor's left: the target
may say no; the actor may say no to that; and so on. `waiting()` says who must act and on what;
`allowed_events()` lists the event types that player may record; the concrete moves (which card, how, against
whom, which payments) are `companion.games.monopoly_deal.legal.legal_moves`, the one list the app's buttons
come from. `propose_payment()` is the safe default payment (money before property, complete sets kept
whenever anything else covers the debt) and `payment_reasons()` says why each of its cards was chosen. A refused event raises `IllegalAction` with one sentence and, as `GameLog.push` applies
to a copy, changes nothing.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from companion.events import Event, GameLog, PlayerEvent, RulesState, StartEvent, Undo
from companion.games.monopoly_deal.deck import ANY, Card, Deck, TurnRules, load_deck, with_counts
from companion.rules.errors import IllegalAction
from companion.rules.money import money_millions as money
from companion.rules.players import check_player_names

VARIANT = "monopoly_deal"


# ---------------------------------------------------------------- settings and events


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


# ---------------------------------------------------------------- state parts


@dataclass
class PropertySet:
    """One set in a property area: its colour, its cards (at most the set size), and its buildings."""

    colour: str
    cards: list[str] = field(default_factory=list)
    house: str | None = None
    hotel: str | None = None

    def buildings(self) -> list[str]:
        return [b for b in (self.house, self.hotel) if b is not None]


ClaimStatus = Literal["answer", "pay", "done", "cancelled"]


@dataclass
class Claim:
    """One target's part of an action: its Just Say No chain (card ids, target first), what it owes."""

    target: str
    amount: int = 0
    chain: list[str] = field(default_factory=list)
    status: ClaimStatus = "answer"
    paid: list[str] = field(default_factory=list)
    accepted: bool = False  # the target said "accept" (a rent then takes no more Double the Rent)


PendingKind = Literal["rent", "debt_collector", "birthday", "sly_deal", "forced_deal", "deal_breaker"]


@dataclass
class Pending:
    """An action being answered: `claims` in seating order from the actor's left; `index` is the open one."""

    kind: PendingKind
    actor: str
    cards: list[str]
    claims: list[Claim]
    colour: str | None = None
    take: str | None = None
    give: str | None = None
    index: int = 0

    @property
    def claim(self) -> Claim:
        return self.claims[self.index]

    @property
    def responder(self) -> str:
        """Who answers now: the target after an even number of Just Say Nos, the actor after an odd one."""
        return self.claim.target if len(self.claim.chain) % 2 == 0 else self.actor


@dataclass(frozen=True)
class Payment:
    """A settled claim: `value` given for `owed`; no change is ever given; `forgiven` is what a short payer
    did not have."""

    payer: str
    payee: str
    owed: int
    cards: tuple[str, ...]
    value: int
    reason: str

    @property
    def forgiven(self) -> int:
        return max(0, self.owed - self.value)


WaitingKind = Literal["draw", "play", "answer", "pay", "over"]


@dataclass(frozen=True)
class Waiting:
    """What the game waits for: `kind`, from whom (`player`) and, during an action, its details."""

    kind: WaitingKind
    player: str | None
    action: PendingKind | None = None
    actor: str | None = None
    target: str | None = None
    amount: int = 0
    chain: tuple[str, ...] = ()
    may_say_no: bool = False
    sentence: str = ""


ACTION_WORDS: dict[PendingKind, str] = {
    "rent": "rent", "debt_collector": "Debt Collector", "birthday": "It's My Birthday",
    "sly_deal": "Sly Deal", "forced_deal": "Forced Deal", "deal_breaker": "Deal Breaker"}


# ---------------------------------------------------------------- the state


@dataclass
class DealState(RulesState):
    GAME_LABEL = "Monopoly Deal"

    settings: Settings | None = None
    deck: Deck | None = None
    hands: dict[str, int] = field(default_factory=dict)
    seen_in_hand: dict[str, list[str]] = field(default_factory=dict)
    banks: dict[str, list[str]] = field(default_factory=dict)
    sets: dict[str, list[PropertySet]] = field(default_factory=dict)
    draw_count: int = 0
    discard: list[str] = field(default_factory=list)
    turn_index: int = 0
    turn_number: int = 1
    drawn: bool = False
    plays: int = 0
    pending: Pending | None = None
    payments: list[Payment] = field(default_factory=list)
    story: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    winner_name: str | None = None
    tied: list[str] = field(default_factory=list)  # a game ended by agreement with equal leaders
    agreed: bool = False
    finished: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> DealState:
        """A copy for `GameLog.push` (which applies each event to a copy): the story, the payments and the
        turn history only ever grow by values nobody changes afterwards, so their lists are copied and
        their items shared; the settings and the deck are frozen; the rest is copied deeply. (The whole
        deep copy was most of the cost of recording an event late in a game.)"""
        new = copy.copy(self)
        for f in fields(self):
            if f.name in ("settings", "deck"):
                continue
            value = getattr(self, f.name)
            if f.name in ("story", "payments", "history"):
                value = list(value)
            elif f.name in ("seen_in_hand", "banks"):
                value = {p: list(cards) for p, cards in value.items()}
            elif f.name == "sets":
                value = {p: [PropertySet(s.colour, list(s.cards), s.house, s.hotel) for s in sets]
                         for p, sets in value.items()}
            else:
                value = copy.deepcopy(value, memo)
            setattr(new, f.name, value)
        return new

    # ----- basics
    @property
    def players(self) -> list[str]:
        return list(self.settings.players) if self.settings else []

    @property
    def house(self) -> HouseRules:
        return self.settings.house if self.settings else HouseRules()

    def _deck(self) -> Deck:
        if self.deck is None:
            raise IllegalAction("the game has not started")
        return self.deck

    def card(self, card_id: str) -> Card:
        found = self._deck().card_index().get(card_id)
        if found is None:
            raise IllegalAction(f"there is no card '{card_id}' in this game's deck")
        return found

    def name(self, card_id: str) -> str:
        return self.card(card_id).name

    def colour_name(self, colour: str) -> str:
        """A colour as people say it ("Dark Blue"); unknown ids as they are."""
        if colour == ANY:
            return "any colour"
        known = {c.id: c.name for c in self._deck().colours}
        return known.get(colour, colour)

    def _colour_names(self) -> dict[str, str]:
        return {c.id: c.name for c in self._deck().colours}

    def colours_listed(self, colours: list[str]) -> str:
        """Colours as people list them: "Dark Blue, Red and Yellow"."""
        names = [self.colour_name(c) for c in colours]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "none"

    def colours_said(self, card: Card) -> str:
        return " or ".join(self.colour_name(c) for c in card.colours)

    @property
    def turn_player(self) -> str | None:
        return self.players[self.turn_index] if self.settings else None

    @property
    def current_player(self) -> str | None:
        """Who must act now: the player answering or paying during an action, else the turn's player."""
        return self.waiting().player

    def winner(self) -> list[str]:
        return [self.winner_name] if self.winner_name else list(self.tied)

    @property
    def limits(self) -> TurnRules:
        return self._deck().rules

    @property
    def plays_left(self) -> int:
        return max(0, self.limits.plays_per_turn - self.plays) if self.settings else 0

    # ----- what the referee knows about cards
    def card_places(self) -> dict[str, str]:
        """Every card id -> where it is: `hand:P` (seen there), `bank:P`, `set:P:colour`, `building:P:colour`,
        `discard`, or `unseen` (in the draw pile or in a hand, nobody knows which)."""
        places: dict[str, str] = {}

        def put(card_id: str, where: str) -> None:
            # A card found twice is reported by problems(); the first place wins here.
            places.setdefault(card_id, where)

        for p in self.players:
            for c in self.seen_in_hand.get(p, []):
                put(c, f"hand:{p}")
            for c in self.banks.get(p, []):
                put(c, f"bank:{p}")
            for s in self.sets.get(p, []):
                for c in s.cards:
                    put(c, f"set:{p}:{s.colour}")
                for b in s.buildings():
                    put(b, f"building:{p}:{s.colour}")
        for c in self.discard:
            put(c, "discard")
        for c in self._deck().card_index() if self.deck else ():
            places.setdefault(c, "unseen")
        return places

    def unseen(self) -> list[str]:
        """Cards nobody has seen since the deal (draw pile and hands), in deck order."""
        return [c for c, where in self.card_places().items() if where == "unseen"]

    def unseen_in_hand(self, player: str) -> int:
        return self.hands.get(player, 0) - len(self.seen_in_hand.get(player, []))

    def possible_hand_cards(self, player: str) -> list[str]:
        """The cards that can be in `player`'s hand now (for the card pickers): those seen going there,
        and every unseen card when the hand holds unseen ones; in deck order."""
        seen = set(self.seen_in_hand.get(player, []))
        unseen = set(self.unseen()) if self.unseen_in_hand(player) > 0 else set()
        return [c for c in self._deck().card_index() if c in seen or c in unseen]

    def problems(self) -> list[str]:
        """Why the card bookkeeping is inconsistent (empty when every card is in exactly one place)."""
        if self.deck is None:
            return []
        out: list[str] = []
        listed: list[str] = []
        for p in self.players:
            listed += self.seen_in_hand.get(p, []) + self.banks.get(p, [])
            for s in self.sets.get(p, []):
                listed += s.cards + s.buildings()
                size = self._deck().colour(s.colour).set_size
                if len(s.cards) > size:
                    out.append(f"{p}'s {s.colour} set has {len(s.cards)} cards, more than {size}")
            if self.unseen_in_hand(p) < 0:
                out.append(f"{p}'s hand count {self.hands[p]} is below the cards seen there")
        listed += self.discard
        twice = [c for c, n in Counter(listed).items() if n > 1]
        out += [f"{c} is in two places" for c in twice]
        known = self._deck().card_index()
        out += [f"{c} is not in the deck" for c in listed if c not in known]
        pool = len(known) - len(set(listed))
        hidden = self.draw_count + sum(self.unseen_in_hand(p) for p in self.players)
        if pool != hidden:
            out.append(f"{pool} cards are unseen but the draw pile and hands hold {hidden} unseen cards")
        if self.draw_count < 0:
            out.append("the draw pile count is negative")
        return out

    def check(self) -> None:
        """Raise AssertionError when a card is lost, doubled or created (a test and debugging aid)."""
        found = self.problems()
        if found:
            raise AssertionError("; ".join(found))

    # ----- property areas
    def colour_size(self, colour: str) -> int:
        return self._deck().colour(colour).set_size

    def is_complete(self, s: PropertySet) -> bool:
        """A set is complete with its set size in cards, unless they are all multicolour wilds (which alone
        make no set)."""
        return len(s.cards) >= self.colour_size(s.colour) and not self._only_multi(s)

    def _only_multi(self, s: PropertySet) -> bool:
        return all(self.card(c).any_colour for c in s.cards)

    def set_rent(self, s: PropertySet) -> int:
        """What the set charges: the ladder for its card count (0 when empty or only multicolour wilds), plus
        the house and hotel while it is complete."""
        if not s.cards or self._only_multi(s):
            return 0
        colour = self._deck().colour(s.colour)
        rent = colour.rent[min(len(s.cards), colour.set_size) - 1]
        if self.is_complete(s):
            rent += (self.limits.house_rent if s.house else 0) + (self.limits.hotel_rent if s.hotel else 0)
        return rent

    def rent_for(self, player: str, colour: str) -> int:
        """The rent `player` charges for `colour`: the best of their sets of that colour."""
        return max((self.set_rent(s) for s in self.sets.get(player, []) if s.colour == colour), default=0)

    def complete_sets(self, player: str) -> list[PropertySet]:
        return [s for s in self.sets.get(player, []) if self.is_complete(s)]

    def complete_colours(self, player: str) -> list[str]:
        """The different colours `player` has a complete set of (three wins)."""
        return sorted({s.colour for s in self.complete_sets(player)})

    def set_of(self, player: str, card_id: str) -> PropertySet | None:
        """The set of `player` holding `card_id` as a card or a building."""
        for s in self.sets.get(player, []):
            if card_id in s.cards or card_id in s.buildings():
                return s
        return None

    def bank_total(self, player: str) -> int:
        return sum(self.card(c).value for c in self.banks.get(player, []))

    def table_value(self, player: str) -> int:
        return sum(self.card(c).value for s in self.sets.get(player, []) for c in s.cards + s.buildings())

    def takeable(self, player: str) -> list[str]:
        """`player`'s property cards outside complete sets (what a Sly Deal or Forced Deal may take)."""
        return [c for s in self.sets.get(player, []) if not self.is_complete(s) for c in s.cards]

    # ----- payments
    def payable(self, player: str) -> list[str]:
        """What `player` can pay with: bank cards, then table cards with a money value (never the hand)."""
        table = [c for s in self.sets.get(player, []) for c in s.cards + s.buildings() if self.card(c).value > 0]
        return [c for c in self.banks.get(player, []) if self.card(c).value > 0] + table

    def payment_cost(self, payer: str, cards: list[str]) -> tuple[int, int, int, int, int]:
        """What giving `cards` costs `payer`, compared in this order (the safe default keeps what wins the
        game): complete sets broken, property value given, building value given, value given, cards."""
        broken = {id(s) for s in self.complete_sets(payer) for c in cards if c in s.cards}
        props = sum(self.card(c).value for c in cards
                    if self.card(c).kind in ("property", "wild") and c not in self.banks.get(payer, []))
        buildings = sum(self.card(c).value for c in cards
                        if self.card(c).kind == "building" and c not in self.banks.get(payer, []))
        return len(broken), props, buildings, sum(self.card(c).value for c in cards), len(cards)

    def propose_payment(self, payer: str, amount: int) -> list[str]:
        """The safe default payment for a debt of `amount` (`payment_cost` order): complete sets are kept
        whenever anything else covers the debt, then properties (money before property, even when the money
        overpays: no change is given, but a property is a step to a win), then buildings; then the least
        value and the fewest cards. Everything payable when that is not enough (the rest is forgiven)."""
        cards = self.payable(payer)
        if amount <= 0:
            return []
        if sum(self.card(c).value for c in cards) <= amount:
            return cards
        # A knapsack over groups: each bank card alone, each set with every choice of its cards (breaking a
        # complete set costs once whatever leaves it; a house cannot go while its hotel stays). For each total
        # the best (sets broken, property value, building value, cards) is kept; the parts add up, so this
        # is exact. The total itself is compared after the building value (`payment_cost`).
        Cost = tuple[int, int, int, int]
        groups: list[list[tuple[list[str], Cost]]] = []
        for c in self.banks.get(payer, []):
            if self.card(c).value > 0:
                groups.append([([], (0, 0, 0, 0)), ([c], (0, 0, 0, 1))])
        for s in self.sets.get(payer, []):
            items = [c for c in s.cards + s.buildings() if self.card(c).value > 0]
            if not items:
                continue
            complete = self.is_complete(s)
            options: list[tuple[list[str], Cost]] = []
            for mask in range(1 << len(items)):
                chosen = [items[i] for i in range(len(items)) if mask >> i & 1]
                if s.house in chosen and s.hotel is not None and s.hotel not in chosen:
                    continue
                props = sum(self.card(c).value for c in chosen if self.card(c).kind in ("property", "wild"))
                built = sum(self.card(c).value for c in chosen if self.card(c).kind == "building")
                broken = 1 if complete and any(c in s.cards for c in chosen) else 0
                options.append((chosen, (broken, props, built, len(chosen))))
            groups.append(options)
        cap = amount + max(self.card(c).value for c in cards)  # a minimal payment never passes this
        best: dict[int, tuple[Cost, list[str]]] = {0: ((0, 0, 0, 0), [])}
        for options in groups:
            nxt: dict[int, tuple[Cost, list[str]]] = {}
            for total, (key, chosen) in best.items():
                for extra, cost in options:
                    value = total + sum(self.card(c).value for c in extra)
                    if value > cap:
                        continue
                    new_key = (key[0] + cost[0], key[1] + cost[1], key[2] + cost[2], key[3] + cost[3])
                    old = nxt.get(value)
                    if old is None or new_key < old[0]:
                        nxt[value] = (new_key, chosen + extra)
            best = nxt
        value = min((v for v in best if v >= amount),
                    key=lambda v: (best[v][0][0], best[v][0][1], best[v][0][2], v, best[v][0][3]))
        return best[value][1]

    def payment_reasons(self, payer: str, amount: int, cards: list[str]) -> list[str]:
        """Why each card of a payment (the default one) is in it, one sentence each, then what it keeps:
        the words the payment screen shows under the preselected cards."""
        out: list[str] = []
        payable = self.payable(payer)
        everything = sum(self.card(c).value for c in payable)
        bank = [c for c in payable if c in self.banks.get(payer, [])]
        bank_total = sum(self.card(c).value for c in bank)
        if everything <= amount and set(cards) == set(payable):
            return [(f"{payer} has {money(everything)} in bank and on the table, not {money(amount)}: a short "
                     f"payer gives everything and {money(amount - everything)} is forgiven.")]
        value = sum(self.card(c).value for c in cards)
        for cid in cards:
            card = self.card(cid)
            s = self.set_of(payer, cid)
            label = card.name if card.kind == "money" else f"{card.name} ({money(card.value)})"
            if cid in self.banks.get(payer, []):
                why = "money from the bank goes first, so the properties stay"
                if value > amount and len(cards) == 1:
                    why += f" (no change is given: {money(value - amount)} over, but no property is lost)"
            elif card.kind == "building":
                why = "a building goes before a property: the set itself stays"
            elif s is not None and self.is_complete(s):
                why = (f"nothing else covers {money(amount)}, so the complete {self.colour_name(s.colour)} set "
                       "is broken")
            else:
                why = (f"the bank holds only {money(bank_total)}: a property outside a complete set makes up the rest"
                       if bank_total < amount else "the cheapest way to cover the debt without a complete set")
            out.append(f"{label}: {why}.")
        kept = [s for s in self.complete_sets(payer) if not any(c in s.cards for c in cards)]
        if kept:
            out.append(f"Kept: the complete {self.colours_listed([s.colour for s in kept])} "
                       f"set{'s' if len(kept) > 1 else ''}.")
        return out

    # ----- what the game waits for
    def may_say_no(self, player: str) -> bool:
        """Whether a Just Say No can still be in `player`'s hand."""
        jsn = set(self._deck().ids_of(action="just_say_no"))
        return self.hands.get(player, 0) > 0 and any(c in jsn for c in self.possible_hand_cards(player))

    def waiting(self) -> Waiting:
        """What the game waits for now, from whom (see `Waiting`)."""
        if self.settings is None:
            return Waiting("over", None, sentence="the game has not started")
        if self.finished:
            if self.winner_name:
                return Waiting("over", None, sentence=f"{self.winner_name} has won")
            return Waiting("over", None, sentence=f"{' and '.join(self.tied)} share the game" if self.tied
                           else "the game is over")
        p = self.pending
        if p is not None:
            c = p.claim
            if c.status == "pay":
                return Waiting("pay", c.target, p.kind, p.actor, c.target, c.amount, tuple(c.chain),
                               sentence=f"{c.target} pays {p.actor} {money(c.amount)}")
            who = p.responder
            words = ACTION_WORDS[p.kind]
            if len(c.chain) % 2 == 0:
                sentence = f"{who}: accept {p.actor}'s {words} or Just Say No"
            else:
                sentence = f"{who}: accept {c.target}'s Just Say No or answer with another"
            return Waiting("answer", who, p.kind, p.actor, c.target, c.amount, tuple(c.chain),
                           may_say_no=self.may_say_no(who), sentence=sentence)
        player = self.turn_player
        if not self.drawn:
            n = self._draw_size(player or "")
            return Waiting("draw", player, sentence=f"{player} draws {n}")
        return Waiting("play", player, sentence=f"{player} plays ({self.plays_left} plays left)")

    def allowed_events(self) -> list[str]:
        """The event types `current_player` may record now."""
        w = self.waiting()
        if w.kind == "draw":
            return ["draw"]
        if w.kind == "pay":
            return ["pay"]
        if w.kind == "answer":
            out = (["just_say_no"] if w.may_say_no else []) + ["accept"]
            if w.amount > 0 and w.player == w.target:
                out.append("pay")
            return out
        if w.kind != "play" or w.player is None:
            return []
        p = w.player
        out = []
        if self.plays_left > 0 and self.hands[p] > 0:
            out += ["bank", "lay", "pass_go", "rent", "debt_collector", "birthday", "sly_deal", "forced_deal",
                    "deal_breaker", "build"]
        if any(self.card(c).kind == "wild" for s in self.sets[p] for c in s.cards):
            out.append("move_wild")
        out.append("discard" if self.hands[p] > self.limits.hand_limit else "end_turn")
        return out

    def _draw_size(self, player: str) -> int:
        r = self.limits
        return int(r.draw_if_hand_empty if self.hands.get(player, 0) == 0 else r.draw)

    # ----- folding
    def _start(self, event: Start) -> None:
        s = event.settings
        deck = s.deck
        counts: dict[Any, int] = {}
        if s.house.forced_deal_count is not None:
            counts["forced_deal"] = s.house.forced_deal_count
        if s.house.hotel_count is not None:
            counts["hotel"] = s.house.hotel_count
        if counts:
            deck = with_counts(deck, counts)
        n = len(s.players)
        if not deck.min_players <= n <= deck.max_players:
            raise IllegalAction(f"Monopoly Deal is for {deck.min_players} to {deck.max_players} players, not {n}")
        deal = deck.rules.deal
        if deal * n > len(deck.cards):
            raise IllegalAction(f"the deck has {len(deck.cards)} cards: too few to deal {deal} to {n} players")
        for p, cards in s.dealt.items():
            if p not in s.players:
                raise IllegalAction(f"cards are dealt to {p}, who is not playing")
            if len(cards) > deal:
                raise IllegalAction(f"{p} is dealt {len(cards)} cards; the deal is {deal}")
            for c in cards:
                if c not in deck.card_index():
                    raise IllegalAction(f"there is no card '{c}' in this game's deck")
        dealt = [c for cards in s.dealt.values() for c in cards]
        if len(set(dealt)) != len(dealt):
            raise IllegalAction("the same card is dealt twice")
        self.settings = s
        self.deck = deck
        self.hands = {p: deal for p in s.players}
        self.seen_in_hand = {p: list(s.dealt.get(p, [])) for p in s.players}
        self.banks = {p: [] for p in s.players}
        self.sets = {p: [] for p in s.players}
        self.draw_count = len(deck.cards) - deal * n
        self.story.append(f"{n} players, {deal} cards each; {s.players[0]} starts")

    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        return {Draw: self._draw_event, BankCard: self._bank, Lay: self._lay, MoveWild: self._move_wild,
                PassGo: self._pass_go, Rent: self._rent, DebtCollector: self._debt_collector,
                Birthday: self._birthday, SlyDeal: self._sly_deal, ForcedDeal: self._forced_deal,
                DealBreaker: self._deal_breaker, Build: self._build, JustSayNo: self._just_say_no,
                Accept: self._accept, Pay: self._pay, Discard: self._discard, EndTurn: self._end_turn,
                DoubleRent: self._double_rent, EndByAgreement: self._end_by_agreement}

    def _handle(self, event: Event) -> None:
        if isinstance(event, PlayerEvent) and event.player not in self.players:
            raise IllegalAction(f"{event.player} is not playing: the players are {', '.join(self.players)}")
        super()._handle(event)
        self._advance()

    # ----- checks shared by the handlers
    def _my_turn(self, event: PlayerEvent, what: str) -> None:
        w = self.waiting()
        if w.kind in ("answer", "pay"):
            raise IllegalAction(f"first {w.sentence}")
        if event.player != self.turn_player:
            raise IllegalAction(f"it is {self.turn_player}'s turn, not {event.player}'s: {what} waits for your turn")
        if w.kind == "draw":
            raise IllegalAction(f"{event.player} draws first")

    def _use_plays(self, event: PlayerEvent, what: str, n: int = 1) -> None:
        self._my_turn(event, what)
        limit = self.limits.plays_per_turn
        if self.plays + n > limit:
            if n > 1:
                raise IllegalAction(f"{what} takes {n} plays and {event.player} has {self.plays_left} left: "
                                    f"it would be play {self.plays + n} of {limit}")
            raise IllegalAction(f"{event.player} has used all {limit} plays this turn: end the turn")
        self.plays += n

    def _from_hand(self, player: str, card_id: str) -> Card:
        """Take a card out of `player`'s hand (seen there, or unseen while the hand holds unseen cards)."""
        card = self.card(card_id)
        seen = self.seen_in_hand[player]
        if card_id in seen:
            seen.remove(card_id)
        else:
            where = self.card_places()[card_id]
            if where != "unseen":
                raise IllegalAction(f"{card.name} ({card_id}) cannot be in {player}'s hand: it is {_where(where, self._colour_names())}")
            if self.unseen_in_hand(player) <= 0:
                raise IllegalAction(f"{player} has no card in hand" if self.hands[player] == 0 else
                                    f"{player}'s cards in hand are all known and {card.name} is not one of them")
        self.hands[player] -= 1
        return card

    def _opponent(self, actor: str, target: str) -> None:
        if target == actor:
            raise IllegalAction(f"{actor} cannot target themself")
        if target not in self.players:
            raise IllegalAction(f"{target} is not playing")

    def _action_card(self, card_id: str, action: str, label: str) -> None:
        card = self.card(card_id)
        if card.action != action:
            raise IllegalAction(f"{card.name} ({card_id}) is not a {label} card")

    def _colour(self, colour: str) -> None:
        if colour not in self._deck().colour_ids:
            raise IllegalAction(f"there is no colour '{colour}': the colours are {', '.join(self._deck().colour_ids)}")

    # ----- moving cards between places
    def _place(self, player: str, card_id: str, colour: str) -> None:
        """Lay a property card in `player`'s area: into the first incomplete set of its colour, else a new set."""
        size = self.colour_size(colour)
        for s in self.sets[player]:
            if s.colour == colour and len(s.cards) < size:
                s.cards.append(card_id)
                return
        self.sets[player].append(PropertySet(colour, [card_id]))

    def _remove_from_table(self, player: str, card_id: str) -> PropertySet:
        s = self.set_of(player, card_id)
        if s is None:
            raise IllegalAction(f"{self.name(card_id)} is not on {player}'s table")
        if card_id in s.cards:
            s.cards.remove(card_id)
        elif s.house == card_id:
            s.house = None
        else:
            s.hotel = None
        return s

    def _tidy(self, player: str) -> None:
        """After cards leave or join an area: incomplete sets of one colour merge; a building whose set is no
        longer complete follows the house rule; empty sets without buildings go."""
        for colour in self._deck().colour_ids:
            size = self.colour_size(colour)
            part = [s for s in self.sets[player] if s.colour == colour and len(s.cards) < size]
            if len(part) < 2:
                continue
            pool = [c for s in part for c in s.cards]
            for s in part:
                s.cards, pool = pool[:size], pool[size:]
            homeless = [s for s in part if not s.cards and s.buildings()]
            bare = [s for s in part if s.cards and not s.buildings()]
            for empty, target in zip(homeless, bare):
                target.house, target.hotel, empty.house, empty.hotel = empty.house, empty.hotel, None, None
        rule = self.house.broken_set_buildings
        for s in list(self.sets[player]):
            if s.buildings() and not self.is_complete(s) and rule != "stay":
                for b in s.buildings():
                    (self.banks[player] if rule == "bank" else self.discard).append(b)
                    self.story.append(f"{self.name(b)} off {player}'s broken {self.colour_name(s.colour)} set "
                                      f"to {'their bank' if rule == 'bank' else 'the discard pile'}")
                s.house = s.hotel = None
            if not s.cards and not s.buildings():
                self.sets[player].remove(s)

    def _draw(self, player: str, n: int, named: list[str]) -> int:
        """`player` draws `n` (fewer when the piles run out); `named` are the drawn cards the table saw."""
        if len(named) != len(set(named)):
            raise IllegalAction("the same card is named twice in the draw")
        if n > self.draw_count and self.house.reshuffle_discards and self.discard:
            self.story.append(f"the draw pile runs out: the {len(self.discard)} discarded cards are shuffled "
                              "into a new draw pile")
            self.draw_count += len(self.discard)
            self.discard.clear()
        k = min(n, self.draw_count)
        if len(named) > k:
            raise IllegalAction(f"{player} draws {k} cards, not {len(named)}")
        places = self.card_places()
        for c in named:
            self.card(c)
            if places[c] != "unseen":
                raise IllegalAction(f"{self.name(c)} ({c}) cannot be drawn: it is {_where(places[c], self._colour_names())}")
        self.hands[player] += k
        self.draw_count -= k
        self.seen_in_hand[player] += named
        return k

    # ----- turn events
    def _draw_event(self, event: Draw) -> None:
        if self.pending is not None or event.player != self.turn_player:
            raise IllegalAction(f"it is not {event.player}'s draw: {self.waiting().sentence}")
        if self.drawn:
            raise IllegalAction(f"{event.player} has already drawn this turn")
        n = self._draw_size(event.player)
        k = self._draw(event.player, n, event.cards)
        self.drawn = True
        self.story.append(f"{event.player} draws {k}" + (" (empty hand)" if n > self.limits.draw else ""))

    def _bank(self, event: BankCard) -> None:
        card = self.card(event.card)
        if card.kind == "property":
            raise IllegalAction(f"{card.name} is a property: property cards cannot go in the bank")
        if card.value <= 0:
            raise IllegalAction(f"{card.name} has no money value and cannot go in the bank")
        if card.kind == "wild" and not self.house.bank_property_wilds:
            raise IllegalAction(f"{card.name} is a property wild: this table does not bank property wilds")
        self._use_plays(event, "banking")
        self._from_hand(event.player, event.card)
        self.banks[event.player].append(event.card)
        self.story.append(f"{event.player} banks {card.name}" +
                          ("" if card.kind == "money" else f" ({money(card.value)})"))

    def _lay(self, event: Lay) -> None:
        card = self.card(event.card)
        if card.kind not in ("property", "wild"):
            raise IllegalAction(f"{card.name} is not a property card: it cannot be laid in the property area")
        colour = event.colour or (card.colours[0] if card.kind == "property" else None)
        if colour is None:
            raise IllegalAction(f"say which colour the {card.name} is laid as")
        self._colour(colour)
        if not card.can_be(colour):
            raise IllegalAction(f"{card.name} cannot be laid as {self.colour_name(colour)}: it is "
                                f"{self.colours_said(card)}")
        self._use_plays(event, "laying a property")
        self._from_hand(event.player, event.card)
        self._place(event.player, event.card, colour)
        self.story.append(f"{event.player} lays {card.name}" +
                          (f" as {self.colour_name(colour)}" if card.kind == "wild" else ""))

    def _move_wild(self, event: MoveWild) -> None:
        self._my_turn(event, "moving a wild")
        card = self.card(event.card)
        if card.kind != "wild":
            raise IllegalAction(f"{card.name} is not a wild card: only wilds change colour")
        s = self.set_of(event.player, event.card)
        if s is None or event.card not in s.cards:
            raise IllegalAction(f"{card.name} is not in {event.player}'s property area")
        self._colour(event.colour)
        if not card.can_be(event.colour):
            raise IllegalAction(f"{card.name} cannot be {self.colour_name(event.colour)}: it is "
                                f"{self.colours_said(card)}")
        if s.colour == event.colour:
            raise IllegalAction(f"{card.name} is already {self.colour_name(event.colour)}")
        s.cards.remove(event.card)
        self._place(event.player, event.card, event.colour)
        self._tidy(event.player)
        self.story.append(f"{event.player} moves {card.name} to {self.colour_name(event.colour)} (no play used)")

    def _pass_go(self, event: PassGo) -> None:
        self._action_card(event.card, "pass_go", "Pass Go")
        self._use_plays(event, "Pass Go")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        k = self._draw(event.player, self.limits.pass_go_draw, event.drawn)
        self.story.append(f"{event.player} plays Pass Go and draws {k}")

    def _build(self, event: Build) -> None:
        card = self.card(event.card)
        if card.kind != "building":
            raise IllegalAction(f"{card.name} is not a house or a hotel")
        self._colour(event.colour)
        colour = self._deck().colour(event.colour)
        if not colour.buildings:
            raise IllegalAction(f"houses and hotels never go on {colour.name} sets")
        sets = [s for s in self.complete_sets(event.player) if s.colour == event.colour]
        if not sets:
            raise IllegalAction(f"a {card.name.lower()} goes only on a complete set: {event.player} has no "
                                f"complete {colour.name} set")
        if card.action == "house":
            free = [s for s in sets if s.house is None]
            if not free:
                raise IllegalAction(f"{event.player}'s {colour.name} set already has a house: one house per set")
        else:
            free = [s for s in sets if s.house is not None and s.hotel is None]
            if not free:
                has_hotel = any(s.hotel for s in sets)
                raise IllegalAction(f"{event.player}'s {colour.name} set already has a hotel: one hotel per set"
                                    if has_hotel else f"a hotel needs a house first on the {colour.name} set")
        self._use_plays(event, f"a {card.name.lower()}")
        self._from_hand(event.player, event.card)
        if card.action == "house":
            free[0].house = event.card
        else:
            free[0].hotel = event.card
        self.story.append(f"{event.player} puts a {card.name.lower()} on {colour.name}")

    # ----- actions against other players
    def _open(self, kind: PendingKind, actor: str, cards: list[str], targets: list[str], amount: int,
              **extra: Any) -> None:
        self.pending = Pending(kind, actor, cards, [Claim(t, amount) for t in targets], **extra)

    def _opponents(self, actor: str) -> list[str]:
        """Everyone else, in seating order from `actor`'s left."""
        i = self.players.index(actor)
        return self.players[i + 1:] + self.players[:i]

    def _rent(self, event: Rent) -> None:
        card = self.card(event.card)
        if card.kind != "rent":
            raise IllegalAction(f"{card.name} is not a rent card")
        self._colour(event.colour)
        if not card.any_colour and event.colour not in card.colours:
            raise IllegalAction(f"{card.name} charges {self.colours_said(card)}, not "
                                f"{self.colour_name(event.colour)}")
        if card.any_colour:
            if event.target is None:
                raise IllegalAction("the any-colour rent charges one player: say who")
            self._opponent(event.player, event.target)
        elif event.target is not None:
            raise IllegalAction(f"{card.name} charges every opponent: no target is named")
        for d in event.doubles:
            self._action_card(d, "double_the_rent", "Double the Rent")
        if len(set(event.doubles)) != len(event.doubles):
            raise IllegalAction("the same Double the Rent card is named twice")
        if len(event.doubles) > 1 and not self.house.stack_double_rent:
            raise IllegalAction("this table plays one Double the Rent per rent card")
        if event.doubles and card.any_colour and not self.house.double_with_any_rent:
            raise IllegalAction("this table plays Double the Rent with two-colour rent cards only")
        base = self.rent_for(event.player, event.colour)
        if base == 0:
            multi = any(s.colour == event.colour for s in self.sets[event.player])
            raise IllegalAction(f"{event.player} has no {self.colour_name(event.colour)} property to charge rent for" +
                                (": a multicolour wild alone earns no rent" if multi else ""))
        what = "rent with Double the Rent" if event.doubles else "rent"
        self._use_plays(event, what, 1 + len(event.doubles))
        for c in [event.card, *event.doubles]:
            self._from_hand(event.player, c)
            self.discard.append(c)
        amount = base * 2 ** len(event.doubles)
        targets = [event.target] if event.target else self._opponents(event.player)
        self._open("rent", event.player, [event.card, *event.doubles], targets, amount, colour=event.colour)
        who = event.target or "every opponent"
        self.story.append(f"{event.player} charges {who} {money(amount)} rent for {self.colour_name(event.colour)}"
                          + (f" (doubled x{2 ** len(event.doubles)})" if event.doubles else ""))

    def double_limit(self, rent_card: str) -> int:
        """How many Double the Rent cards the house rules let one rent card carry."""
        if self.card(rent_card).any_colour and not self.house.double_with_any_rent:
            return 0
        return 2 if self.house.stack_double_rent else 1

    def open_rent_to_double(self, player: str) -> Pending | None:
        """The rent `player` has just played when a Double the Rent may still join it: nobody has answered
        or paid it yet (a payer with nothing on the table, settled at once, has paid nothing) and the
        house rules allow one more double on it. None otherwise."""
        p = self.pending
        if p is None or p.kind != "rent" or p.actor != player:
            return None
        if len(p.cards) - 1 >= self.double_limit(p.cards[0]):
            return None
        if p.claim.chain or p.claim.accepted or p.claim.status not in ("answer", "pay"):
            return None
        if any(c.chain or c.paid or c.status != "done" for c in p.claims[:p.index]):
            return None
        return p

    def _double_rent(self, event: DoubleRent) -> None:
        self._action_card(event.card, "double_the_rent", "Double the Rent")
        p = self.pending
        if p is None or p.kind != "rent" or p.actor != event.player:
            raise IllegalAction(f"Double the Rent goes with a rent card {event.player} has just played: play "
                                "the rent card first")
        if self.double_limit(p.cards[0]) == 0:
            raise IllegalAction("this table plays Double the Rent with two-colour rent cards only")
        if self.open_rent_to_double(event.player) is None:
            if len(p.cards) - 1 >= self.double_limit(p.cards[0]):
                raise IllegalAction("this table plays one Double the Rent per rent card")
            raise IllegalAction(f"the rent has been answered or paid: Double the Rent comes before "
                                f"{p.claim.target} answers")
        if self.plays + 1 > self.limits.plays_per_turn:
            raise IllegalAction(f"{event.player} has used all {self.limits.plays_per_turn} plays this turn: "
                                "Double the Rent would be one more")
        self._from_hand(event.player, event.card)
        self.plays += 1
        self.discard.append(event.card)
        p.cards.append(event.card)
        for i, c in enumerate(p.claims):
            c.amount *= 2
            if i < p.index:  # settled with nothing: the payment record owes the doubled amount
                for k in range(len(self.payments) - 1, -1, -1):
                    old = self.payments[k]
                    if old.payer == c.target and old.payee == p.actor and not old.cards:
                        self.payments[k] = Payment(old.payer, old.payee, c.amount, (), 0, old.reason)
                        break
        self.story.append(f"{event.player} doubles the rent with Double the Rent: {p.claim.target} owes "
                          f"{money(p.claim.amount)}")

    def _end_by_agreement(self, event: EndByAgreement) -> None:
        """The table stops: most complete sets, then most money on the table; equal leaders share it."""
        def standing(p: str) -> tuple[int, int]:
            return len(self.complete_colours(p)), self.bank_total(p) + self.table_value(p)

        best = max(standing(p) for p in self.players)
        leaders = [p for p in self.players if standing(p) == best]
        self.pending = None
        self.finished = True
        self.agreed = True
        how = f"{best[0]} complete set{'s' if best[0] != 1 else ''} and {money(best[1])} on the table"
        if len(leaders) == 1:
            self.winner_name = leaders[0]
            self.story.append(f"the table ends the game by agreement: {leaders[0]} wins with {how}")
        else:
            self.tied = leaders
            self.story.append(f"the table ends the game by agreement: {' and '.join(leaders)} share it with {how} "
                              "each")

    def _debt_collector(self, event: DebtCollector) -> None:
        self._action_card(event.card, "debt_collector", "Debt Collector")
        self._opponent(event.player, event.target)
        self._use_plays(event, "Debt Collector")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        self._open("debt_collector", event.player, [event.card], [event.target], self.limits.debt_collector)
        self.story.append(f"{event.player} plays Debt Collector: {event.target} owes "
                          f"{money(self.limits.debt_collector)}")

    def _birthday(self, event: Birthday) -> None:
        self._action_card(event.card, "its_my_birthday", "It's My Birthday")
        self._use_plays(event, "It's My Birthday")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        self._open("birthday", event.player, [event.card], self._opponents(event.player), self.limits.birthday)
        self.story.append(f"{event.player}'s birthday: everyone owes {money(self.limits.birthday)}")

    def _check_take(self, owner: str, card_id: str, verb: str) -> PropertySet:
        card = self.card(card_id)
        s = self.set_of(owner, card_id)
        if s is None or card_id not in s.cards:
            raise IllegalAction(f"{card.name} is not a property in {owner}'s area")
        if self.is_complete(s):
            raise IllegalAction(f"{card.name} is part of {owner}'s complete {self.colour_name(s.colour)} set: "
                                f"{verb} cannot take from a complete set (a Deal Breaker takes whole sets)")
        return s

    def _sly_deal(self, event: SlyDeal) -> None:
        self._action_card(event.card, "sly_deal", "Sly Deal")
        self._opponent(event.player, event.target)
        self._check_take(event.target, event.take, "a Sly Deal")
        self._use_plays(event, "Sly Deal")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        self._open("sly_deal", event.player, [event.card], [event.target], 0, take=event.take)
        self.story.append(f"{event.player} plays Sly Deal on {event.target}'s {self.name(event.take)}")

    def _forced_deal(self, event: ForcedDeal) -> None:
        self._action_card(event.card, "forced_deal", "Forced Deal")
        self._opponent(event.player, event.target)
        self._check_take(event.target, event.take, "a Forced Deal")
        mine = self.set_of(event.player, event.give)
        if mine is None or event.give not in mine.cards:
            raise IllegalAction(f"{self.name(event.give)} is not a property in {event.player}'s area")
        if self.is_complete(mine) and not self.house.forced_deal_from_full_set:
            raise IllegalAction(f"{self.name(event.give)} is part of {event.player}'s complete "
                                f"{self.colour_name(mine.colour)} set: "
                                "this table does not give cards out of complete sets in a Forced Deal")
        self._use_plays(event, "Forced Deal")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        self._open("forced_deal", event.player, [event.card], [event.target], 0, take=event.take, give=event.give)
        self.story.append(f"{event.player} plays Forced Deal: {self.name(event.give)} for {event.target}'s "
                          f"{self.name(event.take)}")

    def _deal_breaker(self, event: DealBreaker) -> None:
        self._action_card(event.card, "deal_breaker", "Deal Breaker")
        self._opponent(event.player, event.target)
        self._colour(event.colour)
        if not any(s.colour == event.colour for s in self.complete_sets(event.target)):
            raise IllegalAction(f"{event.target} has no complete {self.colour_name(event.colour)} set: a Deal Breaker takes "
                                "complete sets only")
        self._use_plays(event, "Deal Breaker")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        self._open("deal_breaker", event.player, [event.card], [event.target], 0, colour=event.colour)
        self.story.append(f"{event.player} plays Deal Breaker on {event.target}'s {self.colour_name(event.colour)} set")

    # ----- answers and payments
    def _need_answer(self, event: PlayerEvent) -> Pending:
        p = self.pending
        if p is None or p.claim.status != "answer":
            raise IllegalAction(f"no action waits for an answer: {self.waiting().sentence}")
        if event.player != p.responder:
            raise IllegalAction(f"{p.responder} answers now, not {event.player}")
        return p

    def _just_say_no(self, event: JustSayNo) -> None:
        p = self._need_answer(event)
        self._action_card(event.card, "just_say_no", "Just Say No")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        p.claim.chain.append(event.card)
        against = "the " + ACTION_WORDS[p.kind] if len(p.claim.chain) % 2 else "the Just Say No"
        self.story.append(f"{event.player} says Just Say No to {against} (no play used)")

    def _accept(self, event: Accept) -> None:
        p = self._need_answer(event)
        p.claim.accepted = True
        self._resolve(p)

    def _resolve(self, p: Pending) -> None:
        """The open claim's answer is settled: the action stands (even chain) or is cancelled (odd)."""
        c = p.claim
        if len(c.chain) % 2:
            c.status = "cancelled"
            self.story.append(f"{ACTION_WORDS[p.kind]} against {c.target} is cancelled")
            return
        if c.amount > 0:
            c.status = "pay"
            return
        actor, target = p.actor, c.target
        if p.kind == "sly_deal" and p.take:
            self._move_property(target, actor, p.take)
        elif p.kind == "forced_deal" and p.take and p.give:
            self._move_property(target, actor, p.take)
            self._move_property(actor, target, p.give)
        elif p.kind == "deal_breaker" and p.colour:
            s = next(s for s in self.complete_sets(target) if s.colour == p.colour)
            self.sets[target].remove(s)
            self.sets[actor].append(s)
            self.story.append(f"{actor} takes {target}'s complete {self.colour_name(p.colour)} set"
                              + (" with its buildings" if s.buildings() else ""))
        c.status = "done"
        self._tidy(actor)
        self._tidy(target)

    def _move_property(self, giver: str, receiver: str, card_id: str) -> None:
        s = self._remove_from_table(giver, card_id)
        self._place(receiver, card_id, s.colour)
        self.story.append(f"{self.name(card_id)} goes from {giver} to {receiver}")

    def _pay(self, event: Pay) -> None:
        p = self.pending
        if p is None or p.claim.status not in ("pay", "answer") or p.claim.amount == 0:
            raise IllegalAction(f"nobody owes anything now: {self.waiting().sentence}")
        c = p.claim
        if event.player != c.target:
            raise IllegalAction(f"{c.target} pays now, not {event.player}")
        if c.status == "answer":
            if p.responder != c.target:
                raise IllegalAction(f"{p.actor} answers the Just Say No first")
            c.status = "pay"  # paying is accepting
        self._settle(p, event.cards)

    def _check_payment(self, payer: str, cards: list[str], owed: int) -> int:
        if len(set(cards)) != len(cards):
            raise IllegalAction("the same card is named twice in the payment")
        payable = self.payable(payer)
        for cid in cards:
            card = self.card(cid)
            if cid not in payable:
                where = self.card_places()[cid]
                if where in (f"bank:{payer}",) or where.startswith((f"set:{payer}:", f"building:{payer}:")):
                    raise IllegalAction(f"{card.name} has no money value: it cannot pay a debt")
                raise IllegalAction(f"{payer} pays from their bank and table only, and {card.name} is "
                                    f"{_where(where, self._colour_names())}")
            s = self.set_of(payer, cid)
            if s is not None and s.house == cid and s.hotel is not None and s.hotel not in cards:
                raise IllegalAction(f"the house on {payer}'s {self.colour_name(s.colour)} set carries a hotel: "
                                    "pay the hotel with it")
        value = sum(self.card(cid).value for cid in cards)
        if value < owed:
            missing = [cid for cid in payable if cid not in cards]
            if missing and sum(self.card(c).value for c in payable) < owed:
                raise IllegalAction(f"{payer} owes {money(owed)} and gives {money(value)}: a short payer gives "
                                    f"everything on the table, so add {self.name(missing[0])}")
            if missing:
                raise IllegalAction(f"{payer} owes {money(owed)} and gives {money(value)}: add cards worth "
                                    f"{money(owed - value)} more from the bank or the table")
        else:
            for cid in cards:
                s = self.set_of(payer, cid)
                if s is not None and s.hotel == cid and s.house in cards:
                    continue  # the hotel carries its house: it cannot be left behind on its own
                if value - self.card(cid).value >= owed:
                    raise IllegalAction(f"{money(value - self.card(cid).value)} already covers {money(owed)} "
                                        f"without {self.name(cid)}: no change is given, so keep it")
        return value

    def _settle(self, p: Pending, cards: list[str]) -> None:
        c = p.claim
        payer, payee = c.target, p.actor
        value = self._check_payment(payer, cards, c.amount)
        for cid in cards:
            card = self.card(cid)
            if cid in self.banks[payer]:
                self.banks[payer].remove(cid)
                self.banks[payee].append(cid)
            elif card.kind == "building":
                self._remove_from_table(payer, cid)
                self._receive_building(payee, cid)
            else:
                self._move_property(payer, payee, cid)
        c.paid = list(cards)
        c.status = "done"
        self._tidy(payer)
        self._tidy(payee)
        reason = ACTION_WORDS[p.kind] + (f" for {self.colour_name(p.colour)}" if p.colour else "")
        self.payments.append(Payment(payer, payee, c.amount, tuple(cards), value, reason))
        short = f", {money(c.amount - value)} forgiven" if value < c.amount else ""
        over = f" (no change on {money(value - c.amount)})" if value > c.amount else ""
        self.story.append(f"{payer} pays {payee} {money(value)} for {money(c.amount)}{over}{short}")

    def _receive_building(self, player: str, card_id: str) -> None:
        card = self.card(card_id)
        if self.house.received_building == "property":
            for s in self.complete_sets(player):
                if not self._deck().colour(s.colour).buildings:
                    continue
                if card.action == "house" and s.house is None:
                    s.house = card_id
                    return
                if card.action == "hotel" and s.house is not None and s.hotel is None:
                    s.hotel = card_id
                    return
        self.banks[player].append(card_id)

    def _advance(self) -> None:
        """Settle what needs nobody's decision (an answer from a player who cannot hold a Just Say No, a
        payer with nothing to pay), move to the next claim, close a finished action, and check the win."""
        p = self.pending
        while p is not None:
            c = p.claim
            if c.status == "answer" and c.amount > 0 and not c.chain and not self.payable(c.target):
                c.status = "pay"
            if c.status == "answer" and not self.may_say_no(p.responder):
                self._resolve(p)
                continue
            if c.status == "pay" and not self.payable(c.target):
                self._settle(p, [])
                continue
            if c.status in ("done", "cancelled"):
                p.index += 1
                if p.index == len(p.claims):
                    self.pending = p = None
                continue
            break
        if self.pending is None and self.settings is not None and not self.finished:
            player = self.turn_player
            if player is not None and len(self.complete_colours(player)) >= self.limits.sets_to_win:
                self.winner_name = player
                self.finished = True
                self.story.append(f"{player} wins with complete sets of {self.colours_listed(self.complete_colours(player))}")

    def _discard(self, event: Discard) -> None:
        self._my_turn(event, "discarding")
        limit = self.limits.hand_limit
        n = len(event.cards) + event.unseen
        if n == 0:
            raise IllegalAction("name the cards discarded")
        if self.hands[event.player] - n < limit:
            raise IllegalAction(f"{event.player} holds {self.hands[event.player]} cards and discards down to "
                                f"{limit}: {max(0, self.hands[event.player] - limit)} cards, not {n}")
        to_bottom = self.house.excess_cards_to == "draw_pile_bottom"
        if event.unseen and not to_bottom:
            raise IllegalAction("discards go face up to the discard pile: name each card")
        if len(set(event.cards)) != len(event.cards):
            raise IllegalAction("the same card is named twice")
        for cid in event.cards:
            self._from_hand(event.player, cid)
            if to_bottom:
                self.draw_count += 1
            else:
                self.discard.append(cid)
        if event.unseen:
            if self.unseen_in_hand(event.player) < event.unseen:
                raise IllegalAction(f"{event.player} holds only {self.unseen_in_hand(event.player)} unseen cards")
            self.hands[event.player] -= event.unseen
            self.draw_count += event.unseen
        where = "under the draw pile" if to_bottom else "to the discard pile"
        self.story.append(f"{event.player} discards {n} {where}")

    def _end_turn(self, event: EndTurn) -> None:
        self._my_turn(event, "ending the turn")
        limit = self.limits.hand_limit
        if self.hands[event.player] > limit:
            extra = self.hands[event.player] - limit
            raise IllegalAction(f"{event.player} holds {self.hands[event.player]} cards: discard {extra} "
                                f"to end the turn with {limit}")
        self.history.append({
            "turn": self.turn_number, "player": event.player,
            "bank": {p: self.bank_total(p) for p in self.players},
            "sets": {p: len(self.complete_colours(p)) for p in self.players}})
        self.turn_index = (self.turn_index + 1) % len(self.players)
        self.turn_number += 1
        self.plays = 0
        self.drawn = False
        self.story.append(f"{event.player} ends the turn; {self.turn_player} to play")

    # ----- reporting
    def summary(self) -> dict[str, Any]:
        """What `companion replay --json` prints."""
        if self.settings is None:
            return {"variant": VARIANT, "started": False}
        players = {}
        for p in self.players:
            players[p] = {
                "hand": self.hands[p],
                "bank": list(self.banks[p]),
                "bank_total": self.bank_total(p),
                "sets": [{"colour": s.colour, "cards": list(s.cards), "complete": self.is_complete(s),
                          "house": s.house, "hotel": s.hotel, "rent": self.set_rent(s)} for s in self.sets[p]],
                "complete_colours": self.complete_colours(p),
            }
        w = self.waiting()
        return {
            "variant": VARIANT,
            "players": players,
            "turn": self.turn_number,
            "turn_player": self.turn_player,
            "plays_used": self.plays,
            "draw_pile": self.draw_count,
            "discard_pile": list(self.discard),
            "waiting_for": {"kind": w.kind, "player": w.player, "sentence": w.sentence},
            "finished": self.finished,
            "winner": self.winner_name,
        }


def _where(place: str, names: dict[str, str] | None = None) -> str:
    kind, _, rest = place.partition(":")
    owner, _, colour = rest.partition(":")
    colour = (names or {}).get(colour, colour)
    return {"hand": f"in {owner}'s hand", "bank": f"in {owner}'s bank", "set": f"in {owner}'s {colour} set",
            "building": f"on {owner}'s {colour} set", "discard": "in the discard pile",
            "unseen": "not seen yet"}.get(kind, place)


def new_state() -> DealState:
    return DealState()


def new_game(players: list[str], house: HouseRules | None = None, deck: Deck | None = None,
             dealt: dict[str, list[str]] | None = None) -> GameLog[DealState]:
    """A started game with the shipped deck (or `deck`) embedded in the `start` event."""
    settings = Settings(players=players, deck=deck or load_deck(), house=house or HouseRules(), dealt=dealt or {})
    log: GameLog[DealState] = GameLog(new_state)
    log.push(Start(settings=settings))
    return log


def format_summary(s: dict[str, Any]) -> str:
    """`DealState.summary()` as the plain text `companion replay` prints."""
    if not s.get("players"):
        return "Monopoly Deal: not started"
    lines = []
    for p, d in s["players"].items():
        sets = "; ".join(
            f"{x['colour']} {len(x['cards'])}{' complete' if x['complete'] else ''}"
            + (" +house" if x["house"] else "") + (" +hotel" if x["hotel"] else "") for x in d["sets"]) or "none"
        lines.append(f"{p}: bank {money(d['bank_total'])} ({len(d['bank'])} cards), hand {d['hand']}, sets: {sets}")
    lines.append(f"Draw pile {s['draw_pile']}, discard pile {len(s['discard_pile'])}")
    lines.append(f"Winner: {s['winner']}" if s["winner"] else f"Waiting: {s['waiting_for']['sentence']}")
    return "\n".join(lines)


def all_events() -> Iterable[type[Event]]:
    """Every event class of the game (for documentation and tests)."""
    return (Start, Draw, BankCard, Lay, MoveWild, PassGo, Rent, DebtCollector, Birthday, SlyDeal, ForcedDeal,
            DealBreaker, Build, JustSayNo, Accept, Pay, Discard, EndTurn, DoubleRent, EndByAgreement)
