"""Which side of the board is down, from the tiles' point numbers: a signal independent of the letter network.

A tile's point number is printed small at the lower right of its letter, its foot about level with the
letter's foot, on every tile set of the labelled photos (English wooden, plastic and Mattel tiles, the
Romanian cava_ro tiles; blanks carry none). Turned a quarter turn counter-clockwise the number stands
above the letter's right half; a half turn, left of its upper half; three quarters, below its left half.
`number_votes` counts, per turn, the tiles whose number stands where that turn puts it. It needs no trained
model, so it does not move when the letter network is retrained, and it costs a threshold and a
connected-components pass per tile window.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.cells import CELL, Glyph, dark_ink, ink_ratio
from vision.recognise import TileCrop

# The number, in squares (labelled photos straightened by their labelled corners: digits 0.08-0.21 high,
# 0.04-0.21 wide, 0.2-0.45 of their letter's height, their foot 0.0-0.2 below the letter's): 0.08-0.30 high
# (a "10" is two digits side by side: each counts), narrower than 0.4, standing (at least NUMBER_UPRIGHT
# times as high as wide) but not a bar (at most NUMBER_THIN times: a premium square's print seen sideways,
# thin bars, gave blurred jheidel 170755 ten false votes), at most NUMBER_SHORTER_THAN_LETTER of its
# letter's height; its left edge from 0.12 inside the letter's right edge to 0.25 beyond it; its foot
# NUMBER_FOOT from the letter's foot; its centre below the letter's middle.
NUMBER_HEIGHT = (0.08, 0.30)
NUMBER_WIDTH_AT_MOST = 0.4
NUMBER_UPRIGHT = 0.9  # a digit stands; a cava tile's dot, seen at an angle, lies
NUMBER_THIN = 4.5
NUMBER_SHORTER_THAN_LETTER = 0.55
NUMBER_GAP = (-0.12, 0.25)
NUMBER_FOOT = (-0.08, 0.22)
NUMBER_AREA_AT_LEAST = 0.003  # share of a square: a speck of grain or a dot of a cava tile is smaller
# The letter, as turned, at least LETTER_HEIGHT_AT_LEAST squares high (labelled letters: 0.4-0.65) and its
# number narrower than NUMBER_NARROWER of it: a premium square's words taken for a tile, read sideways, are
# narrow columns of small letters side by side like a letter and its number, of one width (jheidel's 2014
# board read a quarter turned: 8 such squares voted for a wrong turn, none now). A digit beside an I does
# not vote.
LETTER_HEIGHT_AT_LEAST = 0.3
NUMBER_NARROWER = 0.8


def _turn(u: float, v: float, w: float, h: float, k: int) -> tuple[float, float, float, float]:
    """A box (centre u, v; size w, h; x right, y down) as it stands after k counter-clockwise quarter turns."""
    for _ in range(k % 4):
        u, v, w, h = v, -u, h, w
    return u, v, w, h


def turned_points(points: npt.ArrayLike, width: int, height: int, k: int) -> npt.NDArray[np.float64]:
    """Pixel positions (x, y) in a width x height image as they stand after `np.rot90(image, k)`."""
    pts = np.array(points, np.float64).reshape(-1, 2)
    w, h = width, height
    for _ in range(k % 4):
        pts = np.stack([pts[:, 1], w - 1 - pts[:, 0]], axis=1)
        w, h = h, w
    return pts


def number_turns(crop: TileCrop, cell_px: int = CELL, ink_cut: float | None = None) -> list[int]:
    """The quarter turns (counter-clockwise, as `np.rot90`) under which a piece of this tile's print stands
    where a point number stands on an upright tile: usually one, none when no number is seen. `ink_cut`: the
    ink ratio under which a pixel is print (`HAIRLINE_NUMBER_CUT`); None, `dark_ink`'s own cut-off."""
    g: Glyph | None = crop.glyph
    if g is None:
        return []
    window = crop.window
    src = 255 - window if g.inverted else window
    mask = dark_ink(src, cell_px) if ink_cut is None else (ink_ratio(src, cell_px) < ink_cut).astype(np.uint8)
    n, _labels, stats, _centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 3:
        return []
    side = window.shape[0]
    c = side / 2.0
    gx, gy = c + g.dx * cell_px, c + g.dy * cell_px
    # the letter: the piece whose box centre is nearest the glyph's centre
    box_cx = stats[1:, 0] + stats[1:, 2] / 2.0
    box_cy = stats[1:, 1] + stats[1:, 3] / 2.0
    letter = 1 + int(np.argmin(np.hypot(box_cx - gx, box_cy - gy)))
    la, lb = stats[letter, 2] / 2.0 / cell_px, stats[letter, 3] / 2.0 / cell_px
    lx = (stats[letter, 0] + stats[letter, 2] / 2.0) / cell_px
    ly = (stats[letter, 1] + stats[letter, 3] / 2.0) / cell_px
    marks = []
    for i in range(1, n):
        x, y, w, h, area = (int(s) for s in stats[i])
        if i == letter or area < NUMBER_AREA_AT_LEAST * cell_px * cell_px:
            continue
        u0, v0 = (x + w / 2.0) / cell_px - lx, (y + h / 2.0) / cell_px - ly
        marks.append((u0, v0, w / cell_px, h / cell_px))
    found = []
    for u0, v0, w0, h0 in marks:
        for k in range(4):
            u, v, ww, hh = _turn(u0, v0, w0, h0, k)
            a, b = (lb, la) if k % 2 else (la, lb)
            if 2 * b < LETTER_HEIGHT_AT_LEAST or ww > NUMBER_NARROWER * 2 * a:
                continue
            if not (NUMBER_HEIGHT[0] <= hh <= NUMBER_HEIGHT[1] and ww <= NUMBER_WIDTH_AT_MOST
                    and NUMBER_UPRIGHT * ww <= hh <= NUMBER_THIN * ww and hh <= NUMBER_SHORTER_THAN_LETTER * 2 * b):
                continue
            if NUMBER_GAP[0] <= u - ww / 2 - a <= NUMBER_GAP[1] and NUMBER_FOOT[0] <= v + hh / 2 - b <= NUMBER_FOOT[1] and v > 0:
                found.append(k)
    return sorted(set(found))


