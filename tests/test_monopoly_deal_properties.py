"""Property-based proof of the Monopoly Deal bookkeeping: random games played card by card (`deal_sim`) with
random house rules, 2 to 5 players, and draws the referee sees or does not see. After every event:
every card is in exactly one place, the hand counts are the real hands' sizes, no turn uses more than
three plays, no payment gives change or creates money, and undo returns to the state before."""

from __future__ import annotations

from typing import Any

from deal_sim import Sim
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.events import Event, effective_events
from companion.games.monopoly_deal.rules import DealState, HouseRules, Pay

house_rules = st.builds(
    HouseRules,
    received_building=st.sampled_from(["bank", "property"]),
    stack_double_rent=st.booleans(),
    double_with_any_rent=st.booleans(),
    excess_cards_to=st.sampled_from(["discard_pile", "draw_pile_bottom"]),
    broken_set_buildings=st.sampled_from(["stay", "bank", "discard"]),
    reshuffle_discards=st.booleans(),
    bank_property_wilds=st.booleans(),
    forced_deal_from_full_set=st.booleans(),
    forced_deal_count=st.sampled_from([None, 3, 4]),
    hotel_count=st.sampled_from([None, 2, 3]),
)


def worth(s: DealState, player: str) -> int:
    return s.bank_total(player) + s.table_value(player)


def deck_value(s: DealState) -> int:
    assert s.deck is not None
    return sum(c.value for c in s.deck.cards)


class Watch:
    """Checks every event of a simulated game against the invariants."""

    def __init__(self) -> None:
        self.before: dict[str, int] = {}
        self.payments = 0
        self.events = 0
        self.proposals = 0

    def __call__(self, sim: Sim, event: Event) -> None:
        s = sim.state
        self.events += 1
        s.check()  # every card in exactly one place; unseen pool = draw pile + unseen hand cards
        assert s.plays <= s.limits.plays_per_turn
        for p in s.players:
            assert s.hands[p] == len(sim.hands[p]), f"{p}'s hand count drifted after {event}"
        # Money is never created: banks + tables + discard pile + hands and draw pile hold the deck's value.
        places = s.card_places()
        unseen_value = sum(s.card(c).value for c, w in places.items() if w == "unseen" or w.startswith("hand:"))
        discard_value = sum(s.card(c).value for c in s.discard)
        assert sum(worth(s, p) for p in s.players) + discard_value + unseen_value == deck_value(s)
        for pay in s.payments[self.payments:]:
            values = [s.card(c).value for c in pay.cards]
            if pay.value >= pay.owed:
                # No change: no card could be left out and still cover the debt (a hotel carries its house).
                for c, v in zip(pay.cards, values):
                    if c.startswith("hotel-") and any(x.startswith("house-") for x in pay.cards):
                        continue
                    assert pay.value - v < pay.owed, f"{pay} gives change"
            else:
                assert not s.payable(pay.payer) or s.house.broken_set_buildings == "bank", f"{pay} short but kept cards"
        if isinstance(event, Pay) or len(s.payments) > self.payments:
            for pay in s.payments[self.payments:]:
                gained = worth(s, pay.payee) - self.before[pay.payee]
                lost = self.before[pay.payer] - worth(s, pay.payer)
                if len(s.payments) - self.payments == 1:
                    assert gained == pay.value, f"{pay.payee} gained {gained} from a payment of {pay.value}"
                    if s.house.broken_set_buildings != "discard":
                        assert lost == pay.value
        self.payments = len(s.payments)
        self.before = {p: worth(s, p) for p in s.players}
        w = s.waiting()
        if w.amount > 0 and w.target is not None and len(s.payable(w.target)) <= 12:
            assert cost(s, w.target, s.propose_payment(w.target, w.amount), w.amount) == best_cost(
                s, w.target, w.amount)
            self.proposals += 1


def cost(s: DealState, payer: str, cards: list[str], owed: int) -> tuple[int, int, int, int, int]:
    """What a payment costs the payer, in the safe default's order (written out here, not borrowed from the
    rules): complete sets broken, property value given, building value given, value given, cards."""
    broken = {id(st) for st in s.complete_sets(payer) for c in cards if c in st.cards}
    on_table = [c for c in cards if c not in s.banks[payer]]
    props = sum(s.card(c).value for c in on_table if s.card(c).kind in ("property", "wild"))
    built = sum(s.card(c).value for c in on_table if s.card(c).kind == "building")
    return len(broken), props, built, sum(s.card(c).value for c in cards), len(cards)


def best_cost(s: DealState, payer: str, owed: int) -> tuple[int, int, int, int, int]:
    """The cheapest legal payment by brute force over every subset of what the payer can pay with."""
    cards = s.payable(payer)
    if sum(s.card(c).value for c in cards) <= owed:
        return cost(s, payer, cards, owed)
    found = []
    for mask in range(1, 1 << len(cards)):
        chosen = [c for i, c in enumerate(cards) if mask >> i & 1]
        if sum(s.card(c).value for c in chosen) < owed:
            continue
        if any(st.house in chosen and st.hotel is not None and st.hotel not in chosen
               for st in s.sets[payer]):
            continue
        found.append(cost(s, payer, chosen, owed))
    return min(found)


# Whole games are slow to shrink; a failure reports its seed and settings, which replay it exactly.
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 10**9), n=st.integers(2, 5), house=house_rules, name_draws=st.sampled_from([0.0, 0.5, 1.0]),
       jsn_rate=st.sampled_from([0.0, 0.5, 1.0]))
def test_random_games_conserve_cards_money_and_plays(seed: int, n: int, house: HouseRules, name_draws: float,
                                                      jsn_rate: float) -> None:
    watch = Watch()
    sim = Sim(["Ann", "Ben", "Cat", "Dan", "Eve"][:n], seed, house=house, name_draws=name_draws,
              jsn_rate=jsn_rate, after=watch)
    watch.before = {p: 0 for p in sim.state.players}
    sim.run(1500)
    assert watch.events > 20
    s = sim.state
    if s.finished:
        winner = s.winner()[0]
        assert len(s.complete_colours(winner)) >= 3
        assert s.pending is None


def test_payment_proposals_are_compared_with_brute_force() -> None:
    # The random games above compare the app's proposed payment with the cheapest one found by brute force
    # whenever the payer has at most 12 cards to pay with; a random game may never meet such a moment
    # (two players whose banks grew large: every debt found them with 16-20 cards, seed 40260662). This
    # fixed game meets 21 such moments, so the comparison itself is always exercised.
    watch = Watch()
    sim = Sim(["Ann", "Ben", "Cat"], 4, name_draws=0.5, jsn_rate=0.5, after=watch)
    watch.before = {p: 0 for p in sim.state.players}
    sim.run(1500)
    assert watch.proposals >= 10 and sim.state.payments


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_undo_of_every_event_returns_to_the_state_before(seed: int) -> None:
    sim = Sim(["Ann", "Ben", "Cat"], seed, name_draws=0.5)
    summaries: list[dict[str, Any]] = [sim.state.summary()]
    for _ in range(40):
        if sim.step() is None:
            break
        summaries.append(sim.state.summary())
    log = sim.log
    for expected in reversed(summaries[:-1]):
        log.undo()
        assert log.state.summary() == expected
        log.state.check()
    assert len(effective_events(log.events)) == 1  # only the start is left
