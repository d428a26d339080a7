"""Replay every GCG record in the shared data and print files, placements, mismatches and time per set.

    .venv/bin/python benchmarks/gcg_verify.py [DATA_DIR]

Sets: the Quackle self-play games (standard values, and the 'lewis' values from tile-values.csv),
human games (without the Polish game, which needs Polish tiles), and MAGPIE's parser fixtures, where
errors are expected: many are broken on purpose.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.gcg_replay import verify_file
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


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "gcg"
    q = data / "quackle_selfplay"
    human = sorted(p for p in (data / "human").rglob("*.gcg")
                   if "MAGPIE" not in str(p) and p.name != "polish_endgame.gcg")
    run("quackle traditional (en)", sorted((q / "traditional").glob("*.gcg")), "en")
    run("quackle lewis values", sorted((q / "lewis_values").glob("*.gcg")), f"{q / 'tile-values.csv'}:lewis")
    run("human games (en)", human, "en")
    run("MAGPIE fixtures (en)", sorted((data / "human" / "jvc56+MAGPIE-DATA").rglob("*.gcg")), "en")


if __name__ == "__main__":
    main()
