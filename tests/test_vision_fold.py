"""Boards that fold in the middle (issue 27): renders whose two halves are two planes at an angle
(`vision.synth.render(..., fold_degrees=...)`), the grid fitted per half (`vision.locate`), and the reader
straightening each half by its own map. Renders only: these run in any clone.

The one-plane figures are what the locator did before: the fold test switched off (`FOLD_SUSPECT` infinite) and
no look for the rest of a board found half (`_half_boards`)."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from vision import fold, gridlines, locate
from vision.confidence import SURE
from vision.read import read_board
from vision.synth import BLIND_STYLES, render

STYLE = "crossword_blue"  # the non-blind blue Crossword board (never a BLIND_STYLES one here)
UV = np.stack(np.meshgrid(np.arange(16.0), np.arange(16.0)), axis=-1).reshape(-1, 2)


def _offsets(found: locate.GridLocation, crossings: list[list[list[float]]]) -> np.ndarray:
    """(16, 16) distance in squares between the located grid's line crossings and the render's (a render not
    turned: the located corners are named as the board's)."""
    truth = np.array(crossings, np.float64)
    if found.fold is not None:
        pred = fold.fold_points(found.fold, UV)
    else:
        h = cv2.getPerspectiveTransform(np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32),
                                        np.asarray(found.corners, np.float32))
        pred = gridlines.apply_homography(np.asarray(h, np.float64), UV)
    square = float(np.mean(np.linalg.norm(np.diff(truth, axis=1), axis=2)))
    return np.asarray(np.linalg.norm(pred.reshape(16, 16, 2) - truth, axis=2) / square)


