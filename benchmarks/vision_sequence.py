"""Moves read exactly over every photographed game in the shared data, fresh and in sequence.

    python benchmarks/vision_sequence.py [--models heldout|shipped] [--cache DIR] [--faults clean,glare,hand,nudge]
                                         [--no-tesseract] [--show]

The games: every labelled photo whose label names a `game` and a `move` with the move's `new_tiles` and
`move_score` (the official per-move annotation; in `../shared/data/boards` the three complete cava_ro
games, 20 moves each). A move is exact when the new tiles (squares and letters, `?` for a blank) and
the score equal the annotation.

Two ways of reading a game, each photo once per way:
- fresh: each photo read alone; the move is the difference between its reading and the previous
  photo's reading (the empty board before move 1);
- sequence: each photo read knowing the board the game holds (`read_board(..., previous=known)`), the
  known board then grown by the move's new tiles as read. A `doubtful` reading is one the app asks the
  referee about instead of scoring: it is counted as "asked", and the referee's answer (the true board)
  becomes the known board. "silently wrong" counts the moves read wrongly without the reading saying so:
  the one number that must stay at zero.

Faults painted on the photos of moves 2 onwards (`vision.degrade`), each over a known tile chosen as far
as possible from the move's new tiles (a move's own tiles hidden cannot be read by anyone): `glare` (a
lamp's reflection), `hand` (a hand reaching in from the nearest edge), `nudge` (the tile pushed a third
of a square). `clean` is the photos as taken. Also printed: photos where a known tile was reported
changed although nothing changed (false alarms: the app would ask the referee for nothing).

`--models heldout` reads each game with models trained without it (`python -m vision.train --eval-only
--cache DIR` writes them; game 1 by fold cava1, games 2-3 by fold cava); `shipped` uses assets/vision/.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from companion.rules.tiles import load_tileset
from vision import degrade
from vision.labelled import LABELLED_SETS, LabelledPhoto, labelled_photos
from vision.mlp import Mlp
from vision.occupancy import OccupancyModel
from vision.read import BoardReading, detect_move, read_board
from vision.train import fold_of

EMPTY = ["." * 15] * 15
Fault = Callable[[np.ndarray, list[list[float]], int, int, int], np.ndarray]
FAULTS: dict[str, Fault | None] = {
    "clean": None,
    "glare": lambda img, corners, r, c, seed: degrade.glare(img, corners, r, c),
    "hand": lambda img, corners, r, c, seed: degrade.hand(img, corners, r, c, seed),
    "nudge": lambda img, corners, r, c, seed: degrade.nudge(img, corners, r, c, 0.33, 0.0),
}


def games() -> dict[tuple[str, int], list[LabelledPhoto]]:
    """Every photographed game with per-move ground truth, its photos in move order."""
    out: dict[tuple[str, int], list[LabelledPhoto]] = defaultdict(list)
    for set_name in LABELLED_SETS:
        for photo in labelled_photos(set_name):
            m = photo.meta
            if "game" in m and "move" in m and "new_tiles" in m and "move_score" in m:
                out[(set_name, int(m["game"]))].append(photo)
    for photos in out.values():
        photos.sort(key=lambda p: int(p.meta["move"]))
    return dict(sorted(out.items()))


def fault_square(before: list[str], new: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The known tile farthest (in squares) from the move's new tiles; None before any tile is known."""
    known = [(r, c) for r in range(15) for c in range(15) if before[r][c] != "."]
    if not known or not new:
        return None
    return max(known, key=lambda k: (min(max(abs(k[0] - r), abs(k[1] - c)) for r, c in new), -k[0], -k[1]))


