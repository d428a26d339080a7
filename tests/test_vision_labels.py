"""The board labels this project made (`tests/data/board_labels/<set>.json`, read by
`vision.labelled.labelled_photos`) are well formed: a 15x15 grid of empty squares, letters and blank tiles
only, four corners that go round a real quadrilateral inside the photo, and a `how` that says how they were
made and checked. The checks against the photos (names, sizes) read `../shared/data/boards` and skip with
the reason when it is absent; the rest holds in a fresh clone."""

from __future__ import annotations

import itertools
import json
import string
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import shared_path
from vision.labelled import ADDED_LABELS, LABELLED_SETS, labelled_photos

# What a label square may hold (vision/labelled.py): '.' empty, A-Z a letter tile, '?' a blank tile,
# lowercase a blank standing for that letter. '#' (left unlabelled) is for the shipped labels only: a
# label we make is made whole or the photo is left out.
SQUARE_CHARS = set("." + string.ascii_uppercase + "?" + string.ascii_lowercase)
LABEL_FILES = sorted(ADDED_LABELS.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _signed_area(corners: list[list[float]]) -> float:
    """Shoelace area in image coordinates (y down): positive when the points go clockwise on screen."""
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]))


def _convex(corners: list[list[float]]) -> bool:
    crosses = []
    for a, b, c in zip(corners, corners[1:] + corners[:1], corners[2:] + corners[:2]):
        crosses.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    return all(x > 0 for x in crosses) or all(x < 0 for x in crosses)


def test_there_are_label_files_and_each_names_its_set() -> None:
    assert {p.stem for p in LABEL_FILES} >= {"b3nkang_stream", "radosz99_pl", "jheidel"}
    for path in LABEL_FILES:
        data = _load(path)
        assert data["set"] == path.stem, path.name
        assert path.stem in LABELLED_SETS, f"{path.name}: labels the benchmark and the trainer never read"


@pytest.mark.parametrize("path", LABEL_FILES, ids=lambda p: p.stem)
def test_labels_are_15_by_15_grids_of_letters_blanks_and_empty_squares(path: Path) -> None:
    data = _load(path)
    assert len(data["how"]) > 200, "say how the labels were made and checked"
    assert data["photos"]
    for stem, label in data["photos"].items():
        grid = label["grid"]
        assert len(grid) == 15 and all(len(row) == 15 for row in grid), stem
        odd = {ch for row in grid for ch in row} - SQUARE_CHARS
        assert not odd, f"{stem}: {sorted(odd)} is not a square's label"


@pytest.mark.parametrize("path", LABEL_FILES, ids=lambda p: p.stem)
def test_corners_go_clockwise_round_a_convex_board(path: Path) -> None:
    """TL, TR, BR, BL of the board as its letters read upright: clockwise on screen whichever side of the
    table the photo was taken from, and not folded or collapsed."""
    for stem, label in _load(path)["photos"].items():
        corners = label["corners"]
        assert len(corners) == 4 and all(len(p) == 2 for p in corners), stem
        assert _convex(corners), stem
        assert _signed_area(corners) > 100 * 100, f"{stem}: corners go anticlockwise or enclose almost nothing"


@pytest.mark.parametrize("path", LABEL_FILES, ids=lambda p: p.stem)
def test_every_labelled_photo_is_in_the_shared_data_with_the_corners_inside_it(path: Path) -> None:
    data = _load(path)
    folder = shared_path("boards", data["set"])
    for stem, label in data["photos"].items():
        meta_path = folder / f"{stem}.json"
        assert meta_path.exists(), f"{stem}: no such photo in {folder}"
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        assert (folder / meta["image"]).exists(), stem
        # labelled_photos only takes our label where the shared file has no grid of its own
        assert not meta.get("grid"), f"{stem}: the shared data labels this photo already"
        w, h = meta["image_size"]
        for x, y in label["corners"]:
            assert 0 <= x < w and 0 <= y < h, f"{stem}: corner {x}, {y} outside the {w}x{h} photo"


def test_every_jheidel_label_reaches_the_trainer_and_the_benchmark() -> None:
    shared_path("boards", "jheidel")
    labels = _load(ADDED_LABELS / "jheidel.json")["photos"]
    photos = {p.stem: p for p in labelled_photos("jheidel")}
    assert set(photos) == set(labels)
    for stem, photo in photos.items():
        assert photo.grid == labels[stem]["grid"] and photo.corners == labels[stem]["corners"]


@pytest.mark.parametrize("day", ["IMG_20141025", "IMG_20151016"])
def test_jheidel_games_only_ever_gain_tiles(day: str) -> None:
    """Both jheidel boards are games photographed as they went on: in name (time) order a square once
    holding a tile keeps the same tile, so each label agrees with the next and the count never drops."""
    labels = _load(ADDED_LABELS / "jheidel.json")["photos"]
    order = sorted(stem for stem in labels if stem.startswith(day))
    assert len(order) >= 10
    counts = []
    for before, after in itertools.pairwise(order):
        a, b = labels[before]["grid"], labels[after]["grid"]
        kept = [(r, c) for r in range(15) for c in range(15) if a[r][c] != "." and b[r][c] != a[r][c]]
        assert not kept, f"{after} lost or changed the tiles of {before} on {kept}"
        counts.append(sum(ch != "." for row in b for ch in row))
    assert counts == sorted(counts) and counts[-1] > counts[0]
