"""Monopoly Builder's state as data: its fields (the package docstring lists them) and everything read from
them without changing them: whose turn and what it waits for (`phase`, `waiting_for`, `allowed_events`),
rents, building costs, scores, the winner, `summary()`. `state.BuilderState` adds the handlers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.events import RulesState
from companion.games.monopoly_builder.profile import (
    FloorCost,
    Profile,
    parse_cell,
)
from companion.games.monopoly_builder.rules.events import (
    BANK,
    VARIANT,
    Settings,
)
from companion.games.monopoly_builder.rules.records import (
    AuctionState,
    Building,
    Debt,
    Handout,
    Phase,
    RentDue,
    Score,
)
from companion.rules.ledger import Transaction
from companion.rules.money import money_prefixed as money
from companion.rules.turns import game_over, not_your_turn


def _and(names: list[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _chips(chips: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in chips.items() if n)


@dataclass
class BuilderView(RulesState):
    """The fields of a Monopoly Builder game's folded state (see the package docstring) and the views on them."""

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
            return game_over()
        if player != mover:
            return not_your_turn(player, mover, "trade with the Bank")
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

    def _account_name(self, account: str) -> str:
        return "the Bank" if account == BANK else account

    def _deed_here(self, player: str) -> str:
        assert self.profile is not None
        deed = self.profile.track.spaces[self.positions[player]].deed
        assert deed is not None
        return deed