# Hairline print (strokes a pixel or two wide at the reader's scale) loses its point numbers under `dark_ink`'s
# cut-off (Otsu's, 0.72-0.75 on such tiles): the thin digits' pixels are only a little darker than the tile in
# the print's polarity. Held-out walnut_hairline renders 500-503 (cream hairline sans on walnut), each looked at
# in its four turns (16 looks): `dark_ink` found 0-3 numbers a look (render 501: none in any look); with the
# cut-off at 0.86 (the loose end `loose_ink_cut` allows, as `stages.HAIRLINE_INK_CUT`), 5-29 a look, every one
# for the right turn and none for another; at 0.80, 1-17; at 0.90, 4-28 with one stray number. Counted at this
# cut-off only when `dark_ink` leaves no turn with AXIS_NUMBERS_AT_LEAST numbers, and taken only when they name
# a turn clearly alone (`numbers_turn`: at least 5, four times any other): a looser cut-off also finds wood
# grain and glare, which scatter over the turns.
HAIRLINE_NUMBER_CUT = 0.86


def number_votes(crops: Sequence[TileCrop], cell_px: int = CELL, ink_cut: float | None = None,
                 hairline: bool = True) -> npt.NDArray[np.int64]:
    """Per quarter turn k (counter-clockwise, as `np.rot90`), how many tiles show their point number where
    turning them k quarter turns puts an upright tile's number. A tile whose print fits more than one turn
    says nothing. `ink_cut` as in `number_turns`; with `hairline` (and `dark_ink`'s cut-off), numbers too thin
    for it are looked for again at HAIRLINE_NUMBER_CUT when it finds too few to say anything, and their votes
    are taken when they say a turn clearly."""
    votes = np.zeros(4, np.int64)
    for crop in crops:
        turns = number_turns(crop, cell_px, ink_cut)
        if len(turns) == 1:
            votes[turns[0]] += 1
    if hairline and ink_cut is None and int(votes.max()) < AXIS_NUMBERS_AT_LEAST:
        thin = number_votes(crops, cell_px, HAIRLINE_NUMBER_CUT, hairline=False)
        if numbers_turn(thin) is not None:
            return thin
    return votes


