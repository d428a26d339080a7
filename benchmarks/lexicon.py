"""Lexicon and move-generator figures: load time and size, judging time, generation time per oracle
position (median, p90, max, by blanks on the rack), and the full oracle acceptance check.

    .venv/bin/python benchmarks/lexicon.py [--engine auto|python] [--prove-scores] [--repeat N]

Every time is given as wall time and CPU time (`time.process_time`), since the machine is shared.
`--prove-scores` also scores every oracle move with the rules core (`score_play`) and checks it equals
the generator's score (about 205,000 moves; takes a minute).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules import Board, load_layout, load_tileset, parse_play, score_play
from lexicon import movegen
from lexicon.judge import judge_words
from lexicon.store import _LOADED, ASSETS, compile_lexicon, load_lexicon

ORACLE = Path(__file__).resolve().parents[2] / "shared" / "data" / "gcg" / "oracle"


def _oracle() -> list[dict[str, Any]]:
    with gzip.open(ORACLE / "movegen_enable15_positions.jsonl.gz", "rt", encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh]
    with (ORACLE / "anchors_macondo_boards_enable15.jsonl").open(encoding="utf-8") as fh:
        records += [json.loads(line) for line in fh]
    return records


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _fmt(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"median {statistics.median(ms):7.2f} ms  p90 {_pct(ms, 0.9):7.2f} ms  max {max(ms):7.2f} ms"
            f"  (n={len(ms)})")


def bench_load() -> None:
    start_w, start_c = time.perf_counter(), time.process_time()
    compile_lexicon("ENABLE", ASSETS / "enable.txt")
    print(f"ENABLE compile from text (first use): wall {time.perf_counter() - start_w:.2f} s, "
          f"CPU {time.process_time() - start_c:.2f} s")
    load_lexicon()  # make sure the cache exists
    walls, cpus = [], []
    for _ in range(20):
        _LOADED.clear()
        w, c = time.perf_counter(), time.process_time()
        lex = load_lexicon()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    _LOADED.clear()
    tracemalloc.start()
    lex = load_lexicon()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"ENABLE load from cache: wall median {statistics.median(walls) * 1000:.2f} ms "
          f"(max {max(walls) * 1000:.2f}), CPU median {statistics.median(cpus) * 1000:.2f} ms; "
          f"graph {lex.nbytes / 1e6:.2f} MB ({len(lex.arcs)} arcs, {lex.word_count} words), "
          f"peak Python allocation while loading {peak / 1e6:.2f} MB")
    play = ["QUIZ", "QAT", "ZAX"]
    n = 20000
    w, c = time.perf_counter(), time.process_time()
    for _ in range(n):
        judge_words(play, lex)
    print(f"judging a 3-word play: wall {(time.perf_counter() - w) / n * 1e6:.1f} us, "
          f"CPU {(time.process_time() - c) / n * 1e6:.1f} us per play")


def bench_movegen(engine: str, repeat: int, prove: bool) -> int:
    lex = load_lexicon()
    layout, tileset = load_layout("standard"), load_tileset("en")
    records = _oracle()
    failures = 0
    walls: list[float] = []
    cpus: list[float] = []
    by_blanks: dict[int, list[float]] = {}
    proved = 0
    worst: tuple[float, str] = (0.0, "")
    for record in records:
        board = Board.from_rows(record["board"])
        best_w, best_c = float("inf"), float("inf")
        moves: list[movegen.Move] = []
        for _ in range(repeat):
            w, c = time.perf_counter(), time.process_time()
            moves = movegen.generate_moves(board, record["rack"], lex, layout, tileset, engine=engine)
            best_w = min(best_w, time.perf_counter() - w)
            best_c = min(best_c, time.process_time() - c)
        walls.append(best_w)
        cpus.append(best_c)
        by_blanks.setdefault(record["rack"].count("?"), []).append(best_w)
        label = f"{record.get('source', record.get('name'))} rack {record['rack']} ({len(moves)} moves)"
        worst = max(worst, (best_w, label))
        got = [m.notation for m in moves]
        if set(got) != set(record["moves"]) or len(got) != len(set(got)):
            failures += 1
            print(f"MISMATCH {label}: {len(set(got) - set(record['moves']))} extra, "
                  f"{len(set(record['moves']) - set(got))} missing")
        if prove:
            for m in moves:
                tiles = parse_play(m.position, m.word, board)
                if score_play(board, tiles, layout, tileset).total != m.score:
                    failures += 1
                    print(f"SCORE DIFFERS {label}: {m.notation} rules core says "
                          f"{score_play(board, tiles, layout, tileset).total}")
                proved += 1
    fast = movegen._fast_module() is not None and engine != "python"
    print(f"move generation, engine {'C' if fast else 'pure Python'}, best of {repeat} per position, "
          f"{len(records)} oracle positions:")
    print(f"  wall  {_fmt(walls)}")
    print(f"  CPU   {_fmt(cpus)}")
    for blanks in sorted(by_blanks):
        print(f"  {blanks} blank(s) wall {_fmt(by_blanks[blanks])}")
    print(f"  slowest: {worst[1]} {worst[0] * 1000:.1f} ms")
    print(f"oracle acceptance: {len(records) - failures if not prove else len(records)} positions checked, "
          f"{failures} failures" + (f"; {proved} moves scored by the rules core, all equal" if prove and not failures
                                     else ""))
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="auto", choices=["auto", "c", "python"])
    parser.add_argument("--repeat", type=int, default=3, help="runs per position; the best is kept")
    parser.add_argument("--prove-scores", action="store_true", help="check every move's score with score_play")
    parser.add_argument("--skip-load", action="store_true")
    args = parser.parse_args()
    if not ORACLE.exists():
        print(f"oracle data not found at {ORACLE}")
        return 2
    if not args.skip_load:
        bench_load()
    return bench_movegen(args.engine, args.repeat, args.prove_scores)


if __name__ == "__main__":
    raise SystemExit(main())
