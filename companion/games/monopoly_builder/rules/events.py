"""Monopoly Builder's events: the stored game id, the Bank's account name, the seats and table settings, and
every event of the log (pydantic, tagged by `type`; the format is `docs/event-format.md`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from companion.events import Event, PlayerEvent, StartEvent, Undo
from companion.rules.players import check_player_names

VARIANT = "monopoly_builder"
BANK = "bank"


Die = Annotated[int, Field(ge=1, le=6, description="what one die shows")]


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