def move_of(reading: BoardReading) -> tuple[list[tuple[int, int, str]], int | None]:
    tiles = sorted((int(t.square[1:]) - 1, ord(t.square[0]) - 65, t.letter) for t in reading.new_tiles or [])
    return tiles, reading.score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", choices=["shipped", "heldout"], default="heldout")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/vision-train-cache"))
    ap.add_argument("--faults", default=",".join(FAULTS))
    ap.add_argument("--no-tesseract", action="store_true")
    ap.add_argument("--show", action="store_true", help="print every move read wrongly, and the overruled squares")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    found = games()
    if not found:
        print("no photographed games found (../shared/data/boards absent?)")
        return 2
    print(f"games: {', '.join(f'{s} game {g} ({len(p)} moves)' for (s, g), p in found.items())}; models {args.models}")
    total: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])  # (fault, what) -> [count, of]
    for fault_name in args.faults.split(","):
        fault = FAULTS[fault_name]
        for (set_name, game), photos in found.items():
            tileset = load_tileset("ro" if set_name == "cava_ro" else "en")
            models: tuple[OccupancyModel | None, Mlp | None] = (None, None)
            if args.models == "heldout":
                fold = fold_of(photos[0])
                folder = args.cache / "folds"
                models = (OccupancyModel(Mlp.load(folder / f"{fold}_occupancy.npz")),
                          Mlp.load(folder / f"{fold}_letters.npz"))
            fresh_before = EMPTY
            known = list(EMPTY)
            truth_before = EMPTY
            ok = {"fresh": 0, "sequence": 0}
            false_alarms = asked = silent = 0
            for photo in photos:
                meta = photo.meta
                want = sorted((t["row"], t["col"], t["letter"]) for t in meta["new_tiles"])
                img = cv2.imread(str(photo.image))
                target = fault_square(truth_before, [(r, c) for r, c, _ in want])
                if fault is not None and target is not None:
                    img = fault(img, photo.corners, target[0], target[1], int(meta["move"]))
                kw = {"tiles": tileset, "second_opinion": not args.no_tesseract,
                      "occupancy_model": models[0], "letters_net": models[1]}
                fresh = read_board(img, **kw)
                moved = fresh.model_copy(deep=True)
                moved.warnings = []
                detect_move(moved, fresh_before, tileset)
                fresh_before = fresh.grid
                seq = read_board(img, previous=known, **kw)
                for mode, reading in (("fresh", moved), ("sequence", seq)):
                    tiles, score = move_of(reading)
                    right = tiles == want and score == meta["move_score"]
                    ok[mode] += right
                    if mode == "sequence":
                        asked += seq.doubtful
                        silent += not right and not seq.doubtful
                    if args.show and not right:
                        print(f"  {fault_name} {photo.stem} {mode}: want {want} {meta['move_score']}, "
                              f"got {tiles} {score}", file=sys.stderr)
                if args.show and seq.disagreements:
                    print(f"  {fault_name} {photo.stem} overruled: "
                          + ", ".join(f"{d.square} {d.known}<-{d.read} ({d.confidence}, {d.why})"
                                      for d in seq.disagreements), file=sys.stderr)
                false_alarms += bool(seq.changed)
                if args.show and seq.changed:
                    print(f"  {fault_name} {photo.stem} changed: "
                          + ", ".join(f"{c.square} {c.was}->{c.now}" for c in seq.changed), file=sys.stderr)
                truth_before = [row.replace("#", ".") for row in photo.grid]
                if seq.doubtful:
                    known = list(truth_before)  # the app asked; the referee confirmed the real board
                else:
                    grid = [list(r) for r in known]
                    for t in seq.new_tiles or []:
                        grid[int(t.square[1:]) - 1][ord(t.square[0]) - 65] = t.letter
                    known = ["".join(r) for r in grid]
            n = len(photos)
            for mode, k in ok.items():
                total[(fault_name, mode)][0] += k
                total[(fault_name, mode)][1] += n
            total[(fault_name, "asked")][0] += asked
            total[(fault_name, "silently wrong")][0] += silent
            print(f"{fault_name:6s} {set_name} game {game}: moves exact fresh {ok['fresh']}/{n}, "
                  f"sequence {ok['sequence']}/{n} (asked {asked}, silently wrong {silent}); "
                  f"photos with a false 'changed' flag {false_alarms}", flush=True)
    for (fault_name, mode), (k, n) in total.items():
        print(f"all games {fault_name:6s} {mode:14s} {k}" + (f"/{n}" if n else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
