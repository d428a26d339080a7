"""A scripted Monopoly Deal table for the rule tests: the referee's view, cards named as they are played.

`Table(players)` starts a game with the shipped deck (hands unseen). `setup(Ann=[...], Ben=[...])` plays
round after round of ordinary turns (draw, up to three plays, end) until every listed card is on the
table: `"prop-red-kentucky-avenue"` is laid, `"wild-red-yellow-1:red"` laid as red, `"money-5-1"` (or an
action card) banked, `"house-1:red"` built; the turn that lays the last card ends. A player over the hand
limit discards spare Pass Go cards (then cards no set-up names).
`to(player)` ends turns until it is `player`'s turn, drawn. `refuse(event, words)` checks a refusal
changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.events import Event, GameLog
from companion.games.monopoly_deal.rules import (
    BankCard,
    Build,
    DealState,
    Discard,
    Draw,
    EndTurn,
    HouseRules,
    Lay,
    new_game,
)
from companion.rules.errors import IllegalAction


class Table:
    def __init__(self, players: tuple[str, ...] = ("Ann", "Ben"), house: HouseRules | None = None,
                 dealt: dict[str, list[str]] | None = None) -> None:
        self.log: GameLog[DealState] = new_game(list(players), house, dealt=dealt)
        self.junk = [f"action-pass-go-{i}" for i in range(10, 0, -1)]
        self.reserved: set[str] = set()

    @property
    def s(self) -> DealState:
        return self.log.state

    def do(self, *events: Event) -> DealState:
        for e in events:
            self.log.push(e)
        return self.s

    def refuse(self, event: Event, words: str) -> None:
        before = self.s.summary()
        n = len(self.log.events)
        with pytest.raises(IllegalAction, match=re.escape(words)):
            self.log.push(event)
        assert self.s.summary() == before and len(self.log.events) == n

    def end(self) -> None:
        """End the current turn (draw first if needed; discard spare Pass Go cards when over the limit)."""
        s = self.s
        p = s.turn_player
        assert p is not None
        if not s.drawn:
            self.do(Draw(player=p))
        extra = self.s.hands[p] - self.s.limits.hand_limit
        if extra > 0:
            self.do(Discard(player=p, cards=self._junk(p, extra)))
        self.do(EndTurn(player=p))

    def _junk(self, player: str, n: int) -> list[str]:
        possible = self.s.possible_hand_cards(player)
        out = [c for c in self.junk if c in possible][:n]
        for c in out:
            self.junk.remove(c)
        # then any card no test set-up needs, money last
        rest = [c for c in reversed(possible) if c not in self.reserved and c not in out]
        return out + rest[:n - len(out)]

    def to(self, player: str) -> DealState:
        """End turns until it is `player`'s turn, and draw."""
        for _ in range(12):
            if self.s.turn_player == player:
                break
            self.end()
        assert self.s.turn_player == player
        if not self.s.drawn:
            self.do(Draw(player=player))
        return self.s

    def setup(self, **areas: list[str]) -> DealState:
        queues = {p: list(cards) for p, cards in areas.items()}
        for c in (c.split(":")[0] for cards in areas.values() for c in cards):
            self.reserved.add(c)
            if c in self.junk:
                self.junk.remove(c)
        for _ in range(60):
            if not any(queues.values()):
                break
            p = self.s.turn_player
            assert p is not None
            if not self.s.drawn:
                self.do(Draw(player=p))
            queue = queues.get(p, [])
            while queue and self.s.plays_left > 0 and self.s.hands[p] > 0:
                self.do(self._play(p, queue.pop(0)))
            if not self.s.finished:
                self.end()
        assert not any(queues.values()), f"could not lay out {queues}"
        return self.s

    def _play(self, player: str, spec: str) -> Event:
        card, _, colour = spec.partition(":")
        kind = self.s.card(card).kind
        if kind == "building":
            return Build(player=player, card=card, colour=colour)
        if kind in ("property", "wild"):
            return Lay(player=player, card=card, colour=colour or None)
        return BankCard(player=player, card=card)


RED = ["prop-red-kentucky-avenue", "prop-red-indiana-avenue", "prop-red-illinois-avenue"]
GREEN = ["prop-green-pacific-avenue", "prop-green-north-carolina-avenue", "prop-green-pennsylvania-avenue"]
BLUE = ["prop-dark-blue-park-place", "prop-dark-blue-boardwalk"]
BROWN = ["prop-brown-mediterranean-avenue", "prop-brown-baltic-avenue"]
ORANGE = ["prop-orange-st-james-place", "prop-orange-tennessee-avenue", "prop-orange-new-york-avenue"]
YELLOW = ["prop-yellow-atlantic-avenue", "prop-yellow-ventnor-avenue", "prop-yellow-marvin-gardens"]
PINK = ["prop-pink-st-charles-place", "prop-pink-states-avenue", "prop-pink-virginia-avenue"]
LIGHT_BLUE = ["prop-light-blue-oriental-avenue", "prop-light-blue-vermont-avenue",
              "prop-light-blue-connecticut-avenue"]
RAIL = ["prop-railroad-reading-railroad", "prop-railroad-pennsylvania-railroad", "prop-railroad-b-o-railroad",
        "prop-railroad-short-line"]
UTIL = ["prop-utility-electric-company", "prop-utility-water-works"]


def colours_of(s: DealState, player: str) -> dict[str, Any]:
    """player's sets as {colour: [cards...]} (the first set of each colour)."""
    out: dict[str, Any] = {}
    for st in s.sets[player]:
        out.setdefault(st.colour, list(st.cards))
    return out
