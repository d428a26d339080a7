"""Is the reader's confidence honest? Per set: confidence band, squares read in it, share right.

    python benchmarks/vision_calibration.py [--records FILE] [-- any vision_styles.py options]

Reads the per-square records `benchmarks/vision_styles.py` wrote (every square of every labelled photo
read with models trained without its set, automatic corners; rendered styles likewise), running it first
when the file is missing. A square is right when its reading equals the label (a blank tile read as `?`;
`#` squares are not labelled and not counted). The target: in every set, squares read with confidence
>= 0.98 are right at least 99.9% of the time, and no square of a photo is confidently wrong. Also per
set: photos with any wrong square, and how many of them the reader flagged doubtful (the app asks); and what
honesty costs in questions: photos asked about (doubtful, or with a tile read below sure: the app asks about
that square) and tiles read below sure.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BANDS = ((0.0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.98), (0.98, 1.01))
SURE = 0.98


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=Path, default=Path("/tmp/vision-styles-records.json"))
    args, rest = ap.parse_known_args(argv)
    if not args.records.exists():
        from benchmarks.vision_styles import main as styles

        styles([*rest, "--records", str(args.records)])
    records = json.loads(args.records.read_text(encoding="utf-8"))
    by_set: dict[str, list[dict[str, object]]] = defaultdict(list)
    for rec in records:
        by_set[str(rec["set"])].append(rec)
    names = [f"[{lo:.2f},{hi:.2f})" if hi <= 1 else f"[{lo:.2f},1.00]" for lo, hi in BANDS]
    header = "".join(f" {n:>20s}" for n in names)
    print(f"{'set (left out)':28s}{header}   sure >= {SURE}: right")
    worst = 1.0
    for name, recs in by_set.items():
        cells = []
        for lo, hi in BANDS:
            band = [r for r in recs if lo <= float(r["confidence"]) < hi]  # type: ignore[arg-type]
            ok = sum(bool(r["right"]) for r in band)
            cells.append(f" {len(band):6d} {100 * ok / len(band):6.2f}% right" if band else f" {'0':>6s} {'-':>13s}")
        sure = [r for r in recs if float(r["confidence"]) >= SURE]  # type: ignore[arg-type]
        sure_ok = sum(bool(r["right"]) for r in sure)
        share = sure_ok / len(sure) if sure else 1.0
        worst = min(worst, share)
        print(f"{name:28s}{''.join(cells)}   {sure_ok}/{len(sure)} = {100 * share:.3f}%")
    print()
    print(f"{'set (left out)':28s} photos  with a wrong square  of those doubtful  confidently wrong squares")
    for name, recs in by_set.items():
        photos: dict[str, list[dict[str, object]]] = defaultdict(list)
        for r in recs:
            photos[str(r["photo"])].append(r)
        wrong = [p for p, rs in photos.items() if any(not r["right"] for r in rs)]
        flagged = [p for p in wrong if photos[p][0]["doubtful"]]
        sure_wrong = [f"{p} {r['square']} {r['truth']}->{r['got']} ({r['confidence']})" for p, rs in photos.items()
                      for r in rs if not r["right"] and float(r["confidence"]) >= SURE]  # type: ignore[arg-type]
        print(f"{name:28s} {len(photos):6d}  {len(wrong):17d}  {len(flagged):16d}  {len(sure_wrong):6d}"
              + (f"   e.g. {'; '.join(sure_wrong[:4])}" if sure_wrong else ""))
    print()
    print(f"{'set (left out)':28s} photos  asked (doubtful or a tile not sure)  doubtful  tiles not sure"
          "  asked a photo: median / most  letters right  letters sure and wrong")
    for name, recs in by_set.items():
        photos = defaultdict(list)
        for r in recs:
            photos[str(r["photo"])].append(r)
        tiles = [r for r in recs if r["got"] != "."]
        unsure = [r for r in tiles if float(r["confidence"]) < SURE]  # type: ignore[arg-type]
        asked = sum(1 for rs in photos.values()
                    if rs[0]["doubtful"] or any(r["got"] != "." and float(r["confidence"]) < SURE  # type: ignore[arg-type]
                                                for r in rs))
        doubtful = sum(1 for rs in photos.values() if rs[0]["doubtful"])
        # The size of the question a photo raises: its tiles read below sure (the squares the correction
        # screen rings), so "fewer questions" shows even while every photo keeps one.
        per_photo = sorted(sum(1 for r in rs if r["got"] != "." and float(r["confidence"]) < SURE)  # type: ignore[arg-type]
                           for rs in photos.values())
        letters = [r for r in recs if str(r["truth"]).isupper()]
        right = sum(bool(r["right"]) for r in letters)
        letters_sure_wrong = sum(1 for r in letters if not r["right"] and float(r["confidence"]) >= SURE)  # type: ignore[arg-type]
        print(f"{name:28s} {len(photos):6d}  {asked:35d}  {doubtful:8d}  {len(unsure):6d}/{len(tiles):6d}"
              f"  {per_photo[len(per_photo) // 2]:22d} / {per_photo[-1]:4d}"
              f"  {100 * right / max(len(letters), 1):12.2f}%  {letters_sure_wrong:8d}")
    print(f"\nworst share right among sure squares: {100 * worst:.3f}% (target 99.9%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
