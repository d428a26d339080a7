"""Monopoly Builder (Hasbro 2021) as a fold over an ordered log of events: bank, deeds, resources, buildings, score.

The rules are the project's rules text (`rules-text/002_d7cd30fbe0693f21.txt`); what the box decides (deeds,
track, floor costs, Chance cards, foundations) comes from a board profile
(`companion.games.monopoly_builder.profile`, default `assets/profiles/monopoly_builder.json`), EMBEDDED in the
`start` event with the table settings, so a log replays the same after the profile file is edited.

A turn: `discard` (only with more than 6 resources, counted from the hand as it is now) -> `roll` (dice
in the event: everyone gathers, the token moves, picking up chips on the spaces it passes, and the space
acts) -> what the space asks (`buy` or `auction` + `bid`s + `auction_end`, `chance`, `resource_roll`,
`steal`) -> trades and building (`bank_trade` in this Trade step, `free_parking`, `forced_trade`, `build`)
-> `end_turn` (after doubles the same player's next `roll`, or the `discard` before it, is their next turn).
At any time: `trade` between players, `mortgage`, `unmortgage`, `rent` (the owner asks, until the next
player rolls), `token` (a correction: the token is really on that space), `end_game`. A player who owes
more than their cash has a `debt`: they mortgage or trade until it is paid (it is paid automatically as
soon as their cash covers it) or declare `bankrupt`. Building the penthouse ends the game. Event fields
and examples: `docs/event-format.md`.

What a moment asks (the discard owed, the open rents and their owners, whether the roll is another turn
after doubles) is derived from the state as it is after every event, never remembered from an earlier
moment: `phase` is the stored `stage` with the discard derived from the hand. Which moves are legal now,
concretely, is `legal.legal_moves(state)`: the app draws its buttons from it.

State (`BuilderState`): `cash` per account (`bank`, each player) and `ledger` (every transaction, through
`companion.rules.ledger`), `owners`, `mortgaged`, `resources` (holder -> colour -> chips; holders are
`bank` and the players), `space_resources` (track index -> colour -> chips), `buildings` (foundation ->
owner and floors), `blocks` (each player's unbuilt blocks), `penthouse_by`, `positions`, `jail` (player
-> failed rolls), `kept_cards`, `deck`, `bankrupt`, `stage` (the step events left the turn in), `rents`
(the rent windows open), `auction`, `debt`, `last_roll`, `last_handout`, `notes`. Helpers:
`current_player`, `phase`, `discard_owed()`, `rolls_again()`, `allowed_events()`, `waiting_for()`,
`rent_for(deed)`, `rents_due()`, `least_bid()`, `bank_trade_now(player)`, `floor_cost(player, floor)`,
`next_floor(cell, player)`, `scores()`, `winner()`, `result_line()`, `summary()`.

Money, chips and blocks are conserved: money moves only through `companion.rules.ledger.transfer` (the sum
over accounts is always the Bank's float); chips only through `_move_chips` between holders and spaces
(the sum is always chips_per_colour per colour); a block leaves its owner's supply only to become a floor.
Every refused event raises `IllegalAction` with one sentence and, as `GameLog.push` applies events to a
copy, changes nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from companion.events import Event, GameLog, PlayerEvent, RulesState, StartEvent, Undo
from companion.games.monopoly_builder.profile import (
    KEPT_CARDS,
    FloorCost,
    Profile,
    cell_name,
    load_profile,
    parse_cell,
    validate_profile,
)
from companion.rules.errors import IllegalAction, RulesDataError
from companion.rules.ledger import Transaction, transfer
from companion.rules.money import money_prefixed as money
from companion.rules.players import check_player_names

VARIANT = "monopoly_builder"
BANK = "bank"

Die = Annotated[int, Field(ge=1, le=6, description="what one die shows")]
Phase = Literal["discard", "roll", "buy", "auction", "chance", "resource_roll", "steal", "act", "over"]


# ---------------------------------------------------------------- events


class Seat(BaseModel):
    """A player and the colour of their token (their reference card and their blocks)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    colour: str


class Settings(BaseModel):
    """Everything a game needs: the seats in turn order, the profile (embedded) and the table settings
    (house rules where the rules text is silent; defaults listed in the README)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    players: list[Seat] = Field(min_length=1, description="in turn order; the first plays first")
    profile: dict[str, Any] = Field(description="the whole board profile, embedded")
    dice: Literal["entered", "rolled"] = Field(
        default="entered", description="the table enters the dice it rolled, or the app rolls them (both are recorded)")
    bonus_tie: Literal["none", "all"] = Field(
        default="none", description="a tie for a Builder's Bonus card: nobody takes it, or every tied player scores it")
    penthouse_building: Literal["owner", "apart"] = Field(
        default="owner", description="the building under the penthouse is its owner's: 16 points and part of their "
        "Community Builder group ('owner'), or 16 points but not in any group ('apart')")
    jail_doubles_again: bool = Field(
        default=False, description="doubles that free a player from Jail also give another roll")
    bank_trade: Literal["trade_step", "your_turn"] | None = Field(
        default=None, description="when the 4-for-1 with the Bank is allowed: in the Trade step after the move, "
        "as the text's turn order says ('trade_step', the default of a new game), or at any time on the player's "
        "own turn ('your_turn'); None: a log recorded before this setting existed (it allowed 'your_turn')")
    rent_window: Literal["next_player", "next_roll"] = Field(
        default="next_player", description="an owner may ask for rent until the next player rolls "
        "('next_player', the text's words: the lander's own re-roll after doubles keeps it open), or only until "
        "the next roll of anyone ('next_roll', the stricter reading)")

    @model_validator(mode="after")
    def _check(self) -> Settings:
        names = check_player_names([s.name for s in self.players])
        if any(n.lower() == BANK for n in names):
            raise ValueError("'bank' is an account name and cannot be a player name")
        colours = [s.colour for s in self.players]
        if len(set(colours)) != len(colours):
            raise ValueError("two players have the same token colour")
        return self

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.players]


class Start(StartEvent):
    settings: Settings


class Discard(PlayerEvent):
    """At the start of the turn, with more than the hand limit: the chips put on the current space."""

    type: Literal["discard"] = "discard"
    resources: dict[str, int]


class Roll(PlayerEvent):
    """The turn's roll (also a roll for doubles in Jail): both dice, entered by the table or rolled by the app."""

    type: Literal["roll"] = "roll"
    dice: tuple[Die, Die]


class JailPay(PlayerEvent):
    """Pay the Jail fee at the start of the turn, then roll as usual."""

    type: Literal["jail_pay"] = "jail_pay"


class JailCard(PlayerEvent):
    """Use a Get Out of Jail Free card at the start of the turn, then roll as usual."""

    type: Literal["jail_card"] = "jail_card"


class Buy(PlayerEvent):
    """Buy the deed the player landed on at its printed price."""

    type: Literal["buy"] = "buy"


class Auction(PlayerEvent):
    """The player does not buy: the deed they landed on goes up for auction."""

    type: Literal["auction"] = "auction"


class Bid(PlayerEvent):
    type: Literal["bid"] = "bid"
    amount: int


class AuctionEnd(Event):
    """Nobody raises: the highest bidder pays and takes the deed (no bid: it stays with the Bank)."""

    type: Literal["auction_end"] = "auction_end"


class Rent(PlayerEvent):
    """The owner (`player`) asks for the rent of a deed a player landed on, before the next player rolls.
    `deed` and `amount` name what is asked (recorded by the app; a log without them asks the first open
    rent of this owner at its amount now)."""

    type: Literal["rent"] = "rent"
    deed: str | None = None
    amount: int | None = None


class ChanceDraw(PlayerEvent):
    """The Chance card the player drew (an id of the profile's Chance cards)."""

    type: Literal["chance"] = "chance"
    card: str


class ResourceRoll(PlayerEvent):
    """The roll on a Roll for Resources space (compared with the space's chart)."""

    type: Literal["resource_roll"] = "resource_roll"
    dice: tuple[Die, Die]


class Steal(PlayerEvent):
    """On a Steal 1 Resource space: one chip of `resource` from `target` (None: steal nothing)."""

    type: Literal["steal"] = "steal"
    target: str | None = None
    resource: str | None = None


class FreeParking(PlayerEvent):
    """On Free Parking: two chips (any colours) for one chip of a colour not given, from the Bank."""

    type: Literal["free_parking"] = "free_parking"
    give: dict[str, int]
    take: str


