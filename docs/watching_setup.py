"""How high to stand the phone over the board, computed from a phone camera's field of view, and the
set-up diagram of docs/watching.md (docs/watching-setup.svg). Computed, not measured with a phone.

    python docs/watching_setup.py        # prints the figures and writes docs/watching-setup.svg

The camera looks straight down on the board's centre. A phone's main camera sees HFOV degrees across the
long side of its 4:3 picture (typical phones: ~65-75 degrees), so tan(short/2) = tan(HFOV/2) * 3/4 across
the short side. The board (BOARD_CM across) must fit the short side with a ring of table around it: the
watcher sees an arm reaching in over the board's edge before it covers a tile (vision/watch.py's RING),
so the board should span about FILL of the short side. The height that gives that is
    h = (BOARD_CM / FILL / 2) / tan(short / 2).
"""

from __future__ import annotations

import math
from pathlib import Path

BOARD_CM = 38.0  # a standard board across (its frame included)
HFOVS = (65.0, 70.0, 75.0)  # degrees across the picture's long side: typical phone main cameras
ASPECT = 4 / 3  # a phone photo's long side over its short side
FILL = 0.8  # the board across this share of the picture's short side: a ring of table stays in view
FRAME_PX = (1632, 1224)  # the 2 MP frames the watcher was measured on (benchmarks/watch.py)
OUT = Path(__file__).with_name("watching-setup.svg")


def short_fov(hfov: float) -> float:
    """Degrees across the picture's short side."""
    return math.degrees(2 * math.atan(math.tan(math.radians(hfov) / 2) / ASPECT))


def height_cm(hfov: float, fill: float = FILL) -> float:
    """Camera height above the board for the board to span `fill` of the short side."""
    return (BOARD_CM / fill / 2) / math.tan(math.radians(short_fov(hfov)) / 2)


def figures() -> list[str]:
    lines = [f"board {BOARD_CM:g} cm, 4:3 picture, camera straight down on the board's centre"]
    for hfov in HFOVS:
        lines.append(f"HFOV {hfov:g} deg (short side {short_fov(hfov):.1f} deg): board spans {FILL:.0%} of the "
                     f"short side at {height_cm(hfov):.0f} cm, fills it exactly at {height_cm(hfov, 1.0):.0f} cm, "
                     f"{60:d}% at {height_cm(hfov, 0.6):.0f} cm")
    lines.append(f"at {FILL:.0%} the board is {FRAME_PX[1] * FILL:.0f} px across in a {FRAME_PX[0]}x{FRAME_PX[1]} "
                 f"frame: about {FRAME_PX[1] * FILL / 15:.0f} px per square (a 15-square grid over the whole board)")
    return lines


