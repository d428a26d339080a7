"""Draw the app's icons (home screen, favicon, loading picture) into this folder.

    python companion/ui/web/draw_icons.py

A cream letter tile, as on the game boards, with a bold R (referee) and its point value, on the app's
green (`companion.ui.theme.PRIMARY`). The "maskable" icons fill the square and keep the tile inside the
central 80% a phone may crop to a circle; the others have rounded corners on a transparent ground.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
GREEN = (0x20, 0x5E, 0x1B)  # BGR of #1B5E20
TILE = (0xB4, 0xE3, 0xF6)  # BGR of #F6E3B4 (theme.TILE_BG)
INK = (0x21, 0x21, 0x21)


def rounded(mask: np.ndarray, x0: int, y0: int, x1: int, y1: int, r: int) -> None:
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), 255, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), 255, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)


def draw(size: int, maskable: bool) -> np.ndarray:
    s = 4 * size  # drawn large, then shrunk: smooth edges
    img = np.zeros((s, s, 4), np.uint8)
    ground = np.zeros((s, s), np.uint8)
    if maskable:
        ground[:] = 255
    else:
        rounded(ground, 0, 0, s - 1, s - 1, s // 5)
    img[..., :3] = GREEN
    img[..., 3] = ground
    # The tile: 56% of the side in a maskable icon (inside its safe circle), 64% otherwise.
    side = int(s * (0.56 if maskable else 0.64))
    x0 = y0 = (s - side) // 2
    tile = np.zeros((s, s), np.uint8)
    rounded(tile, x0, y0, x0 + side, y0 + side, side // 8)
    img[tile > 0, :3] = TILE
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = side / 38
    thick = max(2, int(side / 14))
    (w, h), _ = cv2.getTextSize("R", font, scale, thick)
    cv2.putText(img, "R", (x0 + (side - w) // 2 - side // 20, y0 + (side + h) // 2), font, scale, (*INK, 255),
                thick, cv2.LINE_AA)
    small = scale / 3.2
    (w2, _), _ = cv2.getTextSize("1", font, small, max(1, thick // 3))
    cv2.putText(img, "1", (x0 + side - w2 - side // 10, y0 + side - side // 10), font, small, (*INK, 255),
                max(1, thick // 3), cv2.LINE_AA)
    return cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)


def main() -> None:
    for size in (192, 512):
        cv2.imwrite(str(HERE / f"icon-{size}.png"), draw(size, maskable=False))
        cv2.imwrite(str(HERE / f"icon-maskable-{size}.png"), draw(size, maskable=True))
    # iOS ignores the manifest's icons and masks its own corners: a full square.
    cv2.imwrite(str(HERE / "apple-touch-icon-192.png"), draw(192, maskable=True))
    cv2.imwrite(str(HERE / "loading-animation.png"), draw(192, maskable=False))


if __name__ == "__main__":
    main()
