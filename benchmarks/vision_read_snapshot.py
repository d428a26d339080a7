"""Every reading the board reader gives on the labelled photos and rendered boards, written to a JSON file or
compared with one: the check that a change to `vision.read`'s structure changed no reading.

    python benchmarks/vision_read_snapshot.py write  readings.json [--limit N]
    python benchmarks/vision_read_snapshot.py compare readings.json [--limit N]

Cases, each read with the shipped models (Tesseract as second opinion when installed):
- every photo under `../shared/data/boards/**` with automatic corners and the ENABLE word list (no previous
  board: the words settle unclear letters), and with its labelled corners (when it has them) and a previous
  board: its label with the tiles of its first row of two or more tiles taken off (the move), or an empty
  board when it has no label;
- renders of every style (`vision.synth.render`, seeds 500-503, varied) with automatic and given corners,
  and each turned a quarter turn (the orientation retry).
`compare` prints how many readings are identical (grid, recogniser, evidence, warnings, doubts, the move:
exactly; confidences, occupancies and corners to 1e-9) and names each that is not.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from lexicon.store import load_lexicon
from vision.labelled import SHARED_BOARDS
from vision.read import read_board
from vision.synth import TRAINED_STYLES, render

TOLERANCE = 1e-9


def _previous(grid: list[str] | None) -> list[str]:
    """The label as the board before a move: its first row of two or more tiles taken off."""
    if grid is None:
        return ["." * 15] * 15
    rows = ["".join("." if ch == "#" else ch for ch in row) for row in grid]
    for r, row in enumerate(rows):
        if sum(ch != "." for ch in row) >= 2:
            rows[r] = "." * 15
            break
    return rows


def _read(**kwargs: Any) -> dict[str, Any]:
    try:
        return read_board(**kwargs).model_dump()
    except Exception as exc:  # noqa: BLE001 - any error the reader raises is part of its output, compared too
        return {"error": f"{type(exc).__name__}: {exc}"}


def cases(limit: int) -> list[tuple[str, dict[str, Any]]]:
    """(name, read_board arguments) for every case, in a fixed order."""
    out: list[tuple[str, dict[str, Any]]] = []
    words = load_lexicon("ENABLE").__contains__
    for meta_path in sorted(SHARED_BOARDS.glob("*/*.json"))[: limit or None]:
        meta = json.loads(meta_path.read_text())
        image = meta_path.with_name(meta["image"])
        tiles = "ro" if meta_path.parent.name == "cava_ro" else "en"
        name = f"{meta_path.parent.name}/{meta_path.stem}"
        out.append((f"{name} auto+words", {"image": image, "tiles": tiles, "words": words}))
        if meta.get("corners"):
            out.append((f"{name} corners+previous", {"image": image, "tiles": tiles, "corners": meta["corners"],
                                                     "previous": _previous(meta.get("grid"))}))
    for style in sorted(TRAINED_STYLES):  # (blind styles still to be read are read only blind)
        for seed in range(500, 504)[: limit or None]:
            case = render(style, seed, varied=True)
            out.append((f"render {style} {seed} auto", {"image": case.image}))
            out.append((f"render {style} {seed} corners+previous",
                        {"image": case.image, "corners": case.corners, "previous": _previous(case.grid)}))
            out.append((f"render {style} {seed} turned", {"image": np.ascontiguousarray(np.rot90(case.image))}))
    return out


def _differences(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, float) and isinstance(b, float):
        return [] if math.isclose(a, b, rel_tol=0, abs_tol=TOLERANCE) else [f"{path}: {a} != {b}"]
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{path}: keys {sorted(a)} != {sorted(b)}"]
        return [d for k in a for d in _differences(a[k], b[k], f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in _differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("write", "compare"))
    ap.add_argument("file", type=Path)
    ap.add_argument("--limit", type=int, default=0, help="at most N photos and N seeds per style")
    args = ap.parse_args(argv)
    if not SHARED_BOARDS.exists():
        print(f"no labelled photos at {SHARED_BOARDS}: nothing to read")
        return 1
    start = time.perf_counter()
    readings = {name: _read(**kwargs) for name, kwargs in cases(args.limit)}
    print(f"{len(readings)} readings in {time.perf_counter() - start:.0f} s")
    if args.mode == "write":
        args.file.write_text(json.dumps(readings))
        return 0
    stored = json.loads(args.file.read_text())
    differing = 0
    for name in sorted(stored.keys() | readings.keys()):
        found = _differences(stored.get(name), json.loads(json.dumps(readings.get(name))))
        if found:
            differing += 1
            print(f"DIFFERS {name}: " + "; ".join(found[:3]))
    print(f"identical: {len(readings) - differing} of {len(readings)} readings ({len(stored)} stored)")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