# The numbers say the turn alone when at least NUMBERS_AT_LEAST tiles agree and NUMBERS_OVER_OTHERS times as
# many as for any other turn. Labelled photos straightened by their labelled corners (all 173): the upright
# turn had 6-94 tiles (jheidel 170032, blurred: 6 against 1; 170755: 8 against 2; umich rectified_w7: 38
# against 6) and never fewer than another turn but on cava's alphabet photo litere_2 (2 against 3). Cava's
# tiles carry dots at their corners that can stand where a turned tile's number would, and their thin "1"
# is often lost: read turned, litere_2 gave 4 against 1 for a wrong turn, so 4 tiles are not enough alone.
NUMBERS_AT_LEAST = 5
NUMBERS_OVER_OTHERS = 4
# Fewer numbers (at least NUMBERS_WEAK tiles, WEAK_OVER_OTHERS times as many as any other turn) decide when
# the letters read their turn within LETTERS_AGAINST_AT_MOST of the letters' best: symmetric letters (O, S,
# N, Z, H, X...) read a half turn about as well, and the numbers tell which. Held-out letters: cava 1_09
# turned 270 degrees (letters 0.992 for the numbers' turn, 0.918 as photographed, short of UPRIGHT_MARGIN;
# numbers 3 against 1); jheidel 165522 (9 tiles; letters 0.900 upright, 0.907 upside down; numbers 4
# against 1), 165412 (5 tiles; 0.924 against 0.966; 3 against 0), 165401 turned 180 (3 against 1).
NUMBERS_WEAK = 3
WEAK_OVER_OTHERS = 2
# The letters alone are doubted when the numbers stand against their turn: another turn shown by at least
# NUMBERS_AGAINST tiles and more than the letters' turn. Held-out letters read jheidel 165412 (5 tiles)
# turned 90 degrees a wrong quarter turn 0.057 ahead of every other turn (sure), its numbers 2 for the
# right turn against 1.
NUMBERS_AGAINST = 2
# When the numbers say a turn, the letters may read another turn better by at most this much (mean
# confidence) and the numbers' turn is taken without doubt; more, and the two signals disagree: doubtful.
# Leave-one-set-out letter networks: blurred jheidel 170032's letters read a wrong turn 0.027 better, radosz
# test2's read the right turn 0.048 better than as photographed, short of the letters' own UPRIGHT_MARGIN.
LETTERS_AGAINST_AT_MOST = 0.05
# The letters alone (no clear numbers): a turn is taken when it reads UPRIGHT_MARGIN better than as
# photographed, with at most half the doubt; the reading is doubtful unless the turn taken reads better
# than every other turn by at least ORIENTATION_MARGIN (mean confidence). The vote's margins move with every
# retraining of the letter network. Leave-one-set-out models of this stop: photos read the wrong side up
# had another turn ahead by 0.027 (jheidel 170032, blurred) and 0.048 (radosz test2, not turned: the gain
# needed to turn is UPRIGHT_MARGIN); right-way photos with another turn ahead or level: jheidel 165412
# (5 tiles, +0.043), radosz 1632842381916 (0.000); with the previous models every other right-way photo of
# 106 had its turn ahead by 0.016 or more, but radosz 1632842381938 (+0.009). Those are asked about too.
UPRIGHT_MARGIN = 0.08
ORIENTATION_MARGIN = 0.01
# With no turn shown by AXIS_NUMBERS_AT_LEAST point numbers, the letters alone make the side sure only when
# the letters' shape says the same axis (`glyph_aspect` beyond ASPECT_CLEAR) and they read their turn at least
# LETTERS_ALONE_AHEAD better than every other turn; otherwise the reading is doubtful. On the 844 held-out
# readings of the orientation round (labelled photos and trained styles, each turned 0-3) every reading had 2
# numbers or more for some turn: none of them changes. What it catches is print the network has not learned,
# whose numbers go unfound: renders of navy condensed (a blind style, after its blind read) photographed a
# quarter turn round were read in a wrong turn, sure, by letters alone: seed 502 as photographed (letters
# 0.875, the next turn 0.849: 19 squares wrong at >= 0.98), 505 (0.961 against 0.945, and 0.963 against 0.936
# the other way round: 14 and 8), 503 (0.946, its shape level: 8). What it keeps sure: cava_ro's early boards,
# whose thin "1"s go unfound (1 number), letters 0.99-1.00 for their turn 0.056-0.33 ahead, shape +-0.21.
LETTERS_ALONE_AHEAD = 0.05
# And beside weak numbers on the shape's axis (`axis_turn`), letters that read no turn LETTERS_READ_WELL leave
# the turn doubtful (navy condensed 500 turned: two stray numbers, letters 0.875 at best, 17 squares wrong at
# >= 0.98); none of the 844 either.
LETTERS_READ_WELL = 0.9


