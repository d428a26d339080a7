"""Two snapshots of every reading (`benchmarks/vision_read_snapshot.py write`) scored against the labels: which
readings of the labelled photos and renders got better or worse, square by square.

    python benchmarks/vision_snapshot_score.py BEFORE.json AFTER.json [--no-renders]

For each set (each labelled set, each rendered style) and kind of reading (automatic corners with the word
list; labelled corners with the board before the move), before -> after: occupancy right, letters right,
blanks found, squares wrong at confidence >= SURE (sure and wrong: must stay 0), doubtful readings. Then every
reading whose score changed, with its squares that changed (label, before, after with confidences). A snapshot
written before a retraining and one after it say what the new models changed on the photos.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.confidence import SURE
from vision.labelled import SHARED_BOARDS, labelled_photos, read_right
from vision.synth import render


def _labels(with_renders: bool, names: set[str]) -> dict[str, list[str]]:
    """Reading name (without its kind) -> the label grid, for every labelled photo and render in `names`."""
    out: dict[str, list[str]] = {}
    for folder in sorted(p for p in SHARED_BOARDS.iterdir() if p.is_dir()):
        for photo in labelled_photos(folder.name):
            out[f"{folder.name}/{photo.stem}"] = photo.grid
    if with_renders:
        for name in sorted(names):
            if name.startswith("render "):
                _, style, seed = name.split()
                out[name] = render(style, int(seed), varied=True).grid
    return out


def score(reading: dict[str, Any], label: list[str]) -> dict[str, Any]:
    """Counts of one reading against its label (`#` squares unlabelled, lower case or `?` a blank)."""
    s = {"occ": 0, "occ_n": 0, "let": 0, "let_n": 0, "blank": 0, "blank_n": 0, "sure_wrong": 0,
         "doubtful": int(bool(reading.get("doubtful"))), "error": int("error" in reading), "squares": {}}
    grid = reading.get("grid") or ["." * 15] * 15
    conf = reading.get("confidence") or [[0.0] * 15] * 15
    for r in range(15):
        for c in range(15):
            truth, got = label[r][c], grid[r][c]
            if truth == "#":
                continue
            s["occ_n"] += 1
            s["occ"] += (truth == ".") == (got == ".")
            blank = truth == "?" or truth.islower()
            if truth.isupper():
                s["let_n"] += 1
                s["let"] += got == truth
            elif blank:
                s["blank_n"] += 1
                s["blank"] += read_right(truth, got)
            right = read_right(truth, got)
            if not right and conf[r][c] >= SURE:
                s["sure_wrong"] += 1
            s["squares"][(r, c)] = (got, round(float(conf[r][c]), 2), right)
    return s


KEYS = ("occ", "let", "blank", "sure_wrong", "doubtful", "error")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--no-renders", action="store_true", help="score the labelled photos only")
    args = ap.parse_args(argv)
    before, after = json.loads(args.before.read_text()), json.loads(args.after.read_text())
    names = {n.rsplit(" ", 1)[0] for n in before.keys() & after.keys()}
    labels = _labels(not args.no_renders, names)
    totals: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    changed = []
    for name in sorted(before.keys() & after.keys()):
        base, kind = name.rsplit(" ", 1)
        if base not in labels:
            continue
        label = labels[base]
        group = base.split("/")[0] if not base.startswith("render ") else "render " + base.split()[1]
        a, b = score(before[name], label), score(after[name], label)
        t = totals[(group, kind)]
        for k in KEYS:
            t[k][0] += a[k]
            t[k][1] += b[k]
            if k in ("occ", "let", "blank"):
                t[k][2] += a[f"{k}_n"]
        if any(a[k] != b[k] for k in KEYS):
            moved = [f"{chr(65 + c)}{r + 1} {label[r][c]}: {a['squares'][(r, c)][:2]} -> {b['squares'][(r, c)][:2]}"
                     for (r, c) in sorted(b["squares"]) if a["squares"].get((r, c)) != b["squares"][(r, c)]
                     and (a["squares"][(r, c)][2] != b["squares"][(r, c)][2]
                          or a["squares"][(r, c)][1] >= SURE or b["squares"][(r, c)][1] >= SURE)]
            delta = ", ".join(f"{k} {a[k]}->{b[k]}" for k in KEYS if a[k] != b[k])
            changed.append(f"{name}: {delta}; " + "; ".join(moved[:8]))
    print("set / kind: occupancy, letters, blanks found: before -> after; sure and wrong; doubtful")
    for (group, kind), t in sorted(totals.items()):
        parts = [f"{k} {t[k][0]}->{t[k][1]}/{t[k][2]}" for k in ("occ", "let", "blank")]
        parts += [f"{k} {t[k][0]}->{t[k][1]}" for k in ("sure_wrong", "doubtful", "error")]
        print(f"  {group:28s} {kind:18s} " + "  ".join(parts))
    print(f"readings whose score changed: {len(changed)}")
    for line in changed:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
