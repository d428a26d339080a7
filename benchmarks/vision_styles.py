"""How the reader meets a board it has never seen: leave one labelled set (or one rendered style) out.

    python benchmarks/vision_styles.py [--cache DIR] [--sets a,b] [--styles x,y] [--renders N]
                                       [--no-tesseract] [--records FILE] [--blind]

For each labelled set of `../shared/data/boards` (cava_ro, declanfinerty, umich_kwwangkw), models are
trained on everything else (the other labelled sets and every rendered style of `vision/synth.py`;
`python -m vision.train --leave-out SET`, cached), then every labelled photo of the set is read with
automatic corners. For each rendered style the same: models trained without any render of that style
read `--renders` renders of it with seeds no model has seen (from `vision.train.TEST_SEED_FROM`).

The blind protocol (issue 27). The leave-one-set-out figures read sets the reader's rules were chosen on:
every threshold of `vision/` was set while looking at these readings, so they leak into them. Some rendered
styles (`vision.synth.BLIND_STYLES`) are therefore held out whole and read blind:
1. the default run (`--styles` defaults to every style but the blind ones not read yet) and any tuning never
   read them;
2. every rule and threshold is committed (`vision/`, `assets/vision/`, `benchmarks/`: `--blind` refuses a
   tree that differs from its commit, and prints the commit it read with);
3. `--blind` then reads each blind style not read yet (`BLIND_STYLES` but `READ_BLIND_STYLES`; until its
   read no model trains on it, `vision.synth.TRAINED_STYLES`) once, and its figures are
   reported as they came, beside the leave-one-set-out table (README), whatever they are; a change made
   after seeing them makes them seen, and the next blind style is a new one. A style read blind is a
   trained style from then on: the default run leaves it out like any other (its figure is no longer blind).

Occupancy: share of labelled squares (not `#`) read right as tile or empty. Letters: share of labelled
letter tiles (A-Z) read as exactly that letter (a missed tile counts as wrong). Blanks apart. `not
located`: photos refused (counted as all empty); `doubtful`: readings flagged doubtful (with reasons).
Every square's reading, confidence and truth are written to `--records` for
`benchmarks/vision_calibration.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2

from lexicon.store import load_lexicon
from vision.labelled import LABELLED_SETS, labelled_photos, read_right
from vision.mlp import Mlp
from vision.occupancy import OccupancyModel
from vision.points import as_extras
from vision.read import BoardReading, read_board
from vision.synth import BLIND_STYLES, READ_BLIND_STYLES, STYLES
from vision.train import TEST_SEED_FROM, points_without, synth_photo, train_without

RECORDS = Path("/tmp/vision-styles-records.json")
EMPTY = ["." * 15] * 15


def _frozen_commit() -> str | None:
    """The commit the reader's rules come from, or None when vision/, assets/vision/ or benchmarks/ differ
    from it (the blind read must be of rules fixed before it)."""
    root = Path(__file__).resolve().parents[1]
    try:
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "vision", "assets/vision", "benchmarks"],
                               cwd=root, capture_output=True, text=True, check=True).stdout.strip()
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return None if dirty else head


def _unread() -> list[str]:
    """The styles held out blind and not read yet: no run but `--blind` may read them."""
    return [s for s in BLIND_STYLES if s not in READ_BLIND_STYLES]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/vision-train-cache"))
    ap.add_argument("--sets", default=",".join(LABELLED_SETS))
    ap.add_argument("--styles", default=",".join(s for s in STYLES if s not in _unread()),
                    help="rendered styles ('' for none; blind ones not read yet only with --blind)")
    ap.add_argument("--blind", action="store_true",
                    help="read the styles held out blind and not read yet (vision.synth.BLIND_STYLES but "
                         "READ_BLIND_STYLES), once, with the rules as "
                         "committed: prints the commit and refuses a tree with uncommitted reader changes")
    # 8 renders since 2026-11-28's seventh stop (4 before): a style's four renders hold 90-140 letters, so one letter
    # decided a 99% target; eight hold about 200. Seeds 504-507 of a few styles were looked at by the turn tests
    # (tests/test_vision_orientation27.py, test_vision_turn27.py), never while tuning a letter rule.
    ap.add_argument("--renders", type=int, default=8, help="test renders per style")
    ap.add_argument("--no-tesseract", action="store_true")
    ap.add_argument("--records", type=Path, default=RECORDS)
    ap.add_argument("--show-errors", action="store_true")
    ap.add_argument("--no-words", action="store_true",
                    help="read without the word list (the photo alone); by default English boards are read "
                         "with the shipped ENABLE list, as `companion read` reads a board on its own")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    # `companion read` reads a board on its own with the default word list for English tiles (vision.words);
    # no Romanian list ships, so cava_ro is read by the photo alone either way.
    english = None if args.no_words else load_lexicon()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    if args.blind:
        frozen = _frozen_commit()
        if frozen is None:
            log("--blind reads the held-out styles with the rules as committed: commit vision/, assets/vision/ "
                "and benchmarks/ first")
            return 2
        unread = _unread()
        print(f"blind read of {', '.join(unread)} with the rules of commit {frozen}")
        args.sets, args.styles = "", ",".join(unread)
    elif any(s in _unread() for s in args.styles.split(",")):
        log(f"{', '.join(_unread())} are read only blind (--blind), after the rules are committed")
        return 2
    jobs: list[str] = [s for s in args.sets.split(",") if s] + [f"synth/{s}" for s in args.styles.split(",") if s]
    records: list[dict[str, object]] = []
    print(f"{'left out':28s} {'photos':>6s} {'occupancy':>22s} {'letters':>20s} {'blanks':>7s} "
          f"{'not located':>11s} {'doubtful':>8s}")
    for job in jobs:
        occ_path, let_path = train_without(job, args.cache, log)
        occ_model, letters = OccupancyModel(Mlp.load(occ_path)), Mlp.load(let_path)
        # the point-number reader trained without the same set rides in the letter model's extras
        letters.extras.update(as_extras(Mlp.load(points_without(job, args.cache, log))))
        if job.startswith("synth/"):
            style = job.split("/", 1)[1]
            cases = [synth_photo(style, TEST_SEED_FROM + k) for k in range(args.renders)]
            photos = [(p, img) for p, img in cases]
        else:
            photos = [(p, None) for p in labelled_photos(job)]
        failures = doubtful = 0
        mine: list[dict[str, object]] = []
        for photo, img in photos:
            tiles = "ro" if photo.set == "cava_ro" else "en"
            reading: BoardReading | None
            try:
                reading = read_board(img if img is not None else photo.image, tiles=tiles,
                                     second_opinion=not args.no_tesseract,
                                     occupancy_model=occ_model, letters_net=letters,
                                     words=english.__contains__ if english and tiles == "en" else None)
            except Exception as exc:  # noqa: BLE001 - a refused photo counts as all empty; the run goes on
                log(f"  {photo.stem}: {type(exc).__name__}: {exc}")
                failures += 1
                reading = None
            grid = reading.grid if reading else EMPTY
            doubtful += bool(reading and reading.doubtful)
            squares = [(r, c) for r in range(15) for c in range(15) if photo.grid[r][c] != "#"]
            for r, c in squares:
                truth, got = photo.grid[r][c], grid[r][c]
                conf = reading.confidence[r][c] if reading else 0.0
                right = read_right(truth, got)
                if args.show_errors and not right:
                    log(f"  {photo.stem} {chr(65 + c)}{r + 1}: {truth} read {got} ({conf:.3f})")
                mine.append({"set": job, "photo": photo.stem, "square": f"{chr(65 + c)}{r + 1}",
                             "truth": truth, "got": got, "confidence": round(conf, 5), "right": right,
                             "evidence": reading.evidence[r][c] if reading and reading.evidence else "",
                             "tesseract": reading.tesseract[r][c] if reading and reading.tesseract else "",
                             # the rules that doubt the square (vision.confidence.DOUBT_TAGS) and who decided it
                             "doubts": reading.square_doubts[r][c] if reading and reading.square_doubts else "",
                             "recogniser": reading.recogniser[r][c] if reading and reading.recogniser else "",
                             "doubtful": bool(reading and reading.doubtful)})
            if reading and reading.doubtful and args.show_errors:
                log(f"  {photo.stem}: doubtful: {'; '.join(reading.doubts)}")
        records += mine
        occ_n = len(mine)
        occ_ok = sum((x["truth"] == ".") == (x["got"] == ".") for x in mine)
        letter_tiles = [x for x in mine if str(x["truth"]).isupper()]
        blank_tiles = [x for x in mine if x["truth"] != "." and not str(x["truth"]).isupper()]
        let_n, let_ok = len(letter_tiles), sum(bool(x["right"]) for x in letter_tiles)
        blank_n, blank_ok = len(blank_tiles), sum(bool(x["right"]) for x in blank_tiles)
        line = (f"{job:28s} {len(photos):6d} {occ_ok:6d}/{occ_n:6d} = {occ_ok / max(occ_n, 1):.4f}"
                f" {let_ok:5d}/{let_n:5d} = {let_ok / max(let_n, 1):.4f}"
                f" {f'{blank_ok}/{blank_n}' if blank_n else '-':>7s} {failures:11d} {doubtful:8d}")
        print(line, flush=True)
        # written after every set, so a long run stopped early keeps what it read
        args.records.write_text(json.dumps(records), encoding="utf-8")
    args.records.write_text(json.dumps(records), encoding="utf-8")
    log(f"per-square records: {args.records}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
