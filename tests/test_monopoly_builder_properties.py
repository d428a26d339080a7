"""Property-based proof of conservation in Monopoly Builder: over random legal games (hypothesis seeds a
table that rolls, buys, bids, trades, mortgages, builds and goes bankrupt), money, resource chips and
builder's blocks are never created or lost, nobody's cash or chips go below zero, every refused event
changes nothing, replaying the log gives the same state, and undoing every event returns to the start."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import CommandError
from companion.commands.replay import replay_text
from companion.events import Event, GameLog, effective_events
from companion.games.monopoly_builder.profile import Profile, load_profile, set_value
from companion.games.monopoly_builder.rules import (
    BANK,
    Bid,
    Build,
    BuilderState,
    Bundle,
    Buy,
    Discard,
    EndTurn,
    Mortgage,
    Rent,
    Roll,
    Steal,
    Trade,
    new_game,
)
from companion.rules.errors import IllegalAction
from tests.games.builder_bot import SEATS, next_event


def _expensive() -> Profile:
    """Rents of 300-600M: debts, mortgages and bankruptcies happen in most games."""
    p = load_profile()
    for d in p.deeds:
        p = set_value(p, f"deeds.{d.id}.rent", 300)
        p = set_value(p, f"deeds.{d.id}.monopoly_rent", 600)
    return p


EXPENSIVE = _expensive()


def check_conserved(s: BuilderState) -> None:
    assert s.profile is not None
    assert s.total_money == s.profile.amounts.bank_float.value
    assert all(v >= 0 for a, v in s.cash.items() if a != BANK)
    per_colour = s.profile.counts.chips_per_colour.value
    assert s.total_chips() == {c: per_colour for c in s.colours}
    assert all(n >= 0 for holder in [*s.resources.values(), *s.space_resources.values()] for n in holder.values())
    for p in s.players:
        built = sum(b.floors for b in s.buildings.values() if b.owner == p)
        assert s.blocks[p] + built == s.profile.counts.blocks_per_player.value
    assert sum(1 for b in s.buildings.values() if b.penthouse) == (1 if s.penthouse_by else 0)
    cards = {c: n for c, n in s.deck.items()}
    for kept in s.kept_cards.values():
        for c in kept:
            cards[c] += 1
    assert cards == {c.id: c.count for c in s.profile.chance.cards}
    assert all(o is None or o in s.players for o in s.owners.values())


def chaos(s: BuilderState, rng: random.Random) -> Event:
    """An event picked without looking at the rules: often illegal."""
    p = rng.choice(s.players)
    q = rng.choice(s.players)
    colour = rng.choice(s.colours)
    return rng.choice([
        Roll(player=p, dice=(rng.randint(1, 6), rng.randint(1, 6))), Buy(player=p), EndTurn(player=p),
        Bid(player=p, amount=rng.randint(0, 2000)), Rent(player=p), Steal(player=p, target=q, resource=colour),
        Discard(player=p, resources={colour: rng.randint(0, 4)}), Mortgage(player=p, deed=rng.choice(list(s.owners))),
        Build(player=p, cell=rng.choice(["A1", "B2", "F6", "Q9"]), paid={colour: rng.randint(0, 5)}),
        Trade(player=p, partner=q, give=Bundle(cash=rng.randint(0, 1500)), get=Bundle(resources={colour: 1})),
    ])


def _snapshot(s: BuilderState) -> str:
    return json.dumps(s.summary(), sort_keys=True)


def _run(seed: int, players: int, profile: Profile | str, events: int, **table: Any) -> GameLog[BuilderState]:
    rng = random.Random(seed)
    log = new_game(SEATS[:players], profile, **table)
    check_conserved(log.state)
    while not log.state.finished and len(log.events) < events:
        if rng.random() < 0.15:
            event = chaos(log.state, rng)
            before = _snapshot(log.state)
            try:
                log.push(event)
            except (IllegalAction, ValueError):
                assert _snapshot(log.state) == before
        else:
            log.push(next_event(log.state, rng))
        check_conserved(log.state)
    return log


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), expensive=st.booleans(),
       tie=st.sampled_from(["none", "all"]))
def test_random_legal_games_conserve_money_chips_and_blocks(seed: int, players: int, expensive: bool,
                                                            tie: str) -> None:
    log = _run(seed, players, EXPENSIVE if expensive else "monopoly_builder", 600, bonus_tie=tie)
    s = log.state
    assert _snapshot(log.replay()) == _snapshot(s)
    if s.finished:
        assert s.winner() and set(s.winner()) <= set(s.players)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_undoing_every_event_returns_to_the_start(seed: int) -> None:
    log = _run(seed, 3, EXPENSIVE, 60)
    start = GameLog(log._new_state, log.events[:1]).state
    while len(effective_events(log.events)) > 1:
        log.undo()
        check_conserved(log.state)
    assert _snapshot(log.state) == _snapshot(start)


def test_expensive_games_reach_debts_and_bankruptcies() -> None:
    """The property test's expensive profile does exercise debts and bankruptcy (else it proves little)."""
    bankrupt = debts = 0
    for seed in range(10):
        log = _run(seed, 3, EXPENSIVE, 600)
        bankrupt += len(log.state.bankrupt)
        debts += sum(1 for e in log.events if e.type == "bankrupt" or e.type == "mortgage")
    assert bankrupt > 0 and debts > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_event_the_bot_plays_is_one_allowed_events_offers(seed: int) -> None:
    """`allowed_events()` (what the UI offers) never leaves out an event the rules accept."""
    rng = random.Random(seed)
    log = new_game(SEATS[:3], EXPENSIVE)
    while not log.state.finished and len(log.events) < 400:
        event = next_event(log.state, rng)
        assert event.type in log.state.allowed_events(), (event, log.state.phase)
        log.push(event)


