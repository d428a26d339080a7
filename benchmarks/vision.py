"""Board reader accuracy and speed on the labelled photos of `../shared/data/boards`, per set.

    python benchmarks/vision.py [--corners labelled|auto] [--models shipped|heldout] [--sets a,b]
                                [--no-tesseract] [--limit N]

Occupancy: share of labelled squares (not `#`) read correctly as tile/empty. Letters: share of labelled
letter tiles (A-Z) read as exactly that letter (a missed tile counts as wrong); blanks (`?`, lowercase)
are counted apart (found when read as a blank or as the lower-case letter printed on it,
`vision.labelled.read_right`). Moves (cava_ro games): each photo is read with the previous photo's reading as the
board before (the empty board for move 1); a move is right when the new tiles (squares and letters,
`?` for the joker) and the score equal the official annotation.
`not located`: photos the reader refused (no board found; counted as all wrong); `doubtful`: photos read
with the warning that the found corners should be checked (the app then asks for four corners).

`--models heldout` reads every photo with the models `python -m vision.train --eval-only` trained
without it (saved under its cache folder; cava_ro games 2-3 by a model trained with game 1, game 1 by one
trained with games 2-3); the alphabet/template photos are in every training fold, so they are left out. `--models shipped` uses `assets/vision/` (trained on all
labelled photos: training-set figures, an upper bound). Times are per photo, wall and CPU
(`time.process_time`), median and 90th percentile; the machine may be shared, so CPU time is the
steadier figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# `--single-thread` must reach OpenBLAS before numpy loads it (its thread count is read once, at load)
if "--single-thread" in sys.argv:
    os.environ["OPENBLAS_NUM_THREADS"] = "1"

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2

from vision.labelled import LABELLED_SETS, LabelledPhoto, labelled_photos, read_right
from vision.mlp import Mlp
from vision.occupancy import OccupancyModel
from vision.read import BoardReading, read_board
from vision.train import fold_of

EMPTY = ["." * 15] * 15


def _models(photo: LabelledPhoto, mode: str, cache: Path) -> tuple[OccupancyModel | None, Mlp | None] | None:
    if mode == "shipped":
        return None, None
    fold = fold_of(photo)
    if fold == "train":
        return None
    folder = cache / "folds"
    return OccupancyModel(Mlp.load(folder / f"{fold}_occupancy.npz")), Mlp.load(folder / f"{fold}_letters.npz")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corners", choices=["labelled", "auto"], default="labelled")
    ap.add_argument("--models", choices=["shipped", "heldout"], default="heldout")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/vision-train-cache"))
    ap.add_argument("--sets", default=",".join(LABELLED_SETS))
    ap.add_argument("--no-tesseract", action="store_true")
    ap.add_argument("--limit", type=int, default=0, help="at most N photos per set")
    ap.add_argument("--show-errors", action="store_true")
    ap.add_argument("--megapixels", type=float, default=0.0,
                    help="resize every photo to this many megapixels (JPEG in memory, not timed) before reading, "
                         "to time phone-sized photos")
    ap.add_argument("--single-thread", action="store_true",
                    help="one OpenCV and one OpenBLAS thread: on a busy 2-core machine their idle threads spin "
                         "and add CPU time (a 5-photo 2 MP sample: 0.52 -> 0.37 s CPU median)")
    args = ap.parse_args(argv)
    if args.single_thread:
        cv2.setNumThreads(1)

    for set_name in args.sets.split(","):
        occ_ok = occ_n = let_ok = let_n = blank_ok = blank_n = 0
        walls: list[float] = []
        cpus: list[float] = []
        readings: dict[str, BoardReading] = {}
        moves_ok = moves_n = 0
        failures = 0
        doubtful = 0
        photos = list(labelled_photos(set_name))
        if args.limit:
            photos = photos[: args.limit]
        tiles = "ro" if set_name == "cava_ro" else "en"
        for photo in photos:
            models = _models(photo, args.models, args.cache)
            if models is None:
                continue
            corners = photo.corners if args.corners == "labelled" else None
            source: Path | bytes = photo.image
            if args.megapixels:
                img = cv2.imread(str(photo.image))
                f = (args.megapixels * 1e6 / (img.shape[0] * img.shape[1])) ** 0.5
                img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_CUBIC)
                source = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
                corners = None if corners is None else [[x * f, y * f] for x, y in corners]
            w0, c0 = time.perf_counter(), time.process_time()
            try:
                reading = read_board(source, corners=corners, tiles=tiles,
                                     second_opinion=not args.no_tesseract,
                                     occupancy_model=models[0], letters_net=models[1])
            except Exception as exc:  # noqa: BLE001 - a failed photo counts as all wrong; the run goes on
                print(f"  {photo.stem}: {type(exc).__name__}: {exc}", file=sys.stderr)
                failures += 1
                reading = None
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
            grid = reading.grid if reading else EMPTY
            if reading:
                readings[photo.stem] = reading
                doubtful += reading.doubtful
                if reading.doubtful and args.show_errors:
                    print(f"  {photo.stem}: location doubtful ({reading.located})", file=sys.stderr)
            for r in range(15):
                for c in range(15):
                    truth, got = photo.grid[r][c], grid[r][c]
                    if truth == "#":
                        continue
                    occ_n += 1
                    occ_ok += (truth == ".") == (got == ".")
                    if (truth == ".") != (got == ".") and args.show_errors:
                        print(f"  {photo.stem} {r},{c}: occupancy {truth} read {got}", file=sys.stderr)
                    if truth.isupper():
                        let_n += 1
                        let_ok += got == truth
                        if got != truth and args.show_errors:
                            print(f"  {photo.stem} {r},{c}: {truth} read {got}", file=sys.stderr)
                    elif truth == "?" or truth.islower():
                        blank_n += 1
                        blank_ok += read_right(truth, got)
            # Move detection from consecutive photos of one game.
            meta = photo.meta
            if set_name == "cava_ro" and "new_tiles" in meta and reading is not None:
                prev_stem = f"{meta['game']}_{meta['move'] - 1:02d}"
                before = EMPTY if meta["move"] == 1 else (readings[prev_stem].grid if prev_stem in readings else None)
                if before is None:
                    continue
                from companion.rules.tiles import load_tileset
                from vision.read import detect_move

                moved = reading.model_copy(deep=True)
                moved.warnings = []
                detect_move(moved, before, load_tileset("ro"))
                want = sorted((t["row"], t["col"], t["letter"]) for t in meta["new_tiles"])
                got_tiles = sorted((int(t.square[1:]) - 1, ord(t.square[0]) - 65, t.letter)
                                   for t in moved.new_tiles or [])
                moves_n += 1
                right = got_tiles == want and moved.score == meta["move_score"]
                moves_ok += right
                if not right and args.show_errors:
                    print(f"  move {photo.stem}: want {want} {meta['move_score']} got {got_tiles} {moved.score}",
                          file=sys.stderr)
        if not walls:
            print(f"{set_name}: no photos to read with --models {args.models}")
            continue
        line = (f"{set_name:15s} photos {len(walls):3d}  occupancy {occ_ok}/{occ_n} = {occ_ok / max(occ_n, 1):.4f}"
                f"  letters {let_ok}/{let_n} = {let_ok / max(let_n, 1):.4f}")
        if blank_n:
            line += f"  blanks {blank_ok}/{blank_n}"
        if moves_n:
            line += f"  moves {moves_ok}/{moves_n}"
        # Not located: read_board refused the photo (it counts as all wrong above); doubtful: read, with
        # the warning that the corners should be checked (the app then asks for them).
        line += f"  not located {failures}  doubtful {doubtful}"
        q = statistics.quantiles
        line += (f"  time/photo wall median {statistics.median(walls):.3f}s p90 {q(walls, n=10)[-1]:.3f}s"
                 f"  cpu median {statistics.median(cpus):.3f}s p90 {q(cpus, n=10)[-1]:.3f}s")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
