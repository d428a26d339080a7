"""Time from a photo's file bytes to a reading, decode included, against a plain decode of the same files.

    python benchmarks/vision_speed.py [--megapixels 12,2] [--sets cava_ro,declanfinerty,umich_kwwangkw]
                                      [--limit N] [--no-tesseract]

Every labelled photo of the sets is resized to each size (cubic up, area down) and encoded as a JPEG of
quality 92 in memory, like a phone's photo (this preparation is not timed). Then, photo by photo in one
process: `cv2.imdecode` of the whole file at full size (the reference any reader pays at least once),
and `vision.read.read_board(file bytes)` with automatic corners and the shipped models, exactly as the
app calls it. Times are CPU seconds (`time.process_time`: the machine is shared, and CPU time does not
count the waits) with one OpenCV and one OpenBLAS thread, as the app reads; wall medians are printed
too. The ratio is median read / median decode: what the reader costs in units of merely opening the
photo, which stays comparable across machines.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# one BLAS thread, as the `companion` command and the app run: it is read once, when numpy loads
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision.labelled import LABELLED_SETS, labelled_photos
from vision.read import read_board


def phone_jpeg(path: Path, megapixels: float) -> bytes:
    """The photo resized to `megapixels` and encoded as a phone would (JPEG quality 92)."""
    img = cv2.imread(str(path))
    f = (megapixels * 1e6 / (img.shape[0] * img.shape[1])) ** 0.5
    img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_CUBIC if f > 1 else cv2.INTER_AREA)
    return bytes(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--megapixels", default="12,2", help="comma-separated sizes to time")
    ap.add_argument("--sets", default=",".join(LABELLED_SETS))
    ap.add_argument("--limit", type=int, default=0, help="at most N photos per set")
    ap.add_argument("--no-tesseract", action="store_true", help="no second opinion on doubtful letters")
    args = ap.parse_args(argv)
    sizes = [float(s) for s in args.megapixels.split(",")]
    # the reader sets OpenCV's threads at its first read (COMPANION_VISION_THREADS, default 1): warm up
    # on a small photo first so the models are loaded and the thread count is in force for both timings
    first = next(labelled_photos(args.sets.split(",")[0]))
    read_board(phone_jpeg(first.image, 1.0), tiles="ro" if first.set == "cava_ro" else "en")
    print(f"threads: OpenCV {cv2.getNumThreads()}, OpenBLAS {os.environ.get('OPENBLAS_NUM_THREADS')}, "
          f"COMPANION_VISION_THREADS {os.environ.get('COMPANION_VISION_THREADS', '1 (default)')}; "
          f"second opinion {'off' if args.no_tesseract else 'on'}; load average {_load()} at the start")
    print(f"{'set':16s} {'MP':>5s} {'photos':>6s} {'decode cpu':>10s} {'read cpu':>9s} {'ratio':>6s} "
          f"{'read p90':>8s} {'read wall':>9s} {'failed':>6s}")
    for mp in sizes:
        all_dec: list[float] = []
        all_read: list[float] = []
        for set_name in args.sets.split(","):
            photos = list(labelled_photos(set_name))
            if args.limit:
                photos = photos[: args.limit]
            tiles = "ro" if set_name == "cava_ro" else "en"
            dec: list[float] = []
            cpu: list[float] = []
            wall: list[float] = []
            failed = 0
            real_mp: list[float] = []
            for photo in photos:
                data = phone_jpeg(photo.image, mp)
                t = time.process_time()
                img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
                dec.append(time.process_time() - t)
                real_mp.append(img.shape[0] * img.shape[1] / 1e6)
                del img
                w, t = time.perf_counter(), time.process_time()
                try:
                    read_board(data, tiles=tiles, second_opinion=not args.no_tesseract)
                except Exception as exc:  # noqa: BLE001 - a photo the reader refuses is timed and counted
                    failed += 1
                    print(f"  {photo.stem}: {type(exc).__name__}: {exc}", file=sys.stderr)
                cpu.append(time.process_time() - t)
                wall.append(time.perf_counter() - w)
            all_dec += dec
            all_read += cpu
            md, mr = statistics.median(dec), statistics.median(cpu)
            p90 = statistics.quantiles(cpu, n=10)[-1] if len(cpu) > 1 else cpu[0]
            print(f"{set_name:16s} {statistics.median(real_mp):5.1f} {len(cpu):6d} {md:9.3f}s {mr:8.3f}s "
                  f"{mr / md:6.1f} {p90:7.3f}s {statistics.median(wall):8.3f}s {failed:6d}", flush=True)
        md, mr = statistics.median(all_dec), statistics.median(all_read)
        print(f"{'all':16s} {mp:5.1f} {len(all_read):6d} {md:9.3f}s {mr:8.3f}s {mr / md:6.1f} "
              f"{statistics.quantiles(all_read, n=10)[-1]:7.3f}s", flush=True)
    print(f"load average {_load()} at the end (the machine's other work slows CPU time too: compare runs made "
          "under similar loads)")
    return 0


def _load() -> str:
    """The 1, 5 and 15 minute load averages, as the machine's business while timing."""
    return "/".join(f"{v:.1f}" for v in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
