"""The liveness law every game obeys (issue #26), written once and used by each game's test.

A game's rules module is the one source of what is legal: it offers the legal moves of a state as
concrete events (`legal_moves(state)`), and the app's pickers and buttons come only from there. The law:

1. **Live.** From every reachable state that is not the end of the game, some offered move other than
   Undo exists (and so moves the game on).
2. **Offered = accepted.** Every move offered is accepted by the rules' own `apply`.
3. **Near-misses refused cleanly.** A move that looks like a legal one but is not (a game-specific
   mutation: another player, one chip too many, a card not in the hand...) is refused with one sentence
   and changes nothing (the state's summary is the same before and after).
4. **The log is the game.** After every event the state equals the fold of its log from the start
   (`GameLog.replay`), compared by summary, so undo, resume and replay give the same game.

A derived obligation (a discard owed, a debt, a rent window, plays left) remembered from an earlier moment
shows up as a break of law 1 or 2: the walk takes optional actions (trades, the Bank) that change what the
obligation depends on, and the stale obligation then refuses every move or is offered and refused.

Random games take every optional action the rules offer at every step (the walk chooses uniformly among
all offered moves, trades and undo included), so the states reached are the ones a table reaches.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from companion.events import Event, GameLog, Undo, effective_events
from companion.rules.errors import RulesError

S = TypeVar("S")


@dataclass
class LawGame(Generic[S]):
    """What the law needs of one game.

    `new_log(rng)`: a started game (its `start` already pushed). `legal_moves(state)`: the rules'
    offered moves (never `Undo`). `near_misses(state, rng)`: events that look like moves at this state
    but break a rule. `finished(state)`: the end of the game. `summary(state)`: a comparable snapshot.
    """

    name: str
    new_log: Callable[[random.Random], GameLog[Any]]
    legal_moves: Callable[[Any], Sequence[Event]]
    near_misses: Callable[[Any, random.Random], Iterable[Event]]
    finished: Callable[[Any], bool]
    summary: Callable[[Any], Any]
    undo_chance: float = 0.05  # how often the walk takes Undo when it can, to reach states after an undo
    # How the walk picks among the offered moves (default: uniformly). A game whose offers are uneven
    # (one "end by agreement" beside many plays) weights them so its random games run long.
    choose: Callable[[Sequence[Event], random.Random], Event] | None = None


@dataclass
class LawReport:
    games: int = 0
    events: int = 0
    finished: int = 0
    offered_checked: int = 0
    near_misses_refused: int = 0
    longest: int = 0
    failures: list[str] = field(default_factory=list)


def _one_sentence(message: str) -> bool:
    text = message.strip()
    return bool(text) and "\n" not in text and "Traceback" not in text


def check_state(game: LawGame[Any], log: GameLog[Any], rng: random.Random, report: LawReport,
                check_all_offered: bool = True, misses_per_state: int = 3) -> list[Event]:
    """Check laws 1-3 at the log's current state; returns the moves offered there."""
    state = log.state
    moves = list(game.legal_moves(state))
    if any(isinstance(m, Undo) for m in moves):
        report.failures.append(f"{game.name}: Undo offered as a move at event {len(log.events)}")
    if not game.finished(state) and not moves:
        report.failures.append(f"{game.name}: dead end at event {len(log.events)}: no legal move but Undo; "
                               f"summary {game.summary(state)}")
    to_check = moves if check_all_offered else rng.sample(moves, min(len(moves), 4))
    for move in to_check:
        trial = copy.deepcopy(state)
        try:
            trial.apply(move)
        except RulesError as exc:
            report.failures.append(f"{game.name}: offered move refused at event {len(log.events)}: "
                                   f"{move!r}: {exc}")
        report.offered_checked += 1
    before = game.summary(state)
    for miss in list(game.near_misses(state, rng))[:misses_per_state]:
        trial = copy.deepcopy(state)
        try:
            trial.apply(miss)
        except RulesError as exc:
            if not _one_sentence(str(exc)):
                report.failures.append(f"{game.name}: near-miss refused without one sentence: {miss!r}: {exc!r}")
            if game.summary(state) != before:
                report.failures.append(f"{game.name}: refusing {miss!r} changed the state")
            report.near_misses_refused += 1
            continue
        report.failures.append(f"{game.name}: near-miss accepted at event {len(log.events)}: {miss!r}")
    return moves


def walk(game: LawGame[Any], seed: int, max_events: int, report: LawReport,
         check_all_offered: bool = True, fold_every: int = 1) -> None:
    """One random game: at each step check the state, then take a random offered move (or Undo)."""
    rng = random.Random(seed)
    log = game.new_log(rng)
    report.games += 1
    steps = 0
    for steps in range(max_events):
        if game.finished(log.state):
            report.finished += 1
            break
        moves = check_state(game, log, rng, report, check_all_offered)
        if report.failures or not moves:
            break
        # Never undo the `start` itself (counted among the events in force: after an undo, the log's
        # length counts the undo too, and two undos in a row would otherwise reach the start).
        if rng.random() < game.undo_chance and len(effective_events(log.events)) > 1:
            log.undo()
        else:
            log.push(game.choose(moves, rng) if game.choose is not None else rng.choice(moves))
        report.events += 1
        if fold_every and steps % fold_every == 0 and game.summary(log.replay()) != game.summary(log.state):
            report.failures.append(f"{game.name}: state after event {len(log.events)} differs from the fold "
                                   f"of its log (undo or resume would give another game): {log.events[-1]!r}")
            break
    report.longest = max(report.longest, steps + 1)


def check_law(game: LawGame[Any], seeds: Iterable[int], max_events: int, **kw: Any) -> LawReport:
    report = LawReport()
    for seed in seeds:
        walk(game, seed, max_events, report, **kw)
        if report.failures:
            break
    return report
