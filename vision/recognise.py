"""Letter recognisers behind one interface, and the policy that combines them.

`LetterRecogniser.classify(crops)` returns one `(letter, confidence)` per tile crop, `?` meaning a blank
tile. Two implementations:
- `MlpRecogniser` (primary, numpy only, runs on phones): a small network over glyph-shape features,
  trained by `vision/train.py` on rendered fonts and labelled photos (weights in `assets/vision/`).
- `TesseractRecogniser` (second opinion where a Tesseract binary exists): single-character OCR of
  the same glyph, asked only about tiles the primary is unsure of, because each call costs ~0.3 s.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.cells import U8, Glyph, glyph_features
from vision.mlp import Mlp

LETTERS_ASSET = Path(__file__).resolve().parents[1] / "assets" / "vision" / "letters.npz"
BLANK = "?"
NOT_A_LETTER = "."  # the network's class for premium print, the star and other marks on empty squares
ATYPICAL_MIX = 0.2  # share of the uniform mixed into a glyph unlike its letter's examples (max stays < 0.85)
# Letters whose middle is empty. Ink in the middle 6x6 of the 24x24 glyph: real O's of every labelled set
# <= 0.02 (99th percentile; one 0.6 in umich); cava's joker face 0.52-0.57.
HOLLOW = {"O"}
HOLE = slice(9, 15)
HOLE_INK_AT_MOST = 0.25


@dataclass(frozen=True)
class TileCrop:
    """What a recogniser may look at for one tile: the 1.5-square grey window and the glyph found in it."""

    window: U8
    glyph: Glyph | None


class LetterRecogniser(Protocol):
    name: str

    def classify(self, crops: Sequence[TileCrop]) -> list[tuple[str, float]]:
        """One (letter, confidence 0..1) per crop; `?` for a blank tile."""
        ...


class MlpRecogniser:
    """Primary recogniser: glyph features -> small MLP -> letter, limited to the tile set's letters."""

    name = "mlp"

    def __init__(self, net: Mlp, allowed: Iterable[str] | None = None) -> None:
        self.net = net
        allowed_set = set(allowed) if allowed is not None else set(net.classes)
        allowed_set.update((BLANK, NOT_A_LETTER))
        self.mask = np.array([c in allowed_set for c in net.classes], bool)

    @classmethod
    def load(cls, allowed: Iterable[str] | None = None, path: Path = LETTERS_ASSET) -> MlpRecogniser:
        return cls(Mlp.load(path), allowed)

    def probabilities(self, crops: Sequence[TileCrop]) -> np.ndarray:
        """(n, classes) probabilities; crops without a glyph get all mass on the blank."""
        out = np.zeros((len(crops), len(self.net.classes)), np.float32)
        with_glyph = [i for i, c in enumerate(crops) if c.glyph is not None]
        if with_glyph:
            imgs = np.array([crops[i].glyph.image for i in with_glyph], np.float32)  # type: ignore[union-attr]
            feats = glyph_features(imgs)
            p = self.net.predict_proba(feats)
            p = p * self.mask
            p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-9)
            out[with_glyph] = self._doubt_atypical(imgs, feats, p)
        blank = self.net.classes.index(BLANK)
        for i, c in enumerate(crops):
            if c.glyph is None:
                out[i, blank] = 1.0
        return out

    def _doubt_atypical(self, images: np.ndarray, feats: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Probabilities flattened for glyphs unlike every training example of the letter they are read as.

        A network is sure about shapes it never saw (cava's clown-faced joker reads as O with 0.99 when no
        joker was in training): the glyph is compared with the stored examples of its letter
        (`shape_protos`, in the network's input units), and one farther from all of them than
        `shape_limit` of that letter (0.7 of the 99th percentile of training glyphs' distances,
        `vision.train.SHAPE_SLACK`) is mixed with the uniform distribution, so it is never read sure. An O
        with ink in its middle is no O (that joker is a circle with a face in it) and is treated the same.
        """
        protos, proto_class, limit = (self.net.extras.get(k) for k in ("shape_protos", "shape_class", "shape_limit"))
        if protos is None or proto_class is None or limit is None:
            return p
        x = self.net.standardise(feats)
        best = p.argmax(axis=1)
        out = p.copy()
        allowed = self.mask.astype(np.float32) / max(int(self.mask.sum()), 1)
        for i, k in enumerate(best):
            if self.net.classes[k] in HOLLOW and float(images[i][HOLE, HOLE].mean()) > HOLE_INK_AT_MOST:
                out[i] = (1 - ATYPICAL_MIX) * p[i] + ATYPICAL_MIX * allowed
                continue
            mine = protos[proto_class == k].astype(np.float32)
            if not len(mine):
                continue
            d = float(np.sqrt(((mine - x[i]) ** 2).sum(axis=1)).min())
            if d > float(limit[k]):
                out[i] = (1 - ATYPICAL_MIX) * p[i] + ATYPICAL_MIX * allowed
        return out

    def not_letter(self, probs: np.ndarray) -> np.ndarray:
        """P(the mark is not a tile's letter) per row of `probabilities` (0 for older models)."""
        if NOT_A_LETTER not in self.net.classes:
            return np.zeros(len(probs), np.float32)
        return probs[:, self.net.classes.index(NOT_A_LETTER)].copy()

    def letter_probabilities(self, crops: Sequence[TileCrop]) -> np.ndarray:
        """Probabilities over letters and the blank only (the square is known to hold a tile)."""
        return self.letters_only(self.probabilities(crops))

    def letters_only(self, probs: np.ndarray) -> np.ndarray:
        """`probabilities` rows with the not-a-letter share removed and the rest renormalised."""
        p = probs.copy()
        if NOT_A_LETTER in self.net.classes:
            p[:, self.net.classes.index(NOT_A_LETTER)] = 0.0
            p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-9)
        return p

    def classify(self, crops: Sequence[TileCrop]) -> list[tuple[str, float]]:
        p = self.letter_probabilities(crops)
        return [(self.net.classes[int(k)], float(p[i, k])) for i, k in enumerate(p.argmax(axis=1))]


class TesseractRecogniser:
    """Second opinion: Tesseract's single-character mode on the isolated glyph, letters only."""

    name = "tesseract"

    def __init__(self, allowed: Iterable[str] | None = None) -> None:
        letters = sorted(set(allowed or "ABCDEFGHIJKLMNOPQRSTUVWXYZ") - {BLANK})
        self.config = f"--psm 10 --oem 1 -c tessedit_char_whitelist={''.join(letters)}"

    @staticmethod
    def available() -> bool:
        if shutil.which("tesseract") is None:
            return False
        try:
            import pytesseract  # noqa: F401
        except ImportError:
            return False
        return True

    def _image(self, crop: TileCrop) -> U8:
        if crop.glyph is None:
            return np.full((64, 64), 255, np.uint8)
        g = cv2.resize(crop.glyph.image, (64, 64), interpolation=cv2.INTER_LINEAR)
        img = (255 - np.clip(g * 255, 0, 255)).astype(np.uint8)
        return cv2.copyMakeBorder(img, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)

    def classify(self, crops: Sequence[TileCrop]) -> list[tuple[str, float]]:
        import pytesseract

        os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # 2-core machines: one thread per call is faster
        out: list[tuple[str, float]] = []
        for crop in crops:
            if crop.glyph is None:
                out.append((BLANK, 0.5))
                continue
            data = pytesseract.image_to_data(self._image(crop), config=self.config,
                                             output_type=pytesseract.Output.DICT)
            best = ("", -1.0)
            for text, conf in zip(data["text"], data["conf"], strict=True):
                text = str(text).strip().upper()
                if len(text) == 1 and text.isalpha() and float(conf) > best[1]:
                    best = (text, float(conf))
            out.append((best[0] or BLANK, max(best[1], 0.0) / 100.0))
        return out
