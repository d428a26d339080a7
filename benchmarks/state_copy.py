"""What copying a game's folded state costs: `GameLog.push` copies the state once per event.

    python benchmarks/state_copy.py [--runs 7]

For each Monopoly game's shipped example (`assets/examples/`), the state after every event is copied with
`copy.deepcopy` (each state's `__deepcopy__`); printed: events, the median copy over all of them and the
fold of the whole example (copies included), in microseconds and milliseconds of CPU time
(`time.process_time`), medians over the runs, as the machine is shared. Run it at two commits to compare
two ways of copying.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.events import GameLog, load_events
from companion.games.monopoly_builder import rules as builder
from companion.games.monopoly_deal import rules as deal
from companion.games.monopoly_scrabble import rules as scrabble
from companion.rules.board import ASSETS

GAMES: dict[str, tuple[Any, str]] = {
    "monopoly_scrabble": (scrabble, "monopoly_full_game.json"),
    "monopoly_deal": (deal, "monopoly_deal_game.json"),
    "monopoly_builder": (builder, "monopoly_builder_game.json"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"{'game':<18} {'events':>6} {'copy us (median)':>17} {'fold ms (median)':>17}")
    for game, (rules, name) in GAMES.items():
        _, events = load_events((ASSETS / "examples" / name).read_text(encoding="utf-8"), rules.EVENT_ADAPTER)
        states = []
        log: GameLog[Any] = GameLog(rules.new_state)
        for event in events:
            log.push(event)
            states.append(log.state)
        copies, folds = [], []
        for _ in range(args.runs):
            for state in states:
                t = time.process_time()
                copy.deepcopy(state)
                copies.append(time.process_time() - t)
            t = time.process_time()
            GameLog(rules.new_state, events)
            folds.append(time.process_time() - t)
        print(f"{game:<18} {len(events):>6} {statistics.median(copies) * 1e6:>17.1f} "
              f"{statistics.median(folds) * 1e3:>17.1f}")


if __name__ == "__main__":
    main()
