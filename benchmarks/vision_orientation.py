"""Which side of the board is down: every labelled photo read turned 0, 90, 180 and 270 degrees.

    python benchmarks/vision_orientation.py [--sets a,b] [--styles x,y] [--renders N]
                                            [--models shipped|heldout] [--cache DIR] [--limit N] [--show]

Each labelled photo with at least 4 letter tiles (an emptier board has no side to find) is decoded, turned
a quarter turn at a time counter-clockwise (`np.rot90`, no re-encoding) and read with automatic corners and
no second opinion. A reading names the board's top-left corner first: it is upright right when that corner
is the labelled top-left corner (turned with the photo), wrong otherwise. `doubtful` counts readings
doubted for their orientation (`vision.read`: "which side of the board ... is unclear"); `sure wrong` those
read a wrong side up WITHOUT that doubt: a confidently wrong reading, which must stay 0. With `--models
heldout` each set is read by the models trained without it (`vision.train.train_without`, cached in
--cache: slow the first time); the point-number signal uses no model. Per photo (`--show`): the letter
scores and number votes are not printed here; `vision.orientation` says how they combine. `--styles` reads
`--renders` test renders (seeds from `vision.train.TEST_SEED_FROM`, as `vision_styles.py`) of each rendered
style the same way (none by default; never a blind style not read yet), with `--models heldout` by models trained
without that style.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision.decode import decode_image
from vision.errors import NoBoardFound
from vision.labelled import LABELLED_SETS, labelled_photos
from vision.mlp import Mlp
from vision.occupancy import OccupancyModel
from vision.orientation import turned_points
from vision.read import read_board
from vision.synth import BLIND_STYLES, READ_BLIND_STYLES
from vision.train import TEST_SEED_FROM, synth_photo

ORIENTATION = "which side of the board is at the bottom of the photo is unclear"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=",".join(LABELLED_SETS))
    ap.add_argument("--models", choices=("shipped", "heldout"), default="shipped")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/vision-train-cache"))
    ap.add_argument("--limit", type=int, default=0, help="at most N photos per set")
    ap.add_argument("--styles", default="", help="rendered styles to read turned too (not the blind ones)")
    ap.add_argument("--renders", type=int, default=4, help="test renders per style")
    ap.add_argument("--show", action="store_true", help="print every reading that is wrong or doubtful")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    print(f"{'set':28s} {'photos':>6s} {'reads':>5s} {'right':>6s} {'right %':>8s} {'doubtful':>8s} "
          f"{'doubt %':>8s} {'right+sure':>10s} {'sure wrong':>10s} {'not located':>11s}")
    total = np.zeros(6, np.int64)
    styles = [s for s in args.styles.split(",") if s]
    unread = [s for s in BLIND_STYLES if s not in READ_BLIND_STYLES]  # a blind style once read trains like any
    if any(s in unread for s in styles):
        print(f"{', '.join(unread)} are read only blind (vision_styles.py --blind)", file=sys.stderr)
        return 2
    jobs = [s for s in args.sets.split(",") if s] + [f"synth/{s}" for s in styles]
    for set_name in jobs:
        occ_model = letters = None
        if args.models == "heldout":
            from vision.train import train_without

            occ_path, let_path = train_without(set_name, args.cache, lambda m: print(m, file=sys.stderr))
            occ_model, letters = OccupancyModel(Mlp.load(occ_path)), Mlp.load(let_path)
        if set_name.startswith("synth/"):
            cases = [synth_photo(set_name[len("synth/"):], TEST_SEED_FROM + k) for k in range(args.renders)]
            photos = [p for p, _img in cases]
            images = {p.stem: img for p, img in cases}
        else:
            photos = [p for p in labelled_photos(set_name) if sum(ch.isupper() for row in p.grid for ch in row) >= 4]
            images = {}
        if args.limit:
            photos = photos[:args.limit]
        counts = np.zeros(6, np.int64)  # reads, right, doubtful, right and not doubtful, sure wrong, not located
        for photo in photos:
            image = images[photo.stem] if photo.stem in images else decode_image(photo.image.read_bytes())
            label = np.array(photo.corners, np.float64)
            for k in range(4):
                turned = np.ascontiguousarray(np.rot90(image, k))
                want = turned_points(label, image.shape[1], image.shape[0], k)
                counts[0] += 1
                try:
                    reading = read_board(turned, tiles="ro" if set_name == "cava_ro" else "en",
                                         second_opinion=False, occupancy_model=occ_model, letters_net=letters)
                except NoBoardFound:
                    counts[5] += 1
                    continue
                got = np.array(reading.corners, np.float64)
                right = int(np.argmin(np.linalg.norm(want - got[0], axis=1))) == 0
                doubted = any(ORIENTATION in d for d in reading.doubts)
                counts[1:5] += (right, doubted, right and not doubted, not right and not doubted)
                if args.show and (doubted or not right):
                    print(f"  {photo.stem} turned {90 * k}: {'right' if right else 'WRONG'}"
                          f"{', doubtful' if doubted else ''}", flush=True)
        total += counts
        _line(set_name, len(photos), counts)
    _line("all", -1, total)
    return 0


def _line(name: str, photos: int, c: np.ndarray) -> None:
    n = max(int(c[0]), 1)
    print(f"{name:28s} {photos if photos >= 0 else '':>6} {c[0]:5d} {c[1]:6d} {100 * c[1] / n:7.2f}% {c[2]:8d} "
          f"{100 * c[2] / n:7.2f}% {c[3]:10d} {c[4]:10d} {c[5]:11d}", flush=True)


if __name__ == "__main__":
    t0 = time.time()
    rc = main()
    print(f"({time.time() - t0:.0f} s)", file=sys.stderr)
    raise SystemExit(rc)
