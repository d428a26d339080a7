"""Monopoly Scrabble's events: the stored game id, the account names, the table settings and every event of
the log (pydantic, tagged by `type`; the format is `docs/event-format.md`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from companion.events import Event, PassEvent, PlayerEvent, StartEvent, Undo
from companion.games.monopoly_scrabble.profile import RESERVED_ACCOUNTS
from companion.rules.players import check_player_names
from companion.rules.word_game import WordChallenge, WordPlay

VARIANT = "monopoly"
BANK = "bank"
POT = "pot"


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    players: list[str] = Field(min_length=1, description="in turn order; the first plays first")
    banker: str | None = None
    profile: str = "monopoly_scrabble"
    profile_data: dict[str, Any] | None = Field(default=None, description="an inline profile, overrides `profile`")
    bank_rack: str | None = Field(default=None, description="the seven Bank rack letters, when the table records them")

    @model_validator(mode="after")
    def _check(self) -> Settings:
        names = check_player_names(self.players)
        if any(n.lower() in RESERVED_ACCOUNTS for n in names):
            raise ValueError("'bank' and 'pot' are account names and cannot be player names")
        return self


class Start(StartEvent):
    settings: Settings


class JailFee(PlayerEvent):
    type: Literal["jail_fee"] = "jail_fee"


class ReplaceBlank(PlayerEvent):
    """Swap the blank on `square` for the same letter from the player's rack or the Bank rack."""

    type: Literal["replace_blank"] = "replace_blank"
    square: str
    source: Literal["rack", "bank"] = "rack"


class Play(WordPlay):
    """A word; `bought` = letters bought from the Bank rack for it, `bank_drawn` = the Banker's refill."""

    bought: str = Field(default="", description="letters bought from the Bank rack for this word ('?' = a blank)")
    bank_drawn: str | None = Field(default=None, description="letters the Banker drew to refill the Bank rack")


class BingoChoice(PlayerEvent):
    type: Literal["bingo_choice"] = "bingo_choice"
    group: str


CardEffectKind = Literal["collect", "pay_bank", "pay_pot", "pay_each", "collect_each", "move_to", "move_by",
                         "go_to_jail", "take_property", "none"]


class Card(PlayerEvent):
    """The effect of the Chance / Community Chest card just drawn, picked by the table."""

    type: Literal["card"] = "card"
    deck: Literal["chance", "community_chest"] | None = None
    effect: CardEffectKind
    amount: int | None = Field(default=None, ge=0)
    space: int | None = Field(default=None, ge=0)
    steps: int | None = None
    group: str | None = None
    collect_go: bool = True
    text: str = Field(default="", description="the card's wording, for the record")

    @model_validator(mode="after")
    def _check(self) -> Card:
        need = {"collect": "amount", "pay_bank": "amount", "pay_pot": "amount", "pay_each": "amount",
                "collect_each": "amount", "move_to": "space", "move_by": "steps", "take_property": "group"}
        name = need.get(self.effect)
        if name is not None and getattr(self, name) is None:
            raise ValueError(f"a '{self.effect}' card needs '{name}'")
        return self


class Sell(PlayerEvent):
    type: Literal["sell"] = "sell"
    group: str


Pass = PassEvent


class Challenge(WordChallenge):
    """A ruling on the latest play; `acceptable` None asks the state's `judge`."""


class EndGame(Event):
    """Settles the game; `tiles_left` (optional) is checked against the tracked rack counts."""

    type: Literal["end_game"] = "end_game"
    reason: Literal["played_out", "no_plays", "agreed"] = "no_plays"
    tiles_left: dict[str, int] | None = None


MonopolyScrabbleEvent = Annotated[
    Start | JailFee | ReplaceBlank | Play | BingoChoice | Card | Sell | Pass | Challenge | EndGame | Undo,
    Field(discriminator="type"),
]
_EVENT_UNION: Any = MonopolyScrabbleEvent  # mypy reads an 11-member union as a type[] call; the adapter is still typed
EVENT_ADAPTER: TypeAdapter[MonopolyScrabbleEvent] = TypeAdapter(_EVENT_UNION)
