"""The parts of Monopoly Deal's state: a property set, one target's claim in an action and the action being
answered (`Pending`), a settled payment, and what the game waits for (`Waiting`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


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
