"""Monopoly Deal rules speed: what one tap costs the server, and what undo and resume cost.

    python benchmarks/deal_rules.py [--runs 5] [--games 20]

- push: `GameLog.push` of one event of the shipped example (`assets/examples/monopoly_deal_game.json`,
  185 events, 3 players): the state is copied, the event checked and applied. Median and 95th percentile.
- fold: the whole example folded from its start (what undo and resume after a restart do).
- proposal: `propose_payment` for every payment point of random simulated games (`tests/deal_sim.py`):
  median and maximum.
- waiting: `waiting()` (what every screen redraw asks), on the example's final positions.
- legal: `legal_moves()` (what every change of the game asks once, for every tab) on the example's positions.
- `--liveness N`: the liveness law of `tests/test_liveness_deal.py` over N random games (the suite runs 14):
  games, events, offered moves applied, near-misses refused, seconds, and any failure.
CPU time (`time.process_time`), medians over the runs, as the machine may be shared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from deal_sim import Sim

from companion.events import GameLog, load_events
from companion.games.monopoly_deal.rules import EVENT_ADAPTER, VARIANT, DealState, new_state
from companion.rules.board import ASSETS

EXAMPLE = ASSETS / "examples" / "monopoly_deal_game.json"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--liveness", type=int, default=0, help="random games for the liveness law (0: skip)")
    args = parser.parse_args()
    if args.liveness:
        from liveness_law import check_law
        from test_liveness_deal import AGREEMENT_MISSING, DEAL_WALK, event_counts

        t0 = time.perf_counter()
        report = check_law(DEAL_WALK, range(1000, 1000 + args.liveness), max_events=600, check_all_offered=False,
                           fold_every=25)
        print(f"liveness  {report.games} games, {report.events} events ({report.finished} won), "
              f"{report.offered_checked} offered moves applied, {report.near_misses_refused} near-misses refused, "
              f"{time.perf_counter() - t0:.0f} s; failures: {report.failures[:3] or 'none'}; "
              f"end by agreement missing: {len(AGREEMENT_MISSING)}\nevents taken: {event_counts()}")
        return
    _, events = load_events(EXAMPLE.read_text(encoding="utf-8"), EVENT_ADAPTER, VARIANT)

    from companion.games.monopoly_deal.legal import legal_moves

    pushes: list[float] = []
    folds: list[float] = []
    waits: list[float] = []
    legals: list[float] = []
    for _ in range(args.runs):
        log: GameLog[DealState] = GameLog(new_state)
        for event in events:
            t = time.process_time()
            log.push(event)
            pushes.append(time.process_time() - t)
            t = time.process_time()
            log.state.waiting()
            waits.append(time.process_time() - t)
            t = time.process_time()
            legal_moves(log.state)
            legals.append(time.process_time() - t)
        t = time.process_time()
        log.replay()
        folds.append(time.process_time() - t)

    proposals: list[float] = []
    for seed in range(args.games):
        sim = Sim(["Ann", "Ben", "Cat"], seed)
        while sim.step() is not None:
            w = sim.state.waiting()
            if w.kind == "pay" and w.player is not None:
                t = time.process_time()
                sim.state.propose_payment(w.player, w.amount)
                proposals.append(time.process_time() - t)

    pushes.sort()
    print(f"example: {len(events)} events, {args.runs} runs (CPU time)")
    print(f"push      median {ms(statistics.median(pushes))}, p95 {ms(pushes[int(len(pushes) * 0.95)])}")
    print(f"fold      median {ms(statistics.median(folds))} for the whole game")
    print(f"waiting   median {ms(statistics.median(waits))}, max {ms(max(waits))}")
    print(f"legal     median {ms(statistics.median(legals))}, max {ms(max(legals))} (legal_moves per position)")
    if proposals:
        print(f"proposal  median {ms(statistics.median(proposals))}, max {ms(max(proposals))} "
              f"over {len(proposals)} payments of {args.games} random games")


if __name__ == "__main__":
    main()
