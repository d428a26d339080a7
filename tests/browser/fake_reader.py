"""A stand-in board reader for the browser test that needs a deterministic misread.

It does not look at the picture's letters: it returns the labelled grid of the photo named by
`FAKE_READ_JSON` (a shared-data label file), with the square `FAKE_MISREAD` (e.g. `7,8=V`) read
wrong at low confidence, so the UI's correction flow has something to correct. The photo still
travels the real path: browser upload or camera -> Flet -> the app's reader adapter.
"""

from __future__ import annotations

import json
import os
from typing import Any


def read(image: Any) -> dict[str, Any]:
    shape = getattr(image, "shape", None)
    if shape is None or len(shape) < 2 or shape[0] < 50:
        raise ValueError("no picture")
    with open(os.environ["FAKE_READ_JSON"], encoding="utf-8") as fh:
        label = json.load(fh)
    rows = [r.replace("#", ".") for r in label["grid"]]
    conf = [[0.97] * len(rows) for _ in rows]
    mis = os.environ.get("FAKE_MISREAD", "")
    if mis:
        where, letter = mis.split("=")
        r, c = (int(x) for x in where.split(","))
        rows[r] = rows[r][:c] + letter + rows[r][c + 1:]
        conf[r][c] = 0.35
    return {"rows": rows, "confidence": conf}
