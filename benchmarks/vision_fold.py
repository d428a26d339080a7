"""How far the grid is off on boards that fold in the middle, with one plane and with a plane per half.

    python benchmarks/vision_fold.py [--degrees 0,3,-3,6,-6,10,-10,15,-15,20,-20] [--seeds 4]
                                     [--styles crossword_blue] [--no-read] [--flat]

Renders (`vision.synth.render(..., fold_degrees=D)`: each half turned D degrees about the fold, a valley for
D > 0, a ridge for D < 0, seen by a phone's camera; seeds 900 and up, which no model trained on) are located
twice: with the fold test switched off (`vision.fold.FOLD_SUSPECT` infinite and no look for the other
half of a board found half (`fold.half_boards`): one homography, as before issue 27's fold work) and as shipped (a plane per half when the halves disagree). For each grid line down the
board (columns 0..15) the offset is the worst distance, over the 16 lines across, between where the located
grid puts the line crossing and where the render drew it, in squares; the tables print the median over
seeds. Then each render is read (`read_board`, automatic corners, no Tesseract) both ways: occupancy
(squares right as tile or empty), letters right, and squares wrong at confidence >= 0.98.

`--flat` instead runs the locator over every labelled photo of `../shared/data/boards` (boards lying flat,
some folding boards among them) and prints how far the halves' first fits moved from the one-plane fit
(the figure `FOLD_SUSPECT` is compared with), how many photos were fitted per half, and how many were kept
folded (must be none: the readings of flat boards must not change).

Only non-blind styles can be chosen (`vision.synth.BLIND_STYLES` are read once, blind, by the lead).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision import fold, gridlines, locate
from vision.errors import NoBoardFound
from vision.labelled import SHARED_BOARDS
from vision.read import read_board
from vision.synth import BLIND_STYLES, STYLES, render

SEED_FROM = 900
CONFIDENT = 0.98


def line_offsets(found: locate.GridLocation, crossings: np.ndarray) -> np.ndarray:
    """(16,) worst offset (squares) along each grid line down the board between the located grid's line
    crossings and the render's; the located grid's naming of the corners (it follows the photo) is matched
    to the board's by the best of the square's eight symmetries."""
    uv = np.stack(np.meshgrid(np.arange(16.0), np.arange(16.0)), axis=-1).reshape(-1, 2)
    if found.fold is not None:
        pred = fold.fold_points(found.fold, uv)
    else:
        h = cv2.getPerspectiveTransform(np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32),
                                        np.asarray(found.corners, np.float32))
        pred = gridlines.apply_homography(np.asarray(h, np.float64), uv)
    pred = pred.reshape(16, 16, 2)
    square = np.mean(np.linalg.norm(np.diff(crossings, axis=1), axis=2))
    best: np.ndarray | None = None
    for k in range(4):
        for mirror in (False, True):
            t = np.rot90(crossings, k)
            t = t[:, ::-1] if mirror else t
            err = np.linalg.norm(pred - t, axis=2) / square
            if best is None or err.max() < best.max():
                best = err
    assert best is not None
    # `best` is in the located grid's naming: turn it back is not needed for a per-line figure of a board
    # photographed from its own side (renders without `varied` are), so columns are the board's.
    return np.asarray(best.max(axis=0))


def read_figures(image: np.ndarray, grid: list[str]) -> tuple[int, int, int, int, str]:
    """(occupancy right of 225, letters right, letters, squares wrong at >= CONFIDENT, how located)."""
    try:
        reading = read_board(image, tiles="en", second_opinion=False, words=None)
    except NoBoardFound:
        letters = sum(ch != "." for row in grid for ch in row)
        return 225 - letters, 0, letters, 0, "no board found"
    occ = let_ok = let_n = sure_wrong = 0
    for r in range(15):
        for c in range(15):
            truth, got = grid[r][c], reading.grid[r][c]
            occ += (truth == ".") == (got == ".")
            if truth != ".":
                let_n += 1
                let_ok += truth == got
            sure_wrong += truth != got and reading.confidence[r][c] >= CONFIDENT
    return occ, let_ok, let_n, sure_wrong, reading.located + (" doubtful" if reading.doubtful else "")


def folded_renders(degrees: list[float], seeds: int, styles: list[str], read: bool) -> None:
    shipped = fold.FOLD_SUSPECT
    print(f"offset of the grid lines down the board (squares, worst over the lines across; median of {seeds} "
          f"seeds x {len(styles)} styles), one plane | a plane per half")
    cols = "".join(f"{c:>5}" for c in range(0, 16, 3))
    print(f"{'degrees':>8} {'mode':<10}{cols}  worst  found folded  not found   "
          + ("occupancy  letters  sure-wrong" if read else ""))
    for deg in degrees:
        cases = [(st, render(st, SEED_FROM + k, fold_degrees=deg)) for st in styles for k in range(seeds)]
        for mode, suspect in (("one plane", float("inf")), ("per half", shipped)):
            fold.FOLD_SUSPECT = suspect
            fold.half_boards = no_half_boards if mode == "one plane" else half_boards
            offsets: list[np.ndarray] = []
            folded = missing = 0
            for _, case in cases:
                try:
                    found = locate.locate_grid(case.image)
                except NoBoardFound:
                    missing += 1
                    continue
                folded += found.fold is not None
                offsets.append(line_offsets(found, np.array(case.crossings, np.float64)))
            med = np.median(np.array(offsets), axis=0) if offsets else np.full(16, np.nan)
            worst = max((float(o.max()) for o in offsets), default=float("nan"))
            line = f"{deg:>8.0f} {mode:<10}" + "".join(f"{med[c]:>5.2f}" for c in range(0, 16, 3))
            line += f"  {worst:>5.2f}  {folded:>5}/{len(cases):<6} {missing:>5}     "
            if read:
                figs = [read_figures(case.image, case.grid) for _, case in cases]
                occ = sum(f[0] for f in figs) / (225 * len(figs))
                let = sum(f[1] for f in figs) / max(1, sum(f[2] for f in figs))
                line += f"{occ:>8.2%}  {let:>7.2%}  {sum(f[3] for f in figs):>6}"
            print(line, flush=True)
    fold.FOLD_SUSPECT = shipped
    fold.half_boards = half_boards


def no_half_boards(img: np.ndarray, h: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """One plane as before issue 27's fold work: no look for the rest of a board across a fold either."""
    return []


