"""Issue 27's conditions in the reader's training, and a render of each read by the shipped models.

The training renders (`vision.train.SYNTH_TRAIN_SEEDS`) span every trained style, the two styles of the second
blind round among them, with glare patches on premium squares and boards folded down the middle both ways
(`vision.train.train_conditions`); a folded training board is measured on its true grid, straightened per half
(`vision.train.fold_net`). Then one render of each condition of the issue, at seeds no model trained on, is read
with automatic corners by the shipped models: dark tiles with light letters (maroon, black, navy, green), thin
tall print, yellow tiles on a blue board, wooden tiles, a strong angle, warm and cold light, blanks plain and
printed in lower case, a board folded in the middle, glare on premium squares, a quarter turn. Each must read
at its floor, and no square may be wrong at a sure confidence. Renders only: runs in any clone.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision import orientation
from vision.confidence import SURE
from vision.fold import fold_points
from vision.read import read_board
from vision.synth import BLIND_STYLES, READ_BLIND_STYLES, STYLES, TRAINED_STYLES, render
from vision.train import (
    FOLDED_TRAIN_SEEDS,
    GLARE_TRAIN_SEEDS,
    SYNTH_TRAIN_SEEDS,
    TEST_SEED_FROM,
    _number_code,
    fold_net,
    train_conditions,
)


def test_training_renders_span_every_style_folds_both_ways_and_glare() -> None:
    unread = set(BLIND_STYLES) - set(READ_BLIND_STYLES)  # a blind style still to be read trains nothing
    assert set(READ_BLIND_STYLES) <= set(TRAINED_STYLES) == set(STYLES) - unread  # burnt_wood, navy_condensed train now
    conditions = [train_conditions(style, seed) for style in TRAINED_STYLES for seed in SYNTH_TRAIN_SEEDS]
    folds = [fold for fold, _ in conditions if fold is not None]
    assert len(folds) == len(TRAINED_STYLES) * len(FOLDED_TRAIN_SEEDS)
    assert min(folds) < -10 and max(folds) > 10 and min(abs(f) for f in folds) >= 4  # valleys and ridges
    assert sum(glare for _, glare in conditions) == len(TRAINED_STYLES) * len(GLARE_TRAIN_SEEDS)
    # the renders the benchmarks and tests read are as they were: no fold, no added glare
    assert all(train_conditions(style, seed) == (None, False) for style in STYLES
               for seed in range(TEST_SEED_FROM, TEST_SEED_FROM + 30))


def test_a_folded_training_board_is_straightened_on_its_true_grid() -> None:
    """`fold_net` turns a folded render's true line crossings into the reader's 3x3 net; the net's quarters put
    every crossing where the render drew it (the two halves are two planes: one plane through the corners
    misses the middle of a board folded 15 degrees by several pixels)."""
    case = render("crossword_yellow", TEST_SEED_FROM + 7, fold_degrees=15.0)
    assert case.crossings is not None
    truth = np.asarray(case.crossings, np.float64).reshape(-1, 2)
    uv = np.stack(np.meshgrid(np.arange(16), np.arange(16)), axis=-1).reshape(-1, 2).astype(np.float64)
    per_half = fold_points(fold_net(case.crossings), uv)  # column lines 0-7 on the left half, 8-15 the right
    assert np.abs(per_half - truth).max() < 0.1
    corners = np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32)
    one_plane = cv2.perspectiveTransform(uv.reshape(-1, 1, 2).astype(np.float32),
                                         cv2.getPerspectiveTransform(corners, np.asarray(case.corners, np.float32)))
    assert np.abs(one_plane.reshape(-1, 2) - truth).max() > 3.0


# (style, seed, render arguments, what the render shows). Seeds from TEST_SEED_FROM + 21, past those the
# benchmarks read (+0..+3) and test_vision_styles (+20); the varied draws named were checked by replaying the
# render's own generator (`render(..., varied=True)`: blanks, angle, light, turn).
CASES: list[tuple[str, int, dict[str, Any], str]] = [
    ("maroon_tiles", 504, {"varied": True}, "maroon tiles, a plain and a lower-case blank, steep, warm light"),
    ("maroon_tiles", 511, {"varied": True}, "maroon tiles, cold light, a half turn"),
    ("black_tiles", 527, {"varied": True}, "black tiles, cold light, a quarter turn"),
    ("navy_tiles", 514, {"varied": True}, "navy tiles, a plain and a lower-case blank, cold light, a quarter turn"),
    ("green_tiles", 505, {"varied": True}, "green tiles, two lower-case blanks, steep, cold light, a quarter turn"),
    ("crossword_yellow", 527, {"varied": True}, "yellow tiles, thin tall print, steep, cold light, a quarter turn"),
    ("crossword_yellow", 514, {"varied": True}, "yellow tiles, thin tall print, blue board, steep, cold light"),
    ("crossword_yellow", 525, {"fold_degrees": 12.0}, "the Crossword board folded 12 degrees a side (valley)"),
    ("pale_wood", 521, {"fold_degrees": -15.0}, "wooden tiles on a board folded 15 degrees (ridge)"),
    ("thin_tall", 523, {"premium_glare": True}, "thin tall print, glare on premium squares"),
    ("black_condensed", 524, {"premium_glare": True}, "black tiles, condensed print, glare on premium squares"),
    ("burnt_wood", 521, {"varied": True}, "wooden tiles, burnt serif print, warm lamp"),
    ("navy_condensed", 521, {"varied": True}, "navy tiles, condensed light print, a strong angle"),
]
# Floors under what the shipped models read on these renders; the rest read at the default floors (occupancy
# 0.99, letters 0.97). crossword_yellow 527 is photographed a quarter turn round, and its tall thin letters
# lying on their side are not taken for tiles (the reader judges occupancy before it knows the turn,
# vision/stages.py): it is read nearly empty (178-180 of 225 squares right with main's models and with the
# retrained ones) and must then be doubtful, every square asked. What it guards is that line: an occupancy
# network retrained on issue 27's renders read it with no doubt raised, 45 squares wrong at 1.00.
MIN_OCCUPANCY: dict[tuple[str, int], float] = {("crossword_yellow", 527): 0.0}
MIN_LETTERS: dict[tuple[str, int], float] = {("crossword_yellow", 527): 0.0}


@pytest.mark.parametrize(("style", "seed", "kwargs", "shows"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_render_of_each_condition_reads_and_is_never_sure_when_wrong(
        style: str, seed: int, kwargs: dict[str, Any], shows: str) -> None:
    case = render(style, seed, **kwargs)
    reading = read_board(case.image, tiles="en", second_opinion=False)
    occ_ok = let_ok = let_n = 0
    for r in range(15):
        for c in range(15):
            truth, got = case.grid[r][c], reading.grid[r][c]
            blank = truth == "?" or truth.islower()
            occ_ok += (truth == ".") == (got == ".")
            if truth.isupper():
                let_n += 1
                let_ok += truth == got
            right = got == truth or (blank and got == "?")
            assert right or reading.confidence[r][c] < SURE, (shows, r, c, truth, got, reading.confidence[r][c])
    assert occ_ok / 225 >= MIN_OCCUPANCY.get((style, seed), 0.99), (shows, reading.grid)
    assert let_ok / let_n >= MIN_LETTERS.get((style, seed), 0.97), (shows, let_ok, let_n, reading.grid)


def test_a_change_to_where_a_number_stands_retrains_the_point_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    # `vision.points.number_patch` cuts a number by vision.orientation's bounds (NUMBER_FOOT, NUMBER_GAP, ...): the
    # point readers' cache keys must follow them, or a held-out table read after such a change would use point
    # readers trained on numbers cut the old way.
    before = _number_code()
    monkeypatch.setattr(orientation, "NUMBER_FOOT", (orientation.NUMBER_FOOT[0], orientation.NUMBER_FOOT[1] + 0.04))
    assert _number_code() != before
    monkeypatch.undo()
    assert _number_code() == before
