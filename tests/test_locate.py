"""The grid locator on real board photos: corners within a quarter of a square of the labelled ones.

Photos are read from the shared data folder (skipped when absent); a sample of each labelled set keeps
the run short. The full sets are measured by `benchmarks/vision_locate.py`. What is not a matter of
accuracy on real photos (the warp's size, corners that follow the image's orientation, a part of a board
or a grid cut off by the photo's edge) is also checked on boards rendered in memory (`vision.synth`), so
it runs in any clone.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.conftest import shared_path
from vision import gridlines, locate
from vision.errors import NoBoardFound
from vision.locate import SIZE, GridLocation, locate_grid, warp_grid
from vision.locate_synth import monopoly_photo, tile_wall
from vision.synth import render

SAMPLE = [
    ("cava_ro", "1_07.jpg"),
    ("cava_ro", "3_18.jpg"),
    ("umich_kwwangkw", "photo_278724422_2048046288689504_7757428049442.jpg"),  # oblique, glare
    ("umich_kwwangkw", "rectified_w12.jpg"),  # already cropped to the grid
    ("kristopalka_pl", "red_002.jpg"),
    ("kristopalka_pl", "red_014.jpg"),  # oblique
    ("declanfinerty", "board_002.jpg"),
]


def _load(set_name: str, photo: str) -> tuple[np.ndarray, dict[str, object]]:
    path = shared_path("boards", set_name, photo)
    img = cv2.imread(str(path))
    assert img is not None
    meta = json.loads(Path(path).with_suffix(".json").read_text())
    return img, meta


def _error_in_squares(found: np.ndarray, label: np.ndarray) -> float:
    side = np.mean([np.linalg.norm(label[i] - label[(i + 1) % 4]) for i in range(4)])
    return float(np.linalg.norm(found - label, axis=1).max() / (side / SIZE))


@pytest.mark.parametrize(("set_name", "photo"), SAMPLE)
def test_corners_within_a_quarter_square(set_name: str, photo: str) -> None:
    img, meta = _load(set_name, photo)
    loc = locate_grid(img)
    assert isinstance(loc, GridLocation)
    assert loc.corners.dtype == np.float32 and loc.corners.shape == (4, 2)
    assert not loc.doubtful
    assert 0.0 <= loc.confidence <= 1.0
    assert _error_in_squares(loc.corners, np.array(meta["corners"], float)) < 0.25


def test_noise_is_not_a_board() -> None:
    rng = np.random.default_rng(4)
    noise = rng.integers(0, 256, (600, 800, 3), dtype=np.uint8)
    gradient = np.dstack([np.tile(np.linspace(0, 255, 800, dtype=np.uint8), (600, 1))] * 3)
    blank = np.full((600, 800, 3), 128, np.uint8)
    for img in (noise, gradient, blank):
        try:
            loc = locate_grid(img)
        except NoBoardFound as exc:
            assert "corners" in str(exc)
        else:
            assert loc.doubtful


def test_warp_grid_size_and_margin() -> None:
    case = render("worn_wood", 7)
    img, corners = case.image, np.array(case.corners, np.float32)
    assert warp_grid(img, corners, 20).shape == (300, 300, 3)
    assert warp_grid(img, corners, 20, 0.5).shape == (320, 320, 3)


@pytest.mark.parametrize("seed", [1, 6])
def test_monopoly_board_grid_inside_the_track(seed: int) -> None:
    # the biggest quadrilateral is the Monopoly track; the 15x15 grid sits inside it
    img, board_corners = monopoly_photo(seed)
    loc = locate_grid(img)
    assert not loc.doubtful
    # corners follow image orientation: match each found corner to the nearest true one
    truth = np.array([board_corners[np.argmin(np.linalg.norm(board_corners - p, axis=1))] for p in loc.corners])
    assert len({tuple(p) for p in truth}) == 4
    assert _error_in_squares(loc.corners, truth) < 0.25


def test_a_wall_of_tiles_is_doubtful() -> None:
    try:
        loc = locate_grid(tile_wall(2))
    except NoBoardFound:
        return
    assert loc.doubtful


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180])
def test_corners_follow_image_orientation(turn: int) -> None:
    img, meta = _load("kristopalka_pl", "red_007.jpg")
    h, w = img.shape[:2]
    label = np.array(meta["corners"], float)
    if turn == cv2.ROTATE_180:
        moved = np.stack([w - 1 - label[:, 0], h - 1 - label[:, 1]], axis=1)[[2, 3, 0, 1]]
    else:
        moved = np.stack([h - 1 - label[:, 1], label[:, 0]], axis=1)[[3, 0, 1, 2]]
    loc = locate_grid(cv2.rotate(img, turn))
    assert _error_in_squares(loc.corners, moved) < 0.25


def _turned_corners(label: np.ndarray, shape: tuple[int, ...], turn: int) -> np.ndarray:
    """Labelled corners (TL, TR, BR, BL) of a photo turned by `turn`, in the turned photo's TL, TR, BR, BL."""
    h, w = shape[:2]
    if turn == cv2.ROTATE_180:
        return np.stack([w - 1 - label[:, 0], h - 1 - label[:, 1]], axis=1)[[2, 3, 0, 1]]
    return np.stack([h - 1 - label[:, 1], label[:, 0]], axis=1)[[3, 0, 1, 2]]