class BankTrade(PlayerEvent):
    """On the player's turn: four chips of one colour for one of another, with the Bank."""

    type: Literal["bank_trade"] = "bank_trade"
    give: str
    take: str


class Bundle(BaseModel):
    """What one side of a trade gives: cash, chips, deeds, kept Chance cards."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    cash: int = Field(default=0, ge=0)
    resources: dict[str, int] = Field(default_factory=dict)
    deeds: list[str] = Field(default_factory=list)
    cards: list[str] = Field(default_factory=list)

    def empty(self) -> bool:
        return not (self.cash or any(self.resources.values()) or self.deeds or self.cards)


class Trade(PlayerEvent):
    """A deal both players agreed: `player` gives `give` to `partner` and receives `get`."""

    type: Literal["trade"] = "trade"
    partner: str
    give: Bundle = Field(default_factory=Bundle)
    get: Bundle = Field(default_factory=Bundle)


class ForcedTrade(PlayerEvent):
    """Play a kept FORCED TRADE! card: `target` must swap one `take` chip for one of the player's `give` chips."""

    type: Literal["forced_trade"] = "forced_trade"
    target: str
    give: str
    take: str


class Build(PlayerEvent):
    """One floor on foundation `cell` (e.g. "C4"), paid with the chips `paid` (colour -> count)."""

    type: Literal["build"] = "build"
    cell: str
    paid: dict[str, int]


class Mortgage(PlayerEvent):
    type: Literal["mortgage"] = "mortgage"
    deed: str


class Unmortgage(PlayerEvent):
    type: Literal["unmortgage"] = "unmortgage"
    deed: str


class PlaceToken(PlayerEvent):
    """A correction: `player`'s token is really on track space `space` (an index of the profile's track). The
    token is put there: no GO money, no resources picked up, the space does nothing."""

    type: Literal["token"] = "token"
    space: int


class Bankrupt(PlayerEvent):
    """A player who cannot pay their debt: no more turns; assets to the creditor or back to the Bank."""

    type: Literal["bankrupt"] = "bankrupt"


class EndTurn(PlayerEvent):
    type: Literal["end_turn"] = "end_turn"


class EndGame(Event):
    """The table stops the game before a penthouse (by agreement): it is scored as it stands."""

    type: Literal["end_game"] = "end_game"
    reason: str = "agreed"


BuilderEvent = Annotated[
    Start | Discard | Roll | JailPay | JailCard | Buy | Auction | Bid | AuctionEnd | Rent | ChanceDraw
    | ResourceRoll | Steal | FreeParking | BankTrade | Trade | ForcedTrade | Build | Mortgage | Unmortgage
    | Bankrupt | EndTurn | EndGame | PlaceToken | Undo,
    Field(discriminator="type"),
]
_EVENT_UNION: Any = BuilderEvent  # mypy reads a long union as a type[] call; the adapter is still typed
EVENT_ADAPTER: TypeAdapter[BuilderEvent] = TypeAdapter(_EVENT_UNION)


# ---------------------------------------------------------------- state records


@dataclass(frozen=True)
class Building:
    """What stands on one foundation: `floors` of the owner's blocks (1-4) and whether the penthouse tops it."""

    owner: str
    floors: int
    penthouse: bool = False

    @property
    def height(self) -> int:
        return self.floors + (1 if self.penthouse else 0)


@dataclass(frozen=True)
class RentDue:
    """The rent `owner` may ask of `payer` for `deed` until the next roll."""

    payer: str
    owner: str
    deed: str


@dataclass(frozen=True)
class AuctionState:
    deed: str
    high_bid: int = 0
    high_bidder: str | None = None


@dataclass(frozen=True)
class Debt:
    """`debtor` owes `amount` to `creditor` (a player or the Bank) and must raise the cash or go bankrupt."""

    debtor: str
    creditor: str
    amount: int
    reason: str


@dataclass(frozen=True)
class Handout:
    """Chips a roll (or a space, or a card) gave: `player` took `count` `colour` chips because of `reason`."""

    player: str
    colour: str
    count: int
    reason: str


@dataclass(frozen=True)
class Score:
    """One player's score breakdown."""

    player: str
    buildings: tuple[int, ...]  # heights, tallest first
    building_points: int
    monopolies: tuple[str, ...]  # colour group ids
    monopoly_points: int
    billionaire: int
    community_size: int
    community: int
    cash: int

    @property
    def total(self) -> int:
        return self.building_points + self.monopoly_points + self.billionaire + self.community

    def as_dict(self) -> dict[str, Any]:
        return {"buildings": list(self.buildings), "building_points": self.building_points,
                "monopolies": list(self.monopolies), "monopoly_points": self.monopoly_points,
                "billionaire": self.billionaire, "community_size": self.community_size,
                "community": self.community, "cash": self.cash, "total": self.total}


# Immutable rules data shared between the copies GameLog makes on every event.
_SHARED_FIELDS = ("settings", "profile")
# Containers whose items are immutable (copied one level) and those holding containers of immutables (two).
_FLAT_FIELDS = frozenset({"cash", "ledger", "owners", "mortgaged", "positions", "jail", "deck", "buildings",
                          "blocks", "bankrupt", "last_handout", "rents", "notes"})
_NESTED_FIELDS = frozenset({"resources", "space_resources", "kept_cards"})