half_boards = fold.half_boards


def flat_photos() -> None:
    """The fold test on every labelled photo: boards lying flat must never be kept folded."""
    if not SHARED_BOARDS.exists():
        print(f"no labelled photos at {SHARED_BOARDS}: nothing to measure")
        return
    gaps: list[float] = []
    record: dict[str, Any] = {}
    original = fold.fold_gaps

    def recording(a_mat: np.ndarray, w: np.ndarray, g_one: np.ndarray) -> list[tuple[int, float, Any, Any]]:
        out = original(a_mat, w, g_one)
        record["gap"] = max((g for _, g, _, _ in out), default=0.0)
        return out

    original_aspect = fold.aspect

    def recording_aspect(h: np.ndarray) -> float:
        record["aspect"] = original_aspect(h)
        return record["aspect"]

    fold.fold_gaps = recording
    fold.aspect = recording_aspect
    suspected = kept = 0
    names: list[str] = []
    aspects: list[float] = []
    for meta_path in sorted(SHARED_BOARDS.glob("*/*.json")):
        meta = json.loads(meta_path.read_text())
        image = cv2.imread(str(meta_path.with_name(meta["image"])), cv2.IMREAD_COLOR)
        if image is None:
            continue
        record.clear()
        try:
            found = locate.locate_grid(image)
        except NoBoardFound:
            continue
        gap = float(record.get("gap", 0.0))
        gaps.append(gap)
        if "aspect" in record:
            aspects.append(float(record["aspect"]))
        suspected += gap > fold.FOLD_SUSPECT
        if found.fold is not None or "other half" in found.method:
            kept += 1
            names.append(f"{meta_path.parent.name}/{meta_path.stem} {found.method}")
    fold.fold_gaps = original
    fold.aspect = original_aspect
    q = np.percentile(gaps, [50, 90, 99]) if gaps else [np.nan] * 3
    print(f"{len(gaps)} located photos: halves' first fits moved the grid by median {q[0]:.3f}, 90% {q[1]:.3f}, "
          f"99% {q[2]:.3f}, max {max(gaps, default=0.0):.3f} squares (FOLD_SUSPECT {fold.FOLD_SUSPECT}); "
          f"fitted per half: {suspected}; kept folded or taken for a half: {kept} {names}")
    if aspects:
        print(f"grid aspect (width / height as photographed): {min(aspects):.2f}-{max(aspects):.2f} "
              f"(HALF_ASPECT {fold.HALF_ASPECT}: a half board is looked for outside "
              f"{fold.HALF_ASPECT:.2f}-{1 / fold.HALF_ASPECT:.2f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--degrees", default="0,3,-3,6,-6,10,-10,15,-15,20,-20")
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--styles", default="crossword_blue")
    ap.add_argument("--no-read", action="store_true", help="locate only (the readings take ~1 s a render)")
    ap.add_argument("--flat", action="store_true", help="the fold test on the labelled photos instead")
    args = ap.parse_args(argv)
    if args.flat:
        flat_photos()
        return 0
    styles = [s for s in args.styles.split(",") if s]
    blind = [s for s in styles if s in BLIND_STYLES or s not in STYLES]
    if blind:
        print(f"not a readable style here: {', '.join(blind)} (blind styles are read once, by the lead)")
        return 2
    folded_renders([float(d) for d in args.degrees.split(",")], args.seeds, styles, not args.no_read)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
