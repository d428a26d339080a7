"""`companion watch` on every shared photographed game, clean and with faults, compared with the truth.

    nice -n 10 python benchmarks/watch_cli.py [--games cava_ro,jheidel,rendered] [--faults clean,glare,...]
                                              [--fps 1] [--answer read|skip] [--frames DIR] [--keep]

For each game and fault the stream is built as `benchmarks/watch.py` builds it (`vision.stream.build_stream`
from the game's keyframes: hands, tiles laid one or two at a time with pauses, the fault from the second
change on; 2 MP JPEG frames at `--fps`), written as a folder of frames, and the command itself is run on it
in a child process (`python -m companion watch FOLDER --board FIRST --tiles T --json`), as a checker would:
starting on the game's first photographed board, every question answered as `--answer` says. Its JSON
lines are compared with the game's true changes (`benchmarks/watch.py`'s walk of the labels):

- committed exactly: changes whose tiles (and score, when the change is one play) the watcher committed
  by itself, with no question;
- answered: changes put on the board exactly by the reading taken as the answer to a question;
- asked: the questions printed (the same question about the same board is printed once; "again" counts
  the repeats);
- silently wrong: the watcher's own commits that are not exactly a change (wrong tiles, wrong score, or
  part of a one-play change): must be 0;
- answers wrong: plays taken from the reading after a question that are not exactly a change (a checker
  sees them marked as answers, never as the watcher's commits);
- plays within a multi-play change: the watcher's commits or answers that lie within a change of several
  plays (jheidel) with their letters right, where the change was not completed by plays (its other tiles
  came from a question's tiles taken as read, or were missed): their scores cannot be checked;
- final = truth: the command's final board is the last photo's board (blanks compared as blanks).

Each run's JSON lines are kept in DIR/records/.

jheidel's series has changes that are several plays between two photos: the watcher's commits that
together make such a change count it as committed exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.watch import Game, photo_games, rendered_games
from vision import stream as streams

Tile = tuple[int, int, str]


def _blanks_as_blanks(rows: list[str]) -> list[str]:
    return ["".join("?" if ch.islower() else ch for ch in row.replace("#", ".")) for row in rows]


def _tile(text: str) -> Tile:
    square, letter = text.split()
    return int(square[1:]) - 1, ord(square[0]) - 65, letter


def run_cli(folder: Path, game: Game, answer: str, settle: float) -> tuple[int, list[dict[str, Any]], str]:
    """The command on a folder of frames, started on the game's first board: (exit status, JSON records, stderr)."""
    board = folder / "first_board.txt"
    board.write_text("\n".join(game.keyframes[0].grid) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "companion", "watch", str(folder / "frames"), "--board", str(board),
           "--tiles", game.tiles, "--answer", answer, "--settle", f"{settle:g}", "--json"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return done.returncode, records, done.stderr.strip()


def compare(game: Game, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The command's moves against the game's true changes (see the module's docstring)."""
    truth = game.truth
    done: dict[int, list[dict[str, Any]]] = defaultdict(list)
    placed: dict[int, set[Tile]] = defaultdict(set)
    stray: list[dict[str, Any]] = []  # moves that are part of no change
    for move in (r for r in records if r["type"] == "move"):
        tiles = {_tile(t) for t in move["tiles"]}
        tiles = {(r, c, "?" if ch == "?" else ch) for r, c, ch in tiles}
        home = next((i for i, (want, _score) in enumerate(truth)
                     if tiles and tiles <= set(want) and not tiles & placed[i] and placed[i] != set(want)), None)
        if home is None:
            stray.append(move)
            continue
        done[home].append(move)
        placed[home] |= tiles
    out = {"changes": sum(1 for want, _ in truth if want), "exact": 0, "answered": 0, "silent": 0,
           "answers_wrong": 0, "within": 0, "notes": []}
    for i, (want, score) in enumerate(truth):
        moves = done.get(i, [])
        if not moves:
            continue
        whole = placed[i] == set(want) and (score is None or (len(moves) == 1 and moves[0]["score"] == score))
        if whole and all(m["by"] == "watcher" for m in moves):
            out["exact"] += 1
            continue
        if whole:
            out["answered"] += 1
            continue
        if score is None:
            # Several plays between two photos: each of these plays lies within the change with its letters
            # right; its own score cannot be checked, and the change's other tiles came another way (a
            # question's tiles taken as read, or not at all: see the final board).
            out["within"] += len(moves)
            continue
        for m in moves:
            if not whole:
                key = "silent" if m["by"] == "watcher" else "answers_wrong"
                out[key] += 1
                out["notes"].append(f"t={m['t']}: {m['by']} {m['move']} {m['tiles']} is not exactly change {i + 1} "
                                    f"{want} score {score}")
    for m in stray:
        out["silent" if m["by"] == "watcher" else "answers_wrong"] += 1
        out["notes"].append(f"t={m['t']}: {m['by']} {m['move']} {m['tiles']} is part of no change")
    questions = [r for r in records if r["type"] == "question"]
    final = next((r for r in records if r["type"] == "final"), None)
    out["asked"] = len(questions)
    out["again"] = final["repeats"] if final else 0
    got = _blanks_as_blanks(final["board"]) if final is not None else []
    want_rows = _blanks_as_blanks(game.keyframes[-1].grid)
    out["final_equal"] = got == want_rows
    if got and got != want_rows:
        out["notes"].append("final board differs: " + ", ".join(
            f"{chr(65 + c)}{r + 1} {got[r][c]} (truth {want_rows[r][c]})"
            for r in range(15) for c in range(15) if got[r][c] != want_rows[r][c]))
    out["questions"] = [f"t={q['t']}: {q['question']} -> {q['answer']}" for q in questions]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="cava_ro,jheidel", help="cava_ro, jheidel, rendered (comma-separated)")
    ap.add_argument("--faults", default=",".join(streams.FAULTS))
    ap.add_argument("--fps", type=float, default=1.0)
    ap.add_argument("--settle", type=float, default=4.0)
    ap.add_argument("--answer", choices=["read", "skip"], default="read")
    ap.add_argument("--rendered", type=int, default=3, help="rendered games (6 moves each) with --games rendered")
    ap.add_argument("--frames", type=Path, default=Path("/tmp/watch_cli_frames"),
                    help="where the streams' frames are written (each removed after its run unless --keep)")
    ap.add_argument("--keep", action="store_true", help="keep the frame folders")
    ap.add_argument("--show", action="store_true", help="print every question and every miss")
    args = ap.parse_args(argv)
    wanted = set(args.games.split(","))
    games: list[Game] = rendered_games(args.rendered) if "rendered" in wanted else []
    if wanted - {"rendered"}:
        found = photo_games(wanted - {"rendered"}, "shipped", Path("/tmp/vision-train-cache"))
        if not found:
            print("no photographed games found (../shared/data/boards absent?)")
        games += found
    print(f"companion watch --answer {args.answer} on {len(games)} games, faults {args.faults}, {args.fps:g} "
          f"frames/s, settle {args.settle:g} s, 1632x1224 JPEG frames")
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for fault in args.faults.split(","):
        for k, game in enumerate(games):
            st = streams.build_stream(game.keyframes, fps=args.fps, fault=fault, seed=k + 1, settle=args.settle,
                                      jpeg_quality=90)
            folder = args.frames / f"{game.name.replace(' ', '_')}_{fault}"
            shutil.rmtree(folder, ignore_errors=True)
            (folder / "frames").mkdir(parents=True)
            for t, data in st.frames:
                (folder / "frames" / f"t{t:08.3f}.jpg").write_bytes(data)
            wall = time.perf_counter()
            status, records, err = run_cli(folder, game, args.answer, args.settle)
            wall = time.perf_counter() - wall
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
            if status == 2 or not records:
                print(f"{fault:5s} {game.name:24s} the command failed (exit {status}): {err}", flush=True)
                totals[fault]["failed"] += 1
                continue
            c = compare(game, records)
            (args.frames / "records").mkdir(parents=True, exist_ok=True)  # the command's JSON lines, kept
            (args.frames / "records" / f"{folder.name}.jsonl").write_text(
                "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            for key in ("changes", "exact", "answered", "asked", "again", "silent", "answers_wrong", "within"):
                totals[fault][key] += c[key]
            totals[fault]["games"] += 1
            totals[fault]["final_equal"] += int(c["final_equal"])
            print(f"{fault:5s} {game.name:24s} committed exactly {c['exact']}/{c['changes']}, answered "
                  f"{c['answered']}, asked {c['asked']} (again {c['again']}), silently wrong {c['silent']}, "
                  f"answers wrong {c['answers_wrong']}, plays within a multi-play change {c['within']}, "
                  f"final = truth: {'y' if c['final_equal'] else 'n'} (exit {status}, {len(st.frames)} frames, "
                  f"{wall:.0f} s)", flush=True)
            if args.show or c["silent"] or not c["final_equal"]:
                for note in c["notes"] + (c["questions"] if args.show else []):
                    print(f"      {note}")
    print("per fault, all games:")
    for fault, t in totals.items():
        print(f"{fault:5s} committed exactly {t['exact']}/{t['changes']}, answered {t['answered']}, asked {t['asked']} "
              f"(again {t['again']}), silently wrong {t['silent']}, answers wrong {t['answers_wrong']}, "
              f"plays within a multi-play change {t['within']}, final = truth {t['final_equal']}/{t['games']} games" + (f", failed {t['failed']}" if t["failed"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
