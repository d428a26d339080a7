"""Benchmark the grid locator (`vision.locate`) on the shared board photos.

Per photo set: how many photos have all four corners within a quarter of a square of the labelled ones
(photos with `corners` labels), how many grids were located without doubt (all photos), and the median and
maximum CPU and wall time per photo by image size. Straightened overlays (grid lines drawn on the warped
grid) are written to `/tmp/vision_overlays/<set>/` for looking at.

    .venv/bin/python benchmarks/vision_locate.py [--sets cava_ro,jheidel] [--no-overlays] [--verbose]
        [--synthetic 20] [--big 10] [--single-thread]

Times are CPU time (`time.process_time`, the machine may be shared) and wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

# `--single-thread` must reach OpenBLAS before numpy loads it (its thread count is read once, at load)
if "--single-thread" in sys.argv:
    os.environ["OPENBLAS_NUM_THREADS"] = "1"

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.errors import NoBoardFound
from vision.locate import SIZE, locate_grid, warp_grid
from vision.locate_synth import monopoly_photo, tile_wall

BOARDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "boards"
OUT = Path("/tmp/vision_overlays")
SETS = ["cava_ro", "umich_kwwangkw", "declanfinerty", "kristopalka_pl", "jheidel", "radosz99_pl",
        "b3nkang_stream"]


def corner_error(found: np.ndarray, label: np.ndarray) -> float:
    """Worst corner distance in squares (labelled grid side / 15)."""
    side = np.mean([np.linalg.norm(label[i] - label[(i + 1) % 4]) for i in range(4)])
    return float(np.linalg.norm(found - label, axis=1).max() / (side / SIZE))


def overlay(img: np.ndarray, corners: np.ndarray) -> np.ndarray:
    cell = 40
    warped = warp_grid(img, corners, cell, 0.5)
    m = cell // 2
    for i in range(SIZE + 1):
        p = m + i * cell
        cv2.line(warped, (p, m), (p, m + SIZE * cell), (0, 255, 0), 1)
        cv2.line(warped, (m, p), (m + SIZE * cell, p), (0, 255, 0), 1)
    return warped


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--no-overlays", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--synthetic", type=int, default=20, help="synthetic Monopoly boards to try (0: none)")
    ap.add_argument("--big", type=int, default=10, help="photos to time again upscaled to 12 MP (0: none)")
    ap.add_argument("--single-thread", action="store_true",
                    help="one OpenCV and one OpenBLAS thread (as the app reads photos; see vision.read)")
    args = ap.parse_args()
    if args.single_thread:
        cv2.setNumThreads(1)
    if not BOARDS.exists():
        print(f"photo data not found at {BOARDS}")
        return 2
    tot_ok = tot_lab = 0
    times: dict[str, list[tuple[float, float]]] = {}
    for name in args.sets.split(","):
        folder = BOARDS / name
        photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        ok = labelled = located = 0
        errs: list[float] = []
        for path in photos:
            img = cv2.imread(str(path))
            meta_path = path.with_suffix(".json")
            meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
            c0, w0 = time.process_time(), time.perf_counter()
            try:
                loc = locate_grid(img)
            except NoBoardFound:
                loc = None
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            mp = img.shape[0] * img.shape[1] / 1e6
            times.setdefault(f"{mp:.0f} MP" if mp >= 1.5 else "<1.5 MP", []).append((cpu, wall))
            note = "none"
            if loc is not None:
                located += not loc.doubtful
                note = f"conf {loc.confidence:.2f}{' doubtful' if loc.doubtful else ''} {loc.method}"
                if not args.no_overlays:
                    (OUT / name).mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(OUT / name / (path.stem + ".png")), overlay(img, loc.corners))
            if meta.get("corners"):
                labelled += 1
                err = corner_error(loc.corners, np.array(meta["corners"], float)) if loc else float("inf")
                errs.append(err)
                ok += err < 0.25
                note += f" err {err:.2f} sq"
            if args.verbose:
                print(f"  {path.name}: {note} cpu {cpu:.2f}s")
        tot_ok += ok
        tot_lab += labelled
        acc = f"corners within 1/4 square: {ok}/{labelled}" if labelled else "no corner labels"
        med = f" median err {statistics.median(errs):.3f} sq" if errs else ""
        print(f"{name}: {len(photos)} photos, located (not doubtful) {located}/{len(photos)}, {acc}{med}")
    # synthetic Monopoly Scrabble boards (grid inside a track) and walls of tiles (a grid, not a board)
    ok = located = 0
    for seed in range(args.synthetic):
        img, truth = monopoly_photo(1000 + seed)
        try:
            loc = locate_grid(img)
        except NoBoardFound:
            continue
        located += not loc.doubtful
        match = np.array([truth[np.argmin(np.linalg.norm(truth - p, axis=1))] for p in loc.corners])
        ok += corner_error(loc.corners, match) < 0.25
    walls = 0
    for seed in range(args.synthetic // 2):
        try:
            walls += locate_grid(tile_wall(2000 + seed)).doubtful
        except NoBoardFound:
            walls += 1
    if args.synthetic:
        print(f"synthetic monopoly: located {located}/{args.synthetic}, corners within 1/4 square: "
              f"{ok}/{args.synthetic}; tile walls refused or doubtful: {walls}/{args.synthetic // 2}")
    # 12 MP: upscaled copies of a sample of photos (the shared sets are stored at about 2 MP)
    big: list[tuple[float, float]] = []
    for path in sorted(BOARDS.glob("*/*.jpg"))[:: max(1, 200 // max(1, args.big))][: args.big]:
        img = cv2.imread(str(path))
        h, w = img.shape[:2]
        f = (12e6 / (h * w)) ** 0.5
        img = cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_LINEAR)
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            locate_grid(img)
        except NoBoardFound:
            pass
        big.append((time.process_time() - c0, time.perf_counter() - w0))
    if big:
        times["12 MP (upscaled copies)"] = big
    if tot_lab:
        print(f"overall corner accuracy: {tot_ok}/{tot_lab} = {tot_ok / tot_lab:.1%}")
    for size, ts in sorted(times.items()):
        cpus = [t[0] for t in ts]
        walls = [t[1] for t in ts]
        print(f"{size}: {len(ts)} photos, CPU median {statistics.median(cpus):.3f}s max {max(cpus):.3f}s, "
              f"wall median {statistics.median(walls):.3f}s max {max(walls):.3f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