@dataclass
class BuilderState(RulesState):
    """The folded state of a Monopoly Builder game (see the module docstring)."""

    GAME_LABEL = "Monopoly Builder"

    settings: Settings | None = None
    profile: Profile | None = None
    finished: bool = False
    end_reason: str | None = None
    cash: dict[str, int] = field(default_factory=dict)
    ledger: list[Transaction] = field(default_factory=list)
    resources: dict[str, dict[str, int]] = field(default_factory=dict)
    space_resources: dict[int, dict[str, int]] = field(default_factory=dict)
    owners: dict[str, str | None] = field(default_factory=dict)
    mortgaged: set[str] = field(default_factory=set)
    positions: dict[str, int] = field(default_factory=dict)
    jail: dict[str, int] = field(default_factory=dict)
    kept_cards: dict[str, list[str]] = field(default_factory=dict)
    deck: dict[str, int] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    blocks: dict[str, int] = field(default_factory=dict)
    penthouse_by: str | None = None
    bankrupt: list[str] = field(default_factory=list)
    to_move: int = 0
    stage: Phase = "roll"  # the step of the turn as events left it; `phase` adds what is derived
    doubles: int = 0
    again: bool = False
    turn: int = 0
    last_roll: tuple[int, int] | None = None
    last_handout: list[Handout] = field(default_factory=list)
    rents: list[RentDue] = field(default_factory=list)  # the rent windows open, oldest first
    auction: AuctionState | None = None
    debt: Debt | None = None
    free_parking_open: bool = False
    notes: list[str] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> BuilderState:
        # GameLog copies the state on every event: share the immutable rules data and frozen records,
        # copy the containers events change.
        other = BuilderState.__new__(BuilderState)
        for name, value in self.__dict__.items():
            if name in _SHARED_FIELDS or not isinstance(value, (dict, list, set)):
                setattr(other, name, value)
            elif isinstance(value, dict) and name in _NESTED_FIELDS:  # holder -> colour -> chips, player -> cards
                setattr(other, name, {k: copy.copy(v) for k, v in value.items()})
            elif isinstance(value, dict) and name in _FLAT_FIELDS:  # values are ints, strings, frozen records
                setattr(other, name, dict(value))
            elif isinstance(value, (list, set)) and name in _FLAT_FIELDS:
                setattr(other, name, copy.copy(value))
            else:
                setattr(other, name, copy.deepcopy(value, memo))
        return other

    # ------------------------------------------------------------ derived views
    @property
    def players(self) -> list[str]:
        return self.settings.names if self.settings else []

    @property
    def active_players(self) -> list[str]:
        """Players who still take turns (bankrupt players do not)."""
        return [p for p in self.players if p not in self.bankrupt]

    def colour_of(self, player: str) -> str:
        assert self.settings is not None
        return next(s.colour for s in self.settings.players if s.name == player)

    @property
    def colours(self) -> list[str]:
        assert self.profile is not None
        return list(self.profile.colours.value)

    @property
    def current_player(self) -> str | None:
        """Who must act now: the debtor while a debt is open, else the player whose turn it is."""
        if self.settings is None or self.finished:
            return None
        if self.debt is not None:
            return self.debt.debtor
        return self.players[self.to_move]

    @property
    def mover(self) -> str | None:
        """The player whose turn it is (even while someone else settles a debt)."""
        if self.settings is None or self.finished:
            return None
        return self.players[self.to_move]

    def hand(self, player: str) -> int:
        """How many chips the player holds."""
        return sum(self.resources[player].values())

    def deeds_of(self, player: str) -> list[str]:
        return [d for d, o in self.owners.items() if o == player]

    def has_monopoly(self, player: str, group: str) -> bool:
        assert self.profile is not None
        return all(self.owners[d] == player for d in self.profile.group_deeds(group))

    def monopolies(self, player: str) -> list[str]:
        assert self.profile is not None
        return [g.id for g in self.profile.groups if self.has_monopoly(player, g.id)]

    def rent_for(self, deed: str) -> int:
        """The rent its owner may ask now: the printed rent, the monopoly rent with the whole colour group,
        nothing while mortgaged or with the Bank."""
        assert self.profile is not None
        owner = self.owners[deed]
        if owner is None or deed in self.mortgaged:
            return 0
        group = self.profile.deed(deed).group.value
        name = "monopoly_rent" if self.has_monopoly(owner, group) else "rent"
        return self.profile.number(deed, name)

    def rents_due(self) -> list[tuple[RentDue, int]]:
        """Every rent an owner may still ask (until the next player rolls), with its owner and amount now:
        derived from who owns the deed now (a deed that changed hands since the landing is asked by its new
        owner; one that came to the payer or the Bank is asked by nobody), 0 while it is mortgaged."""
        out = []
        for r in self.rents:
            owner = self.owners[r.deed]
            if owner is None or owner == r.payer or owner in self.bankrupt:
                continue
            out.append((RentDue(r.payer, owner, r.deed), self.rent_for(r.deed)))
        return out

    def rent_due(self) -> tuple[RentDue, int] | None:
        """The oldest rent an owner may still ask and its amount now, or None (see `rents_due`)."""
        due = self.rents_due()
        return due[0] if due else None

    @property
    def rent(self) -> RentDue | None:
        """The oldest open rent window as recorded at the landing (None: none open)."""
        return self.rents[0] if self.rents else None

    @property
    def phase(self) -> Phase:
        """What the turn waits for now: the stage the events left, with the start-of-turn discard derived
        from the hand as it is now (a trade before the roll can raise it, lower it or settle it)."""
        if self.stage == "roll" and self.discard_owed() > 0:
            return "discard"
        return self.stage

    def rolls_again(self) -> bool:
        """The player whose turn it is rolled doubles (and is not in Jail): their next roll is another turn,
        recorded as a roll with no `end_turn` before it."""
        p = self.mover
        return self.stage == "act" and self.again and p is not None and p not in self.jail

    def discard_owed(self) -> int:
        """How many chips the player whose turn it is must discard before their next roll: the hand over the
        limit now, at the start of a turn (or before another turn after doubles); 0 otherwise."""
        p = self.mover
        if p is None or self.profile is None or not (self.stage == "roll" or self.rolls_again()):
            return 0
        return max(0, self.hand(p) - self.profile.counts.hand_limit.value)

    def least_bid(self) -> int:
        """The lowest bid the auction accepts now (the opening bid, or the high bid plus the least raise)."""
        assert self.profile is not None
        a = self.auction
        amounts = self.profile.amounts
        if a is None or a.high_bidder is None:
            return amounts.auction_start.value
        return a.high_bid + amounts.auction_raise.value

    def bank_trade_now(self, player: str) -> str | None:
        """Why `player` may not trade 4-for-1 with the Bank now (ignoring the chips), or None."""
        mover = self.mover
        if mover is None:
            return "the game is over"
        if player != mover:
            return f"it is {mover}'s turn, not {player}'s: {player} cannot trade with the Bank now"
        if self.stage == "auction":
            return "trading with the Bank must wait until the auction is closed"
        assert self.settings is not None
        if self.settings.bank_trade == "trade_step" and self.stage != "act":
            return (f"the 4-for-1 with the Bank is in the Trade step, after the move: first, "
                    f"{self.waiting_for()}")
        return None

    def result_line(self) -> str:
        """Who won and why, in one sentence: the points, and the money when it broke a tie."""
        scores = self.scores()
        best = max(s.total for s in scores.values())
        top = [p for p, s in scores.items() if s.total == best]
        winners = self.winner()
        points = f"{best} point{'' if best == 1 else 's'}"
        if len(top) == 1:
            return f"{top[0]} won with {points}"
        if len(winners) == 1:
            w = winners[0]
            others = ", ".join(f"{p} {money(self.cash[p])}" for p in top if p != w)
            return (f"{_and(top)} have {points} each: {w} won with the most money "
                    f"({money(self.cash[w])}; {others})")
        return f"{_and(winners)} tie with {points} and {money(self.cash[winners[0]])} each"

    def floor_cost(self, player: str, floor: int) -> FloorCost:
        """What floor `floor` (1-4; 5 = the penthouse) costs this player, from their reference card."""
        assert self.profile is not None
        return self.profile.floor_cost(self.colour_of(player), floor)

    def next_floor(self, cell: str, player: str) -> int | None:
        """The floor `player` would build on foundation `cell` (1 on an empty one, the penthouse =
        max_floors + 1), or None when they cannot build there (see `build_problem`)."""
        return None if self.build_problem(cell, player) else self._floor_at(cell)

    def build_problem(self, cell: str, player: str) -> str | None:
        """Why `player` cannot add a floor on `cell` (ignoring the cost), or None."""
        assert self.profile is not None
        if cell not in self.profile.foundation_cells():
            return f"{cell} is not a building foundation"
        b = self.buildings.get(cell)
        top = self.profile.counts.max_floors.value
        if b is not None and b.owner != player:
            return f"the building on {cell} is {b.owner}'s: you may not build on another player's blocks"
        if b is not None and b.penthouse:
            return f"the building on {cell} already has the penthouse"
        if b is not None and b.floors >= top:
            if self.penthouse_by is not None:
                return "the penthouse has already been built"
            return None
        if self.blocks[player] < 1:
            return f"{player} has no builder's blocks left"
        return None

    def penthouse_possible(self) -> bool:
        """Whether a player still in play can ever top a building with the penthouse: they have a building
        of four floors, or enough blocks left to raise one of theirs (or an empty foundation) to four."""
        assert self.profile is not None
        top = self.profile.counts.max_floors.value
        empty = any(c not in self.buildings for c in self.profile.foundation_cells())
        for p in self.active_players:
            heights = [b.floors for b in self.buildings.values() if b.owner == p and not b.penthouse]
            if any(h + self.blocks[p] >= top for h in heights) or (empty and self.blocks[p] >= top):
                return True
        return False

    def _floor_at(self, cell: str) -> int:
        b = self.buildings.get(cell)
        return 1 if b is None else b.floors + 1

    def waiting_for(self) -> str:
        """One sentence for the table: what happens next."""
        if self.settings is None:
            return "start the game"
        if self.finished:
            return f"the game is over: {self.result_line()}"
        if self.debt is not None:
            d = self.debt
            return (f"{d.debtor} owes {money(d.amount)} to {self._account_name(d.creditor)} ({d.reason}): "
                    f"mortgage deeds or trade to raise it, or declare bankruptcy")
        p = self.players[self.to_move]
        assert self.profile is not None
        if self.phase == "discard":
            return f"{p} has {self.hand(p)} resources: discard {self.discard_owed()} onto their space"
        if self.phase == "roll":
            if p in self.jail:
                return f"{p} is in Jail: pay {money(self.profile.amounts.jail_fee.value)}, use a card, or roll for doubles"
            return f"{p} rolls the dice"
        if self.phase == "buy":
            deed = self._deed_here(p)
            return (f"{p} buys {self.profile.deed_name(deed)} for {money(self.profile.number(deed, 'price'))} "
                    f"or puts it up for auction")
        if self.phase == "auction":
            assert self.auction is not None
            a = self.auction
            name = self.profile.deed_name(a.deed)
            if a.high_bidder is None:
                return f"auction of {name}: bids start at {money(self.profile.amounts.auction_start.value)}"
            return f"auction of {name}: {a.high_bidder} bids {money(a.high_bid)}; raise or close the auction"
        if self.phase == "chance":
            return f"{p} draws a Chance card: record which"
        if self.phase == "resource_roll":
            return f"{p} rolls for resources"
        if self.phase == "steal":
            return f"{p} steals one resource from another player"
        if p in self.jail:
            return f"{p} is in Jail: {p} may trade but not build, then ends the turn"
        if self.rolls_again():
            owed = self.discard_owed()
            then = f"discards {owed} and rolls again (doubles)" if owed else "rolls again (doubles)"
            return f"{p} trades and builds, then {then}"
        return f"{p} trades and builds, then ends the turn"

    def allowed_events(self) -> list[str]:
        """The event types of the moves `legal.legal_moves` offers now (in the order first offered)."""
        from companion.games.monopoly_builder.legal import legal_moves

        if self.settings is None:
            return ["start"]
        return list(dict.fromkeys(m.type for m in legal_moves(self)))

    def scores(self) -> dict[str, Score]:
        """Every player's score breakdown as it stands (final once the game is over)."""
        assert self.profile is not None and self.settings is not None
        points = self.profile.building_points.value
        counted = self.settings.penthouse_building == "owner"
        heights: dict[str, list[int]] = {p: [] for p in self.players}
        for b in self.buildings.values():
            heights[b.owner].append(b.height)
        groups = {p: self._largest_group(p, counted) for p in self.players}
        bonus = self.profile.bonus_points
        rich = self._bonus_winners({p: self.cash[p] for p in self.players})
        community = self._bonus_winners(groups)
        out = {}
        for p in self.players:
            mono = self.monopolies(p)
            out[p] = Score(
                player=p,
                buildings=tuple(sorted(heights[p], reverse=True)),
                building_points=sum(points[h - 1] for h in heights[p]),
                monopolies=tuple(mono),
                monopoly_points=sum(self.profile.group(g).points.value for g in mono),
                billionaire=bonus.billionaire.value if p in rich else 0,
                community_size=groups[p],
                community=bonus.community.value if p in community else 0,
                cash=self.cash[p],
            )
        return out

    def _bonus_winners(self, values: Mapping[str, int]) -> list[str]:
        """Who takes a Builder's Bonus card: the single best (a tie: nobody, or all tied by the table setting)."""
        assert self.settings is not None
        best = max(values.values())
        if best <= 0:
            return []
        top = [p for p, v in values.items() if v == best]
        if len(top) > 1 and self.settings.bonus_tie == "none":
            return []
        return top

    def _largest_group(self, player: str, penthouse_counts: bool) -> int:
        """The most of the player's buildings connected orthogonally (Community Builder)."""
        cells = {parse_cell(c) for c, b in self.buildings.items()
                 if b.owner == player and (penthouse_counts or not b.penthouse)}
        best, seen = 0, set()
        for start in cells:
            if start in seen:
                continue
            size, stack = 0, [start]
            seen.add(start)
            while stack:
                r, c = stack.pop()
                size += 1
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if n in cells and n not in seen:
                        seen.add(n)
                        stack.append(n)
            best = max(best, size)
        return best

    def winner(self) -> list[str]:
        """The most points; a tie goes to the tied player with the most money (still tied: all of them)."""
        if self.settings is None:
            return []
        scores = self.scores()
        best = max(s.total for s in scores.values())
        top = [p for p, s in scores.items() if s.total == best]
        richest = max(self.cash[p] for p in top)
        return [p for p in top if self.cash[p] == richest]

    def total_chips(self) -> dict[str, int]:
        """Chips of each colour anywhere (Bank + players + spaces): always chips_per_colour."""
        out = {c: 0 for c in self.colours}
        for holder in [*self.resources.values(), *self.space_resources.values()]:
            for c, n in holder.items():
                out[c] += n
        return out

    @property
    def total_money(self) -> int:
        return sum(self.cash.values())

    def space_name(self, index: int) -> str:
        assert self.profile is not None
        return self.profile.track.spaces[index].name

    def summary(self) -> dict[str, Any]:
        """The state as plain data (what `companion replay --json` prints and a UI can show)."""
        assert self.profile is not None
        scores = self.scores()
        return {
            "variant": VARIANT,
            "finished": self.finished,
            "end_reason": self.end_reason,
            "next": self.waiting_for(),
            "phase": self.phase,
            "current_player": self.current_player,
            "last_roll": list(self.last_roll) if self.last_roll else None,
            "players": [
                {
                    "name": p,
                    "colour": self.colour_of(p),
                    "cash": self.cash[p],
                    "deeds": self.deeds_of(p),
                    "mortgaged": sorted(d for d in self.deeds_of(p) if d in self.mortgaged),
                    "resources": dict(self.resources[p]),
                    "position": self.positions[p],
                    "space": self.space_name(self.positions[p]),
                    "in_jail": p in self.jail,
                    "bankrupt": p in self.bankrupt,
                    "cards": list(self.kept_cards[p]),
                    "blocks_left": self.blocks[p],
                    "score": scores[p].as_dict(),
                }
                for p in self.players
            ],
            "bank": {"cash": self.cash[BANK], "resources": dict(self.resources[BANK])},
            "spaces": {str(i): dict(r) for i, r in sorted(self.space_resources.items())},
            "owners": {d: o or BANK for d, o in self.owners.items()},
            "buildings": {c: {"owner": b.owner, "floors": b.floors, "penthouse": b.penthouse}
                          for c, b in sorted(self.buildings.items())},
            "penthouse_by": self.penthouse_by,
            "winner": self.winner() if self.finished else None,
            "turns": self.turn,
            "transactions": len(self.ledger),
        }

    # ------------------------------------------------------------ bookkeeping
    def _account_name(self, account: str) -> str:
        return "the Bank" if account == BANK else account

    def _note(self, text: str) -> None:
        self.notes.append(text)

    def _transfer(self, payer: str, payee: str, amount: int, reason: str) -> None:
        transfer(self.cash, self.ledger, payer, payee, amount, reason, self.turn, overdraft=(BANK,))

    def _charge(self, payer: str, payee: str, amount: int, reason: str) -> None:
        """A payment that must be made: short of cash, the payer owes a debt (mortgage, trade or go bankrupt)."""
        if self.debt is None and self.cash[payer] >= amount:
            self._transfer(payer, payee, amount, reason)
            return
        if self.debt is not None:
            # A second payment in the same event (the third failed Jail roll, then a Chance card on the
            # space reached): both are owed to the Bank by the same player, so they add up.
            old = self.debt
            assert old.debtor == payer and old.creditor == payee
            self.debt = Debt(payer, payee, old.amount + amount, f"{old.reason}; {reason}")
        else:
            self.debt = Debt(payer, payee, amount, reason)
        self._note(f"{payer} owes {money(amount)} to {self._account_name(payee)} ({reason}) and is short of cash")

    def _settle_debt(self) -> None:
        d = self.debt
        if d is not None and self.cash[d.debtor] >= d.amount:
            self.debt = None
            self._transfer(d.debtor, d.creditor, d.amount, d.reason)
            self._note(f"{d.debtor} pays the {money(d.amount)} owed to {self._account_name(d.creditor)}")

    def _chip_holder(self, holder: str | int) -> dict[str, int]:
        if isinstance(holder, int):
            return self.space_resources.setdefault(holder, {})
        return self.resources[holder]

    def _move_chips(self, giver: str | int, taker: str | int, colour: str, count: int) -> None:
        """Move chips between the Bank, players and spaces (an int = a track space); checked by callers."""
        src, dst = self._chip_holder(giver), self._chip_holder(taker)
        if count < 0 or src.get(colour, 0) < count:
            raise IllegalAction(f"{giver} does not have {count} {colour} resources")
        src[colour] = src.get(colour, 0) - count
        dst[colour] = dst.get(colour, 0) + count
        for key in [k for k, v in self.space_resources.items() if not any(v.values())]:
            del self.space_resources[key]

    def _from_bank(self, player: str, colour: str, count: int, reason: str) -> int:
        """The Bank gives up to `count` chips (what it has left: chips are finite); returns how many."""
        given = min(count, self.resources[BANK][colour])
        if given:
            self._move_chips(BANK, player, colour, given)
            self.last_handout.append(Handout(player, colour, given, reason))
        if given < count:
            self._note(f"the Bank has run out of {colour} resources: {player} takes {given} of {count}")
        return given

    def _check_chips(self, player: str, chips: Mapping[str, int], what: str) -> None:
        for colour, n in chips.items():
            if colour not in self.colours:
                raise IllegalAction(f"{colour} is not a resource colour: the colours are {', '.join(self.colours)}")
            if n < 0:
                raise IllegalAction(f"a number of resources cannot be negative ({colour} {n})")
            if self.resources[player].get(colour, 0) < n:
                raise IllegalAction(f"{player} has {self.resources[player].get(colour, 0)} {colour} resources, "
                                    f"not the {n} {what}")

    def _colour(self, colour: str) -> None:
        if colour not in self.colours:
            raise IllegalAction(f"{colour} is not a resource colour: the colours are {', '.join(self.colours)}")

    def _deed_here(self, player: str) -> str:
        assert self.profile is not None
        deed = self.profile.track.spaces[self.positions[player]].deed
        assert deed is not None
        return deed

    def _known_deed(self, deed: str) -> None:
        if deed not in self.owners:
            assert self.profile is not None
            raise IllegalAction(f"there is no deed '{deed}' on this board")

    # ------------------------------------------------------------ folding
    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        return {Discard: self._discard, Roll: self._roll, JailPay: self._jail_pay, JailCard: self._jail_card,
                Buy: self._buy, Auction: self._auction, Bid: self._bid, AuctionEnd: self._auction_end,
                Rent: self._rent, ChanceDraw: self._chance, ResourceRoll: self._resource_roll, Steal: self._steal,
                FreeParking: self._free_parking, BankTrade: self._bank_trade, Trade: self._trade,
                ForcedTrade: self._forced_trade, Build: self._build, Mortgage: self._mortgage,
                Unmortgage: self._unmortgage, Bankrupt: self._bankrupt, EndTurn: self._end_turn,
                EndGame: self._end_game, PlaceToken: self._place_token}

    def _handle(self, event: Event) -> None:
        if isinstance(event, PlayerEvent) and event.player not in self.players:
            raise IllegalAction(f"{event.player} is not playing in this game")
        if self.debt is not None and not isinstance(event, (Mortgage, Trade, Bankrupt, EndGame)):
            d = self.debt
            raise IllegalAction(f"{d.debtor} must first pay the {money(d.amount)} owed to "
                                f"{self._account_name(d.creditor)}: mortgage, trade, or declare bankruptcy")
        if isinstance(event, PlayerEvent) and event.player in self.bankrupt:
            raise IllegalAction(f"{event.player} is bankrupt and takes no more part in play")
        super()._handle(event)
        self._settle_debt()
        if not self.finished and not self.penthouse_possible():
            # Every block is used and no building has its four floors (or only bankrupt players could
            # build): the game's end can never come, so it ends now and is scored as it stands.
            self.finished, self.end_reason, self.stage = True, "the penthouse can no longer be built", "over"
            self._note("nobody can build the penthouse any more: the game ends and is scored")

    def _start(self, event: Start) -> None:
        s = event.settings
        try:
            profile = validate_profile(s.profile)
        except RulesDataError as exc:
            raise IllegalAction(str(exc)) from None
        if not profile.min_players <= len(s.players) <= profile.max_players:
            raise IllegalAction(f"Monopoly Builder is for {profile.min_players}-{profile.max_players} players, "
                                f"not {len(s.players)}")
        colours = profile.colours.value
        for seat in s.players:
            if seat.colour not in colours:
                raise IllegalAction(f"{seat.name}'s token colour {seat.colour} is not one of {', '.join(colours)}")
        self.settings, self.profile = s, profile
        counts, amounts = profile.counts, profile.amounts
        self.cash = {BANK: amounts.bank_float.value, **{p: 0 for p in s.names}}
        self.resources = {BANK: {c: counts.chips_per_colour.value for c in colours},
                          **{p: {c: 0 for c in colours} for p in s.names}}
        for seat in s.players:
            self._transfer(BANK, seat.name, amounts.starting_cash.value, "starting money")
            if self.resources[BANK][seat.colour] < counts.starting_resources.value:
                raise IllegalAction(f"the Bank has too few {seat.colour} resources for the starting hands")
            self._move_chips(BANK, seat.name, seat.colour, counts.starting_resources.value)
        self.owners = {d.id: None for d in profile.deeds}
        self.positions = {p: 0 for p in s.names}
        self.kept_cards = {p: [] for p in s.names}
        self.deck = {c.id: c.count for c in profile.chance.cards}
        self.blocks = {p: counts.blocks_per_player.value for p in s.names}
        self.to_move = 0
        self._begin_turn()

    # ------------------------------------------------------------ turn flow
    def _expect_mover(self, player: str, action: str) -> None:
        mover = self.players[self.to_move]
        if player != mover:
            raise IllegalAction(f"it is {mover}'s turn, not {player}'s: {player} cannot {action} now")

    def _expect_phase(self, phase: Phase, action: str) -> None:
        if self.phase != phase:  # `phase`: the discard owed is derived from the hand now
            raise IllegalAction(f"{action} is not possible now: {self.waiting_for()}")

    def _begin_turn(self) -> None:
        self.free_parking_open = False
        self.turn += 1
        self.stage = "roll"  # a discard owed before the roll is derived from the hand (`phase`)

    def _advance(self) -> None:
        """The turn is over: the same player again after doubles, else the next player still in play."""
        self.free_parking_open = False
        if not self.active_players:
            self.finished, self.end_reason, self.stage = True, "everyone is bankrupt", "over"
            return
        p = self.players[self.to_move]
        if self.again and p not in self.bankrupt and p not in self.jail:
            self.again = False
            self._begin_turn()
            return
        self.again, self.doubles = False, 0
        n = len(self.players)
        for step in range(1, n + 1):
            nxt = (self.to_move + step) % n
            if self.players[nxt] not in self.bankrupt:
                self.to_move = nxt
                break
        self._begin_turn()

    def _discard(self, event: Discard) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "discard")
        limit = self.profile.counts.hand_limit.value
        extra = self.discard_owed()
        if extra == 0:
            if self.stage == "roll" or self.rolls_again():
                raise IllegalAction(f"{p} holds {self.hand(p)} resources, no more than {limit}: nothing to discard")
            raise IllegalAction(f"discarding is not possible now: {self.waiting_for()}")
        self._check_chips(p, event.resources, "to discard")
        if sum(event.resources.values()) != extra:
            raise IllegalAction(f"{p} has {self.hand(p)} resources and must discard exactly {extra} to keep "
                                f"{limit}")
        if self.rolls_again():
            self._advance()  # doubles: the discard begins the player's next turn
        for colour, n in event.resources.items():
            self._move_chips(p, self.positions[p], colour, n)
        self._note(f"{p} discards {_chips(event.resources)} onto {self.space_name(self.positions[p])}")
        self.stage = "roll"

    def _jail_pay(self, event: JailPay) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "pay to leave Jail")
        self._expect_phase("roll", "paying to leave Jail")
        if p not in self.jail:
            raise IllegalAction(f"{p} is not in Jail")
        fee = self.profile.amounts.jail_fee.value
        if self.cash[p] < fee:
            raise IllegalAction(f"{p} has {money(self.cash[p])}, not the {money(fee)} to leave Jail: "
                                f"mortgage a deed, use a card or roll for doubles")
        self._transfer(p, BANK, fee, "leaves Jail")
        del self.jail[p]
        self._note(f"{p} pays {money(fee)} and leaves Jail")

    def _jail_card(self, event: JailCard) -> None:
        p = event.player
        self._expect_mover(p, "use a Get Out of Jail Free card")
        self._expect_phase("roll", "using a Get Out of Jail Free card")
        if p not in self.jail:
            raise IllegalAction(f"{p} is not in Jail")
        if "get_out_of_jail" not in self.kept_cards[p]:
            raise IllegalAction(f"{p} has no Get Out of Jail Free card")
        self._return_card(p, "get_out_of_jail")
        del self.jail[p]
        self._note(f"{p} uses a Get Out of Jail Free card")

    def _return_card(self, player: str, card: str) -> None:
        self.kept_cards[player].remove(card)
        self.deck[card] += 1

    def turn_passes_to(self) -> str | None:
        """Who takes the next turn if the player whose turn it is ends it now (None: the turn may not end
        now: its step is not done, a debt is owed, or it is doubles' next roll). That player's roll is
        accepted as ending the turn, as an `end_turn` before it would (one tap, one event)."""
        if self.debt is not None or self.stage != "act" or self.rolls_again():
            return None
        n = len(self.players)  # as `_advance` picks (doubles' same player again is `rolls_again`, above)
        return next((self.players[(self.to_move + k) % n] for k in range(1, n + 1)
                     if self.players[(self.to_move + k) % n] not in self.bankrupt), None)

    def _roll(self, event: Roll) -> None:
        p = event.player
        assert self.profile is not None and self.settings is not None
        if p == self.turn_passes_to():
            # The next player's roll ends the turn that may end now, exactly as `end_turn` would (old logs
            # record that `end_turn` first: both replay). A discard owed first is refused below.
            self._end_turn(EndTurn(player=self.players[self.to_move]))
        self._expect_mover(p, "roll")
        if self.rolls_again() and self.discard_owed() == 0:
            self._advance()  # doubles: this roll is the player's next turn, with no end_turn to record
        self._expect_phase("roll", "rolling")
        d1, d2 = event.dice
        total, double = d1 + d2, d1 == d2
        self.last_roll = (d1, d2)
        self._close_rent_windows(p)
        self.last_handout = []
        self._note(f"{p} rolls {d1}+{d2} = {total}" + (" (doubles)" if double else ""))
        if p in self.jail:
            self._gather(total)
            if double:
                del self.jail[p]
                self._note(f"{p} rolls doubles and leaves Jail")
                self.again = self.settings.jail_doubles_again
                if self.again:
                    self.doubles = 1
            else:
                self.jail[p] += 1
                if self.jail[p] < 3:
                    self._note(f"{p} stays in Jail (attempt {self.jail[p]} of 3)")
                    self.stage = "act"
                    return
                del self.jail[p]
                self._charge(p, BANK, self.profile.amounts.jail_fee.value, "third failed roll in Jail")
                self._note(f"{p} pays to leave Jail after three rolls without doubles")
            self._move_by(p, total)
            return
        if double:
            self.doubles += 1
            if self.doubles == 3:
                self._note(f"{p} rolls doubles three times in a row and goes to Jail")
                self._send_to_jail(p)
                return
            self.again = True
        else:
            self.again = False
        self._gather(total)
        self._move_by(p, total)

    def _close_rent_windows(self, roller: str) -> None:
        """A roll closes the rent windows it ends (the next player's roll; any roll with the stricter
        setting): an owner who has not asked by now has lost the rent, and the table is told."""
        assert self.settings is not None and self.profile is not None
        strict = self.settings.rent_window == "next_roll"
        askable = {(r.payer, r.deed): (r.owner, amount) for r, amount in self.rents_due()}
        kept = []
        for r in self.rents:
            if not strict and r.payer == roller:
                kept.append(r)
                continue
            owner, amount = askable.get((r.payer, r.deed), (None, 0))
            if owner is not None and amount > 0:
                self._note(f"{owner} did not ask {r.payer} for the {money(amount)} rent on "
                           f"{self.profile.deed_name(r.deed)}: the rent is lost")
        self.rents = kept

    def _gather(self, total: int) -> None:
        """Every owner of an unmortgaged deed with this number takes its chips; a 6 gives every player
        their own colour. The Bank hands out what it has, in turn order from the roller."""
        assert self.profile is not None
        n = len(self.players)
        order = [self.players[(self.to_move + i) % n] for i in range(n)]
        counts = self.profile.counts
        for player in order:
            if player in self.bankrupt:
                continue
            for deed in self.deeds_of(player):
                if deed not in self.mortgaged and self.profile.number(deed, "dice_number") == total:
                    self._from_bank(player, self.profile.deed_resource(deed), counts.gather.value,
                                    f"{self.profile.deed_name(deed)} on {total}")
            if total == 6:
                self._from_bank(player, self.colour_of(player), counts.six_bonus.value, "a roll of 6")

    def _move_by(self, player: str, steps: int, collect_go: bool = True) -> None:
        """Move forward `steps` spaces: GO pays when passed or landed on; chips on every space entered are
        picked up; then the landing space acts."""
        assert self.profile is not None
        size = len(self.profile.track.spaces)
        pos = self.positions[player]
        for _ in range(steps):
            pos = (pos + 1) % size
            if pos == 0 and collect_go:
                self._transfer(BANK, player, self.profile.amounts.go_salary.value, "passes GO")
            for colour, n in list(self.space_resources.get(pos, {}).items()):
                if n:
                    self._move_chips(pos, player, colour, n)
                    self.last_handout.append(Handout(player, colour, n, f"picked up on {self.space_name(pos)}"))
        self.positions[player] = pos
        self._land(player, pos)

    def _send_to_jail(self, player: str) -> None:
        assert self.profile is not None
        jail = self.profile.space_index("jail")
        assert jail is not None  # the profile has a Jail whenever a space or card sends there
        self.positions[player] = jail
        self.jail[player] = 0
        self.again = False
        self._advance()

    def _land(self, player: str, pos: int) -> None:
        assert self.profile is not None
        space = self.profile.track.spaces[pos]
        self._note(f"{player} lands on {space.name}")
        self.stage = "act"
        if space.kind == "deed":
            assert space.deed is not None
            owner = self.owners[space.deed]
            if owner is None:
                self.stage = "buy"
            elif owner != player and space.deed not in self.mortgaged:
                self.rents.append(RentDue(player, owner, space.deed))
        elif space.kind == "collect":
            assert space.resource is not None
            self._from_bank(player, space.resource, self.profile.counts.collect.value, space.name)
        elif space.kind == "roll_for_resources":
            self.stage = "resource_roll"
        elif space.kind == "chance":
            self.stage = "chance"
        elif space.kind == "steal":
            if any(self.hand(o) for o in self.players if o != player):
                self.stage = "steal"
        elif space.kind == "free_parking":
            self.free_parking_open = True
        elif space.kind == "go_to_jail":
            self._note(f"{player} goes to Jail")
            self._send_to_jail(player)

    def _buy(self, event: Buy) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "buy")
        self._expect_phase("buy", "buying")
        deed = self._deed_here(p)
        price = self.profile.number(deed, "price")
        if self.cash[p] < price:
            raise IllegalAction(f"{p} has {money(self.cash[p])}, not the {money(price)} "
                                f"{self.profile.deed_name(deed)} costs: mortgage a deed first or auction it")
        self._transfer(p, BANK, price, f"buys {self.profile.deed_name(deed)}")
        self.owners[deed] = p
        self._note(f"{p} buys {self.profile.deed_name(deed)} for {money(price)}")
        self.stage = "act"

    def _auction(self, event: Auction) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "put a deed up for auction")
        self._expect_phase("buy", "an auction")
        deed = self._deed_here(p)
        self.auction = AuctionState(deed)
        self.stage = "auction"
        self._note(f"{self.profile.deed_name(deed)} goes up for auction")

    def _bid(self, event: Bid) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_phase("auction", "bidding")
        assert self.auction is not None
        a = self.auction
        least = (self.profile.amounts.auction_start.value if a.high_bidder is None
                 else a.high_bid + self.profile.amounts.auction_raise.value)
        if event.amount < least:
            raise IllegalAction(f"{p}'s bid of {money(event.amount)} is too low: the next bid is at least {money(least)}"
                                + ("" if a.high_bidder is None else
                                   f" (raises of at least {money(self.profile.amounts.auction_raise.value)})"))
        if self.cash[p] < event.amount:
            raise IllegalAction(f"{p} has {money(self.cash[p])} and cannot bid {money(event.amount)}")
        self.auction = AuctionState(a.deed, event.amount, p)
        self._note(f"{p} bids {money(event.amount)}")

    def _auction_end(self, event: AuctionEnd) -> None:
        assert self.profile is not None
        self._expect_phase("auction", "closing an auction")
        assert self.auction is not None
        a = self.auction
        name = self.profile.deed_name(a.deed)
        if a.high_bidder is None:
            self._note(f"nobody bids: {name} stays with the Bank")
        else:
            self.owners[a.deed] = a.high_bidder
            self._note(f"{a.high_bidder} wins {name} for {money(a.high_bid)}")
            # A trade since the bid may have left the bidder short: they owe it (mortgage, trade or bankruptcy).
            self._charge(a.high_bidder, BANK, a.high_bid, f"wins the auction of {name}")
        self.auction = None
        self.stage = "act"

    def _rent(self, event: Rent) -> None:
        p = event.player
        assert self.profile is not None
        due = self.rents_due()
        if event.deed is not None:
            self._known_deed(event.deed)
            due = [(r, a) for r, a in due if r.deed == event.deed]
            if not due:
                raise IllegalAction(f"no rent can be asked on {self.profile.deed_name(event.deed)} now: rent is "
                                    f"asked after a landing, before the next player rolls, or it is lost")
        if not due:
            raise IllegalAction("no rent can be asked now: rent is asked before the next player rolls, or it is lost")
        mine = [(r, a) for r, a in due if r.owner == p]
        if not mine:
            raise IllegalAction(f"{p} does not own {self.profile.deed_name(due[0][0].deed)}: only its owner asks "
                                f"for the rent")
        # The latest landing first: a log from before rent windows outlived a re-roll asked only that one.
        r, amount = mine[-1]
        name = self.profile.deed_name(r.deed)
        if amount == 0:
            raise IllegalAction(f"{name} is mortgaged: it earns no rent")
        if event.amount is not None and event.amount != amount:
            raise IllegalAction(f"the rent on {name} is {money(amount)} now, not {money(event.amount)}")
        self.rents.remove(next(x for x in self.rents if x.payer == r.payer and x.deed == r.deed))
        self._note(f"{p} asks {r.payer} for {money(amount)} rent on {name}")
        self._charge(r.payer, p, amount, f"rent on {name}")

    def _chance(self, event: ChanceDraw) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "draw a Chance card")
        self._expect_phase("chance", "drawing a Chance card")
        try:
            card = self.profile.chance_card(event.card)
        except RulesDataError:
            ids = ", ".join(c.id for c in self.profile.chance.cards)
            raise IllegalAction(f"there is no Chance card '{event.card}': the cards are {ids}") from None
        if self.deck[card.id] < 1:
            raise IllegalAction(f"every '{card.text}' card is held by a player: it cannot be drawn")
        self._note(f"{p} draws Chance: {card.text}")
        self.stage = "act"
        if card.effect in KEPT_CARDS:
            self.deck[card.id] -= 1
            self.kept_cards[p].append(card.id)
        elif card.effect == "collect":
            assert card.amount is not None
            self._transfer(BANK, p, card.amount, f"Chance: {card.text}")
        elif card.effect == "pay":
            assert card.amount is not None
            self._charge(p, BANK, card.amount, f"Chance: {card.text}")
        elif card.effect == "resources":
            assert card.resource is not None and card.resources is not None
            self._from_bank(p, card.resource, card.resources, f"Chance: {card.text}")
        elif card.effect == "move_to":
            assert card.space is not None
            size = len(self.profile.track.spaces)
            self._move_by(p, (card.space - self.positions[p]) % size or size, card.collect_go)
        elif card.effect == "go_to_jail":
            self._send_to_jail(p)

    def _resource_roll(self, event: ResourceRoll) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "roll for resources")
        self._expect_phase("resource_roll", "rolling for resources")
        space = self.profile.track.spaces[self.positions[p]]
        assert space.chart is not None
        total = sum(event.dice)
        colour = space.chart[str(total)]
        self._note(f"{p} rolls {event.dice[0]}+{event.dice[1]} = {total} for resources: {colour}")
        self._from_bank(p, colour, self.profile.counts.roll_for_resources.value, f"Roll for Resources ({total})")
        self.stage = "act"

    def _steal(self, event: Steal) -> None:
        p = event.player
        self._expect_mover(p, "steal")
        self._expect_phase("steal", "stealing")
        if event.target is not None:
            if event.target == p or event.target not in self.players:
                raise IllegalAction(f"{p} steals from another player in the game, not {event.target}")
            if event.resource is None:
                raise IllegalAction("say which resource is stolen")
            self._colour(event.resource)
            if self.resources[event.target][event.resource] < 1:
                raise IllegalAction(f"{event.target} has no {event.resource} resource to steal")
            self._move_chips(event.target, p, event.resource, 1)
            self._note(f"{p} steals a {event.resource} resource from {event.target}")
        self.stage = "act"

    def _place_token(self, event: PlaceToken) -> None:
        p = event.player
        assert self.profile is not None
        size = len(self.profile.track.spaces)
        if not 0 <= event.space < size:
            raise IllegalAction(f"there is no space {event.space} on the track: its spaces are 0 (GO) to {size - 1}")
        name = self.space_name(event.space)
        if event.space == self.positions[p]:
            raise IllegalAction(f"{p}'s token is already on {name}")
        if p in self.jail:
            raise IllegalAction(f"{p} is in Jail: the token stays there until {p} leaves Jail")
        if self.stage == "auction":
            raise IllegalAction("a token is corrected once the auction is closed")
        if p == self.mover and self.stage not in ("roll", "act"):
            raise IllegalAction(f"{p}'s landing is being played ({self.waiting_for()}): undo the roll to "
                                f"correct where the token went")
        self.positions[p] = event.space
        if p == self.mover:
            self.free_parking_open = False  # the landing it opened was elsewhere
        self._note(f"{p}'s token is really on {name}: it is put there (no GO money, no resources picked up, "
                   f"the space does nothing)")

    def _expect_my_turn_free(self, player: str, action: str) -> None:
        """Trades with the Bank happen on the player's own turn, outside an auction."""
        self._expect_mover(player, action)
        if self.phase == "auction":
            raise IllegalAction(f"{action} must wait until the auction is closed")

    def _free_parking(self, event: FreeParking) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "trade at Free Parking")
        if not self.free_parking_open:
            raise IllegalAction(f"{p} trades 2-for-1 with the Bank only once, on landing on Free Parking")
        self._colour(event.take)
        self._check_chips(p, event.give, "to give")
        need = self.profile.counts.free_parking_give.value
        if sum(event.give.values()) != need:
            raise IllegalAction(f"Free Parking trades exactly {need} resources for one")
        if event.give.get(event.take, 0):
            raise IllegalAction(f"Free Parking gives a resource of a different type from those given, not {event.take}")
        if self.resources[BANK][event.take] < 1:
            raise IllegalAction(f"the Bank has no {event.take} resource left")
        for colour, n in event.give.items():
            self._move_chips(p, BANK, colour, n)
        self._move_chips(BANK, p, event.take, 1)
        self.free_parking_open = False
        self._note(f"{p} trades {_chips(event.give)} for 1 {event.take} at Free Parking")

    def _bank_trade(self, event: BankTrade) -> None:
        p = event.player
        assert self.profile is not None
        problem = self.bank_trade_now(p)
        if problem:
            raise IllegalAction(problem)
        self._colour(event.give)
        self._colour(event.take)
        rate = self.profile.counts.bank_trade_rate.value
        if event.give == event.take:
            raise IllegalAction(f"the Bank trades {rate} resources of one type for one of another type")
        if self.resources[p][event.give] < rate:
            raise IllegalAction(f"{p} has {self.resources[p][event.give]} {event.give} resources, not {rate}")
        if self.resources[BANK][event.take] < 1:
            raise IllegalAction(f"the Bank has no {event.take} resource left")
        self._move_chips(p, BANK, event.give, rate)
        self._move_chips(BANK, p, event.take, 1)
        self._note(f"{p} trades {rate} {event.give} for 1 {event.take} with the Bank")

    def _check_bundle(self, player: str, bundle: Bundle) -> None:
        assert self.profile is not None
        if self.cash[player] < bundle.cash:
            raise IllegalAction(f"{player} has {money(self.cash[player])}, not the {money(bundle.cash)} offered")
        self._check_chips(player, bundle.resources, "offered")
        for deed in bundle.deeds:
            self._known_deed(deed)
            if self.owners[deed] != player:
                raise IllegalAction(f"{player} does not own {self.profile.deed_name(deed)}")
        if len(set(bundle.deeds)) != len(bundle.deeds):
            raise IllegalAction("a deed is listed twice in the trade")
        for card in set(bundle.cards):
            if self.kept_cards[player].count(card) < bundle.cards.count(card):
                raise IllegalAction(f"{player} does not hold the card '{card}' offered")

    def _hand_over(self, giver: str, taker: str, bundle: Bundle, reason: str) -> None:
        self._transfer(giver, taker, bundle.cash, reason)
        for colour, n in bundle.resources.items():
            self._move_chips(giver, taker, colour, n)
        for deed in bundle.deeds:
            self.owners[deed] = taker  # a mortgaged deed stays mortgaged: the new owner may unmortgage it
        for card in bundle.cards:
            self.kept_cards[giver].remove(card)
            self.kept_cards[taker].append(card)

    def _trade(self, event: Trade) -> None:
        p, q = event.player, event.partner
        if q not in self.players or q == p:
            raise IllegalAction(f"{p} trades with another player in the game, not {q}")
        if q in self.bankrupt:
            raise IllegalAction(f"{q} is bankrupt and cannot trade")
        if event.give.empty() and event.get.empty():
            raise IllegalAction("the trade gives nothing either way")
        self._check_bundle(p, event.give)
        self._check_bundle(q, event.get)
        self._hand_over(p, q, event.give, f"trade with {q}")
        self._hand_over(q, p, event.get, f"trade with {p}")
        self._note(f"{p} and {q} trade")

    def _forced_trade(self, event: ForcedTrade) -> None:
        p, t = event.player, event.target
        self._expect_my_turn_free(p, "play a FORCED TRADE! card")
        if "forced_trade" not in self.kept_cards[p]:
            raise IllegalAction(f"{p} holds no FORCED TRADE! card")
        if t not in self.players or t == p:
            raise IllegalAction(f"a forced trade is with another player in the game, not {t}")
        self._colour(event.give)
        self._colour(event.take)
        if self.resources[p][event.give] < 1:
            raise IllegalAction(f"{p} has no {event.give} resource to give")
        if self.resources[t][event.take] < 1:
            raise IllegalAction(f"{t} has no {event.take} resource to give")
        self._move_chips(p, t, event.give, 1)
        self._move_chips(t, p, event.take, 1)
        self._return_card(p, "forced_trade")
        self._note(f"{p} forces {t} to trade a {event.take} for a {event.give}")

    def _build(self, event: Build) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "build")
        self._expect_phase("act", "building")
        if p in self.jail:
            raise IllegalAction(f"{p} is in Jail and may not build this turn")
        try:
            cell = cell_name(*parse_cell(event.cell))
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        problem = self.build_problem(cell, p)
        if problem:
            raise IllegalAction(problem)
        floor = self._floor_at(cell)
        cost = self.floor_cost(p, floor)
        self._check_chips(p, event.paid, "to pay")
        what = "the penthouse" if floor > self.profile.counts.max_floors.value else f"floor {floor}"
        short = [c for c, n in cost.colours.items() if event.paid.get(c, 0) < n]
        if short or sum(event.paid.values()) != cost.total:
            raise IllegalAction(f"{what} costs {p} {cost.describe()} ({cost.total} resources), "
                                f"not {_chips(event.paid) or 'nothing'}")
        for colour, n in event.paid.items():
            self._move_chips(p, BANK, colour, n)
        old = self.buildings.get(cell)
        if floor > self.profile.counts.max_floors.value:
            assert old is not None
            self.buildings[cell] = Building(p, old.floors, True)
            self.penthouse_by = p
            self._note(f"{p} builds the penthouse on {cell}: the game is over")
            self.finished, self.end_reason, self.stage = True, "penthouse", "over"
            return
        self.blocks[p] -= 1
        self.buildings[cell] = Building(p, floor)
        self._note(f"{p} builds floor {floor} on {cell}")

    def _mortgage(self, event: Mortgage) -> None:
        p = event.player
        assert self.profile is not None
        self._known_deed(event.deed)
        name = self.profile.deed_name(event.deed)
        if self.owners[event.deed] != p:
            raise IllegalAction(f"{p} does not own {name}")
        if event.deed in self.mortgaged:
            raise IllegalAction(f"{name} is already mortgaged")
        value = self.profile.number(event.deed, "mortgage")
        self.mortgaged.add(event.deed)
        self._transfer(BANK, p, value, f"mortgages {name}")
        self._note(f"{p} mortgages {name} for {money(value)}")

    def _unmortgage(self, event: Unmortgage) -> None:
        p = event.player
        assert self.profile is not None
        self._known_deed(event.deed)
        name = self.profile.deed_name(event.deed)
        if self.owners[event.deed] != p:
            raise IllegalAction(f"{p} does not own {name}")
        if event.deed not in self.mortgaged:
            raise IllegalAction(f"{name} is not mortgaged")
        value = self.profile.number(event.deed, "mortgage")
        if self.cash[p] < value:
            raise IllegalAction(f"{p} has {money(self.cash[p])}, not the {money(value)} to unmortgage {name}")
        self._transfer(p, BANK, value, f"unmortgages {name}")
        self.mortgaged.discard(event.deed)
        self._note(f"{p} unmortgages {name}")

    def _bankrupt(self, event: Bankrupt) -> None:
        p = event.player
        assert self.profile is not None
        d = self.debt
        if d is None or d.debtor != p:
            raise IllegalAction(f"{p} owes nothing: a player declares bankruptcy only when they cannot pay a debt")
        unmortgaged = [self.profile.deed_name(x) for x in self.deeds_of(p) if x not in self.mortgaged]
        if unmortgaged:
            raise IllegalAction(f"{p} can still mortgage {unmortgaged[0]} to pay what they owe")
        self.debt = None
        creditor = d.creditor
        self.rents = [r for r in self.rents if p != r.payer and self.owners[r.deed] != p]
        self._transfer(p, creditor, self.cash[p], f"bankrupt: {d.reason}")
        for colour, n in list(self.resources[p].items()):
            self._move_chips(p, creditor, colour, n)
        for deed in self.deeds_of(p):
            if creditor == BANK:
                self.owners[deed] = None
                self.mortgaged.discard(deed)  # back to the Bank: the mortgage is cancelled, the deed for sale again
            else:
                self.owners[deed] = creditor
        for card in list(self.kept_cards[p]):
            if creditor == BANK:
                self._return_card(p, card)
            else:
                self.kept_cards[p].remove(card)
                self.kept_cards[creditor].append(card)
        self.bankrupt.append(p)
        self.jail.pop(p, None)
        self._note(f"{p} is bankrupt: their assets go to {self._account_name(creditor)}; "
                   f"their buildings stay and still score")
        if self.players[self.to_move] == p:
            self.again = False
            if self.auction is not None:
                self.auction = None
            self._advance()
        elif self.auction is not None and self.auction.high_bidder == p:
            self.auction = AuctionState(self.auction.deed)

    def _end_turn(self, event: EndTurn) -> None:
        p = event.player
        self._expect_mover(p, "end the turn")
        self._expect_phase("act", "ending the turn")
        self._note(f"{p} ends the turn")
        self._advance()

    def _end_game(self, event: EndGame) -> None:
        self.finished, self.end_reason, self.stage = True, event.reason or "agreed", "over"
        self._note("the table ends the game: it is scored as it stands")


