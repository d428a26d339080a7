"""Moves read exactly over every photographed game in the shared data, fresh and in sequence.

    python benchmarks/vision_sequence.py [--models heldout|shipped] [--cache DIR] [--faults clean,glare,hand,nudge]
                                         [--games cava_ro,jheidel] [--no-tesseract] [--show]

The games: every labelled photo whose label names a `game` and a `move` with the move's `new_tiles` and
`move_score` (the official per-move annotation; in `../shared/data/boards` the three complete cava_ro
games, 20 moves each). A move is exact when the new tiles (squares and letters, `?` for a blank) and
the score equal the annotation.

And the jheidel games, photographed turn after turn without a per-move annotation (labels in
`tests/data/board_labels/jheidel.json`): the 2015 Hasbro game (IMG_20151016_*, 43 photos, from the
empty board to 100 tiles) and the 2014 vintage board (IMG_20141025_*, 10 photos, two positions). Each
step from one photo to the next (the first from the empty board) is a "change" whose new tiles are the
difference of the two labels: none when the photo repeats the board, several plays when photos were
skipped. A change has a score only when its new tiles form one legal play on the board before it (the
rules core's `validate_placement`, scored by `score_play` with the set's tile values, as
`vision.read.detect_move` scores a reading); otherwise a change is exact when its new tiles are.

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
--cache DIR` writes them; game 1 by fold cava1, games 2-3 by fold cava; the jheidel games by models
trained without the whole jheidel set, `vision.train.train_without`, cached in DIR as
`benchmarks/vision_styles.py` trains them); `shipped` uses assets/vision/.
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

from companion.rules.board import Board, PlacedTile, Square, Tile, load_layout
from companion.rules.errors import IllegalPlacement, RulesDataError
from companion.rules.placement import validate_placement
from companion.rules.scoring import score_play
from companion.rules.tiles import TileSet, load_tileset
from vision import degrade
from vision.labelled import LABELLED_SETS, LabelledPhoto, labelled_photos
from vision.mlp import Mlp
from vision.occupancy import OccupancyModel
from vision.read import BoardReading, detect_move, read_board
from vision.train import fold_of, train_without

EMPTY = ["." * 15] * 15
Fault = Callable[[np.ndarray, list[list[float]], int, int, int], np.ndarray]
FAULTS: dict[str, Fault | None] = {
    "clean": None,
    "glare": lambda img, corners, r, c, seed: degrade.glare(img, corners, r, c),
    "hand": lambda img, corners, r, c, seed: degrade.hand(img, corners, r, c, seed),
    "nudge": lambda img, corners, r, c, seed: degrade.nudge(img, corners, r, c, 0.33, 0.0),
}


# Games photographed turn after turn whose photos carry no per-move annotation: set -> {game: stem prefix}.
# Photo names are the camera's timestamps, so name order is the order of play.
PHOTO_SERIES = {"jheidel": {"2014": "IMG_20141025_", "2015": "IMG_20151016_"}}


def games() -> dict[tuple[str, str], list[LabelledPhoto]]:
    """Every photographed game with per-move ground truth or a photo series, its photos in order of play."""
    out: dict[tuple[str, str], list[LabelledPhoto]] = defaultdict(list)
    for set_name in LABELLED_SETS:
        series = PHOTO_SERIES.get(set_name, {})
        for photo in labelled_photos(set_name):
            m = photo.meta
            if "game" in m and "move" in m and "new_tiles" in m and "move_score" in m:
                out[(set_name, str(int(m["game"])))].append(photo)
            for game, prefix in series.items():
                if photo.stem.startswith(prefix):
                    out[(set_name, game)].append(photo)
    for photos in out.values():
        photos.sort(key=lambda p: (int(p.meta.get("move", 0)), p.stem))
    return dict(sorted(out.items()))


def label_change(before: list[str], after: list[str],
                 tileset: TileSet) -> tuple[list[tuple[int, int, str]], int | None]:
    """The new tiles from one labelled board to the next, and their score when they are one legal play.

    None when they are not (several plays between two photos, or none): no single move's score exists."""
    # a blank is `?` whatever letter it stands for, as the reader reports it (it scores 0 either way)
    tiles = sorted((r, c, "?" if after[r][c].islower() else after[r][c]) for r in range(15) for c in range(15)
                   if before[r][c] == "." and after[r][c] not in (".", "#"))
    placed = [PlacedTile(Square(r, c), Tile(ch, blank=ch == "?")) for r, c, ch in tiles]
    if not placed:
        return tiles, None
    board = Board.from_rows(before)
    layout = load_layout("standard")
    # the rules ask what letter a blank stands for; any letter will do to check where the tiles lie, as
    # `vision.sequence` checks a reading's new tiles (the words are not looked up)
    lettered = [PlacedTile(p.square, Tile("A", blank=True)) if p.tile.blank else p for p in placed]
    try:
        validate_placement(board, lettered, layout, tileset)
        return tiles, score_play(board, placed, layout, tileset).total
    except (IllegalPlacement, RulesDataError, ValueError):
        return tiles, None


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
    ap.add_argument("--games", default="", help="only these sets' games (comma-separated; default all)")
    ap.add_argument("--no-tesseract", action="store_true")
    ap.add_argument("--show", action="store_true", help="print every move read wrongly, and the overruled squares")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    found = games()
    if args.games:
        found = {k: v for k, v in found.items() if k[0] in args.games.split(",")}
    if not found:
        print("no photographed games found (../shared/data/boards absent?)")
        return 2
    listed = [f"{s} game {g} ({len(p)} {'changes' if s in PHOTO_SERIES else 'moves'})" for (s, g), p in found.items()]
    print(f"games: {', '.join(listed)}; models {args.models}")
    total: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])  # (fault, what) -> [count, of]
    for fault_name in args.faults.split(","):
        fault = FAULTS[fault_name]
        for (set_name, game), photos in found.items():
            tileset = load_tileset("ro" if set_name == "cava_ro" else "en")
            models: tuple[OccupancyModel | None, Mlp | None] = (None, None)
            series = set_name in PHOTO_SERIES
            if args.models == "heldout" and series:
                occ_path, let_path = train_without(set_name, args.cache,
                                                   lambda msg: print(msg, file=sys.stderr, flush=True))
                models = (OccupancyModel(Mlp.load(occ_path)), Mlp.load(let_path))
            elif args.models == "heldout":
                fold = fold_of(photos[0])
                folder = args.cache / "folds"
                models = (OccupancyModel(Mlp.load(folder / f"{fold}_occupancy.npz")),
                          Mlp.load(folder / f"{fold}_letters.npz"))
            fresh_before = EMPTY
            known = list(EMPTY)
            truth_before = EMPTY
            ok = {"fresh": 0, "sequence": 0}
            false_alarms = asked = silent = scored = 0
            for step, photo in enumerate(photos, 1):
                meta = photo.meta
                if series:
                    want, want_score = label_change(truth_before, photo.grid, tileset)
                    scored += want_score is not None
                else:
                    want = sorted((t["row"], t["col"], t["letter"]) for t in meta["new_tiles"])
                    want_score = meta["move_score"]
                img = cv2.imread(str(photo.image))
                target = fault_square(truth_before, [(r, c) for r, c, _ in want])
                if fault is not None and target is not None:
                    img = fault(img, photo.corners, target[0], target[1], int(meta.get("move", step)))
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
                    right = tiles == want and (score == want_score or (series and want_score is None))
                    ok[mode] += right
                    if mode == "sequence":
                        asked += seq.doubtful
                        silent += not right and not seq.doubtful
                    if args.show and not right:
                        print(f"  {fault_name} {photo.stem} {mode}: want {want} {want_score}, "
                              f"got {tiles} {score}", file=sys.stderr)
                        if mode == "sequence":
                            print(f"    {'asked: ' + '; '.join(seq.doubts) if seq.doubtful else 'SILENTLY WRONG'}",
                                  file=sys.stderr)
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
            what = f"changes ({scored} scored) exact" if series else "moves exact"
            print(f"{fault_name:6s} {set_name} game {game}: {what} fresh {ok['fresh']}/{n}, "
                  f"sequence {ok['sequence']}/{n} (asked {asked}, silently wrong {silent}); "
                  f"photos with a false 'changed' flag {false_alarms}", flush=True)
    for (fault_name, mode), (k, n) in total.items():
        print(f"all games {fault_name:6s} {mode:14s} {k}" + (f"/{n}" if n else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
