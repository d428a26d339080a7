"""Issue 27, two readings against one unsure network: where the letter network is unsure of its letter and
nothing else vouches for it, Tesseract reading another letter clearly, a letter the network found plausible
and the point number does not rule out, decides the square (`vision.stages.tesseract_decides`), below sure.

The held-out case it comes from: plum_slab (a slab face no model trains on) read by models trained without
it, render 503 D2, an E read R at 0.68 with E at 0.06, Tesseract reading E at 0.93 and the nearest stored
example a B. The probabilities below are that square's, over the shipped letter network's classes; each rule of
the function is then broken once and the network's letter stands."""

from __future__ import annotations

import numpy as np
import pytest

from vision.confidence import SURE
from vision.evidence import TESSERACT_AGAINST
from vision.read import Models, _tileset
from vision.stages import tesseract_decides
from vision.words import PLAUSIBLE_FROM

TILES = _tileset("en")
CLASSES = Models.of(TILES, None, None).letters.net.classes


def probs(**p: float) -> np.ndarray:
    out = np.zeros(len(CLASSES), np.float32)
    for letter, value in p.items():
        out[CLASSES.index(letter)] = value
    return out


PLUM_503_D2 = probs(R=0.681, E=0.06, X=0.049, K=0.017, I=0.014)


def test_two_readings_against_one_unsure_network_decide_the_square_below_sure() -> None:
    told = tesseract_decides(PLUM_503_D2, CLASSES, "R", ("E", 0.93), "B", None, 0.681, TILES.values)
    assert told is not None
    letter, confidence = told
    assert letter == "E"
    assert confidence == pytest.approx(0.681, abs=1e-3) and confidence < SURE  # asked, never sure


def test_a_clear_number_that_agrees_with_tesseract_and_not_the_network_lets_it_decide() -> None:
    # the network's B is worth 3, the number reads 1: E's value
    assert tesseract_decides(probs(B=0.681, E=0.06), CLASSES, "B", ("E", 0.93), "", 1, 0.681,
                             TILES.values) == ("E", pytest.approx(0.681, abs=1e-3))


@pytest.mark.parametrize(("why", "read", "shape", "value", "confidence", "p"), [
    ("the network is sure of its letter", ("E", 0.93), "B", None, SURE, PLUM_503_D2),
    ("the nearest stored example vouches for the network's letter", ("E", 0.93), "R", None, 0.681, PLUM_503_D2),
    ("Tesseract is not clear", ("E", TESSERACT_AGAINST - 0.01), "B", None, 0.681, PLUM_503_D2),
    ("Tesseract reads the network's letter", ("R", 0.93), "B", None, 0.681, PLUM_503_D2),
    ("Tesseract reads no letter", ("?", 0.0), "B", None, 0.681, PLUM_503_D2),
    ("Tesseract was not asked", None, "B", None, 0.681, PLUM_503_D2),
    ("the number reads the network's letter's value (R and E are both 1)", ("E", 0.93), "B", 1, 0.681,
     PLUM_503_D2),
    ("the number reads against Tesseract's letter (Z is 10)", ("Z", 0.93), "B", 1, 0.681,
     probs(R=0.681, Z=0.2)),
    ("the network never found Tesseract's letter plausible", ("E", 0.93), "B", None, 0.681,
     probs(R=0.681, E=PLAUSIBLE_FROM / 2)),
])
def test_the_network_letter_stands_when_a_rule_of_tesseract_deciding_is_broken(
        why: str, read: tuple[str, float] | None, shape: str, value: int | None, confidence: float,
        p: np.ndarray) -> None:
    assert tesseract_decides(p, CLASSES, "R", read, shape, value, confidence, TILES.values) is None, why
