"""The liveness law (`tests/liveness_law.py`, issue #26) for Monopoly Builder.

Random games that take every optional action the rules offer at every step (trades between players at any
moment, the Bank's 4-for-1s, Free Parking, FORCED TRADE! cards, mortgages and unmortgages, rent requests,
token corrections, undo): from every state reached that is not the end some offered move other than Undo
exists; every offered move is accepted; near-misses of the offered moves are refused with one sentence and
change nothing; the state after every event is the fold of its log. Then hand-written edge states: the
dead end of the issue, exactly six chips, a rent window across doubles, Jail, a debt.

The walk picks an event type uniformly among those offered, then a move of that type (a uniform pick
over all moves would spend the game on the hundreds of trades and token corrections offered at every step
and never reach a late game). The longer run is `benchmarks/builder.py --liveness`.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable
from typing import Any

from companion.events import Event, GameLog, Undo
from companion.games.monopoly_builder.legal import legal_moves
from companion.games.monopoly_builder.profile import Profile, load_profile, set_value
from companion.games.monopoly_builder.rules import (
    BANK,
    Bankrupt,
    BankTrade,
    Bid,
    Build,
    BuilderState,
    Bundle,
    Buy,
    Discard,
    EndTurn,
    JailPay,
    Mortgage,
    PlaceToken,
    Rent,
    Roll,
    Steal,
    Trade,
    new_game,
)
from tests.liveness_law import LawGame, LawReport, check_law, check_state

SEATS = [("Ann", "red"), ("Bob", "purple"), ("Cy", "green"), ("Di", "yellow")]


def _expensive() -> Profile:
    """Rents of 300-600M: debts, mortgages and bankruptcies happen in most games."""
    p = load_profile()
    for d in p.deeds:
        p = set_value(p, f"deeds.{d.id}.rent", 300)
        p = set_value(p, f"deeds.{d.id}.monopoly_rent", 600)
    return p


EXPENSIVE = _expensive()


def new_log(rng: random.Random) -> GameLog[BuilderState]:
    """A started game of 2-4 players, every table setting drawn at random."""
    players = rng.randint(2, 4)
    return new_game(SEATS[:players], EXPENSIVE if rng.random() < 0.4 else "monopoly_builder",
                    bank_trade=rng.choice(["trade_step", "your_turn"]),
                    rent_window=rng.choice(["next_player", "next_roll"]),
                    jail_doubles_again=rng.random() < 0.3, bonus_tie=rng.choice(["none", "all"]))


def summary(s: BuilderState) -> str:
    return json.dumps(s.summary(), sort_keys=True)


_offered: list[tuple[BuilderState, list[Event]]] = []


def offered(s: BuilderState) -> list[Event]:
    """`legal_moves`, asked once per state (the law and the near-misses both ask it)."""
    if not _offered or _offered[0][0] is not s:
        _offered[:] = [(s, legal_moves(s))]
    return _offered[0][1]


def near_misses(s: BuilderState, rng: random.Random) -> Iterable[Event]:
    """Events one step away from an offered move, each breaking a rule (another player, one chip too many
    or too few, a bid too low, the wrong rent, a deed not theirs...)."""
    assert s.profile is not None
    moves = offered(s)
    mover = s.mover
    assert mover is not None
    others = [p for p in s.players if p != mover]
    # Not the player the turn passes to: their roll is offered, as it ends the turn that may end now.
    not_next = [p for p in others if p != s.turn_passes_to()]
    out: list[Event] = [EndTurn(player=rng.choice(others)),
                        PlaceToken(player=rng.choice(s.players), space=len(s.profile.track.spaces))]
    if not_next:
        out.append(Roll(player=rng.choice(not_next), dice=(1, 2)))
    if s.phase != "buy":
        out.append(Buy(player=mover))
    if s.phase != "steal":
        out.append(Steal(player=mover))
    if mover not in s.jail:
        out.append(JailPay(player=mover))
    if s.debt is None or s.debt.debtor != mover:
        out.append(Bankrupt(player=mover))
    if s.discard_owed() == 0:
        out.append(Discard(player=mover, resources={}))
    for m in moves:
        if isinstance(m, Discard):
            more = next((c for c in s.colours if s.resources[mover][c] > m.resources.get(c, 0)), None)
            if more is not None:
                out.append(Discard(player=mover, resources={**m.resources, more: m.resources.get(more, 0) + 1}))
            break
    builds = [m for m in moves if isinstance(m, Build)]
    if builds:
        b = rng.choice(builds)
        c = next(iter(b.paid))
        out.append(Build(player=b.player, cell=b.cell, paid={**b.paid, c: b.paid[c] - 1}))
    bids = [m for m in moves if isinstance(m, Bid)]
    if bids:
        low = min(bids, key=lambda m: m.amount)
        out.append(Bid(player=low.player, amount=low.amount - s.profile.amounts.auction_raise.value))
        out.append(Bid(player=low.player, amount=s.cash[low.player] + low.amount))
    rents = [m for m in moves if isinstance(m, Rent)]
    if rents:
        r = rng.choice(rents)
        assert r.amount is not None
        out.append(Rent(player=r.player, deed=r.deed, amount=r.amount + 1))
        out.append(Rent(player=rng.choice([p for p in s.players if p != r.player]), deed=r.deed, amount=r.amount))
    trades = [m for m in moves if isinstance(m, Trade) and m.give.resources]
    if trades:
        t = rng.choice(trades)
        c = next(iter(t.give.resources))
        out.append(Trade(player=t.player, partner=t.partner, give=Bundle(resources={c: s.resources[t.player][c] + 1}),
                         get=t.get))
    mortgaged = sorted(s.mortgaged)
    if mortgaged:
        d = rng.choice(mortgaged)
        owner = s.owners[d]
        if owner is not None:
            out.append(Mortgage(player=owner, deed=d))
    bank_owned = [d for d, o in s.owners.items() if o is None]
    if bank_owned:
        out.append(Mortgage(player=mover, deed=rng.choice(bank_owned)))
    out.append(PlaceToken(player=mover, space=s.positions[mover]))
    poor = [c for c in s.colours if s.resources[mover][c] < s.profile.counts.bank_trade_rate.value]
    if poor:
        out.append(BankTrade(player=mover, give=rng.choice(poor), take=rng.choice(s.colours)))
    rng.shuffle(out)
    return out


BUILDER_LAW: LawGame[BuilderState] = LawGame(
    name="Monopoly Builder", new_log=new_log, legal_moves=offered, near_misses=near_misses,
    finished=lambda s: s.finished, summary=summary)


def pick(moves: list[Event], rng: random.Random) -> Event:
    """An event type uniformly among those offered, then one of its moves (the end by agreement rarely:
    taken as often as the others, it would end every game within a few events)."""
    kinds = sorted({m.type for m in moves})
    if len(kinds) > 1 and "end_game" in kinds and rng.random() > 0.002:
        kinds.remove("end_game")
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m.type == kind])


def walk(seed: int, max_events: int, report: LawReport, check_all_every: int = 10, fold_every: int = 10) -> None:
    """One random game (see the module docstring): the law at every state, every offered move checked
    every `check_all_every` states (a sample of four at the others), the fold compared every `fold_every`."""
    rng = random.Random(seed)
    log = new_log(rng)
    report.games += 1
    for step in range(max_events):
        if log.state.finished:
            report.finished += 1
            break
        moves = check_state(BUILDER_LAW, log, rng, report, check_all_offered=step % check_all_every == 0)
        if report.failures or not moves:
            break
        if len(log.events) > 1 and rng.random() < BUILDER_LAW.undo_chance:
            log.push(Undo())
        else:
            log.push(pick(list(moves), rng))
        report.events += 1
        report.longest = max(report.longest, len(log.events))
        if step % fold_every == 0 and summary(log.replay()) != summary(log.state):
            report.failures.append(f"seed {seed}: the state after {log.events[-1]!r} differs from the fold of its log")
            break


def run(seeds: Iterable[int], max_events: int, **kw: Any) -> LawReport:
    report = LawReport()
    for seed in seeds:
        walk(seed, max_events, report, **kw)
        if report.failures:
            break
    return report


def test_the_liveness_law_over_random_builder_games() -> None:
    started = time.perf_counter()
    report = run(range(8), 250)
    took = time.perf_counter() - started
    print(f"\nBuilder liveness: {report.games} games, {report.events} events, {report.finished} finished, "
          f"{report.offered_checked} offered moves applied, {report.near_misses_refused} near-misses refused, "
          f"{took:.1f} s")
    assert not report.failures, report.failures[:3]
    assert report.events > 1500 and report.near_misses_refused > 4000


def test_the_shared_walk_of_the_law_too() -> None:
    """The law's own walk (`check_law`: a uniform pick over every offered move, so mostly trades and token
    corrections), a few short games: the same law from the states that walk reaches."""
    report = check_law(BUILDER_LAW, range(6), 120, check_all_offered=False)
    assert not report.failures, report.failures[:3]
    assert report.events > 150  # the end by agreement is one of the moves: these games end early


# ---------------------------------------------------------------- hand-written edge states


def law_at(log: GameLog[BuilderState], seed: int = 0) -> list[Event]:
    """The law at this one state: live, every offered move accepted, near-misses refused cleanly."""
    report = LawReport()
    moves = check_state(BUILDER_LAW, log, random.Random(seed), report, misses_per_state=50)
    assert not report.failures, report.failures
    return moves


def push(log: GameLog[BuilderState], *events: Event) -> BuilderState:
    for e in events:
        log.push(e)
    return log.state


def _eight_chips_at_the_start_of_a_turn() -> GameLog[BuilderState]:
    log = new_game(SEATS[:2])
    from companion.games.monopoly_builder.rules import ResourceRoll

    push(log, Roll(player="Ann", dice=(1, 1)), Roll(player="Ann", dice=(2, 2)),
         ResourceRoll(player="Ann", dice=(1, 1)), EndTurn(player="Ann"))
    assert log.state.hand("Ann") == 8 and log.state.phase == "discard"
    return log


def test_edge_the_dead_end_of_the_issue_is_live() -> None:
    log = _eight_chips_at_the_start_of_a_turn()
    moves = law_at(log)
    assert all(isinstance(m, Discard) and sum(m.resources.values()) == 2 for m in moves if m.type == "discard")
    assert not any(isinstance(m, Roll) for m in moves)
    push(log, Trade(player="Ann", partner="Bob", give=Bundle(resources={"red": 4}), get=Bundle(cash=40)))
    moves = law_at(log)
    assert any(isinstance(m, Roll) for m in moves) and not any(isinstance(m, Discard) for m in moves)


def test_edge_exactly_six_chips_offers_the_roll_and_no_discard() -> None:
    log = _eight_chips_at_the_start_of_a_turn()
    push(log, Trade(player="Ann", partner="Bob", give=Bundle(resources={"red": 2}), get=Bundle(cash=20)))
    moves = law_at(log)
    assert log.state.hand("Ann") == 6
    assert any(isinstance(m, Roll) for m in moves) and not any(isinstance(m, Discard) for m in moves)


def test_edge_a_rent_window_across_doubles() -> None:
    log = new_game(SEATS[:2])
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         PlaceToken(player="Bob", space=1), Roll(player="Bob", dice=(2, 2)))   # Bob on Oriental, doubles
    moves = law_at(log)
    assert Rent(player="Ann", deed="oriental_avenue", amount=50) in moves
    push(log, Roll(player="Bob", dice=(1, 1)))  # his next turn: Vermont, for sale
    moves = law_at(log)
    assert Rent(player="Ann", deed="oriental_avenue", amount=50) in moves and log.state.phase == "buy"


def test_edge_jail() -> None:
    log = new_game(SEATS[:2])
    push(log, Roll(player="Ann", dice=(1, 2)))
    push(log, *[m for m in legal_moves(log.state) if m.type == "auction"][:1])
    push(log, *[m for m in legal_moves(log.state) if m.type == "auction_end"])
    push(log, EndTurn(player="Ann"), Roll(player="Bob", dice=(1, 2)))
    push(log, *[m for m in legal_moves(log.state) if m.type == "auction"][:1])
    push(log, *[m for m in legal_moves(log.state) if m.type == "auction_end"])
    push(log, EndTurn(player="Bob"), PlaceToken(player="Ann", space=21), Roll(player="Ann", dice=(1, 2)))
    s = log.state
    assert "Ann" in s.jail and s.mover == "Bob"
    law_at(log)
    push(log, Roll(player="Bob", dice=(2, 3)), EndTurn(player="Bob"))  # Bob visits Jail
    moves = law_at(log)
    assert JailPay(player="Ann") in moves and not any(isinstance(m, PlaceToken) and m.player == "Ann" for m in moves)
    push(log, Roll(player="Ann", dice=(1, 2)))  # no doubles: stays in Jail, may trade, not build
    moves = law_at(log)
    assert not any(isinstance(m, Build) for m in moves) and EndTurn(player="Ann") in moves
    assert "may trade but not build" in log.state.waiting_for()


def test_edge_a_debt_offers_mortgages_then_bankruptcy() -> None:
    log = new_game(SEATS[:2], EXPENSIVE)
    push(log, Roll(player="Ann", dice=(2, 3)), Buy(player="Ann"), EndTurn(player="Ann"),
         Trade(player="Bob", partner="Ann", give=Bundle(cash=800)), Roll(player="Bob", dice=(2, 3)))
    push(log, Rent(player="Ann", deed="oriental_avenue", amount=300))
    s = log.state
    assert s.debt is not None and s.debt.debtor == "Bob"
    moves = law_at(log)
    assert Bankrupt(player="Bob") in moves  # Bob owns no deed to mortgage
    assert not any(isinstance(m, Roll) for m in moves)
    assert s.resources[BANK]  # the Bank is an account, not a player: never offered a move
    assert not any(getattr(m, "player", None) == BANK for m in moves)
