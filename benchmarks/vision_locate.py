"""Benchmark the grid locator (`vision.locate`) on the shared board photos.

Per photo set: how many photos have all four corners within a quarter of a square of the labelled ones
(photos with `corners` labels), how many grids were located without doubt (all photos), and the median and
maximum CPU and wall time per photo by image size. Straightened overlays (grid lines drawn on the warped
grid) are written to `/tmp/vision_overlays/<set>/` for looking at.

    .venv/bin/python benchmarks/vision_locate.py [--sets cava_ro,jheidel] [--no-overlays] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.errors import NoBoardFound
from vision.locate import SIZE, locate_grid, warp_grid

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
    args = ap.parse_args()
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
