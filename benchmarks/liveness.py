"""The liveness law (issue #26) over many more random games than the suite runs, one section per game.

    python benchmarks/liveness.py [classic] [monopoly_scrabble] [--games 200] [--max-events 600]

Each section walks `--games` random games (seeds 1000...) with the law of `tests/liveness_law.py` as its
test module sets it up (`tests/test_liveness_<game>.py`: the rules' `legal_moves`, plays from the move
generator, phonies, near-misses, undo) and prints: games, games finished, events taken, offered moves
applied, near-misses refused, the longest game, the events taken by kind, failures (the first few), and
CPU time (`time.process_time`): total and median per game, and what one `legal_moves` call costs (median
and 95th percentile: the screens ask it on every redraw), as the machine may be shared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tests.liveness_law import LawReport, walk

SECTIONS = ("classic", "monopoly_scrabble")


def run(name: str, games: int, max_events: int) -> None:
    if name == "classic":
        import tests.test_liveness_classic as module
    else:
        import tests.test_liveness_monopoly_scrabble as module  # type: ignore[no-redef]
    taken: Counter[str] = Counter()
    asked: list[float] = []  # CPU seconds of each `legal_moves` call (what each redraw of a screen asks)
    rules_legal_moves = module.legal_moves

    def timed(state: object, judge: object = None) -> object:
        t0 = time.process_time()
        out = rules_legal_moves(state, judge)
        asked.append(time.process_time() - t0)
        return out

    module.legal_moves = timed
    game = module.law_game(taken)
    report = LawReport()
    per_game = []
    start = time.process_time()
    for seed in range(1000, 1000 + games):
        t0 = time.process_time()
        walk(game, seed, max_events, report, fold_every=5)
        per_game.append(time.process_time() - t0)
        if report.failures:
            break
    total = time.process_time() - start
    print(f"== {name}")
    print(f"games {report.games}, finished {report.finished}, events {report.events}, "
          f"offered moves applied {report.offered_checked}, near-misses refused {report.near_misses_refused}, "
          f"longest {report.longest} events")
    print(f"CPU {total:.1f} s in all, median {statistics.median(per_game):.2f} s per game, "
          f"{1000 * total / max(1, report.events):.1f} ms per event")
    print(f"legal_moves: median {1000 * statistics.median(asked):.3f} ms CPU, 95th percentile "
          f"{1000 * sorted(asked)[int(0.95 * (len(asked) - 1))]:.3f} ms, over {len(asked)} states")
    print("taken: " + ", ".join(f"{k} {n}" for k, n in sorted(taken.items())))
    print(f"failures: {len(report.failures)}" + "".join(f"\n  {f}" for f in report.failures[:5]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_run", nargs="*", default=list(SECTIONS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-events", type=int, default=600)
    args = parser.parse_args()
    for name in args.games_to_run or SECTIONS:
        run(name, args.games, args.max_events)


if __name__ == "__main__":
    main()
