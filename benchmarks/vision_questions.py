"""Why right tiles are asked, and what the agreement of independent readings takes off (issue 27).

    python benchmarks/vision_questions.py --records R.json [--before MAIN.json] [--loso]

Reads the per-square records of `benchmarks/vision_styles.py` (every square of every labelled photo read by
models trained without its set; rendered styles likewise), which name, per square, every rule of
`vision.confidence.assess` that doubted it (`doubts`, `vision.confidence.DOUBT_TAGS`; "network 0.93": the
reading's own confidence below sure) and what vouched for its letter (`evidence`). Prints per set:

1. the tiles read right yet not sure, by cause: the one doubt that alone kept the tile below sure, or
   "several" (any of two or more would have);
2. tiles not sure and photos asked (doubtful, or a tile below sure) as read, and under the agreement rule
   (`vision.confidence.agreement_excuses`) re-applied to the same readings with each `--network-from`; with
   `--before`, the same figures of another run's records (main's) beside them;
3. with `--loso`, the rule's one threshold (the network's own probability from which a letter its number and
   Tesseract agree on is sure) chosen per left-out set on the *other* labelled sets (the lowest with no sure
   wrong square there), then applied to the left-out one: held-out figures of the rule.

Records written before `doubts` existed (main's before this round) give figures only, not causes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.confidence import (
    AGREED_CONFIDENCE,
    DOUBTFUL_AT_MOST,
    ONE_WITNESS_ANSWERS,
    SURE,
    TWO_WITNESSES_ANSWER,
    agreement_excuses,
)

Record = dict[str, object]
ONE: frozenset[str] | None = None  # what one witness answers (None: the module's), --one-witness
THRESHOLDS = (1.01, 0.9, 0.8, 0.7, 0.5, 0.3, 0.0)  # 1.01: the network's letter must itself be sure


def _doubts(rec: Record) -> tuple[set[str], float]:
    """The record's doubts (the excused ones too, "~" dropped) and the reading's own confidence (1.0 when it
    was sure before any rule)."""
    tags, raw = set(), 1.0
    for part in str(rec.get("doubts", "")).split(","):
        part = part.strip().lstrip("~")
        if not part:
            continue
        if part.startswith("network "):
            raw = float(part.split()[1])
        else:
            tags.add(part)
    return tags, raw


def rejudged(rec: Record, network_from: float | None) -> float:
    """The square's confidence under the agreement rule with `network_from` (None: as read, no agreement)."""
    conf = float(rec["confidence"])  # type: ignore[arg-type]
    if network_from is None or rec["got"] in (".", "?") or "doubts" not in rec:
        return conf
    tags, raw = _doubts(rec)
    two = TWO_WITNESSES_ANSWER if network_from <= 1.0 else TWO_WITNESSES_ANSWER - {"network"}
    excused = agreement_excuses(str(rec["evidence"]), tags, raw, network_from=min(network_from, 1.0),
                                one=ONE if ONE is not None else ONE_WITNESS_ANSWERS, two=two)
    if not tags and raw >= SURE:
        return conf
    if not excused:
        # as read, but without excuses the run itself may have made (a run with the rule on)
        return conf if not str(rec.get("doubts", "")).count("~") else min(conf, 0.95)
    out = raw if raw >= SURE else AGREED_CONFIDENCE
    return min(out, DOUBTFUL_AT_MOST) if rec["doubtful"] else out