def numbers_turn(votes: npt.NDArray[np.int64], at_least: int = NUMBERS_AT_LEAST,
                 over_others: int = NUMBERS_OVER_OTHERS) -> int | None:
    """The turn the point numbers say clearly (`NUMBERS_AT_LEAST`, `NUMBERS_OVER_OTHERS`), else None."""
    best = int(np.argmax(votes))
    others = max(int(votes[k]) for k in range(4) if k != best)
    if votes[best] >= at_least and votes[best] >= over_others * others:
        return best
    return None


def numbers_lean(votes: npt.NDArray[np.int64]) -> int | None:
    """The turn most point numbers stand for when at least AXIS_NUMBERS_AT_LEAST do and no other turn has as
    many, else None: too few to decide alone, enough to confirm a second look (`stages.upright_look`).

    Held-out plum_slab renders (cream slab print on plum tiles, shipped models) photographed a quarter turn round
    (504 turned 90 degrees): the first look's letters read as photographed 0.894, the right turn 0.866, and 2
    numbers for the right turn, 0 for any other: unclear; looked at a quarter turn round, 3 numbers and the
    letters name the same turn clearly. Two looks and the numbers of both agreeing."""
    best = int(np.argmax(votes))
    if votes[best] < AXIS_NUMBERS_AT_LEAST or any(votes[k] >= votes[best] for k in range(4) if k != best):
        return None
    return best


def upright_turn(letter_scores: Sequence[float] | None, votes: npt.NDArray[np.int64],
                 aspect: float | None = None) -> tuple[int, bool]:
    """How many counter-clockwise quarter turns make the board's letters upright, and whether that is
    unclear (the reading is then doubtful).

    `letter_scores`: the letter network's mean confidence over the tiles read turned 0-3 quarter turns
    (None when too few letters to vote); `votes`: `number_votes`. Clear numbers decide unless the letters
    clearly read another turn better; fewer numbers decide when the letters read their turn about as well;
    otherwise the letters decide as alone (doubted when the numbers stand against their turn), and with too few
    letters the board is read as photographed and nothing is said about its side. `aspect` (`glyph_aspect`,
    None when unknown) says on which axis the letters stand: `axis_turn` first, when the numbers and the
    glyphs' shape agree on a turn's axis.
    """
    by_numbers = numbers_turn(votes)
    if letter_scores is None:
        return (by_numbers, False) if by_numbers is not None else (0, False)
    scores = [float(s) for s in letter_scores]
    on_axis = axis_turn(scores, votes, aspect)
    if on_axis is not None:
        return on_axis
    best = int(np.argmax(scores))
    if by_numbers is not None:
        return by_numbers, scores[best] - scores[by_numbers] > LETTERS_AGAINST_AT_MOST
    weak = numbers_turn(votes, NUMBERS_WEAK, WEAK_OVER_OTHERS)
    if weak is not None and scores[best] - scores[weak] <= LETTERS_AGAINST_AT_MOST:
        return weak, False  # the letters read the numbers' turn about as well as any
    # Turn only when the turned reading is clearly better: at most half the doubt, and a real gain.
    if best == 0 or scores[best] - scores[0] < UPRIGHT_MARGIN or (1 - scores[best]) > 0.5 * (1 - scores[0]):
        best = 0
    against = max(int(votes[k]) for k in range(4) if k != best)
    close = max(scores[k] for k in range(4) if k != best) - scores[best] > -ORIENTATION_MARGIN
    ahead = scores[best] - max(scores[k] for k in range(4) if k != best)
    shaped = aspect is not None and abs(aspect) >= ASPECT_CLEAR and (best % 2 == 0) == (aspect > 0)
    unnumbered = int(votes.max()) < AXIS_NUMBERS_AT_LEAST and not (shaped and ahead >= LETTERS_ALONE_AHEAD)
    return best, close or unnumbered or (against >= NUMBERS_AGAINST and against > int(votes[best]))


