"""Blanks printed in lower case, and capitals read lower case, in `benchmarks/vision_styles.py` records.

    python benchmarks/vision_lower.py RECORDS.json [RECORDS.json ...]

Per set or rendered style of each records file (held-out models, as `vision_styles.py` reads): the blanks labelled
lower case (renders print the letter; the labelled photos' lower-case labels are plain blanks named by the
labeller) read as exactly that letter, as a blank `?`, as a capital or empty; every square read lower case that is
not that letter (a capital or an empty square read lower case); and squares wrong at confidence >= 0.98.
Several files (before, after) print side by side, one line per file and set.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

SURE = 0.98


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    print(f"{'records':24s} {'set':28s} {'lower blanks':>12s} {'as letter':>9s} {'as ?':>5s} {'capital':>7s} "
          f"{'empty':>5s} {'wrongly lower':>13s} {'wrong >= 0.98':>13s}")
    totals: dict[str, list[int]] = defaultdict(lambda: [0] * 7)
    for path in argv:
        rows = json.loads(Path(path).read_text(encoding="utf-8"))
        by_set: dict[str, list[dict[str, object]]] = defaultdict(list)
        for row in rows:
            by_set[str(row["set"])].append(row)
        for name, mine in by_set.items():
            lower = [r for r in mine if str(r["truth"]).islower()]
            as_letter = sum(r["got"] == r["truth"] for r in lower)
            as_blank = sum(r["got"] == "?" for r in lower)
            as_capital = sum(str(r["got"]).isupper() for r in lower)
            as_empty = sum(r["got"] == "." for r in lower)
            wrongly = sum(str(r["got"]).islower() and r["got"] != r["truth"] for r in mine)
            sure_wrong = sum(float(str(r["confidence"])) >= SURE and not r["right"] for r in mine)
            figures = [len(lower), as_letter, as_blank, as_capital, as_empty, wrongly, sure_wrong]
            for k, v in enumerate(figures):
                totals[path][k] += v
            if lower or wrongly or sure_wrong:
                print(f"{Path(path).name:24s} {name:28s} {figures[0]:12d} {figures[1]:9d} {figures[2]:5d} "
                      f"{figures[3]:7d} {figures[4]:5d} {figures[5]:13d} {figures[6]:13d}")
    for path, t in totals.items():
        print(f"{Path(path).name:24s} {'all':28s} {t[0]:12d} {t[1]:9d} {t[2]:5d} {t[3]:7d} {t[4]:5d} {t[5]:13d} {t[6]:13d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