def figures(recs: list[Record], network_from: float | None) -> dict[str, float]:
    photos: dict[str, list[tuple[Record, float]]] = defaultdict(list)
    for r in recs:
        photos[str(r["photo"])].append((r, rejudged(r, network_from)))
    unsure = [sum(1 for r, c in rs if r["got"] != "." and c < SURE) for rs in photos.values()]
    asked = sum(1 for (rs, n) in zip(photos.values(), unsure, strict=True) if n or rs[0][0]["doubtful"])
    sure_wrong = sum(1 for rs in photos.values() for r, c in rs if c >= SURE and not r["right"])
    return {"photos": len(photos), "unsure": sum(unsure), "tiles": sum(1 for r in recs if r["got"] != "."),
            # the median as vision_calibration.py prints it (the upper one of an even count)
            "asked": asked, "median": sorted(unsure)[len(unsure) // 2] if unsure else 0, "sure_wrong": sure_wrong}


def causes(recs: list[Record]) -> Counter[str]:
    """Right tiles below sure by what kept them there: the one doubt, or 'several'."""
    out: Counter[str] = Counter()
    for r in recs:
        if r["got"] == "." or not r["right"] or float(r["confidence"]) >= SURE:  # type: ignore[arg-type]
            continue
        tags, raw = _doubts(r)
        if raw < SURE:
            tags.add("network")
        if r["doubtful"]:
            tags.add("doubtful")
        out[next(iter(tags)) if len(tags) == 1 else ("several: " + "+".join(sorted(tags)) if tags else "?")] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=Path, required=True)
    ap.add_argument("--before", type=Path, help="another run's records (main's) to print beside")
    ap.add_argument("--loso", action="store_true", help="choose the threshold leaving each labelled set out")
    ap.add_argument("--causes", type=int, default=8, help="causes printed per set")
    ap.add_argument("--one-witness", default=None,
                    help="comma-separated doubts one witness answers ('' none; default vision.confidence's)")
    args = ap.parse_args(argv)
    global ONE
    if args.one_witness is not None:
        ONE = frozenset(t for t in args.one_witness.split(",") if t)
    by_set: dict[str, list[Record]] = defaultdict(list)
    for rec in json.loads(args.records.read_text(encoding="utf-8")):
        by_set[str(rec["set"])].append(rec)
    before: dict[str, list[Record]] = defaultdict(list)
    if args.before:
        for rec in json.loads(args.before.read_text(encoding="utf-8")):
            before[str(rec["set"])].append(rec)

    print("Right tiles left below sure, by cause (one doubt alone, or several), per set:")
    for name, recs in by_set.items():
        c = causes(recs)
        print(f"  {name:26s} {sum(c.values()):5d}: " + "; ".join(f"{k} {v}" for k, v in c.most_common(args.causes)))

    print("\nTiles not sure / photos asked (median tiles asked a photo) / squares wrong at >= 0.98:")
    head = ["main" if args.before else None, "as read"] + [f"agree>={t:.2f}" if t <= 1 else "agree,sure net"
                                                          for t in THRESHOLDS]
    print(f"  {'set':26s}" + "".join(f" {h:>24s}" for h in head if h))
    for name, recs in by_set.items():
        cells = []
        if args.before:
            f = figures(before.get(name, []), None) if before.get(name) else None
            cells.append(f"{f['unsure']:.0f}/{f['asked']:.0f} ({f['median']:.0f}) w{f['sure_wrong']:.0f}" if f else "-")
        for t in (None, *THRESHOLDS):
            f = figures(recs, t)
            cells.append(f"{f['unsure']:.0f}/{f['asked']:.0f} ({f['median']:.0f}) w{f['sure_wrong']:.0f}")
        print(f"  {name:26s}" + "".join(f" {c:>24s}" for c in cells))

    if args.loso:
        labelled = [n for n in by_set if not n.startswith("synth/")]
        print("\nLeave one set out: the threshold chosen on the other labelled sets (lowest with 0 sure wrong there),"
              " applied to the left-out set:")
        for out in labelled:
            others = [r for n in labelled if n != out for r in by_set[n]]
            chosen = next(t for t in sorted(THRESHOLDS) if figures(others, t)["sure_wrong"] == 0)
            f, g = figures(by_set[out], chosen), figures(by_set[out], None)
            print(f"  {out:26s} chosen {chosen:.2f}: tiles not sure {g['unsure']:.0f} -> {f['unsure']:.0f}, photos "
                  f"asked {g['asked']:.0f} -> {f['asked']:.0f}, median {g['median']:.0f} -> {f['median']:.0f}, "
                  f"sure wrong {g['sure_wrong']:.0f} -> {f['sure_wrong']:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
