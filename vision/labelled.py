"""The labelled board photos in the shared test data, as the trainer and the benchmark see them.

Reads `../shared/data/boards/<set>/*.json` (labels: `.` empty, `A`-`Z` tile, lowercase blank standing
for a letter, `?` blank of unknown letter, `#` unlabelled). Photos are test data: they are read from
the shared folder, never copied into the repository, and only features or learned parameters derived
from them may be shipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SHARED_BOARDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "boards"
LABELLED_SETS = ("cava_ro", "declanfinerty", "umich_kwwangkw")


@dataclass(frozen=True)
class LabelledPhoto:
    set: str
    stem: str
    image: Path
    grid: list[str]
    corners: list[list[float]]
    meta: dict[str, Any]

    @property
    def group(self) -> str:
        """Which photos belong together for honest hold-out: a cava game, the alphabet shots, a photo."""
        if self.set == "cava_ro":
            if self.stem[0].isdigit():
                return f"cava_ro/game{self.stem[0]}"
            return "cava_ro/" + self.stem.split("_")[0]
        return f"{self.set}/{self.stem}"


def labelled_photos(set_name: str, root: Path = SHARED_BOARDS) -> Iterator[LabelledPhoto]:
    """Every photo of a set that has a grid label and corners, in name order."""
    folder = root / set_name
    for path in sorted(folder.glob("*.json")):
        meta = json.loads(path.read_text(encoding="utf-8"))
        if not meta.get("grid") or not meta.get("corners"):
            continue
        yield LabelledPhoto(set_name, path.stem, folder / meta["image"], meta["grid"], meta["corners"], meta)