@pytest.mark.parametrize("style", ["worn_wood", "cream_red_letters"])
@pytest.mark.parametrize("turn", [cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE])
def test_corners_of_a_rendered_board_follow_image_orientation(style: str, turn: int) -> None:
    case = render(style, 7)
    label = np.array(case.corners, float)
    assert _error_in_squares(locate_grid(case.image).corners, label) < 0.25  # upright first
    loc = locate_grid(cv2.rotate(case.image, turn))
    assert _error_in_squares(loc.corners, _turned_corners(label, case.image.shape, turn)) < 0.25


@pytest.mark.parametrize("cut", ["quarter", "top-cut"])
def test_part_of_a_rendered_board_is_not_a_whole_grid(cut: str) -> None:
    img = render("worn_wood", 7).image
    h, w = img.shape[:2]
    part = img[: h // 2, : w // 2] if cut == "quarter" else img[int(h * 0.4):, :]
    try:
        loc = locate_grid(part)
    except NoBoardFound:
        return  # refused: as good as doubtful
    assert loc.doubtful


def test_unlabelled_photos_are_located() -> None:
    for set_name, photo in (("jheidel", "IMG_20151016_170755.jpg"), ("radosz99_pl", "images_test.jpg"),
                            ("b3nkang_stream", "19-3.jpg")):
        img = cv2.imread(str(shared_path("boards", set_name, photo)))
        assert not locate_grid(img).doubtful, photo


def test_part_of_a_board_is_not_a_whole_grid() -> None:
    # a close-up of a third of the board: squares and premiums are there, the 15x15 grid is not
    img, _ = _load("cava_ro", "1_05.jpg")
    try:
        loc = locate_grid(img[400:1100, 200:900])
    except NoBoardFound:
        return
    assert loc.doubtful


def test_warp_grid_refuses_malformed_corners() -> None:
    img = np.zeros((200, 200, 3), np.uint8)
    with pytest.raises(ValueError, match="four x,y points"):
        warp_grid(img, [[0, 0], [10, 0], [10, 10]])


def test_grid_running_out_of_the_photo_is_doubtful() -> None:
    img, _ = _load("cava_ro", "1_05.jpg")
    try:
        loc = locate_grid(img[700:, :])  # the top third of the grid is cut off
    except NoBoardFound:
        return
    assert loc.doubtful


# ----------------------------------------------------------------------------------------------------
# The locator's shortcuts (measured in benchmarks/vision_speed.py) must not change what it finds.


@pytest.mark.parametrize(("set_name", "photo"), SAMPLE[:4] + SAMPLE[6:])
def test_prescreened_search_finds_the_grid_of_the_full_search(set_name: str, photo: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Ranking candidates by the cheap coarse comb search first, then searching only the strongest in
    full, finds the same corners as searching every candidate in full and six for the window."""
    img, _ = _load(set_name, photo)
    quick = locate_grid(img)
    monkeypatch.setattr(locate, "PRESCREEN_KEEP", 10**6)
    monkeypatch.setattr(locate, "WINDOW_SEARCHES", 6)
    full = locate_grid(img)
    assert np.array_equal(quick.corners, full.corners)
    assert quick.confidence == full.confidence


def _band_profiles_per_line(g: np.ndarray, lines: np.ndarray, half: int, c: int, rows: bool) -> np.ndarray:
    return np.stack([gridlines.band_profiles(g.T if rows else g, int(p), half, c) for p in lines])


@pytest.mark.parametrize(("cell", "half"), [(16, 7), (24, 7), (32, 6), (32, 9)])
def test_all_lines_at_once_are_the_bands_of_each_line(cell: int, half: int) -> None:
    """`_refine` traces the 14 inner lines from one gather: the same profiles to the bit as one strip per
    line (the homography it solves from them then is the same too), across and along rows."""
    rng = np.random.default_rng(cell + half)
    g = (rng.random((17 * cell, 17 * cell)) ** 3 * 100).astype(np.float32)
    lines = (np.arange(1, SIZE) + 1) * cell
    for rows in (False, True):
        once = np.asarray(gridlines.bands_across(g, lines, half, cell, rows=rows), dtype=np.float64)
        assert np.array_equal(once, _band_profiles_per_line(g, lines, half, cell, rows))


def test_a_real_boards_lines_traced_at_once_are_the_same_and_refine_it() -> None:
    img, meta = _load("cava_ro", "1_07.jpg")
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]]),
                                    np.float32(meta["corners"])).astype(np.float64)
    cell, reach = 24, 0.3
    new, share = gridlines.refine(img, h, cell, reach)
    # the same pass with one strip per line, as the locator traced before
    c = cell
    to_img = h @ np.array([[1 / c, 0, -1], [0, 1 / c, -1], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (17 * c, 17 * c), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    gx, gy = gridlines.line_maps(warped)
    lines = (np.arange(1, SIZE) + 1) * c
    for g, rows in ((gx, False), (gy, True)):
        once = np.asarray(gridlines.bands_across(g, lines, int(reach * c), c, rows=rows), dtype=np.float64)
        assert np.array_equal(once, _band_profiles_per_line(g, lines, int(reach * c), c, rows))
    assert share > 0.5 and np.abs(gridlines.grid_corners(new) - np.float32(meta["corners"])).max() < 0.25 * (
        np.linalg.norm(np.subtract(meta["corners"][1], meta["corners"][0])) / SIZE)


def test_histogram_median_is_numpys_median() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        shape = (int(rng.integers(1, 40)), int(rng.integers(1, 40)))
        img = rng.integers(0, int(rng.integers(1, 256)), shape, dtype=np.uint8)
        assert gridlines.median_u8(img) == float(np.median(img))


def test_premium_colours_from_the_middles_only_are_the_same() -> None:
    """`_cell_colours` converts only the pixels it averages to Lab: the same means as converting all."""
    img, meta = _load("umich_kwwangkw", "rectified_w12.jpg")
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]]),
                                    np.float32(meta["corners"])).astype(np.float64)
    c, n = 12, SIZE + 4
    to_img = h @ np.array([[1 / c, 0, -2], [0, 1 / c, -2], [0, 0, 1]], dtype=np.float64)
    warped = cv2.warpPerspective(img, np.linalg.inv(to_img), (n * c, n * c), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    lab = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB).reshape(n, c, n, c, 3)[:, 3:9, :, 3:9, :]
    expected = lab.sum(axis=(1, 3), dtype=np.int64) / 36.0
    assert np.array_equal(locate._cell_colours(img, h, range(-2, SIZE + 2)), expected)
