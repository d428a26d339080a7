"""Does Tesseract agreeing with the letter network mean the letter is right? (issue 27, docs/reader-agree.md)

    python benchmarks/vision_agree.py --records R.json [--records R2.json ...]

Reads the per-square records of `benchmarks/vision_styles.py` (read WITHOUT `--no-tesseract`, so Tesseract's
in-process engine read every letter its point number did not vouch for: the `tesseract` field, "A 0.93").
Per set, among letters read whose number does not vouch (no `number` tag): how many Tesseract read, how many
it read as the same letter, and how many of those agreed letters are wrong, at each threshold on Tesseract's
confidence; then what the rule "Tesseract agreeing vouches" changes: letters it makes sure (and how many of them
are wrong), tiles not sure and photos asked before -> after. "Before" is the same reading with Tesseract's
vouch taken away (the rule only caps confidences: a letter it alone vouched for would be at most 0.95), so the
records must come from a run with `vision.confidence.TESSERACT_VOUCHES` on and `TESSERACT_AGREES` at or below
the lowest threshold printed.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

SURE = 0.98
UNSURE_AT_MOST = 0.95
THRESHOLDS = (0.0, 0.5, 0.7, 0.8, 0.9)


def _tags(rec: dict[str, object]) -> set[str]:
    return set(str(rec.get("evidence", "")).split(","))


def _by_tesseract_only(rec: dict[str, object], at_least: float) -> bool:
    """A letter that only Tesseract's agreement (at `at_least` or more) vouches for."""
    tags, read = _tags(rec), str(rec.get("tesseract", ""))
    return ("tesseract" in tags and "number" not in tags and bool(read)
            and float(read.split()[1]) >= at_least)


def _confidence(rec: dict[str, object], at_least: float | None) -> float:
    """The square's confidence with Tesseract vouching from `at_least` (None: not at all)."""
    conf = float(rec["confidence"])  # type: ignore[arg-type]
    if "tesseract" in _tags(rec) and "number" not in _tags(rec) and (
            at_least is None or not _by_tesseract_only(rec, at_least)):
        conf = min(conf, UNSURE_AT_MOST)
    return conf


def _figures(recs: list[dict[str, object]], photos: dict[str, list[dict[str, object]]],
             at: float | None) -> tuple[int, int, int, int, int]:
    """Squares wrong at >= SURE, tiles not sure, photos asked, letters Tesseract alone made sure and of those
    wrong, with Tesseract vouching from confidence `at` (None: not vouching)."""
    tiles = [r for r in recs if r["got"] != "."]
    sure_wrong = sum(1 for r in recs if not r["right"] and _confidence(r, at) >= SURE)
    unsure = sum(1 for r in tiles if _confidence(r, at) < SURE)
    asked = sum(1 for rs in photos.values() if rs[0]["doubtful"]
                or any(r["got"] != "." and _confidence(r, at) < SURE for r in rs))
    made_sure = [r for r in tiles if at is not None and _by_tesseract_only(r, at) and _confidence(r, at) >= SURE]
    return sure_wrong, unsure, asked, len(made_sure), sum(not r["right"] for r in made_sure)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=Path, action="append", required=True)
    ap.add_argument("--rule-from", type=float, default=None,
                    help="Tesseract confidence the rule counts from (default: each of the thresholds)")
    args = ap.parse_args(argv)
    records: list[dict[str, object]] = []
    for path in args.records:
        records += json.loads(path.read_text(encoding="utf-8"))
    by_set: dict[str, list[dict[str, object]]] = defaultdict(list)
    for rec in records:
        by_set[str(rec["set"])].append(rec)

    print("Letters whose point number does not vouch: Tesseract's reading (its confidence >= t)")
    print(f"{'set':28s} {'no number':>9s} {'asked':>6s} " + " ".join(f"{'agree/wrong t=' + str(t):>20s}"
                                                               for t in THRESHOLDS))
    for name, recs in by_set.items():
        letters = [r for r in recs if str(r["got"]) not in (".", "?")]
        no_number = [r for r in letters if "number" not in _tags(r)]
        asked = [r for r in no_number if r.get("tesseract")]
        cells = []
        for t in THRESHOLDS:
            agreed = [r for r in asked if str(r["tesseract"]).split()[0] == r["got"]
                      and float(str(r["tesseract"]).split()[1]) >= t]
            cells.append(f"{len(agreed):>12d}/{sum(not r['right'] for r in agreed):<7d}")
        print(f"{name:28s} {len(no_number):9d} {len(asked):6d} " + " ".join(cells))
    print()
    print("The rule (Tesseract agreeing vouches, from confidence t): letters it alone makes sure / of them wrong;")
    print("squares wrong at >= 0.98; tiles not sure and photos asked, before -> after")
    thresholds = (args.rule_from,) if args.rule_from is not None else THRESHOLDS
    for name, recs in by_set.items():
        photos: dict[str, list[dict[str, object]]] = defaultdict(list)
        for r in recs:
            photos[str(r["photo"])].append(r)
        tiles = [r for r in recs if r["got"] != "."]
        before = _figures(recs, photos, None)
        for t in thresholds:
            after = _figures(recs, photos, t)
            made, made_wrong = after[3], after[4]
            print(f"{name:28s} t={t:<4} made sure {made:5d} (wrong {made_wrong})  wrong at >= 0.98 "
                  f"{before[0]} -> {after[0]}  tiles not sure {before[1]} -> {after[1]} of {len(tiles)}  "
                  f"photos asked {before[2]} -> {after[2]} of {len(photos)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
