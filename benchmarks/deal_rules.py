"""Monopoly Deal rules speed: what one tap costs the server, and what undo and resume cost.

    python benchmarks/deal_rules.py [--runs 5] [--games 20]

- push: `GameLog.push` of one event of the shipped example (`assets/examples/monopoly_deal_game.json`,
  185 events, 3 players): the state is copied, the event checked and applied. Median and 95th percentile.
- fold: the whole example folded from its start (what undo and resume after a restart do).
- proposal: `propose_payment` for every payment point of random simulated games (`tests/deal_sim.py`):
  median and maximum.
- waiting: `waiting()` (what every screen redraw asks), on the example's final positions.
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
    args = parser.parse_args()
    _, events = load_events(EXAMPLE.read_text(encoding="utf-8"), EVENT_ADAPTER, VARIANT)

    pushes: list[float] = []
    folds: list[float] = []
    waits: list[float] = []
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
    if proposals:
        print(f"proposal  median {ms(statistics.median(proposals))}, max {ms(max(proposals))} "
              f"over {len(proposals)} payments of {args.games} random games")


if __name__ == "__main__":
    main()