def _and(names: list[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _chips(chips: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in chips.items() if n)


def new_state() -> BuilderState:
    return BuilderState()


def new_game(players: list[tuple[str, str]], profile: Profile | str = "monopoly_builder",
             **table: Any) -> GameLog[BuilderState]:
    """A started game for `players` = [(name, colour)] in turn order; `table` = table settings (`dice`,
    `bonus_tie`, `penthouse_building`, `jail_doubles_again`). The profile is embedded in the `start` event."""
    try:
        chosen = profile if isinstance(profile, Profile) else load_profile(profile)
    except RulesDataError as exc:
        raise IllegalAction(str(exc)) from None
    log: GameLog[BuilderState] = GameLog(new_state)
    seats = [Seat(name=n, colour=c) for n, c in players]
    table.setdefault("bank_trade", "trade_step")  # a new game follows the text's turn order
    log.push(Start(settings=Settings(players=seats, profile=chosen.model_dump(mode="json"), **table)))
    return log


def format_summary(s: dict[str, Any]) -> str:
    """`BuilderState.summary()` as the plain text `companion replay` prints."""
    lines = [f"Monopoly Builder, {len(s['players'])} players, "
             + (f"game over ({s['end_reason']})" if s["finished"] else f"in progress: {s['next']}")]
    lines.append(f"{'player':<10} {'cash':>7} {'deeds':>5} {'chips':>5} {'build':>5} {'mono':>4} {'bill':>4} "
                 f"{'comm':>4} {'total':>5}  status")
    for p in s["players"]:
        sc = p["score"]
        status = "bankrupt" if p["bankrupt"] else f"{p['position']} {p['space']}" + (" (in Jail)" if p["in_jail"] else "")
        lines.append(f"{p['name']:<10} {money(p['cash']):>7} {len(p['deeds']):>5} {sum(p['resources'].values()):>5} "
                     f"{sc['building_points']:>5} {sc['monopoly_points']:>4} {sc['billionaire']:>4} "
                     f"{sc['community']:>4} {sc['total']:>5}  {status}")
    lines.append(f"Bank: {money(s['bank']['cash'])}, resources " + _chips(s["bank"]["resources"]))
    if s["buildings"]:
        lines.append("Buildings: " + ", ".join(
            f"{c} {b['owner']} {b['floors']}{'+P' if b['penthouse'] else ''}" for c, b in s["buildings"].items()))
    if s["winner"]:
        lines.append("Winner: " + " and ".join(s["winner"]))
    return "\n".join(lines)
