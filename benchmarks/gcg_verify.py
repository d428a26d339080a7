"""Replay every GCG record in the shared data and print files, placements, mismatches and time per set.

    .venv/bin/python benchmarks/gcg_verify.py [--quick] [DATA_DIR]

Sets: the Quackle self-play games (standard values, and the 'lewis' values from tile-values.csv),
human games (without the Polish game, which needs Polish tiles), and MAGPIE's parser fixtures, where
errors are expected: many are broken on purpose. Without --quick it also loads every two-player record
into the referee's classic game (GCG -> event log -> fold -> GCG -> replay), which checks the game flow
(turns, challenges, going out, leftovers, overtime) against real games, not only the scorer.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.events import GameLog
from companion.games.classic.gcg import classic_events_from_record, record_from_classic
from companion.games.classic.rules import new_state
from companion.gcg import GcgError, parse_gcg, read_gcg, write_gcg
from companion.gcg_replay import replay, verify_file
from companion.rules.board import load_layout
from companion.rules.tiles import load_tileset

ROOT = Path(__file__).resolve().parents[1]


def run(name: str, files: list[Path], tiles_spec: str) -> None:
    tiles, layout = load_tileset(tiles_spec), load_layout("standard")
    wall, cpu = time.perf_counter(), time.process_time()
    placements = mismatches = unreadable = 0
    for path in files:
        report = verify_file(path, tiles, layout)
        placements += report.placements
        mismatches += len(report.mismatches)
        unreadable += report.error is not None
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{name:28s} files: {len(files)}, placements: {placements}, mismatches: {mismatches}, "
          f"unreadable: {unreadable}   {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"{1000 * cpu / max(len(files), 1):.2f} ms CPU per record")


def through_the_referee(name: str, files: list[Path]) -> None:
    """Load each two-player record into the referee's classic game, export it again and replay the export:
    the final scores must be the record's and the export must replay with no mismatch."""
    wall, cpu = time.perf_counter(), time.process_time()
    loaded = agreed = 0
    for path in files:
        record = read_gcg(path)
        if len(record.players) != 2 or len({p.nick for p in record.players}) != 2:
            continue
        try:
            log = GameLog(new_state, classic_events_from_record(record))
        except GcgError as exc:
            print(f"  {path}: {exc}")
            continue
        loaded += 1
        final = {ev.nick: ev.total for ev in record.events}
        report = replay(parse_gcg(write_gcg(record_from_classic(log.events))))
        if log.state.scores == final and not report.mismatches and report.error is None:
            agreed += 1
        else:
            print(f"  {path}: final {log.state.scores} vs {final}; {report.findings[:2]}")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{name:28s} loaded into the referee: {loaded}, same final scores and clean re-export: {agreed}"
          f"   {wall:.1f} s wall, {cpu:.1f} s CPU")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    data = Path(args[0]) if args else ROOT.parent / "shared" / "data" / "gcg"
    q = data / "quackle_selfplay"
    human = sorted(p for p in (data / "human").rglob("*.gcg")
                   if "MAGPIE" not in str(p) and p.name != "polish_endgame.gcg")
    run("quackle traditional (en)", sorted((q / "traditional").glob("*.gcg")), "en")
    run("quackle lewis values", sorted((q / "lewis_values").glob("*.gcg")), f"{q / 'tile-values.csv'}:lewis")
    run("human games (en)", human, "en")
    run("MAGPIE fixtures (en)", sorted((data / "human" / "jvc56+MAGPIE-DATA").rglob("*.gcg")), "en")
    if "--quick" not in sys.argv:
        through_the_referee("quackle traditional", sorted((q / "traditional").glob("*.gcg")))
        through_the_referee("human games", human)


if __name__ == "__main__":
    main()