def svg() -> str:
    low, high = height_cm(HFOVS[-1]), height_cm(HFOVS[0])
    mid_fov = short_fov(HFOVS[1])
    h = height_cm(HFOVS[1])
    s = 7.0  # px per cm in the side view
    ox, oy = 230, 420  # the board's centre on the table, side view
    half_view = h * math.tan(math.radians(mid_fov) / 2)
    cam = (ox, oy - h * s)
    out = [('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="470" viewBox="0 0 900 470" '
           'font-family="Roboto, Arial, sans-serif" font-size="13">'),
           '<rect width="900" height="470" fill="#ffffff"/>',
           '<text x="20" y="24" font-size="16" font-weight="bold">Side view</text>',
           '<text x="500" y="24" font-size="16" font-weight="bold">What the camera sees</text>',
           # table and board
           f'<line x1="20" y1="{oy}" x2="470" y2="{oy}" stroke="#6d4c41" stroke-width="3"/>',
           f'<text x="24" y="{oy + 18}" fill="#6d4c41">table</text>',
           (f'<rect x="{ox - BOARD_CM / 2 * s:.0f}" y="{oy - 8}" width="{BOARD_CM * s:.0f}" height="8" fill="#d7ccc8" '
           'stroke="#5d4037"/>'),
           f'<text x="{ox}" y="{oy + 18}" text-anchor="middle">board, {BOARD_CM:g} cm</text>',
           # the field of view
           (f'<polygon points="{cam[0]},{cam[1]} {ox - half_view * s:.0f},{oy} {ox + half_view * s:.0f},{oy}" '
           'fill="#bbdefb" fill-opacity="0.45" stroke="#1e88e5" stroke-dasharray="5,4"/>'),
           # the phone and its stand
           f'<rect x="{cam[0] - 34}" y="{cam[1] - 12}" width="68" height="10" rx="3" fill="#263238"/>',
           f'<text x="{cam[0] - 34}" y="{cam[1] - 20}">phone, camera facing down</text>',
           f'<line x1="{cam[0] + 34}" y1="{cam[1] - 7}" x2="440" y2="{cam[1] - 7}" stroke="#90a4ae" stroke-width="4"/>',
           f'<line x1="440" y1="{cam[1] - 7}" x2="440" y2="{oy}" stroke="#90a4ae" stroke-width="4"/>',
           f'<text x="446" y="{(cam[1] + oy) / 2 + 60:.0f}" fill="#607d8b">stand</text>',
           # the height, along the camera's axis (straight down)
           (f'<line x1="{ox}" y1="{cam[1]}" x2="{ox}" y2="{oy - 8}" stroke="#000" marker-start="url(#a)" '
           'marker-end="url(#a)"/>'),
           f'<text x="{ox + 8}" y="{(cam[1] + oy) / 2:.0f}">{low:.0f}-{high:.0f} cm above the board</text>',
           f'<text x="{ox + 8}" y="{(cam[1] + oy) / 2 + 16:.0f}" fill="#555">(computed), straight down</text>',
           # the lamp, from the side
           '<circle cx="60" cy="90" r="14" fill="#fff59d" stroke="#f9a825"/>',
           '<text x="40" y="62">lamp or window</text><text x="40" y="78">to the side</text>',
           f'<line x1="72" y1="100" x2="{ox - 60}" y2="{oy - 12}" stroke="#f9a825" stroke-dasharray="3,5"/>',
           f'<line x1="76" y1="96" x2="{ox + 20}" y2="{oy - 12}" stroke="#f9a825" stroke-dasharray="3,5"/>',
           ('<defs><marker id="a" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>')]
    # the camera's picture: 4:3, the board FILL of its short side, a ring of table around it
    fw, fh = 360, 270
    fx, fy = 510, 50
    side = fh * FILL
    bx, by = fx + (fw - side) / 2, fy + (fh - side) / 2
    out += [f'<rect x="{fx}" y="{fy}" width="{fw}" height="{fh}" fill="#a1887f" stroke="#000" stroke-width="2"/>',
            f'<rect x="{bx:.0f}" y="{by:.0f}" width="{side:.0f}" height="{side:.0f}" fill="#efebe9" stroke="#3e2723"/>']
    cell = side * 0.9 / 15
    gx, gy = bx + side * 0.05, by + side * 0.05
    for k in range(16):
        out.append(f'<line x1="{gx:.1f}" y1="{gy + k * cell:.1f}" x2="{gx + 15 * cell:.1f}" y2="{gy + k * cell:.1f}" '
                   'stroke="#bcaaa4" stroke-width="0.7"/>')
        out.append(f'<line x1="{gx + k * cell:.1f}" y1="{gy:.1f}" x2="{gx + k * cell:.1f}" y2="{gy + 15 * cell:.1f}" '
                   'stroke="#bcaaa4" stroke-width="0.7"/>')
    for k, ch in enumerate("HOTEL"):
        x, y = gx + (3 + k) * cell, gy + 7 * cell
        out.append(f'<rect x="{x + 0.5:.1f}" y="{y + 0.5:.1f}" width="{cell - 1:.1f}" height="{cell - 1:.1f}" '
                   'fill="#f5deb3" stroke="#8d6e63" stroke-width="0.5"/>')
        out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.75:.1f}" font-size="10" text-anchor="middle">'
                   f'{ch}</text>')
    out += [(f'<text x="{fx + fw / 2}" y="{fy + fh + 22}" text-anchor="middle">the whole board, about {FILL:.0%} of '
            'the picture\'s short side,</text>'),
            (f'<text x="{fx + fw / 2}" y="{fy + fh + 40}" text-anchor="middle">and a ring of table around it (an arm '
            'is seen reaching in)</text>'),
            (f'<text x="{fx + fw / 2}" y="{fy + fh + 64}" text-anchor="middle" fill="#555">no lamp reflection on the '
            'tiles, no shadow of the phone</text>'),
            (f'<text x="{fx + fw / 2}" y="{fy + fh + 82}" text-anchor="middle" fill="#555">camera HFOV '
            f'{HFOVS[0]:g}-{HFOVS[-1]:g} deg, board {BOARD_CM:g} cm: {low:.0f}-{high:.0f} cm high</text>'),
            '</svg>']
    return "\n".join(out) + "\n"


def main() -> int:
    for line in figures():
        print(line)
    OUT.write_text(svg(), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