@pytest.fixture
def one_plane(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The locator as it was before the fold work: one homography for the whole board."""
    monkeypatch.setattr(fold, "FOLD_SUSPECT", float("inf"))
    monkeypatch.setattr(fold, "half_boards", lambda img, h: [])
    yield


def _figures(image: np.ndarray, grid: list[str]) -> tuple[int, int, int, int, bool]:
    """(occupancy right of 225, letters right, letters, squares wrong at SURE or more, doubtful)."""
    reading = read_board(image, tiles="en", second_opinion=False, words=None)
    letters = [(r, c) for r in range(15) for c in range(15) if grid[r][c] != "."]
    occupancy = sum((grid[r][c] == ".") == (reading.grid[r][c] == ".") for r in range(15) for c in range(15))
    right = sum(grid[r][c] == reading.grid[r][c] for r, c in letters)
    sure_wrong = sum(grid[r][c] != reading.grid[r][c] and reading.confidence[r][c] >= SURE
                     for r in range(15) for c in range(15))
    return occupancy, right, len(letters), sure_wrong, reading.doubtful


def test_a_folded_render_is_two_planes_that_meet_on_the_fold() -> None:
    """The halves of a folded render are two planes: one homography through the left half's crossings misses
    the right half's by a good part of a square, each half's own fits it; both halves' maps agree on the fold
    line. Folded by 0 degrees the crossings are one plane (it replaces the style's own slight hinge)."""
    assert STYLE not in BLIND_STYLES
    flat = np.array(render(STYLE, 900, fold_degrees=0.0).crossings, np.float64)
    folded = np.array(render(STYLE, 900, fold_degrees=-10).crossings, np.float64)
    for pts, one_plane in ((flat, True), (folded, False)):
        left = [(c, r) for r in range(16) for c in range(8)]
        h, _ = cv2.findHomography(np.array(left, np.float32), np.array([pts[r, c] for c, r in left], np.float32))
        right = np.array([(c, r) for r in range(16) for c in range(8, 16)], np.float64)
        pred = gridlines.apply_homography(np.asarray(h, np.float64), right)
        square = float(np.mean(np.linalg.norm(np.diff(pts, axis=1), axis=2)))
        miss = np.linalg.norm(pred - np.array([pts[r, c] for c, r in right.astype(int)]), axis=1).max() / square
        assert (miss < 0.02) if one_plane else (miss > 0.3), miss


@pytest.mark.parametrize("degrees", [10, -10, 15])
def test_the_grid_is_fitted_per_half_where_one_plane_misses(degrees: float, one_plane: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    case = render(STYLE, 900, fold_degrees=degrees)
    before = locate.locate_grid(case.image)
    assert before.fold is None and _offsets(before, case.crossings).max() > 0.25  # (measured 0.30-0.85)
    monkeypatch.undo()
    found = locate.locate_grid(case.image)
    assert found.fold is not None and "fold" in found.method and not found.doubtful
    assert _offsets(found, case.crossings).max() < 0.15
    # the net's ends are the corners, named as the photo shows them
    net = np.asarray(found.fold)
    assert np.allclose(net[[0, 0, 2, 2], [0, 2, 2, 0]], found.corners, atol=1e-3)


def test_a_flat_board_stays_one_plane() -> None:
    for seed in (900, 901):
        found = locate.locate_grid(render(STYLE, seed, fold_degrees=0.0).image)
        assert found.fold is None and "fold" not in found.method


@pytest.mark.parametrize(("degrees", "seed"), [(25, 900), (-20, 902)])
def test_a_grid_found_on_one_half_finds_the_other(degrees: float, seed: int, one_plane: None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Folded steeply, one half's outline (lit apart from the other) was taken for the board: a grid half a
    board wide beside the fold. The locator now looks across the fold for the rest of the board."""
    case = render(STYLE, seed, fold_degrees=degrees)
    before = locate.locate_grid(case.image)
    assert _offsets(before, case.crossings).max() > 5  # one half's 7.5 columns taken for all 15
    monkeypatch.undo()
    found = locate.locate_grid(case.image)
    assert "other half" in found.method and found.fold is not None and not found.doubtful
    assert _offsets(found, case.crossings).max() < 0.15


def test_the_reader_reads_a_board_found_half_and_is_never_sure_when_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read with one plane, the board folded 25 degrees a side was read from one half: 23 squares wrong at
    full confidence and the photo not even doubtful. Per half it reads whole."""
    case = render(STYLE, 900, fold_degrees=25)
    occupancy, right, letters, sure_wrong, _ = _figures(case.image, case.grid)
    assert (occupancy, right, sure_wrong) == (225, letters, 0)
    monkeypatch.setattr(fold, "FOLD_SUSPECT", float("inf"))
    monkeypatch.setattr(fold, "half_boards", lambda img, h: [])
    occupancy, right, letters, sure_wrong, doubtful = _figures(case.image, case.grid)
    assert right < letters / 2 and sure_wrong > 0 and not doubtful


def test_a_folded_board_photographed_from_the_side_reads_turned() -> None:
    """Photographed a quarter turn round, the reader names the corners from the side the letters stand upright
    on: the net turns with them, and each half is still straightened by its own map."""
    case = render(STYLE, 900, fold_degrees=-15)
    turned = np.ascontiguousarray(np.rot90(case.image))
    assert locate.locate_grid(turned).fold is not None
    occupancy, right, letters, sure_wrong, _ = _figures(turned, case.grid)
    assert (occupancy, right, sure_wrong) == (225, letters, 0)


def test_fold_warp_of_one_plane_is_warp_grid() -> None:
    """A net whose quarters are one plane straightens as the corners alone do: 15x15 squares (and the margin)
    the same size, the same pixels but for rounding at the quarters' seams."""
    case = render(STYLE, 901)
    corners = np.array(case.corners, np.float64)
    h = cv2.getPerspectiveTransform(np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32),
                                    corners.astype(np.float32))
    net = gridlines.apply_homography(np.asarray(h, np.float64), np.array([[u, v] for v in fold.NET for u in fold.NET]))
    a = fold.fold_warp(case.image, net.reshape(3, 3, 2), 48, 0.5)
    b = locate.warp_grid(case.image, corners, 48, 0.5)
    assert a.shape == b.shape == (16 * 48, 16 * 48, 3)
    assert np.percentile(np.abs(a.astype(int) - b.astype(int)), 99) <= 2
