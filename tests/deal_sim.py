"""A Monopoly Deal table simulated card by card, for the random-game tests and the shipped example.

The simulator holds what the referee cannot see (a shuffled draw pile and every real hand) and plays
legal-looking moves chosen at random (with a bias towards building sets, so games end). It records only
what a referee would: the cards played, and the drawn cards when `name_draws` says the table saw them.
Every event goes through `GameLog.push`; `step()` returns the event recorded.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.events import Event, GameLog
from companion.games.monopoly_deal.deck import Deck, load_deck
from companion.games.monopoly_deal.rules import (
    Accept,
    BankCard,
    Birthday,
    Build,
    DealBreaker,
    DealState,
    DebtCollector,
    Discard,
    Draw,
    EndTurn,
    ForcedDeal,
    HouseRules,
    JustSayNo,
    Lay,
    MoveWild,
    PassGo,
    Pay,
    Rent,
    Settings,
    SlyDeal,
    Start,
    new_state,
)
from companion.rules.errors import IllegalAction


class Sim:
    def __init__(self, players: list[str], seed: int, house: HouseRules | None = None, name_draws: float = 1.0,
                 jsn_rate: float = 0.5, proposal_rate: float = 0.7, deck: Deck | None = None,
                 after: Callable[[Sim, Event], None] | None = None) -> None:
        self.rng = random.Random(seed)
        self.deck = deck or load_deck()
        self.house = house or HouseRules()
        self.name_draws = name_draws
        self.jsn_rate = jsn_rate
        self.proposal_rate = proposal_rate
        self.after = after
        self.log: GameLog[DealState] = GameLog(new_state)
        settings = Settings(players=players, deck=self.deck, house=self.house)
        self.log.push(Start(settings=settings))
        ids = [c.id for c in self.state.deck.cards] if self.state.deck else []
        self.rng.shuffle(ids)
        self.pile = ids
        self.hands: dict[str, list[str]] = {p: [] for p in players}
        deal = self.state.limits.deal
        dealt: dict[str, list[str]] = {}
        for p in players:
            self.hands[p] = [self.pile.pop() for _ in range(deal)]
            if self.rng.random() < name_draws:
                dealt[p] = list(self.hands[p])
        if dealt:  # start again with the dealt cards the table saw
            self.log = GameLog(new_state)
            self.log.push(Start(settings=settings.model_copy(update={"dealt": dealt})))
        self.refused = 0

    @property
    def state(self) -> DealState:
        return self.log.state

    # ----- recording
    def push(self, event: Event) -> bool:
        try:
            self.log.push(event)
        except IllegalAction:
            self.refused += 1
            return False
        self._follow(event)
        if self.after is not None:
            self.after(self, event)
        return True

    def _follow(self, event: Event) -> None:
        """Mirror the event in the real hands (cards leave the hand they were played from)."""
        player = getattr(event, "player", None)
        played: list[str] = []
        for name in ("card",):
            if hasattr(event, name):
                played.append(getattr(event, name))
        played += list(getattr(event, "doubles", []))
        if isinstance(event, Discard):
            played += event.cards
        if isinstance(event, (Lay, BankCard, PassGo, Rent, DebtCollector, Birthday, SlyDeal, ForcedDeal,
                              DealBreaker, Build, JustSayNo, Discard)) and player:
            for c in played:
                self.hands[player].remove(c)
            if isinstance(event, Discard) and self.house.excess_cards_to == "draw_pile_bottom":
                self.pile[:0] = event.cards

    def _take(self, n: int, also_discarded: tuple[str, ...] = ()) -> list[str]:
        """Draw `n` from the real pile, reshuffling the discard pile as the engine does (`also_discarded`:
        the card the event discards before drawing, a Pass Go)."""
        discard = [*self.state.discard, *also_discarded]
        if n > len(self.pile) and self.house.reshuffle_discards and discard:
            extra = discard
            self.rng.shuffle(extra)
            self.pile[:0] = extra
        out = []
        for _ in range(min(n, len(self.pile))):
            out.append(self.pile.pop())
        return out

    def _named(self, cards: list[str]) -> list[str]:
        return list(cards) if self.rng.random() < self.name_draws else []

    # ----- one decision
    def step(self) -> Event | None:
        s = self.state
        w = s.waiting()
        if w.kind == "over" or w.player is None:
            return None
        p = w.player
        if w.kind == "draw":
            n = s._draw_size(p)
            cards = self._take(n)
            event: Event = Draw(player=p, cards=self._named(cards))
            self.hands[p] += cards
            assert self.push(event), "a draw was refused"
            return event
        if w.kind == "answer":
            jsn = [c for c in self.hands[p] if s.card(c).action == "just_say_no"]
            if jsn and self.rng.random() < self.jsn_rate:
                event = JustSayNo(player=p, card=jsn[0])
            else:
                event = Accept(player=p)
            assert self.push(event), f"an answer was refused: {event}"
            return event
        if w.kind == "pay":
            event = Pay(player=p, cards=self._payment(p, w.amount))
            assert self.push(event), f"a payment was refused: {event}"
            return event
        return self._play(p)

    def _payment(self, payer: str, owed: int) -> list[str]:
        s = self.state
        if self.rng.random() < self.proposal_rate:
            return s.propose_payment(payer, owed)
        cards = s.payable(payer)
        self.rng.shuffle(cards)
        chosen: list[str] = []
        for c in cards:
            if sum(s.card(x).value for x in chosen) >= owed:
                break
            chosen.append(c)
        # the house under a hotel goes with it
        for c in list(chosen):
            st = s.set_of(payer, c)
            if st is not None and st.house == c and st.hotel is not None and st.hotel not in chosen:
                chosen.append(st.hotel)
        # drop what is not needed (no change is given)
        for c in sorted(chosen, key=lambda x: -s.card(x).value):
            rest = [x for x in chosen if x != c]
            st = s.set_of(payer, c)
            if st is not None and st.hotel == c and st.house in rest:
                continue  # a house cannot be paid while its hotel stays
            if sum(s.card(x).value for x in rest) >= owed:
                chosen = rest
        return chosen

    def _candidates(self, p: str) -> list[tuple[float, Event]]:
        s = self.state
        out: list[tuple[float, Event]] = []
        others = [o for o in s.players if o != p]
        if s.plays_left > 0:
            for c in self.hands[p]:
                card = s.card(c)
                if card.value > 0 and card.kind != "property":
                    out.append((1.0 if card.kind == "money" else 0.3, BankCard(player=p, card=c)))
                if card.kind == "property":
                    out.append((4.0, Lay(player=p, card=c)))
                if card.kind == "wild":
                    colours = s.deck.colour_ids if s.deck and card.any_colour else card.colours
                    out.append((3.0, Lay(player=p, card=c, colour=self.rng.choice(colours))))
                if card.action == "pass_go":
                    out.append((2.0, PassGo(player=p, card=c)))
                if card.kind == "rent":
                    colours = s.deck.colour_ids if s.deck and card.any_colour else card.colours
                    for col in colours:
                        if s.rent_for(p, col) > 0:
                            doubles = [d for d in self.hands[p] if s.card(d).action == "double_the_rent"]
                            k = self.rng.randint(0, min(len(doubles), s.plays_left - 1))
                            target = self.rng.choice(others) if card.any_colour else None
                            out.append((3.0, Rent(player=p, card=c, colour=col, target=target,
                                                  doubles=doubles[:k])))
                if card.action == "debt_collector":
                    out.append((2.0, DebtCollector(player=p, card=c, target=self.rng.choice(others))))
                if card.action == "its_my_birthday":
                    out.append((2.0, Birthday(player=p, card=c)))
                if card.action == "sly_deal":
                    for o in others:
                        for t in s.takeable(o):
                            out.append((1.0, SlyDeal(player=p, card=c, target=o, take=t)))
                if card.action == "forced_deal":
                    mine = s.takeable(p)
                    for o in others:
                        for t in s.takeable(o):
                            if mine:
                                out.append((0.5, ForcedDeal(player=p, card=c, target=o, take=t,
                                                            give=self.rng.choice(mine))))
                if card.action == "deal_breaker":
                    for o in others:
                        for col in s.complete_colours(o):
                            out.append((5.0, DealBreaker(player=p, card=c, target=o, colour=col)))
                if card.kind == "building":
                    for col in s.complete_colours(p):
                        out.append((3.0, Build(player=p, card=c, colour=col)))
        for st in s.sets[p]:
            for c in st.cards:
                card = s.card(c)
                if card.kind == "wild":
                    colours = s.deck.colour_ids if s.deck and card.any_colour else card.colours
                    col = self.rng.choice(colours)
                    if col != st.colour:
                        out.append((0.2, MoveWild(player=p, card=c, colour=col)))
        return out

    def _play(self, p: str) -> Event:
        s = self.state
        candidates = self._candidates(p)
        end_weight = 1.0 if s.plays_left > 0 else 100.0
        while candidates:
            weights = [w for w, _ in candidates] + [end_weight]
            i = self.rng.choices(range(len(weights)), weights)[0]
            if i == len(candidates):
                break
            _, event = candidates.pop(i)
            if isinstance(event, PassGo):
                return self._pass_go(event)
            if self.push(event):
                return event
        extra = s.hands[p] - s.limits.hand_limit
        if extra > 0:
            cards = self.rng.sample(self.hands[p], extra)
            event = Discard(player=p, cards=cards)
            assert self.push(event), "a discard was refused"
            return event
        event = EndTurn(player=p)
        assert self.push(event), "the end of a turn was refused"
        return event

    def _pass_go(self, event: PassGo) -> Event:
        pile = list(self.pile)
        cards = self._take(self.state.limits.pass_go_draw, (event.card,))
        event = event.model_copy(update={"drawn": self._named(cards)})
        self.hands[event.player] += cards
        if not self.push(event):
            self.pile = pile
            raise AssertionError(f"a Pass Go was refused: {event}")
        return event

    def run(self, max_events: int = 3000) -> int:
        n = 0
        while n < max_events and self.step() is not None:
            n += 1
        return n


def used_kinds(events: list[Any]) -> set[str]:
    """The event types of a log (for the 'every card kind' checks)."""
    return {e.type for e in events}
