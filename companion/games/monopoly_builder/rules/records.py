"""The records Monopoly Builder's state keeps: what stands on a foundation, a rent due, the auction, a debt,
a handout of resources, a player's score; and the steps of a turn (`Phase`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Phase = Literal["discard", "roll", "buy", "auction", "chance", "resource_roll", "steal", "act", "over"]


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
