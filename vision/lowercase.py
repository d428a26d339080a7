"""Blank tiles printed with a lower-case letter: told from letter tiles, and read as the letter they stand for.

Some tile sets print the letter a blank stands for on it in lower case, with no point number (the renders draw
them, `vision.synth._with_blanks`; a board's label writes such a square lower case). The letter network
(`vision.recognise`) never saw a lower-case glyph (`vision.train` skips them) and reads one as the nearest
capital: an f as F (the play then scored with F's value), an i as I or H, an a as B.

This module owns a small separate network, the case reader (`assets/vision/lowercase.npz`, trained by
`python -m vision.lowercase`), trained only on letters rendered in `vision.synth.training_fonts()`
(`vision.synth.case_glyphs`), no photo: it is held out from every labelled set by construction, and from every
render's board (its glyphs are drawn one by one, on their own generator). It reads 52 classes, the capitals and
the lower-case letters, from the glyph the letter network reads and from how tall the glyph stands against the
median of the board's other letters: lower-case letters differ from capitals by their shape (a, b, d, e, g, h,
n, r, t) or mostly by their size (c, o, s, u, v, w, x, z stand at the x-height, about 0.7 of a capital).

`lower_case_blanks` takes a tile for a blank standing for a lower-case letter only where two readings agree:
the case reader reads it lower case, surely (`LOWER_FROM`), and the tile shows no point number (`vision.points`:
no piece stands where a number does), while the board's other tiles show theirs (`NUMBERS_SHOWN_FROM`). The
square then holds the lower-case letter (a blank, which scores 0), never sure (`vision.confidence.BLANK_AT_MOST`):
the table is asked, with the letter offered.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.cells import glyph_features, print_polarity
from vision.confidence import BLANK_AT_MOST
from vision.mlp import Mlp, train_mlp
from vision.recognise import TileCrop, letter_glyph
from vision.stages import EvidenceGrid, GridDraft, SeenSquares

ASSET = Path(__file__).resolve().parents[1] / "assets" / "vision" / "lowercase.npz"
F32 = npt.NDArray[np.float32]
LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
CLASSES = LETTERS + [ch.lower() for ch in LETTERS]
# A tile is read lower case when the case reader gives the lower-case letters together at least this much and
# its best class is one of them. Measured with the shipped letter models (docs/reader-lower.md): of 44 lower-case
# blanks in the test renders (seeds 500-509) of every trained style, 38 at >= 0.99 (the rest 0.90-0.98: an i, an
# l, an s); capitals without a number read lower case at >= 0.9: 7 of about 5000 render tiles (0.90-0.998) and
# 13 of 7965 labelled tiles (umich's W, X, E and I at 0.93-0.998, jheidel's at 0.91-0.999); at >= 0.99, 1 and 5.
LOWER_FROM = 0.99
# ... and the board shows its point numbers: at least this share of its other lettered tiles has a number found
# (a blank has none; where numbers go unread on most tiles, a missing one says nothing). Those 5 labelled capitals
# stood on boards showing 16-46% (jheidel 170032 and 170755, umich); the renders' lower-case blanks on boards
# showing 59-100%, but for the dark and the thin styles whose numbers go unread (crossword yellow, plum slab,
# walnut hairline: 7-16%; burnt wood 47%): those stay as the letter network reads them, never sure.
NUMBERS_SHOWN_FROM = 0.5
# Lower-case letters that differ from their capitals mostly in size (and an i, whose dot the glyph finder leaves
# off): read lower case only when the glyph stands at most this high against the board's letters (the x-height
# is about 0.7 of a capital). The renders' such blanks: 0.68-0.85; capitals read x, w or i without a number: X
# 0.88-0.96 and W 0.85 (umich), X 0.9 and I 0.86 (renders).
SIZE_ONLY = frozenset("cosuvwxzi")
X_HEIGHT_AT_MOST = 0.85
LETTERS_TO_COMPARE = 4  # the board's other lettered tiles needed to say how tall its letters stand
REFERENCE_TILES = 12  # tiles showing their number whose median height the board's letters stand at, at most
HIDDEN = (96,)
EPOCHS = 30


def case_inputs(images: F32, heights: npt.NDArray[np.float32]) -> F32:
    """The case reader's inputs: the letter network's glyph features and the glyph's height against the board's
    letters (as itself and its logarithm, so both small and large departures from 1 stand out)."""
    h = np.asarray(heights, np.float32).reshape(-1, 1)
    return np.concatenate([glyph_features(images), h, np.log(np.maximum(h, 1e-3))], axis=1).astype(np.float32)


class CaseReader:
    """The case reader: per glyph, probabilities over `CLASSES` (capitals, then lower-case letters)."""

    def __init__(self, net: Mlp) -> None:
        self.net = net
        self.lower = np.array([c.islower() for c in net.classes], bool)

    @classmethod
    def load(cls, path: Path = ASSET) -> CaseReader:
        return cls(Mlp.load(path))

    def probabilities(self, images: F32, heights: npt.NDArray[np.float32]) -> F32:
        return self.net.predict_proba(case_inputs(images, heights))

    def surely_lower(self, p: F32) -> npt.NDArray[np.bool_]:
        """Per row of `probabilities`: read lower case surely (the lower-case letters together at least
        LOWER_FROM, and the best class one of them)."""
        taken: npt.NDArray[np.bool_] = (p[:, self.lower].sum(axis=1) >= LOWER_FROM) & self.lower[p.argmax(axis=1)]
        return taken


def board_heights(crops: Sequence[TileCrop]) -> tuple[F32, npt.NDArray[np.float32]]:
    """The glyph images the letter network reads (`vision.recognise.letter_glyph`, in each tile's print polarity)
    and their heights in squares, for crops that all have a glyph."""
    polarity = print_polarity(np.array([c.window for c in crops]))
    found = [letter_glyph(c.window, c.glyph, int(v))  # type: ignore[arg-type]
             for c, v in zip(crops, polarity, strict=True)]
    images = np.array([g.image for g in found], np.float32)
    return images, np.array([g.height for g in found], np.float32)


def lower_case_letters(reader: CaseReader, crops: Sequence[TileCrop], has_number: Sequence[bool]) -> list[tuple[str, float] | None]:
    """Per crop (one board's lettered tiles, each with a glyph): the lower-case letter it is read as and the case
    reader's probability of it, or None (a capital, or not sure). `has_number`: whether a point number was found
    on each tile.

    Only tiles showing no number on a board whose other tiles show theirs are read (`NUMBERS_SHOWN_FROM`), each
    against the median height of up to REFERENCE_TILES of the tiles showing one (capitals: the case reader learns
    heights against its faces' capitals): ~3 ms a full board rather than ~25 for every tile."""
    out: list[tuple[str, float] | None] = [None] * len(crops)
    numbers = np.array(has_number, bool)
    if len(crops) <= LETTERS_TO_COMPARE:
        return out
    bare = [i for i in range(len(crops)) if not numbers[i] and np.delete(numbers, i).mean() >= NUMBERS_SHOWN_FROM]
    numbered = np.flatnonzero(numbers)
    if not bare or not len(numbered):
        return out
    sample = numbered[np.linspace(0, len(numbered) - 1, min(len(numbered), REFERENCE_TILES)).astype(int)]
    images, heights = board_heights([crops[i] for i in bare] + [crops[int(i)] for i in sample])
    relative = heights[:len(bare)] / max(float(np.median(heights[len(bare):])), 1e-3)
    p = reader.probabilities(images[:len(bare)], relative)
    taken = reader.surely_lower(p)
    best = p.argmax(axis=1)
    for k, i in enumerate(bare):
        letter = reader.net.classes[int(best[k])]
        if not taken[k]:
            continue
        if letter in SIZE_ONLY and relative[k] > X_HEIGHT_AT_MOST:
            continue
        out[i] = (letter, float(p[k, best[k]]))
    return out


@functools.lru_cache(maxsize=1)
def shipped_reader() -> CaseReader | None:
    """The shipped case reader, or None when its file is absent (then no tile is read lower case)."""
    return CaseReader.load() if ASSET.exists() else None


def read_lower_case_blanks(seen: SeenSquares, draft: GridDraft, evidence: EvidenceGrid,
                           reader: CaseReader | None = None) -> list[tuple[int, int]]:
    """The tiles of a reading that are blanks printed with a lower-case letter (`lower_case_letters`), written
    into `draft` in place: the lower-case letter, confidence P(tile) times the case reader's, at most
    `BLANK_AT_MOST` and at most the square's confidence before, decided by "lowercase", and nothing vouching
    for it (`evidence`: the point number and Tesseract vouch for a capital). Returns the squares changed."""
    reader = reader or shipped_reader()
    if reader is None:
        return []
    lettered = [i for i, (r, c) in enumerate(seen.tile_squares)
                if draft.grid[r][c].isupper() and seen.crops[i].glyph is not None]
    squares = [seen.tile_squares[i] for i in lettered]
    found = lower_case_letters(reader, [seen.crops[i] for i in lettered],
                               [evidence.number_found[r][c] for r, c in squares])
    changed = []
    for (r, c), got in zip(squares, found, strict=True):
        if got is None:
            continue
        letter, p = got
        draft.grid[r][c] = letter
        # The case reader names the letter; it does not make the square surer than the reading it replaces: on
        # umich (left out) three empty squares the letter network had read as C, C and A (0.04-0.74) read c, c
        # and m, and P(tile) x the case reader's would have raised them to 0.85-0.9.
        draft.confidence[r][c] = min(BLANK_AT_MOST, float(seen.occupancy[r, c]) * p, draft.confidence[r][c])
        draft.deciders[r][c] = "lowercase"
        evidence.tags[r][c] = ""
        changed.append((r, c))
    return changed


def train(per_font: int = 6, seed: int = 0) -> Mlp:
    """The case reader trained on `vision.synth.case_glyphs` (rendered letters only)."""
    from vision.synth import case_glyphs, training_fonts

    images, heights, labels = case_glyphs(per_font, seed)
    y = np.array([CLASSES.index(ch) for ch in labels], np.int64)
    net = train_mlp(case_inputs(images, heights), y, CLASSES, hidden=HIDDEN, epochs=EPOCHS, seed=seed)
    net.info = {"data": f"letters rendered in {len(training_fonts())} training fonts (vision.synth.case_glyphs), "
                        f"{per_font} per letter and face, no photo", "script": "python -m vision.lowercase"}
    return net


def check(net: Mlp, per_font: int = 2, seed: int = 1) -> dict[str, float]:
    """On a fresh draw of rendered glyphs (another seed): how often a capital is read lower case at `LOWER_FROM`,
    and a lower-case letter read as exactly itself."""
    from vision.synth import case_glyphs

    images, heights, labels = case_glyphs(per_font, seed)
    reader = CaseReader(net)
    p = reader.probabilities(images, heights)
    best = [net.classes[int(k)] for k in p.argmax(axis=1)]
    upper = np.array([ch.isupper() for ch in labels])
    taken = reader.surely_lower(p)
    right = np.array([b == ch for b, ch in zip(best, labels, strict=True)])
    return {"capitals": float(upper.sum()), "capitals read lower": float((taken & upper).sum()),
            "lower": float((~upper).sum()), "lower read right": float((taken & right & ~upper).sum())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Train the lower-case blank reader (assets/vision/lowercase.npz).")
    ap.add_argument("--per-font", type=int, default=6)
    ap.add_argument("--out", type=Path, default=ASSET)
    args = ap.parse_args(argv)
    net = train(args.per_font)
    net.save(args.out)
    figures = check(net)
    print(f"saved {args.out}; held-out draw: capitals read lower {figures['capitals read lower']:.0f}/"
          f"{figures['capitals']:.0f}, lower-case read right {figures['lower read right']:.0f}/{figures['lower']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
