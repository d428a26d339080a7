"""The records Monopoly Scrabble's state keeps: Property Cards changing hands, the steps a turn waits for
(`Step`, with its sentence), and the lines of the turn record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.games.monopoly_scrabble.rules.events import BANK, POT

ACCOUNT_WORDS = {BANK: "the Bank", POT: "Free Parking"}  # the two accounts as a sentence names them


@dataclass(frozen=True)
class CardTransfer:
    """A Property Card changing hands (`bank` = held by the Bank)."""

    group: str
    giver: str
    taker: str
    reason: str
    turn: int


@dataclass(frozen=True)
class Step:
    """Something the turn waits for (or will do next). The first pending step is what the table does now.

    kinds: `jail_fee`, `bingo_choice` (options = cards it may take), `card` (deck), `debt` (player owes
    `amount` to `creditor` and must sell cards), `move` (queued token move of `amount` spaces, done
    as soon as nothing is before it), `end_game`.
    """

    kind: str
    player: str
    amount: int = 0
    creditor: str | None = None
    deck: str | None = None
    options: tuple[str, ...] = ()
    reason: str = ""
    collect_go: bool = True

    def describe(self, card_names: dict[str, str] | None = None) -> str:
        """The step in words; `card_names` gives the Property Cards' printed names (`describe_step`)."""
        names = card_names or {}
        deck = "Chance" if self.deck == "chance" else "Community Chest"
        creditor = ACCOUNT_WORDS.get(self.creditor or "", self.creditor)
        sentences: dict[str, Callable[[], str]] = {  # by kind, as events are dispatched
            "jail_fee": lambda: f"{self.player} pays M{self.amount} to leave Jail",
            "bingo_choice": lambda: (f"{self.player} chooses a Property Card for the bingo: "
                                     f"{', '.join(names.get(g, g) for g in self.options)}"),
            "card": lambda: f"{self.player} draws a {deck} card; record its effect",
            "debt": lambda: (f"{self.player} owes M{self.amount} to {creditor} ({self.reason}) and must sell "
                             "Property Cards"),
            "move": lambda: f"{self.player} moves {self.amount} spaces",
            "end_game": lambda: "the game is over: record the tiles left on each rack",
        }
        say = sentences.get(self.kind)
        return say() if say is not None else self.kind


@dataclass
class TurnRecord:
    player: str
    kind: str  # play, pass, withdrawn, lost turn, jail, end
    score: int = 0
    notation: str = ""
    words: list[str] = field(default_factory=list)
    moved_from: int | None = None
    moved_to: int | None = None
    note: str = ""
