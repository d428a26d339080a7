"""Monopoly Builder engine figures: how long a table waits for the referee, and what random games look like.

    .venv/bin/python -m benchmarks.builder [GAMES]
    .venv/bin/python -m benchmarks.builder --liveness [GAMES] [EVENTS]

Plays GAMES (default 60) seeded random legal games (tests/games/builder_bot.py, 2-4 players) and prints:
how many reach the penthouse, events per game, the CPU time of one event (push = validate on a copy and
apply; median and 95th percentile over every event), the CPU time of an undo (a refold of the whole log)
at the end of a game, and the CPU time of folding the shipped example game. Medians of CPU time: the
machine is shared and noisy.

`--liveness` runs the liveness law of issue #26 (`tests/test_liveness_builder.py`: live, offered = accepted,
near-misses refused in one sentence with nothing changed, the log is the game) over GAMES (default 40)
random games of up to EVENTS (default 600) events each, longer than the suite's run, and prints what it
covered, how long it took, and the CPU time of `legal_moves` (median and 95th percentile over the states).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from companion.events import GameLog, load_events
from companion.games.monopoly_builder.rules import EVENT_ADAPTER, BuilderState, new_game, new_state
from tests.games.builder_bot import SEATS, next_event

ROOT = Path(__file__).resolve().parents[1]


def main(games: int) -> None:
    push_ms: list[float] = []
    undo_ms: list[float] = []
    lengths: list[int] = []
    penthouse = bankrupt = 0
    for seed in range(games):
        rng = random.Random(seed)
        log = new_game(SEATS[:2 + seed % 3])
        while not log.state.finished and len(log.events) < 3000:
            event = next_event(log.state, rng)
            t = time.process_time()
            log.push(event)
            push_ms.append((time.process_time() - t) * 1000)
        lengths.append(len(log.events))
        penthouse += log.state.end_reason == "penthouse"
        bankrupt += len(log.state.bankrupt)
        t = time.process_time()
        log.undo()
        undo_ms.append((time.process_time() - t) * 1000)
    text = (ROOT / "assets" / "examples" / "monopoly_builder_game.json").read_text(encoding="utf-8")
    _, events = load_events(text, EVENT_ADAPTER, "monopoly_builder")
    fold_ms = []
    for _ in range(20):
        t = time.process_time()
        GameLog[BuilderState](new_state, events)
        fold_ms.append((time.process_time() - t) * 1000)
    q = statistics.quantiles(push_ms, n=20)
    print(f"games: {games}, to the penthouse: {penthouse}, players bankrupt: {bankrupt}")
    print(f"events per game: median {statistics.median(lengths):.0f}, max {max(lengths)}")
    print(f"one event (push): median {statistics.median(push_ms):.3f} ms CPU, 95th percentile {q[18]:.3f} ms, "
          f"over {len(push_ms)} events")
    print(f"undo at the end of a game (refold): median {statistics.median(undo_ms):.1f} ms CPU, max {max(undo_ms):.1f} ms")
    print(f"fold of the example game ({len(events)} events): median {statistics.median(fold_ms):.1f} ms CPU")


def liveness(games: int, events: int) -> None:
    from companion.games.monopoly_builder.legal import legal_moves
    from tests.test_liveness_builder import run

    started = time.perf_counter()
    report = run(range(1000, 1000 + games), events)
    took = time.perf_counter() - started
    print(f"liveness law: {report.games} games, {report.events} events ({report.finished} to the end), "
          f"{report.offered_checked} offered moves applied, {report.near_misses_refused} near-misses refused, "
          f"longest log {report.longest} events: {took:.1f} s wall, {1000 * took / max(1, report.events):.1f} ms per event")
    print("failures:", report.failures[:3] or "none")
    legal_ms: list[float] = []
    for seed in range(20):
        rng = random.Random(seed)
        log = new_game(SEATS[:2 + seed % 3])
        while not log.state.finished and len(log.events) < 600:
            t = time.process_time()
            legal_moves(log.state)
            legal_ms.append((time.process_time() - t) * 1000)
            log.push(next_event(log.state, rng))
    q = statistics.quantiles(legal_ms, n=20)
    print(f"legal_moves: median {statistics.median(legal_ms):.2f} ms CPU, 95th percentile {q[18]:.2f} ms, "
          f"over {len(legal_ms)} states of 20 bot games")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--liveness", action="store_true",
                        help="run the liveness law over random games instead of the engine figures")
    parser.add_argument("games", nargs="?", type=int, default=None, metavar="GAMES",
                        help="how many seeded random games (default 60; with --liveness 40)")
    parser.add_argument("events", nargs="?", type=int, default=None, metavar="EVENTS",
                        help="with --liveness: the most events of one game (default 600)")
    args = parser.parse_args(argv)
    if args.events is not None and not args.liveness:
        parser.error("EVENTS goes with --liveness only: give GAMES alone, or add --liveness")
    if any(n is not None and n < 1 for n in (args.games, args.events)):
        parser.error("GAMES and EVENTS are whole numbers of 1 or more")
    return args


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.liveness:
        liveness(arguments.games or 40, arguments.events or 600)
    else:
        main(arguments.games or 60)
