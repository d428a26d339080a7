"""The lettered tiles of a rendered board, cut as the reader cuts them: shared by the point-number tests."""

from __future__ import annotations

import cv2

from vision.cells import cell_window, warp_board
from vision.occupancy import measure
from vision.recognise import TileCrop
from vision.synth import render


def lettered_tiles(style: str, seed: int) -> tuple[list[str], list[TileCrop]]:
    """Every lettered tile of a render whose glyph the reader finds, with its letter (the render's own corners)."""
    case = render(style, seed)
    warped = warp_board(case.image, case.corners)
    look, gray = measure(warped), cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    letters, crops = [], []
    for r in range(15):
        for c in range(15):
            if case.grid[r][c].isupper() and look.glyphs[r][c] is not None:
                letters.append(case.grid[r][c])
                crops.append(TileCrop(cell_window(gray, r, c, 1.5), look.glyphs[r][c]))
    return letters, crops