# The glyphs' shape says the axis, but only beside the numbers. The median over a board of log(height / width)
# of the letters the glyph finder takes, as photographed, on held-out readings (models of main before this
# rule) of every labelled photo with 4 letters or more and 4 test renders of each trained style, each turned
# 0-3 (844 readings, this round's records): photos on the axis the letters stand on -0.03 to +0.39 (99% above
# +0.04), a quarter turn off -0.31 to +1.39 (jheidel and umich boards whose premium squares' print the
# finder takes lying on their side read positive); renders -0.05 to +0.64 and -0.50 to +0.09 (light print on
# maroon tiles and pale wood about 0 either way: the finder takes part of the tile). The shape alone decides
# nothing; with the numbers on its axis (`axis_turn`) it decided 570 of the 844 (440 of the 652 photos'),
# none wrongly.
ASPECT_CLEAR = 0.05
# On the axis the letters' shape and the numbers agree on, the numbers tell the two turns apart with fewer
# votes than alone (AXIS_NUMBERS_AT_LEAST, none for the half turn and at most as many for every other turn):
# a point number's corner is what tells a letter from the same letter upside down, which symmetric letters
# (O, S, N, Z, H, X...) and condensed print read sideways cannot.
AXIS_NUMBERS_AT_LEAST = 2


def glyph_aspect(crops: Sequence[TileCrop]) -> float | None:
    """The median over the tiles of log(height / width) of the letter found, as photographed: above 0 when
    the letters stand on the photo's axis (upright or upside down), below when they lie on their side; None
    under 4 letters."""
    sizes = [(c.glyph.height, c.glyph.width) for c in crops if c.glyph is not None and c.glyph.width > 0]
    if len(sizes) < 4:
        return None
    return float(np.median([np.log(h / w) for h, w in sizes]))


def axis_turn(scores: Sequence[float], votes: npt.NDArray[np.int64], aspect: float | None) -> tuple[int, bool] | None:
    """The turn and its doubt when the point numbers and the letters' shape agree on it, else None.

    The numbers name a turn (the most tiles, at least AXIS_NUMBERS_AT_LEAST, none for its half turn) on the
    axis the letters' shape says (`ASPECT_CLEAR`): that turn is taken. It is doubtful when the letters'
    network reads its half turn better by more than LETTERS_AGAINST_AT_MOST (which end is up: the numbers'
    corner against the letters), or, unless the numbers are clear alone, any other turn.
    """
    if aspect is None or abs(aspect) < ASPECT_CLEAR:
        return None
    turn = int(np.argmax(votes))
    if votes[turn] < AXIS_NUMBERS_AT_LEAST or votes[(turn + 2) % 4] > 0:
        return None
    if (turn % 2 == 0) != (aspect > 0):
        return None
    # Clear numbers (`numbers_turn`) and the shape outvote the letters' network on the axis; fewer numbers
    # do not: then a network reading another turn better makes the turn doubtful. On the axis, the half turn
    # read better always does (the numbers' corner against the letters' reading of which end is up).
    clear = numbers_turn(votes) is not None
    against = scores[(turn + 2) % 4] if clear else max(scores)
    unread = not clear and max(scores) < LETTERS_READ_WELL
    return turn, unread or against - scores[turn] > LETTERS_AGAINST_AT_MOST


def quarter_look_stands(first_aspect: float | None, quarter_aspect: float | None) -> bool:
    """Whether the letters stand in a look a quarter turn round (`glyph_aspect` at least ASPECT_CLEAR) but
    not in the first look (under ASPECT_CLEAR, or unknown): print lying on its side, which the first look
    cut into square pieces.

    `stages.upright_look` then takes a quarter look that says its side clearly and shows at least as many
    letters over a first look whose side is unclear, even when it shows fewer than twice as many (issue 27:
    held-out black tiles printed in a gold serif, render 502, photographed a quarter turn round: first look
    31 letters, shape -0.02, its side unclear (numbers 1, 1, 0, 1), so read as photographed and asked with
    0 of 38 letters right; a quarter round 37 letters, shape +0.15, numbers 6 against 0). A first look that
    stands upright keeps its shape on its axis (844 held-out orientation readings: 99% above +0.04) and
    keeps its look."""
    return (quarter_aspect is not None and quarter_aspect >= ASPECT_CLEAR
            and (first_aspect is None or first_aspect < ASPECT_CLEAR))
