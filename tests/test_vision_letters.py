"""The letter network's training letters and glyph features, on real photos of a set it never saw.

The leave-one-set-out figures are `benchmarks/vision_styles.py`'s; these pin the single causes behind them
on real tiles, with a network trained on rendered letters alone (`vision.train.synthetic_glyphs`: no photo).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.conftest import shared_path
from vision.cells import cell_window, glyph_features, warp_board
from vision.labelled import labelled_photos
from vision.mlp import Mlp
from vision.occupancy import measure
from vision.recognise import SPUR_AT_LEAST, letter_glyph, lower_right_spur
from vision.synth import render
from vision.train import CLASSES, synthetic_glyphs, train_letters, wide_ensemble


def _letter_images(set_name: str, stems: tuple[str, ...], letter: str) -> np.ndarray:
    """The glyphs the letter network reads on the tiles labelled `letter` of some photos (labelled corners)."""
    photos = {p.stem: p for p in labelled_photos(set_name)}
    images = []
    for stem in stems:
        shared_path("boards", set_name, f"{stem}.json")
        photo = photos[stem]
        warped = warp_board(cv2.imread(str(photo.image)), photo.corners)
        look = measure(warped)
        gray = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
        for r in range(15):
            for c in range(15):
                glyph = look.glyphs[r][c]
                if photo.grid[r][c] == letter and glyph is not None:
                    images.append(letter_glyph(cell_window(gray, r, c, 1.5), glyph).image)
    return np.array(images, np.float32)


@pytest.mark.slow
def test_renders_teach_an_i_whose_number_touches_its_foot() -> None:
    """umich's wooden I's carry their 1 against the stem's foot: one blob of ink, which looks like an L's
    foot, so no cut can take it off. The rendered letters draw a narrow letter's number touching it in a
    share of renders (`vision.train.NARROW_TOUCH_SHARE`); a network trained on renders alone, which never
    saw umich, reads most of the ten I's of rectified_w7 and rectified_w8 as I (8 of 10 measured; with
    NARROW_TOUCH_SHARE 0, 1 of 10: the rest read L or U)."""
    images = _letter_images("umich_kwwangkw", ("rectified_w7", "rectified_w8"), "I")
    assert len(images) == 10
    net = train_letters([], synthetic_glyphs())
    p = net.predict_proba(glyph_features(images))
    got = [CLASSES[k] for k in p[:, :26].argmax(axis=1)]
    assert got.count("I") >= 7, got


@pytest.mark.slow
def test_renders_teach_a_bold_s_whose_openings_closed() -> None:
    """jheidel's bold S, blurred, closes its openings onto its spine and looks like an 8; left out, it was read
    B (the nearest training glyphs being umich's rounded B's). The rendered letters draw an S bolder in a
    share of renders (`vision.train.CLOSED_UP_SHARE`); a network trained on renders alone reads the ten S's
    of four jheidel photos as S (9 of 10 measured; with CLOSED_UP_SHARE 0, 5 of 10: the rest read B), and
    still reads umich's rounded B's as B (6 of 8 measured, 7 with CLOSED_UP_SHARE 0: worn ones read E)."""
    s_images = _letter_images("jheidel", ("IMG_20151016_165900", "IMG_20151016_170219", "IMG_20151016_170317",
                                          "IMG_20151016_170750"), "S")
    b_images = _letter_images("umich_kwwangkw", ("rectified_w14", "rectified_w7", "rectified_w10"), "B")
    assert (len(s_images), len(b_images)) == (10, 8)
    net = train_letters([], synthetic_glyphs())
    read = [[CLASSES[k] for k in net.predict_proba(glyph_features(im))[:, :26].argmax(axis=1)]
            for im in (s_images, b_images)]
    assert read[0].count("S") >= 8, read
    assert read[1].count("B") >= 6, read



def _rendered_glyphs() -> np.ndarray:
    """The glyphs the letter network reads on every tile of a board rendered in memory (`vision.synth`)."""
    case = render("worn_wood", 7)
    warped = warp_board(case.image, np.array(case.corners, np.float32))
    look, gray = measure(warped), cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    return np.array([letter_glyph(cell_window(gray, r, c, 1.5), look.glyphs[r][c]).image
                     for r in range(15) for c in range(15)
                     if case.grid[r][c] != "." and look.glyphs[r][c] is not None], np.float32)


def test_the_wide_network_reads_as_the_mean_of_its_members() -> None:
    """`vision.train.wide_ensemble`: the letter networks of several seeds run as one network whose logits are
    the mean of the members' (so the reader and the upright vote need no change), on the glyphs of a
    rendered board (any glyphs do: the claim is the arithmetic, not the reading)."""
    images = _rendered_glyphs()
    assert len(images) >= 10
    feats = glyph_features(images)
    rng = np.random.default_rng(0)
    mean, scale = feats.mean(axis=0), feats.std(axis=0) + 1e-3
    members = [Mlp(mean, scale, [rng.standard_normal((feats.shape[1], 8)).astype(np.float32),
                                 rng.standard_normal((8, len(CLASSES))).astype(np.float32)],
                   [rng.standard_normal(8).astype(np.float32), rng.standard_normal(len(CLASSES)).astype(np.float32)],
                   list(CLASSES)) for _ in range(3)]
    wide = wide_ensemble(members)
    assert wide.weights[0].shape == (feats.shape[1], 24)
    assert np.allclose(wide.logits(feats), np.mean([m.logits(feats) for m in members], axis=0), atol=1e-4)


def test_a_serif_g_has_a_spur_no_c_has() -> None:
    """radosz99_pl's thin serif G's (a bowl ending in an upright spur, no bar) were read C left out: their
    nearest training glyphs are umich's C's, whose lower serif looks like that spur. The recogniser reads a
    glyph the network calls C as G, unsure, when the right third of its lower half is inkier than its upper
    half's (`vision.recognise.lower_right_spur`): every G of two radosz photos is at SPUR_AT_LEAST or more,
    every C of umich's photos (their touching point numbers included) below it."""
    g = _letter_images("radosz99_pl", ("images_test", "resources_tests_test3"), "G")
    assert len(g) == 3
    assert min(lower_right_spur(im) for im in g) >= SPUR_AT_LEAST
    stems = tuple(p.stem for p in labelled_photos("umich_kwwangkw"))
    c = _letter_images("umich_kwwangkw", stems, "C")
    assert len(c) >= 100
    assert max(lower_right_spur(im) for im in c) < SPUR_AT_LEAST