_colour = st.sampled_from(["red", "purple", "green", "yellow", "blue"])
_name = st.sampled_from(["Ann", "Bob", "Zed"])
_chips = st.dictionaries(_colour, st.integers(-2, 8), max_size=3)
_bundle = st.fixed_dictionaries({}, optional={"cash": st.integers(-5, 2000), "resources": _chips,
                                              "deeds": st.lists(st.sampled_from(["oriental_avenue", "boardwalk", "x"]),
                                                                max_size=2),
                                              "cards": st.lists(st.sampled_from(["forced_trade", "get_out_of_jail"]),
                                                                max_size=2)})
_die = st.integers(0, 7)
_event = st.one_of(
    st.fixed_dictionaries({"type": st.just("roll"), "player": _name, "dice": st.tuples(_die, _die)}),
    st.fixed_dictionaries({"type": st.just("resource_roll"), "player": _name, "dice": st.tuples(_die, _die)}),
    st.fixed_dictionaries({"type": st.sampled_from(["buy", "auction", "rent", "jail_pay", "jail_card", "end_turn",
                                                    "bankrupt"]), "player": _name}),
    st.fixed_dictionaries({"type": st.just("bid"), "player": _name, "amount": st.integers(-10, 2000)}),
    st.fixed_dictionaries({"type": st.sampled_from(["auction_end", "end_game", "undo"])}),
    st.fixed_dictionaries({"type": st.just("discard"), "player": _name, "resources": _chips}),
    st.fixed_dictionaries({"type": st.just("chance"), "player": _name,
                           "card": st.sampled_from(["dividend", "go_to_jail", "advance_to_go", "forced_trade", "?"])}),
    st.fixed_dictionaries({"type": st.just("steal"), "player": _name},
                          optional={"target": _name, "resource": _colour}),
    st.fixed_dictionaries({"type": st.just("free_parking"), "player": _name, "give": _chips, "take": _colour}),
    st.fixed_dictionaries({"type": st.sampled_from(["bank_trade"]), "player": _name, "give": _colour, "take": _colour}),
    st.fixed_dictionaries({"type": st.just("forced_trade"), "player": _name, "target": _name, "give": _colour,
                           "take": _colour}),
    st.fixed_dictionaries({"type": st.just("trade"), "player": _name, "partner": _name, "give": _bundle,
                           "get": _bundle}),
    st.fixed_dictionaries({"type": st.just("build"), "player": _name,
                           "cell": st.sampled_from(["A1", "a2", "F6", "Z9", "", "11"]), "paid": _chips}),
    st.fixed_dictionaries({"type": st.sampled_from(["mortgage", "unmortgage"]), "player": _name,
                           "deed": st.sampled_from(["oriental_avenue", "boardwalk", "nowhere"])}),
)


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(events=st.lists(_event, max_size=25))
def test_any_builder_log_replays_or_is_refused_in_one_sentence(events: list[dict[str, Any]]) -> None:
    start = new_game(SEATS[:2]).events[0].model_dump(mode="json", exclude_none=True)
    try:
        replay_text(json.dumps({"format": 1, "variant": "monopoly_builder", "events": [start, *events]}))
    except CommandError as exc:
        text = str(exc)
        assert text and "\n" not in text, text
