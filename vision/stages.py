"""The board reader's stages from a decoded photo to a grid of letters, each with its small result type.

`vision.read.read_board` drives them in this order:
1. `place_grid`: the four grid corners (given, or found by `vision.locate`), and a sharper decode when the
   board is small in a reduced one -> `GridPlace`;
2. `see_squares`: the board straightened, occupancy decided per square, and every tile's mark cut out and
   read by the letter network in one pass (squares judged empty whose mark is plainly a letter are rescued)
   -> `SeenSquares`;
3. `orientation`: whether the letters stand upright, or the board was photographed from another side
   -> `Orientation`; when turned, `turned_place` names the corners from the side the letters stand upright on
   and `see_squares` runs again;
4. `decide_letters`: each tile's letter, Tesseract's second opinion on the most doubtful few -> `Letters`;
5. `fill_grid`: the grid with confidences and who decided each tile -> `GridDraft`;
6. `letter_evidence_grid`: what vouches for each letter besides the network (point numbers, shapes, Tesseract).
What needs the game (the word list, the previous board, the move, the doubts) stays in `vision.read`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from companion.rules.tiles import TileSet
from vision import locate
from vision.cells import (
    CELL,
    FIRM_INK_CUT,
    MARGIN,
    SIZE,
    U8,
    Glyph,
    _find_glyph,  # the finder in one polarity (a light letter looked for first where no dark mark was measured)
    _glyph_in_mask,  # the finder's own blob choice, on the looser mask of faint print (cells.py is the
    cell_window,  # training cache's key: the faint look lives here, where only reading uses it)
    dark_centre,
    find_glyph,
    glyph_features,
    ink_ratio,
    letter_in_window,
    normalise_glyph,
    print_polarity,
    warp_board,
)
from vision.confidence import LETTER_TALL, SURE
from vision.decode import Photo
from vision.errors import NoBoardFound
from vision.evidence import TESSERACT_AGAINST, letter_evidence
from vision.fold import fold_warp
from vision.mlp import Mlp
from vision.occupancy import (
    BLANK_NEAR_RAISED,
    BLANK_SPREAD_AT_MOST,
    BLANK_STRONG_ODD_FROM,
    BLANK_TILE_Z_AT_MOST,
    EDGE_OFF,
    EDGE_WIDTH,
    FEATURES,
    PLAIN_AT_MOST,
    LettersAt,
    OccupancyModel,
    SquareLook,
    letter_offset_near,
    measure,
    where_letters_sit,
)
from vision.occupancy import _centred as centred  # the occupancy model's own test of a letter-sized mark
from vision.orientation import (
    AXIS_NUMBERS_AT_LEAST,
    glyph_aspect,
    number_votes,
    numbers_lean,
    numbers_turn,
    quarter_look_stands,
    upright_turn,
)
from vision.points import ASSET as POINTS_ASSET
from vision.points import PointReader, from_extras
from vision.recognise import (
    BLANK,
    FRAME_SIZE,
    MlpRecogniser,
    TesseractRecogniser,
    TileCrop,
    letter_glyph,
    tile_letter,
    without_point_number,
)
from vision.words import PLAUSIBLE_FROM

F32 = npt.NDArray[np.float32]

# Above this many pixels along the board's side the photo is shrunk before warping: the straightened
# board is only 15 * CELL pixels, and shrinking first both saves time and avoids aliasing.
_MAX_BOARD_PX = 2 * 16 * CELL
SECOND_OPINION_BELOW = 0.6  # primary confidence under which Tesseract is asked, when installed
SECOND_OPINION_MAX = 6  # tiles per photo at most: each Tesseract call costs ~0.15-0.3 s
# A square judged occupied is left empty when the letter network calls its mark "not a letter" (premium
# print, the centre star, a neighbour's edge) with more than this probability, unless the square's look
# alone made it near certain (held-out umich occupancy 99.28% -> 99.44%, nothing else changed).
NOT_LETTER_ABOVE = 0.6
OCCUPIED_SURE = 0.95
# A square the occupancy model judged empty is a tile after all when its centred mark is plainly a letter:
# the letter network gives one letter >= RESCUE_LETTER_FROM and "not a letter" <= RESCUE_NOT_LETTER_AT_MOST.
# Leave-one-set-out (benchmarks/vision_styles.py), squares judged empty with a centred mark: the tiles the
# occupancy model missed on umich's dim boards read 0.98-1.00 with not-a-letter <= 0.015 (9 of 13); of
# 130 empty ones (cava's fold line, the star, premium print, umich's hearts) none read above 0.81 or under
# 0.007. Such a tile is never sure: its occupancy is RESCUED_OCCUPANCY.
RESCUE_LETTER_FROM = 0.95
RESCUE_NOT_LETTER_AT_MOST = 0.02
RESCUED_OCCUPANCY = 0.9
# A tile's mark at least this wide or tall (in squares) is no letter (labelled letters: 0.78 at most, the frame
# size `FRAME_SIZE` 0.75): when it is also off the square's centre, the tile's letter is looked for again with that
# mark set aside (`_read_squares`, read as a faint look is). Crossword_yellow 514 H6, a rigid tile lying across the
# fold, carried by the upper half 0.27 of a square off the grid fitted there: the dark board beside it, 0.94 x 0.73,
# was taken for its mark and read Q at 0.37 (the network calling it not a letter at 1.00); set aside, its H reads at
# 1.00. The mark is set aside only when the network calls it not a letter (> NOT_LETTER_ABOVE): set aside whatever
# the network said, it changed no letter of the held-out table (rules of a8e1aa8), but the watch browser test of the
# clock tap (tests/test_ui_browser_watch.py, a flat cream board at 640 x 480, tiles about 20 px) then failed 4 times
# in 5 (3 of 3 passed without the rule), its second move never proposed in the app; the frames the app read, saved
# and replayed offline through the same watcher, propose it with the rule or without (saving re-encodes them), so
# which reading changed is not known.
NO_LETTER_FROM = 0.85
# On a square whose look is plainly a tile's (`OccupancyModel.unlettered_tiles`), the look, not the mark, says a tile
# is there: its centred mark is its letter when the network calls it more likely a letter than not ("not a letter"
# under one half), never sure. The rescue of any other square asks "not a letter" <= RESCUE_NOT_LETTER_AT_MOST,
# which a letter in a face the network never saw misses: held-out plum_slab 501 C8, a slab I on a plum tile
# (P(tile) 1.00, z_to_empty 4.0), read I at 0.64, "not a letter" 0.022; walnut_hairline 501 J11, a hairline I on a
# walnut tile (P(tile) 1.00), read I at 0.80, "not a letter" 0.29: both read empty at 0.55.
UNLETTERED_NOT_LETTER_AT_MOST = 0.5
# Squares: how far a mark may sit from where the tiles around show their letters. A tile's mark further off, that the
# network does not read plainly, is looked past for a letter within it, taken when the network reads that plainly (as
# a faint look is): held-out sand_bookman_steep 502 D6, seen from a seat, the tile's shadowed lower and right sides
# (0.52 x 0.69 of a square, 0.22 below where the letters around sit) were its mark, read G at 0.77; looked past, its
# A reads at 1.00, its number 1 and nearest stored example agreeing. On the whole held-out table (rules otherwise of
# 2026-11-28) the look changed no other square.
MARK_OFF_TILES_AT_MOST = 0.2
# Faint print (issue 27): a tile judged occupied on which the glyph finder found no letter is a blank only if
# a looser look finds none either: ink under FAINT_INK_CUT of its local background, strokes closed by
# FAINT_CLOSE px, a centred letter-sized blob the letter network calls plainly one letter (>=
# FAINT_LETTER_FROM, "not a letter" <= FAINT_NOT_LETTER_AT_MOST). Leave-one-set-out (held-out models): umich's
# worn S on O8 of photo_i4 and rectified_w16 (read blank) read S at 0.99 and 1.00, its broken I on H4 at 0.71
# (left a blank); on the real blanks of umich and jheidel (judged tiles) it takes a letter on none (blanks
# found 10/17 and 32/51, as before; see FAINT_CENTRED_WITHIN). Such a letter is never sure (its mark is not
# the finder's glyph).
FAINT_INK_CUT = 0.94
FAINT_CLOSE = 3
FAINT_LETTER_FROM = 0.8
FAINT_NOT_LETTER_AT_MOST = 0.1
# umich's faint letters sit within 0.04 of the centre; the one blank the loose look turned into a letter
# (jheidel 170717 O15, a light mark: Z 0.99) sat 0.20 and 0.15 off.
FAINT_CENTRED_WITHIN = 0.12
# Light print's hairlines (issue 27, dark tiles): the glyph search's cut-off comes from Otsu on the window's ink
# ratio, and in a light-print window inverted the light board around the dark tile is dark "ink", which drags
# the cut to its firm end (0.72): a serif's thin strokes fall below it and the letter comes apart (held-out black
# tiles in a gold serif, render 501: an O cut into two arcs read J at 1.00, an E without its foot read F). A tile
# printed light (`print_polarity`) is looked at again with the cut-off at the loose end (HAIRLINE_INK_CUT, the
# most `loose_ink_cut` allows); a centred letter-sized mark the network plainly reads as another letter
# (>= HAIRLINE_LETTER_FROM, "not a letter" <= FAINT_NOT_LETTER_AT_MOST) is taken instead.
# The mark must stand at most HAIRLINE_TALLER_AT_MOST times as tall as the letter first read: the O's arcs and the
# E's foot grow it by 10%; taller, it has joined the tile's edge or its number (rendered black tiles 501, corners
# given: two N's grown from 0.40-0.46 to 0.58-0.67 of a square read M at 0.96-0.97).
HAIRLINE_INK_CUT = 0.86
HAIRLINE_LETTER_FROM = 0.95
HAIRLINE_TALLER_AT_MOST = 1.2
# Dark print comes apart the same way when the photo is blurred: the letter's thin or lighter strokes fall above the
# cut-off and the finder keeps one stroke (jheidel 170003, left out: G9's E kept as its stem, 0.15 of a square wide
# and 0.44 tall, read I at 0.84; G10's R as its stem, read I at 0.93; I6's P, read I at 0.70). A tile whose first
# mark is that narrow (at most PIECE_NARROW_AT_MOST of its height: an I's shape, or a stroke of a wider letter) is
# looked at again at HAIRLINE_INK_CUT; a centred mark at least PIECE_WIDER_FROM times as wide and at most
# PIECE_TALLER_AT_MOST times as tall (the stem of an E or R is most of its height: 1.14-1.21 there) that the network
# plainly reads as another letter (as a light letter's hairlines are taken) is taken, when the first look is not
# itself plainly a letter (a sharp I is: the look never changes it). There: E at 0.97, R at 1.00, P at 1.00. Marks
# read no plainer are left as they were (170003 D8, a B come apart, reads H at 0.61 so: not taken).
PIECE_NARROW_AT_MOST = 0.5
PIECE_WIDER_FROM = 2.0
PIECE_TALLER_AT_MOST = 1.3
# A thin stroke (issue 27, crossword_yellow: thin tall print): the glyph finder keeps blobs of at least 0.012 of
# a square's area (`vision.cells._glyph_in_mask`, shared with training), and an I printed 0.04 of a square wide
# and 0.4 tall (1-2 px by 18-20 at CELL 48) covers 18-24 px, under its 27.6: the tile reads as a blank or as
# empty. Reading looks again for such a stroke: letter-tall (THIN_STROKE_HEIGHT), at most THIN_STROKE_WIDE
# wide, at least THIN_STROKE_SOLID pixels of ink per row on average (unbroken: 24 px over 20 rows on the renders'
# antialiased 2 px I's, whose second column is partly ink), and within
# MARK_OFF_TILES_AT_MOST of where the tiles around show their letters. Looked for on tiles, on squares whose look
# is plainly a tile's (`unlettered`) and on squares whose colour alone is (`tile_coloured`: held-out crossword_yellow
# 501 J10, a yellow tile on the blue board, P(tile) 0.41 with the models of 2026-11-28, z_to_tile 0.07, z_to_empty 4.0),
# never on a square coloured as the board (the fold line's pieces on the empty squares of column H are such strokes
# too: z_to_tile 4.0, z_to_empty -0.1..0.13); it is never the first look's glyph, so a letter read from it is never
# sure (`vision.confidence`).
THIN_STROKE_HEIGHT = (0.3, 0.78)
THIN_STROKE_WIDE = 0.08
THIN_STROKE_SOLID = 0.9
STROKE_WINDOW = 2.0
# On a tile (occupancy >= 0.5) showing no centred letter, such a stroke is read as an I: the letter network calls a
# lone 1-2 px stroke "not a letter" (P 0.87-0.995 on the crossword_yellow renders' I's and on the fold line's
# pieces alike), so its shape decides, at a confidence that is always asked.
THIN_STROKE_LETTER = "I"
THIN_STROKE_CONFIDENCE = 0.5
# Premium squares differ from plain ones by 47-100 Lab units on every labelled photo; noise gives < 10.
NO_BOARD_BELOW = 20.0
UPRIGHT_SAMPLE = 40  # tiles the orientation vote looks at, at most
LETTERS_TO_VOTE = 4  # letters the side is voted on, at least
SIDEWAYS_MORE = 2  # a look a quarter turn round replaces a thin first look when it shows this many times the letters
# Glyphs turned k quarter turns counter-clockwise read upright -> roll of the corner list that names the
# board from that side.
_ROLL_FOR_GLYPH_TURN = {1: 3, 2: 2, 3: 1}
ORIENTATION_DOUBT = ("the letters read almost as well turned a quarter or half turn, or the tiles' point numbers "
                     "stand for another turn than the letters: which side of the board is at the bottom of the "
                     "photo is unclear; check the reading, or photograph the board from a player's seat")


# ---- The models a reading uses

@functools.lru_cache(maxsize=1)
def _occupancy_model() -> OccupancyModel:
    return OccupancyModel.load()


@functools.lru_cache(maxsize=1)
def _shipped_point_reader() -> PointReader | None:
    return PointReader.load() if POINTS_ASSET.exists() else None


@functools.lru_cache(maxsize=8)
def _recogniser(alphabet: str) -> MlpRecogniser:
    return MlpRecogniser.load(alphabet)


@dataclass(frozen=True)
class Models:
    """The networks one reading uses: the shipped ones, or held-out ones the benchmarks pass."""

    occupancy: OccupancyModel
    letters: MlpRecogniser
    points: PointReader | None

    @classmethod
    def of(cls, tileset: TileSet, occupancy_model: OccupancyModel | None = None,
           letters_net: Mlp | None = None) -> Models:
        """The shipped models, with `occupancy_model` or `letters_net` in their place when given; a letter
        network carries its own point-number reader when it was trained with one."""
        letters = MlpRecogniser(letters_net, tileset.alphabet) if letters_net else _recogniser(tileset.alphabet)
        points = (from_extras(letters_net.extras) if letters_net is not None else None) or _shipped_point_reader()
        return cls(occupancy_model or _occupancy_model(), letters, points)


# ---- 1. Where the grid is

@dataclass(frozen=True)
class GridPlace:
    """Where the grid stands in the photo the squares are cut from."""

    photo: Photo  # the decode used: finer than the first one when the board is small in it
    corners: F32  # TL, TR, BR, BL in `photo`'s pixels
    located: str  # "given" or the locator's method
    doubtful: bool  # the locator was unsure
    given: bool  # the corners came from the caller (a board-less look is then a warning, not an error)
    warnings: list[str] = field(default_factory=list)
    # A board found folded (`vision.locate.GridLocation.fold`): the 3x3 net in `photo`'s pixels; its quarters
    # are straightened each by its own map. None: the corners are one plane.
    fold: F32 | None = None

    @property
    def corners_in_photo(self) -> list[list[float]]:
        """The corners in the pixels of the whole photo as it is shown, whatever size it was decoded at."""
        out: list[list[float]] = (self.corners / np.float32(self.photo.scale)).tolist()
        return out


def _parse_corners(corners: npt.ArrayLike) -> F32:
    arr = np.asarray(corners, dtype=np.float32).reshape(-1)
    if arr.size != 8 or not np.all(np.isfinite(arr)):
        raise ValueError("corners must be four x,y points: top-left, top-right, bottom-right, bottom-left")
    return arr.reshape(4, 2)


def _locate(image: U8) -> tuple[F32, str, bool, F32 | None]:
    found = locate.locate_grid(image)
    fold = None if found.fold is None else np.asarray(found.fold, np.float32)
    return np.asarray(found.corners, np.float32), str(found.method), bool(found.doubtful), fold


def _board_side(pts: F32) -> float:
    """The longest side of the grid's quadrilateral, in pixels."""
    return float(max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[1]),
                     np.linalg.norm(pts[3] - pts[2]), np.linalg.norm(pts[0] - pts[3])))


def place_grid(photo: Photo, corners: npt.ArrayLike | None, fold: F32 | None = None) -> GridPlace:
    """The grid's corners, given (in the whole photo's pixels) or found, in a decode sharp enough to cut
    squares of at least CELL pixels from. Raises `ValueError` for malformed corners, `NoBoardFound`.
    `fold`: with given corners, the net of a board found folded (`GridPlace.fold`, whole photo's pixels)."""
    warnings: list[str] = []
    if corners is not None:
        pts = _parse_corners(corners) * np.float32(photo.scale)
        located, doubtful = "given", False
        if fold is not None:
            fold = np.asarray(fold, np.float32) * np.float32(photo.scale)
    else:
        pts, located, doubtful, fold = _locate(photo.image)
        if doubtful:
            warnings.append("the board's corners were found with low confidence: check the overlay or give them")
    side = _board_side(pts)
    if side < SIZE * CELL and photo.scale < 1.0:
        # The board is small in a reduced decode: decode the same bytes sharper, so the straightened squares
        # are made from at least CELL pixels each rather than blown up.
        finer = photo.finer(photo.scale * SIZE * CELL / side)
        if fold is not None:
            fold = fold * np.float32(finer.scale / photo.scale)
        pts, photo = pts * np.float32(finer.scale / photo.scale), finer
    return GridPlace(photo, pts, located, doubtful, corners is not None, warnings, fold)


def turned_place(place: GridPlace, turn: int) -> GridPlace:
    """The grid named from the side where letters turned `turn` quarter turns counter-clockwise stand
    upright: its corners rolled and placed again as given corners (the locator's own judgement is the
    caller's to keep)."""
    rolled = np.roll(place.corners, _ROLL_FOR_GLYPH_TURN[turn], axis=0) / place.photo.scale
    # the net turns with the corners (rolling the corner list by k turns the 3x3 net a quarter turn k times)
    fold = None if place.fold is None else np.rot90(place.fold, -_ROLL_FOR_GLYPH_TURN[turn]) / place.photo.scale
    return place_grid(place.photo, rolled, fold)


# ---- 2. The squares: straightened, occupancy, the tiles' marks read

@dataclass
class SeenSquares:
    """The straightened board's squares: how each looks, which hold tiles, and the marks on those read by the
    letter network (rows of `probs`, `noise` and `inputs` follow `tile_squares`)."""

    look: SquareLook
    occupancy: F32  # P(tile) per square, 15x15
    tile_squares: list[tuple[int, int]]
    crops: list[TileCrop]
    probs: F32  # letter probabilities (blank included), "not a letter" left out
    noise: F32  # P(not a letter) per tile
    inputs: F32  # the network's inputs, for the shape evidence
    warnings: list[str] = field(default_factory=list)
    # Squares judged empty whose letter-sized mark sits where the tiles around show their letters, read by the
    # letter network and left empty (not plainly a letter): P(not a letter) of each mark. A mark the network
    # reads as a letter speaks against "sure empty" (`vision.confidence.EMPTY_MARK_NOT_LETTER_BELOW`).
    empty_marks: dict[tuple[int, int], float] = field(default_factory=dict)
    # ... and the letter the network reads best on each of those marks, with its probability (the blank left
    # out): a tile the occupancy network missed that the words through its square need (`vision.words.fill_by_words`).
    empty_mark_letters: dict[tuple[int, int], tuple[str, float]] = field(default_factory=dict)
    # Tiles whose letter is the I of a thin stroke's shape (`THIN_STROKE_CONFIDENCE`), not a reading of the network:
    # its hesitation is not counted there (`vision.confidence.hesitant_board`).
    by_shape: set[tuple[int, int]] = field(default_factory=set)
    # Tiles whose second look (a dark letter come apart, `PIECE_NARROW_AT_MOST`) plainly reads another letter, left
    # as first read because the first look is plainly a letter too: two readings of one mark that disagree
    # (`vision.confidence`, "second_look_against").
    looks_against: set[tuple[int, int]] = field(default_factory=set)


def _straighten(place: GridPlace) -> U8:
    """The board warped to a square of 15 * CELL pixels (and a margin), very large photos shrunk first."""
    img, pts = place.photo.image, place.corners
    side = _board_side(pts)
    # Shrink very large photos first (a 12 MP photo's board is far bigger than the straightened image).
    work, work_pts, f = img, pts, 1.0
    if side > _MAX_BOARD_PX:
        f = _MAX_BOARD_PX / side
        # by exact halves first (linear interpolation at 1/2 averages 2x2 pixels), then area interpolation
        # for the rest: area interpolation of a whole 12 MP photo costs 40-80 ms
        work, done = img, 1.0
        while f / done <= 0.5:
            work = cv2.resize(work, (work.shape[1] // 2, work.shape[0] // 2), interpolation=cv2.INTER_LINEAR)
            done = work.shape[1] / img.shape[1]
        if f / done < 0.99:
            work = cv2.resize(work, None, fx=f / done, fy=f / done, interpolation=cv2.INTER_AREA)
        f = work.shape[1] / img.shape[1]
        work_pts = pts * f
    if place.fold is not None:  # a folded board: each quarter straightened by the map of its half
        return fold_warp(work, place.fold * np.float32(f), CELL, MARGIN, flags=cv2.INTER_AREA)
    return warp_board(work, work_pts, CELL, MARGIN)


def _at_most_the_sets_blanks(occ: F32, look: SquareLook, tileset: TileSet) -> None:
    """A board holds no more blank tiles than its tile set has (English: 2): where more squares without a
    letter were judged tiles, only the most tile-like stay tiles (in place)."""
    if tileset.counts is None or BLANK not in tileset.counts:
        return
    plain = [(float(occ[r, c]), r, c) for r in range(SIZE) for c in range(SIZE)
             if look.glyphs[r][c] is None and occ[r, c] >= 0.5]
    for _p, r, c in sorted(plain, reverse=True)[tileset.counts[BLANK]:]:
        occ[r, c] = min(float(occ[r, c]), PLAIN_AT_MOST)


def _letter_marks_where_tiles_show_them(look: SquareLook, occ: F32) -> list[tuple[int, int]]:
    """Squares judged empty whose mark is letter-sized and sits, within a fifth of a square, where the tiles
    judged occupied within two squares show their letters (the median offset; none near: the board's), or where
    a tile beside it (left, right, above, below) shows its letter.

    Photographed at an angle, a tile's top (its letter) is seen off its square by the tile's thickness:
    on jheidel 170757 and 170803, T and L tiles a third of a square high, not centred and so missed. In a
    board's corner few tiles are within two squares, and the board's median offset is another part's: the G of
    FLOG in jheidel's top right corner (170725-170750, left out) sat 0.26-0.46 above its square, within 0.1 of
    the O beside it, 0.2-0.24 off the board's median.
    """
    found = [(r, c, g.dx, g.dy) for r in range(SIZE) for c in range(SIZE)
             if (g := look.glyphs[r][c]) is not None and occ[r, c] >= 0.5]
    if not found:
        return []
    at = np.array(found, np.float64)
    board = np.median(at[:, 2:], axis=0)
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            g = look.glyphs[r][c]
            if occ[r, c] >= 0.5 or g is None or not 0.38 <= g.height <= 0.78:
                continue
            dx, dy = letter_offset_near(at, board, r, c)
            beside = [(n.dx, n.dy) for y, x in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c))
                      if 0 <= y < SIZE and 0 <= x < SIZE and occ[y, x] >= 0.5 and (n := look.glyphs[y][x]) is not None]
            if any(abs(g.dx - ox) < MARK_OFF_TILES_AT_MOST and abs(g.dy - oy) < MARK_OFF_TILES_AT_MOST
                   for ox, oy in [(dx, dy), *beside]):
                out.append((r, c))
    return out


def _an_edge(glyph: Glyph, letters_at: LettersAt, r: int, c: int) -> bool:
    """Whether the mark the second look found on a tile with no letter is the tile's side, not a letter: thin
    (under EDGE_WIDTH) and farther than EDGE_OFF from where the letters around sit, the rule the occupancy
    measure applies to the first look's marks (`vision.occupancy._edges_are_not_letters`). Issue 27, leave-one-
    set-out: jheidel's plain blank in the corner (O15 of 170320, 170327, 170725) read I at 0.50-0.94 from its
    shaded side, 0.10-0.27 wide and 0.45-0.53 off the letters around."""
    near = _where_letters_sit_near(letters_at, (r, c))
    return near is not None and glyph.width < EDGE_WIDTH and _off(glyph, near) > EDGE_OFF


def _a_bare_frame(window: U8, glyph: Glyph) -> bool:
    """Whether the mark found is a plain tile's frame: frame-sized both ways (`vision.recognise.FRAME_SIZE`), with no letter
    inside its box nor in the print's other polarity (the searches `vision.recognise.tile_letter` makes before it
    falls back on reading the frame itself), nor faint print. Issue 27: on renders of eight trained styles (seeds
    500-529, shipped models, main's reading), 20 of the 22 plain blanks whose mark was frame-sized both ways showed
    nothing (read W, P or H at 0.27-0.78), none of the 68 lettered tiles and 7 lower-case blanks with such a mark;
    on the labelled photos (held-out readings) one square judged a tile had such a first mark: umich photo_i2's
    centre star, left empty as before (its mark "not a letter", see `see_squares`)."""
    if glyph.height < FRAME_SIZE or glyph.width < FRAME_SIZE:  # (a wide W or M is no frame: a frame is square)
        return False
    return tile_letter(window, glyph) is glyph


def faint_inside(window: U8, frame: Glyph) -> Glyph | None:
    """A centred letter-sized mark of faint print inside a frame's box (`faint_glyph`'s looser ink, within the
    frame): faded print on a tile whose frame was the only mark darker than the tile."""
    side = window.shape[0]
    w, h = frame.width * CELL, frame.height * CELL
    x0, y0 = side / 2.0 + frame.dx * CELL - w / 2, side / 2.0 + frame.dy * CELL - h / 2
    box = (int(np.floor(x0)), int(np.floor(y0)), int(np.ceil(x0 + w)), int(np.ceil(y0 + h)))
    src = 255 - window if frame.inverted else window
    faint = cv2.morphologyEx((ink_ratio(src, CELL) < FAINT_INK_CUT).astype(np.uint8), cv2.MORPH_CLOSE,
                             np.ones((FAINT_CLOSE, FAINT_CLOSE), np.uint8))
    inner = _glyph_in_mask(np.asarray(faint, np.uint8), side, CELL, frame.inverted, None, within=box)
    return inner if inner is not None and centred(inner) else None


def _a_letter(primary: MlpRecogniser, letter_probs: F32, not_letter: float,
              not_letter_at_most: float = RESCUE_NOT_LETTER_AT_MOST) -> bool:
    """Whether the letter network calls a mark a letter, whichever (not print, a fold or a star)."""
    return primary.net.classes[int(letter_probs.argmax())] != BLANK and not_letter <= not_letter_at_most


def _light_letter(window: U8, exclude: tuple[float, float] | None) -> Glyph | None:
    """A centred letter-sized light mark (from LETTER_TALL's floor), looked for on a square whose look is plainly a
    tile's though the measured dark-ink search found no mark (`OccupancyModel.unlettered_tiles`).

    `find_glyph` looks for light print only where it finds no dark blob at all, and a dark tile pushed off its square
    shows the light board beside it: the tile's own side against that board is then a dark blob, off the centre,
    and the light letter is never looked for. Held-out navy_condensed 500 F8, a hairline I on a navy tile
    (P(tile) 1.00) beside a light gap: the dark blob 0.81 of a square tall, 0.38 right of the centre; read empty at
    0.55."""
    light = _find_glyph(255 - window, CELL, True, exclude)
    return light if centred(light, LETTER_TALL[0]) else None


def _plainly_a_letter(primary: MlpRecogniser, letter_probs: F32, not_letter: float) -> bool:
    """Whether the letter network calls a centred mark plainly one letter (not print, a fold or a star)."""
    best = int(letter_probs.argmax())
    return (primary.net.classes[best] != BLANK and float(letter_probs[best]) >= RESCUE_LETTER_FROM
            and not_letter <= RESCUE_NOT_LETTER_AT_MOST)


def faint_glyph(window: U8, exclude: tuple[float, float] | None = None) -> Glyph | None:
    """A centred letter-sized dark mark of faint or broken print (worn tiles) that `find_glyph` passed over:
    ink under FAINT_INK_CUT of its local background, strokes closed, within FAINT_CENTRED_WITHIN of the
    square's centre. (Dark ink only: the light marks of dark windows found this loosely were a blank's
    shadowed edge, read Z at 0.99 on jheidel 170717 O15.)"""
    ratio = ink_ratio(window, CELL)
    mask = cv2.morphologyEx((ratio < FAINT_INK_CUT).astype(np.uint8), cv2.MORPH_CLOSE,
                            np.ones((FAINT_CLOSE, FAINT_CLOSE), np.uint8))
    found = _glyph_in_mask(np.asarray(mask, np.uint8), window.shape[0], CELL, False, exclude)
    if found is None or not centred(found) or max(abs(found.dx), abs(found.dy)) > FAINT_CENTRED_WITHIN:
        return None
    return found


def hairline_glyph(window: U8, light: bool = True) -> Glyph | None:
    """A letter's centred letter-sized mark with its thin or blurred strokes kept (`HAIRLINE_INK_CUT`), or None;
    `light`: a light letter (the window inverted)."""
    src = np.asarray(255 - window, np.uint8) if light else window
    mask = (ink_ratio(src, CELL) < HAIRLINE_INK_CUT).astype(np.uint8)
    found = _glyph_in_mask(mask, window.shape[0], CELL, light, None)
    return found if found is not None and centred(found) else None


def tile_coloured(look: SquareLook) -> list[tuple[int, int]]:
    """The squares whose colour alone is plainly a tile's: like the tiles' (`z_to_tile` <= BLANK_TILE_Z_AT_MOST) and
    far from the empty squares of their kind (`z_to_empty` >= BLANK_STRONG_ODD_FROM), the occupancy model's own tests
    of a plain tile, without its network's P(tile)."""
    f = look.features.reshape(SIZE, SIZE, -1)
    mask = ((f[..., FEATURES.index("z_to_tile")] <= BLANK_TILE_Z_AT_MOST)
            & (f[..., FEATURES.index("z_to_empty")] >= BLANK_STRONG_ODD_FROM))
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]


def _where_letters_sit_near(letters_at: LettersAt, square: tuple[int, int]) -> tuple[float, float] | None:
    """Where the tiles around `square` show their letters (`letter_offset_near`), None when no letters were found."""
    if letters_at is None:
        return None
    dx, dy = letter_offset_near(letters_at[0], letters_at[1], square[0], square[1])
    return float(dx), float(dy)


def _off(glyph: Glyph, near: tuple[float, float]) -> float:
    """How far a mark sits from where the letters around sit, in squares (the larger of across and down)."""
    return max(abs(glyph.dx - near[0]), abs(glyph.dy - near[1]))


def _stroke_shaped(height_px: float, width_px: float, ink_px: float) -> bool:
    """Whether a mark of this many pixels (at CELL) is an I's shape: letter-tall (`THIN_STROKE_HEIGHT`), at most
    THIN_STROKE_WIDE wide and solid (THIN_STROKE_SOLID of a pixel of ink per row)."""
    return (THIN_STROKE_HEIGHT[0] * CELL <= height_px <= THIN_STROKE_HEIGHT[1] * CELL
            and width_px <= THIN_STROKE_WIDE * CELL and ink_px >= THIN_STROKE_SOLID * height_px)


def a_thin_stroke(glyph: Glyph | None) -> bool:
    """Whether a mark is a lone thin stroke (`_stroke_shaped`), whichever finder found it."""
    return glyph is not None and _stroke_shaped(glyph.height * CELL, glyph.width * CELL, glyph.ink * CELL * CELL)


def thin_strokes(gray: U8, squares: Sequence[tuple[int, int]], letters_at: LettersAt) -> dict[tuple[int, int], Glyph]:
    """Per square of `squares`, a letter-tall thin stroke too small for the glyph finder (`THIN_STROKE_WIDE`: an
    I in thin print) lying within MARK_OFF_TILES_AT_MOST of where the letters around sit, normalised as a glyph.
    Dark ink under the finder's firm cut-off, in a window of STROKE_WINDOW squares (the ink ratio's closing reaches
    12 px: the square's middle is measured as on the whole board); a piece touching the window's edge is not a
    stroke of this square. Where no dark stroke is found and the window's middle is dark (`dark_centre`: a dark
    tile), light print is looked at the same way: held-out walnut_hairline 507 F11, a hairline I on a walnut tile
    pushed up off its square (17 px tall, 19 px of ink: under the finder's smallest blob), its first mark the
    shadowed gap below the tile, read Q at 0.46. `letters_at`: where the look's letters sit
    (`vision.occupancy.where_letters_sit`)."""
    found: dict[tuple[int, int], Glyph] = {}
    for r, c in squares:
        window = cell_window(gray, r, c, STROKE_WINDOW, CELL, MARGIN)
        near = _where_letters_sit_near(letters_at, (r, c)) or (0.0, 0.0)
        stroke = _thin_stroke_in(window, near, inverted=False)
        if stroke is None and dark_centre(window):
            stroke = _thin_stroke_in(255 - window, near, inverted=True)
        if stroke is not None:
            found[(r, c)] = stroke
    return found


def _thin_stroke_in(window: U8, near: tuple[float, float], inverted: bool) -> Glyph | None:
    """The stroke-shaped piece of dark ink nearest `near` (within MARK_OFF_TILES_AT_MOST) in a STROKE_WINDOW window
    not touching its edge (`thin_strokes`); `inverted` says the window was inverted to find light print."""
    side = window.shape[0]
    centre = side / 2.0
    n, labels, stats, _ = cv2.connectedComponentsWithStats((ink_ratio(window, CELL) < FIRM_INK_CUT).astype(np.uint8),
                                                           connectivity=8)
    best_off, best = MARK_OFF_TILES_AT_MOST, None
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not _stroke_shaped(h, w, area) or x == 0 or y == 0 or x + w == side or y + h == side:
            continue
        dx, dy = (x + w / 2.0 - centre) / CELL, (y + h / 2.0 - centre) / CELL
        off = max(abs(dx - near[0]), abs(dy - near[1]))
        if off < best_off:
            best_off = off
            comp = (labels[y:y + h, x:x + w] == i).astype(np.float32)
            best = Glyph(normalise_glyph(comp), h / CELL, w / CELL, dx, dy, area / (CELL * CELL), inverted)
    return best


def _plainly_faint_letter(primary: MlpRecogniser, letter_probs: F32, not_letter: float) -> bool:
    best = int(letter_probs.argmax())
    return (primary.net.classes[best] != BLANK and float(letter_probs[best]) >= FAINT_LETTER_FROM
            and not_letter <= FAINT_NOT_LETTER_AT_MOST)


def see_squares(place: GridPlace, tileset: TileSet, models: Models) -> SeenSquares:
    """Straighten the board, decide which squares hold tiles and read every tile's mark (one network pass).

    Raises `NoBoardFound` when the squares show no board's premium pattern and the corners were found, not
    given (given corners get a warning instead)."""
    warped = _straighten(place)
    look = measure(warped, CELL)
    warnings: list[str] = []
    if look.board_evidence < NO_BOARD_BELOW:
        if not place.given:
            raise NoBoardFound("no board was found in the photo (no premium squares where the grid should be): "
                               "photograph the whole board from above, or give its four corners")
        warnings.append("the squares inside the given corners do not show a board's premium pattern: "
                        "check the corners")
    occ = models.occupancy.probabilities(look)
    # Leave-one-set-out, this takes two empty squares in shadow off declanfinerty board_003 (it shows its
    # two real blanks), and one spacer tile off umich's name-art board rectified_w11 (seven, not a game).
    _at_most_the_sets_blanks(occ, look, tileset)
    gray: U8 = np.asarray(cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY), np.uint8)  # (OpenCV types it loosely)

    # Squares judged empty that show a letter-sized mark where the tiles around show theirs are read too
    # (one network pass for all): a plain tile on a board of nearly its colour (umich's dim wooden boards)
    # carries its letter anyway, and so does a tile whose top the camera's angle shifted off its square.
    maybe = _letter_marks_where_tiles_show_them(look, occ)
    # ... and so are squares whose look is a tile's though no mark was found on them (light print on dark
    # tiles, which the measured dark-ink search passes over: `OccupancyModel.unlettered_tiles`).
    far_from_empty, like_empty = models.occupancy.unmarked_tiles(look)
    unlettered = [sq for sq in far_from_empty if occ[sq] < 0.5 and sq not in maybe]
    maybe += unlettered
    # ... and squares whose look is a tile's but whose colour is also their empty square's (a dark tile on a
    # premium square of nearly its colour): looked at for a light letter too, a tile only if it is plainly one
    # (the rescue rule, as any square judged empty)
    maybe += [sq for sq in like_empty if occ[sq] < 0.5 and sq not in maybe]
    # A thin letter-tall stroke where the letters sit (an I in thin print, under the finder's smallest blob:
    # `THIN_STROKE_WIDE`) is a second look on a tile showing no centred letter, and on a square whose look is plainly
    # a tile's though no mark was found on it (`unlettered`).
    letters_at = where_letters_sit(look.glyphs)
    # ... and on a square showing no mark that the occupancy network passed over but whose colour alone is plainly a
    # tile's (`tile_coloured`): one showing such a stroke is then looked at as an `unlettered` square is. (The fold
    # line's pieces on the empty squares it crosses are such strokes too; their colour is the board's.)
    coloured = [sq for sq in tile_coloured(look)
                if occ[sq] < 0.5 and sq not in unlettered and look.glyphs[sq[0]][sq[1]] is None]
    strokes = thin_strokes(gray, [(r, c) for r in range(SIZE) for c in range(SIZE)
                                  if (occ[r, c] >= 0.5 or (r, c) in unlettered or (r, c) in coloured)
                                  and not centred(look.glyphs[r][c])], letters_at)
    stroked = [sq for sq in coloured if sq in strokes and sq not in maybe]
    unlettered += stroked
    maybe += stroked
    seen = _read_squares(look, occ.copy(), gray, models, maybe, unlettered, warnings, strokes, letters_at)
    # Where the tiles around show their letters is judged again with the tiles rescued: a part of the board whose
    # tiles the occupancy network missed shows no letters to judge by in the first pass (jheidel 170757, left out:
    # 11 tiles rescued, then the Y of C11 sat where they show theirs). A second network pass, only then.
    more = [sq for sq in _letter_marks_where_tiles_show_them(look, seen.occupancy) if sq not in maybe]
    if more:
        seen = _read_squares(look, occ, gray, models, maybe + more, unlettered, warnings, strokes, letters_at)
    return seen


def _read_squares(look: SquareLook, occ: F32, gray: U8, models: Models, maybe: list[tuple[int, int]],
                  unlettered: list[tuple[int, int]], warnings: list[str], strokes: Mapping[tuple[int, int], Glyph],
                  letters_at: LettersAt) -> SeenSquares:
    """Every tile's mark and the marks of the squares `maybe` read by the letter network in one pass, the latter
    rescued as tiles when plainly a letter, or a letter at all on a square whose look is a tile's (`unlettered`);
    `occ` is changed in place (a rescued square's occupancy). `strokes`: thin strokes (`thin_strokes`), a second look on a
    tile showing no centred letter and on an `unlettered` square showing no mark; `letters_at`: where the look's letters sit (`vision.occupancy.where_letters_sit`)."""
    tile_squares = [(r, c) for r in range(SIZE) for c in range(SIZE) if occ[r, c] >= 0.5]
    crops: list[TileCrop] = []
    # Marks that are a plain tile's side or frame, not a letter (`_an_edge`, `_a_bare_frame`): read by the network
    # all the same, for a square whose mark it calls "not a letter" stays empty (`fill_grid`); the others are
    # blanks.
    tile_marks: set[int] = set()
    for r, c in tile_squares + maybe:
        window = cell_window(gray, r, c, 1.5, CELL, MARGIN)
        # (a thin mark set aside as a tile's edge is not taken again: a plain tile is a blank)
        edge = look.edges.get((r, c))
        glyph = look.glyphs[r][c]
        second = glyph is None
        if glyph is None:
            exclude = (edge.dx, edge.dy) if edge else None
            glyph = find_glyph(window, CELL, light_letters=True, exclude=exclude)
            # (only past a dark mark: with none, or a light one, `find_glyph` has looked for light print already)
            if ((r, c) in unlettered and glyph is not None and not glyph.inverted
                    and not centred(glyph, LETTER_TALL[0]) and dark_centre(window)):
                glyph = _light_letter(window, exclude) or glyph
        if glyph is not None and ((second and _an_edge(glyph, letters_at, r, c)) or _a_bare_frame(window, glyph)):
            tile_marks.add(len(crops))
        crops.append(TileCrop(window, glyph))
    n_tiles, n_crops = len(tile_squares), len(crops)
    # Tiles with no letter found: a second, looser look for faint print (read in the same network pass); on a
    # tile whose mark is a bare frame, inside the frame.
    faint: list[tuple[int, TileCrop]] = []
    set_aside: set[int] = set()  # tiles whose mark, larger than a letter, is looked past (`NO_LETTER_FROM`)
    displaced: set[int] = set()  # tiles whose mark, away from where the letters around sit, is looked past
    # Tiles printed light: their letter looked at again with its hairlines kept (`HAIRLINE_INK_CUT`), read in the
    # same network pass.
    printed = [i for i in range(n_tiles) if crops[i].glyph is not None and i not in tile_marks]
    light = print_polarity(np.array([crops[i].window for i in printed]), CELL) if printed else np.zeros(0, np.int8)
    hairline: list[tuple[int, TileCrop]] = []
    in_pieces: set[int] = set()  # dark print come apart: taken only when its first look is not plainly a letter
    for i, polarity in zip(printed, light, strict=True):
        window, first = crops[i].window, crops[i].glyph
        if first is None:
            continue
        if polarity > 0:
            if (g := hairline_glyph(window)) is not None and (
                    g.height <= HAIRLINE_TALLER_AT_MOST * letter_glyph(window, first, int(polarity)).height):
                hairline.append((i, TileCrop(window, g)))
        elif centred(first) and first.width <= first.height and (  # (the cheap test first: most letters are wide)
                kept := letter_glyph(window, first, int(polarity))).width <= (
                PIECE_NARROW_AT_MOST * kept.height) and (g := hairline_glyph(window, light=False)) is not None and (
                g.width >= PIECE_WIDER_FROM * kept.width and g.height <= PIECE_TALLER_AT_MOST * kept.height):
            # a narrow first mark may be one stroke of a blurred dark letter whose other strokes the cut-off let go
            hairline.append((i, TileCrop(window, g)))
            in_pieces.add(i)
    squares = tile_squares + maybe
    for i in range(n_tiles):
        frame = crops[i].glyph
        if frame is None:
            edge = look.edges.get(tile_squares[i])
            g = faint_glyph(crops[i].window, (edge.dx, edge.dy) if edge else None)
        elif i in tile_marks:
            g = faint_inside(crops[i].window, frame) if frame.height >= FRAME_SIZE else None
        elif (larger := max(frame.width, frame.height) >= NO_LETTER_FROM and not centred(frame)) or (
                (near := _where_letters_sit_near(letters_at, tile_squares[i])) is not None
                and _off(frame, near) > MARK_OFF_TILES_AT_MOST):
            # The mark may not be the tile's letter, and the letter is looked for with the mark set aside:
            # - a mark larger than any letter and off the square's centre may be the board beside a tile that sits
            #   off its square (taken only when the network calls the mark itself not a letter);
            # - a mark away from where the tiles around show their letters (a tile's shadowed side under a steep
            #   angle, the tile's top seen off its square): a letter where they show theirs (taken only when the
            #   network reads it plainly, the first not).
            g = find_glyph(crops[i].window, CELL, light_letters=True, exclude=(frame.dx, frame.dy))
            if g is not None and larger:
                set_aside.add(i)
            elif g is not None and near is not None and _off(g, near) <= MARK_OFF_TILES_AT_MOST:
                displaced.add(i)
            else:
                g = None
        else:
            g = None
        if g is not None:
            faint.append((i, TileCrop(crops[i].window, g)))
    # A thin stroke is looked at too, after any loose look of the same square (which wins when plainly a letter): on
    # a tile showing no centred letter (the stroke itself, too thin for the network to call a letter), and on a
    # square whose look is plainly a tile's where no mark was found (held-out crossword_yellow 501 J10, a 1 px I on
    # a yellow tile, P(tile) 0.36, was read a plain blank though its stroke was found).
    for i, square in enumerate(squares):
        frame = crops[i].glyph
        if (stroke := strokes.get(square)) is not None and (
                not centred(frame) if i < n_tiles else frame is None and square in unlettered):
            faint.append((i, TileCrop(crops[i].window, stroke)))
    primary = models.letters
    raw, inputs = primary.probabilities_and_inputs(crops + [crop for _i, crop in faint + hairline])
    noise = primary.not_letter(raw)
    probs = primary.letters_only(raw)  # one network pass serves both
    stroke_letter = primary.net.classes.index(THIN_STROKE_LETTER) if THIN_STROKE_LETTER in primary.net.classes else -1
    settled: set[int] = set()  # tiles whose faint look was plainly a letter: their stroke is not looked at
    by_shape: set[int] = set()  # marks read I by a thin stroke's shape (THIN_STROKE_CONFIDENCE)
    for k, (i, crop) in enumerate(faint):
        j = n_crops + k
        if i in settled or (i in set_aside and float(noise[i]) <= NOT_LETTER_ABOVE) or (
                i in displaced and _plainly_a_letter(primary, probs[i], float(noise[i]))):
            continue
        if _plainly_faint_letter(primary, probs[j], float(noise[j])):
            settled.add(i)
            crops[i] = crop
            probs[i], noise[i], inputs[i] = probs[j], noise[j], inputs[j]
            tile_marks.discard(i)  # the frame's faint letter, not a bare frame
        elif (crop.glyph is strokes.get(squares[i]) and stroke_letter >= 0
              and int(probs[i].argmax()) != stroke_letter):  # (a first look already read I is kept)
            # A lone thin stroke on a tile is an I by its shape; the network, which calls such a stroke "not a
            # letter" (fold lines look so too), does not vouch: the letter is THIN_STROKE_CONFIDENCE, asked.
            crops[i] = crop
            probs[i] = 0.0
            probs[i, stroke_letter] = THIN_STROKE_CONFIDENCE
            noise[i], inputs[i] = 0.0, inputs[j]
            tile_marks.discard(i)
            by_shape.add(i)
    disputed: set[int] = set()  # a second look plainly another letter, the first plainly a letter too: not sure
    for k, (i, crop) in enumerate(hairline):
        j = n_crops + len(faint) + k
        best = int(probs[j].argmax())
        if not (best != int(probs[i].argmax()) and float(probs[j, best]) >= HAIRLINE_LETTER_FROM
                and _plainly_faint_letter(primary, probs[j], float(noise[j]))):
            continue
        if i in in_pieces and (i in settled or _plainly_a_letter(primary, probs[i], float(noise[i]))):
            disputed.add(i)
        else:
            crops[i] = crop
            probs[i], noise[i], inputs[i] = probs[j], noise[j], inputs[j]
    # A tile's centred mark that is itself a lone thin stroke (`a_thin_stroke`) is an I by its shape too, when the
    # network does not plainly read it as a letter: held-out crossword_yellow 503 G4, an I 0.06 of a square wide
    # found by the glyph finder, read J at 0.49 ("not a letter" 0.68). Asked, as a stroke's I is.
    # The stroke is centred where a stroke is letter-tall (from THIN_STROKE_HEIGHT's 0.3 of a square, not the
    # occupancy model's 0.38), and on a square whose look is plainly a tile's (`unlettered`) the shape decides even
    # when the network's best is already I if the network's "not a letter" (over UNLETTERED_NOT_LETTER_AT_MOST)
    # would leave the square empty. Held-out walnut_hairline 501 J11 and orange_gothic_fluorescent 502 G7, light hairline
    # I's 0.375 of a square tall on dark tiles (P(tile) 1.00): read I at 0.55 and 0.71 with "not a letter" 0.78 and
    # 0.53, so read empty at 0.55.
    for i in range(n_crops):
        glyph = crops[i].glyph
        if (stroke_letter >= 0 and i not in settled and i not in tile_marks
                and (i < n_tiles or squares[i] in unlettered)
                and a_thin_stroke(glyph) and centred(glyph, THIN_STROKE_HEIGHT[0])
                and (int(probs[i].argmax()) != stroke_letter
                     or (i >= n_tiles and float(noise[i]) > UNLETTERED_NOT_LETTER_AT_MOST))
                and not _plainly_a_letter(primary, probs[i], float(noise[i]))):
            probs[i] = 0.0
            probs[i, stroke_letter] = THIN_STROKE_CONFIDENCE
            noise[i] = 0.0
            by_shape.add(i)
    probs, noise, inputs = probs[:n_crops], noise[:n_crops], inputs[:n_crops]
    blank = primary.net.classes.index(BLANK)
    for i in tile_marks:
        if i < n_tiles and (noise[i] <= NOT_LETTER_ABOVE or occ[tile_squares[i]] >= OCCUPIED_SURE):
            crops[i] = TileCrop(crops[i].window, None)
            probs[i], noise[i] = 0.0, 0.0
            probs[i, blank] = 1.0
    # On a square whose look is plainly a tile's (`unlettered`), a centred mark the network calls a letter, whichever
    # letter, is enough: the tile is there, its letter is the network's and never sure (the fourth blind style,
    # plum_slab, read after its blind read: render 503's tiles in an unknown slab face read under 0.95).
    rescued = [i for i in range(n_tiles, len(crops))
               if i not in tile_marks and (_plainly_a_letter(primary, probs[i], float(noise[i])) or (
                   maybe[i - n_tiles] in unlettered and _a_letter(primary, probs[i], float(noise[i]),
                                                                  UNLETTERED_NOT_LETTER_AT_MOST)))]
    for i in rescued:
        occ[maybe[i - n_tiles]] = RESCUED_OCCUPANCY
    # A square plainly a tile by its look (`unlettered`) that shows no mark in either polarity, evenly coloured
    # (`colour_spread` <= BLANK_SPREAD_AT_MOST) beside a tile showing a letter, is a plain blank: the occupancy
    # model's own blank rule asks the same but counts only the letters its dark-ink search measured, which on dark
    # tiles printed light are none, so it never found a word beside such a square. Held-out plum_slab 502 G8, a
    # plain blank on a plum tile (P(tile) 0.99, z_to_tile 0.07, z_to_empty 4.0, spread 0.10): read empty at 0.55.
    # Its P(tile) is raised to BLANK_NEAR_RAISED; a blank is never sure (`vision.confidence.BLANK_AT_MOST`).
    lettered = {tile_squares[i] for i in range(n_tiles) if crops[i].glyph is not None} | {
        maybe[i - n_tiles] for i in rescued}
    spread = look.features[:, FEATURES.index("colour_spread")].reshape(SIZE, SIZE)

    def plain_blank(i: int) -> bool:
        r, c = maybe[i - n_tiles]
        return (i not in rescued and i not in tile_marks and crops[i].glyph is None and (r, c) in unlettered
                and spread[r, c] <= BLANK_SPREAD_AT_MOST
                and any((r + dr, c + dc) in lettered for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))))

    plain_blanks = [i for i in range(n_tiles, len(crops)) if plain_blank(i)]
    for i in plain_blanks:
        occ[maybe[i - n_tiles]] = BLANK_NEAR_RAISED
    rescued += plain_blanks
    keep = list(range(n_tiles)) + rescued
    left = [i for i in range(n_tiles, len(crops)) if i not in rescued]
    left_empty = {maybe[i - n_tiles]: float(noise[i]) for i in left}
    letter_only = np.where(np.array([ch.isalpha() for ch in primary.net.classes]), probs, 0.0)
    mark_letters = {maybe[i - n_tiles]: (primary.net.classes[int(letter_only[i].argmax())], float(letter_only[i].max()))
                    for i in left if i not in tile_marks}
    return SeenSquares(look, occ, tile_squares + [maybe[i - n_tiles] for i in rescued], [crops[i] for i in keep],
                       probs[keep], noise[keep], inputs[keep], warnings, left_empty, mark_letters,
                       {squares[i] for i in by_shape if i in keep}, {squares[i] for i in disputed if i in keep})


# ---- 3. Which side is up

@dataclass(frozen=True)
class Orientation:
    """How the tiles' letters stand: `turn` quarter turns counter-clockwise read them upright (0: as
    photographed); `doubt` is the sentence saying the side is unclear, or ""."""

    turn: int
    doubt: str

    @property
    def note(self) -> str:
        """The warning of a reading made turned."""
        return (f"the letters were sideways or upside down: the board was read turned {90 * self.turn} degrees "
                "counter-clockwise so they stand upright (rows and columns follow the turned board)")


def letters_seen(seen: SeenSquares) -> int:
    """How many tiles of a look show a letter."""
    return sum(c.glyph is not None for c in seen.crops)


def letters_on_plain_squares(seen: SeenSquares) -> int:
    """How many tiles of a look show a letter on a plain square (no premium print there to take for one)."""
    return sum(c.glyph is not None and int(locate.PREMIUM_CLASSES[sq]) == 0
               for sq, c in zip(seen.tile_squares, seen.crops, strict=True))


def _letter_scores(primary: MlpRecogniser, crops: Sequence[TileCrop]) -> list[float] | None:
    """The letter network's mean confidence over the tiles' letters turned 0, 1, 2 and 3 quarter turns
    counter-clockwise (`np.rot90`); None when fewer than LETTERS_TO_VOTE tiles show a letter (too few to
    vote)."""
    glyphs = [c.glyph.image for c in crops if c.glyph is not None]
    if len(glyphs) < LETTERS_TO_VOTE:
        return None
    # The vote is a mean over tiles: an even sample of a full board decides it as well, at a quarter of
    # the cost on a late-game board (this check was ~40% of the reading time at 2 MP).
    glyphs = [glyphs[i] for i in np.linspace(0, len(glyphs) - 1, min(len(glyphs), UPRIGHT_SAMPLE)).astype(int)]
    base = np.array(glyphs, np.float32)
    # all four turns in one batch: one feature pass and one network pass instead of four
    turned = np.concatenate([np.rot90(base, k, axes=(1, 2)) for k in range(4)])
    p = primary.net.predict_proba(glyph_features(np.ascontiguousarray(turned)))
    return [float(v) for v in p.max(axis=1).reshape(4, len(glyphs)).mean(axis=1)]


# One board's tiles share one print: the side is voted on the letters in the print's polarity when at least this
# share of the look's marked tiles show it (`vision.cells.print_polarity`). Rendered boards as photographed,
# shipped models: dark tiles printed light (plum_slab 500, 501, black_gold_serif 500, navy_condensed 502, maroon
# tiles 500) 1.0; thin tall render 501, cream tiles with dark print lying on its side, 0.56 (the tile between
# two sideways strokes looks like light print: taken per tile, its upright gaps turned the first look's shape
# from -0.44 to +1.19 and the look was taken upright, sure, 23 squares wrong at >= 0.98); worn wood 501 0.33;
# crossword yellow, burnt and pale wood 0.
ONE_PRINT_SHARE = 0.75


def letter_crops(seen: SeenSquares) -> list[TileCrop]:
    """The look's tiles that show a mark, each with the mark the side is voted on: on a board whose tiles print
    in one polarity (`ONE_PRINT_SHARE`), a mark of the other polarity is replaced by the letter in the print's
    (`vision.cells.letter_in_window`, as the letter network's `vision.recognise.tile_letter` finds it), its
    point number kept; else the mark.

    The square's measurement keeps the dark blob nearest its centre, which on a dark tile printed light can
    be the tile itself around its letter (a square blob 0.9 of a square, inverted False): its shape says no
    axis, its number is a hole in it, and it reads about as well in every turn. Held-out plum_slab (cream
    slab print on plum tiles) render 500: 17 of its 26 tiles' marks were the tile or a piece of it (not
    inverted, 0.44-0.9 of a square high); its numbers were found on 4 tiles, its shape was -0.01 and its
    letters read the right turn worst of the four (0.760 against 0.866), so its side was unclear on every render
    and the two photographed a quarter turn round were read as photographed (asked; 0 of 28 and 2 of 33
    letters right). Voted on the letters as read, 500 reads its turn 0.917 against 0.803 for the next.
    (`tile_letter`'s other search, a letter inside a frame-sized mark, is not made: on print lying on its side
    it finds the upright pieces of letters.)"""
    marked = [c for c in seen.crops if c.glyph is not None]
    if not marked:
        return []
    polarity = print_polarity(np.array([c.window for c in marked]), CELL)
    light, dark = int((polarity > 0).sum()), int((polarity < 0).sum())
    if max(light, dark) < ONE_PRINT_SHARE * len(marked):
        return marked
    light_print = light > dark
    out = []
    for crop, p in zip(marked, polarity, strict=True):
        mark: Glyph = crop.glyph  # type: ignore[assignment]
        if (p > 0) == light_print and p and mark.inverted != light_print:
            mark = letter_in_window(crop.window, mark, light_print, CELL) or mark
        out.append(TileCrop(crop.window, mark))
    return out


def orientation(models: Models, letters: Sequence[TileCrop], votes: npt.NDArray[np.int64]) -> Orientation:
    """Three signals: the letter network's reading of the tiles turned, where the point numbers stand (`votes`:
    `number_votes` of `letters`, which `upright_look` weighs again) and the letters' shape (taller than wide: on
    which axis they stand) (`vision.orientation`, no trained model), on the tiles' letters as read
    (`letter_crops`)."""
    turn, unclear = upright_turn(_letter_scores(models.letters, letters), votes, glyph_aspect(letters))
    return Orientation(turn, ORIENTATION_DOUBT if unclear else "")


@dataclass(frozen=True)
class UprightLook:
    """The look the side was voted on: the first (`quarter` 0) or one a quarter turn round (`quarter` 1,
    its grid named from there: `place`, `seen`), and the side it says, counted from the first look."""

    place: GridPlace
    seen: SeenSquares
    quarter: int
    side: Orientation


def upright_look(place: GridPlace, seen: SeenSquares, tileset: TileSet, models: Models) -> UprightLook:
    """Which side is up, voted on the first look, or on a look a quarter turn round when the first is too
    thin to say (fewer than LETTERS_TO_VOTE letters, or its side unclear) and that look shows at least
    LETTERS_TO_VOTE letters and SIDEWAYS_MORE times as many, and says its side clearly; an unclear first
    look is confirmed by a quarter look that clearly says the same turn.

    The glyph finder looks for letters of a letter's height, taller than wide, and the occupancy model weighs
    the letter found, so print lying on its side is partly missed, and what is found of it (a tile's whole
    face, a letter and its number together) reads as well in every turn. Rendered boards, shipped models,
    turned a quarter: black condensed seed 504 showed 3 of its 13 tiles, too few to vote, and was read as
    photographed without a doubt (0 of 13 letters right); thin tall 504-507 showed 6-9 of 29, their side
    unclear. Looked a quarter turn round they show every tile. Upright print looked at a quarter turn round
    shows fewer letters, so a first look that is already upright is kept. The second look costs one more
    `see_squares`, paid only by such thin or unclear first looks (an early board's few tiles pay it).
    """
    first_letters = letter_crops(seen)
    first_votes = number_votes(first_letters)
    side = orientation(models, first_letters, first_votes)
    found = letters_seen(seen)
    # A side said by the letters alone (no turn shown by AXIS_NUMBERS_AT_LEAST point numbers) is looked at again a
    # quarter turn round when it is clear too: held-out thin tall render 501 turned 180 (print lying on its side,
    # partly missed): 19 letters read a wrong quarter turn 0.055 ahead, the shape on that axis, 1 number at most:
    # sure and wrong. A quarter round, 28 letters and 19 numbers against 0 said the right side.
    by_letters_alone = int(first_votes.max()) < AXIS_NUMBERS_AT_LEAST
    if found >= LETTERS_TO_VOTE and not side.doubt and not by_letters_alone:
        return UprightLook(place, seen, 0, side)
    quarter = turned_place(place, 1)
    again = see_squares(quarter, tileset, models)
    more = letters_seen(again)
    if found >= LETTERS_TO_VOTE and not side.doubt:
        # (a clear side by the letters alone: only a quarter look that sees more letters and whose numbers alone
        # say its side clearly (`numbers_turn`) replaces it; otherwise the first look stands, as before)
        if more > found:
            again_letters = letter_crops(again)
            again_votes = number_votes(again_letters)
            turned = orientation(models, again_letters, again_votes)
            if not turned.doubt and numbers_turn(again_votes) == turned.turn:
                return UprightLook(quarter, again, 1, Orientation((turned.turn + 1) % 4, ""))
        return UprightLook(place, seen, 0, side)
    if more >= LETTERS_TO_VOTE:
        again_letters = letter_crops(again)
        again_votes = number_votes(again_letters)
        turned = orientation(models, again_letters, again_votes)
        total = (turned.turn + 1) % 4
        # Only a look that says its side clearly: an empty board looked at a quarter turn round shows its
        # premium squares' print standing like letters (jheidel's empty 165303-165320, held-out models: 16-59
        # such marks, their side unclear every time); its first look is kept. A clear look that shows many
        # more letters replaces the first; one that names the turn the first look found unclear confirms it
        # (two looks agreeing: held-out thin tall render 501, its numbers and shape for the right turn, the
        # letters 0.062 better upside down; looked a quarter round, 17 numbers and the letters agree).
        if not turned.doubt and (more >= SIDEWAYS_MORE * found or total == side.turn):
            return UprightLook(quarter, again, 1, Orientation(total, ""))
        # An unclear first look whose point numbers lean to the turn a clear quarter look names (`numbers_lean`):
        # confirmed too (print the letter network reads about as well in every turn, its numbers found on few
        # tiles: held-out plum_slab 504 turned 90, numbers 2 against 0 for the turn the quarter look says). And a
        # clear quarter look that sees more letters than the unclear first and whose numbers alone say its turn
        # (`numbers_turn`) is the board's side (held-out thin tall 501 turned 180: first look 19 letters, numbers
        # 1, 1, 0, 1, read as photographed; a quarter round, 28 letters and 19 numbers against 0).
        if not turned.doubt and (numbers_lean(first_votes) == total or (
                more > found and numbers_turn(again_votes) == turned.turn)):
            return UprightLook(quarter, again, 1, Orientation(total, ""))
        # An unclear first look whose print lay on its side (`quarter_look_stands`): the clear quarter look
        # that sees as many letters standing is the board's side.
        if (side.doubt and not turned.doubt and more >= found
                and quarter_look_stands(glyph_aspect(first_letters), glyph_aspect(again_letters))):
            return UprightLook(quarter, again, 1, Orientation(total, ""))
        if more >= SIDEWAYS_MORE * found and letters_on_plain_squares(again) >= LETTERS_TO_VOTE:
            # Unclear about its side, but it sees letters on plain squares the first look missed: tiles,
            # which the first look took for empty squares, sure (crossword yellow render 502 photographed a
            # quarter round: first look 1 letter, 16 squares wrong at >= 0.98; looked a quarter round, 29
            # letters, 21 on plain squares). An empty board's premium print, which a quarter look also takes
            # for letters (jheidel 165303-165320: 17-55 of them), lies on premium squares only: 0 plain.
            # The look that sees the tiles is kept, with its doubt: asked.
            return UprightLook(quarter, again, 1, Orientation(total, turned.doubt))
    return UprightLook(place, seen, 0, side)


# ---- 4. Each tile's letter

@dataclass(frozen=True)
class Letters:
    """Per tile (in `SeenSquares.tile_squares` order): the letter, its confidence and who decided it."""

    letters: list[str]
    confidences: list[float]
    deciders: list[str]  # "mlp", "blank" (no mark), "tesseract" or "mlp+tesseract"


def decide_letters(seen: SeenSquares, models: Models, tileset: TileSet, second_opinion: bool) -> Letters:
    """The network's letters, Tesseract asked about the most doubtful few when installed and wanted."""
    primary, probs, crops = models.letters, seen.probs, seen.crops
    letters = [primary.net.classes[int(k)] for k in probs.argmax(axis=1)]
    confs = [float(probs[i].max()) for i in range(len(crops))]
    who = ["mlp" if c.glyph is not None else "blank" for c in crops]

    unsure = [i for i, c in enumerate(confs) if c < SECOND_OPINION_BELOW and crops[i].glyph is not None]
    # Each Tesseract call costs ~0.15-0.3 s: ask only about the most doubtful few.
    unsure = sorted(unsure, key=lambda i: confs[i])[:SECOND_OPINION_MAX]
    if unsure and second_opinion and TesseractRecogniser.available():
        tess = TesseractRecogniser(tileset.alphabet)
        for i, (t_letter, t_conf) in zip(unsure, tess.classify([crops[i] for i in unsure]), strict=True):
            if t_letter == BLANK or t_letter not in primary.net.classes:
                continue
            p_t = float(probs[i, primary.net.classes.index(t_letter)])
            # Tesseract decides only between letters the primary itself found plausible.
            if t_letter != letters[i] and p_t >= 0.1:
                letters[i], confs[i], who[i] = t_letter, max(p_t, min(t_conf, confs[i])), "tesseract"
            elif t_letter == letters[i]:
                who[i] = "mlp+tesseract"
                confs[i] = max(confs[i], 0.5 * (confs[i] + t_conf))
    return Letters(letters, confs, who)


# ---- 5. The grid

@dataclass(frozen=True)
class GridDraft:
    """The grid as rows of squares (`.` empty), the confidence of each square and who decided each tile;
    the later stages (words, the previous board) change it in place."""

    grid: list[list[str]]
    confidence: list[list[float]]
    deciders: list[list[str]]

    @property
    def rows(self) -> list[str]:
        return ["".join(row) for row in self.grid]


def fill_grid(seen: SeenSquares, letters: Letters) -> GridDraft:
    """The letters on their squares; a square's confidence is P(tile) times the letter's, or P(empty)."""
    occ = seen.occupancy
    grid = [["."] * SIZE for _ in range(SIZE)]
    conf = [[float(1.0 - occ[r, c]) for c in range(SIZE)] for r in range(SIZE)]
    rec = [[""] * SIZE for _ in range(SIZE)]
    for i, ((r, c), letter, cf, w) in enumerate(zip(seen.tile_squares, letters.letters, letters.confidences,
                                                    letters.deciders, strict=True)):
        if seen.noise[i] > NOT_LETTER_ABOVE and occ[r, c] < OCCUPIED_SURE:
            # The mark is premium print, the star or a neighbour's edge, and the square's look alone
            # was not decisive: it stays empty.
            conf[r][c] = float(seen.noise[i])
            continue
        grid[r][c] = letter
        conf[r][c] = float(occ[r, c]) * cf
        rec[r][c] = w
    return GridDraft(grid, conf, rec)


# ---- 6. What vouches for the letters

# A point number read this clearly (its value's probability) names the tile's value: the network's letter of
# another value gives way to its most probable letter of that value (`narrow_by_number`) when the network found that
# letter plausible (>= NARROWED_FROM) or Tesseract reads it, unless Tesseract reads the network's own letter (two
# readings against the number). Each set read by the models trained without it (docs/reader-real-letters.md):
# jheidel's two S's read B (a 1 clearly printed, B is worth 3), S at 0.315, and at 0.017 with Tesseract reading S;
# cava_ro 2_12 E9, a D read O (Tesseract D); a blurred S read H (its 1 read, no letter worth 1 above 0.005) left
# alone. At 0.05 umich's X of photo_278660284 E7 (its 8 read 1) became A (0.061), Tesseract reading X at 0.02.
NARROWING_NUMBER_FROM = 0.9
NARROWED_FROM = 0.1


@dataclass(frozen=True)
class EvidenceGrid:
    """Per square: what vouches for its letter (`vision.evidence` tags), what Tesseract read ("A 0.93", ""
    where it was not asked), and the point number's clear value (None: no number, or not clear)."""

    tags: list[list[str]]
    tesseract: list[list[str]]
    number_value: list[list[int | None]] = field(default_factory=lambda: [[None] * SIZE for _ in range(SIZE)])
    # per square, whether a point number was found on its tile at all (read or not): a blank printed with its
    # letter in lower case has none (`vision.lowercase`)
    number_found: list[list[bool]] = field(default_factory=lambda: [[False] * SIZE for _ in range(SIZE)])


def cut_beside_its_number(crop: TileCrop, polarity: int) -> bool:
    """Whether the letter network read `crop`'s letter with a piece cut off as its point number
    (`vision.recognise.without_point_number`). Asked only of a tile whose number stands apart from the letter
    (`vision.points.number_patch` found it): a tile has one number, so the piece cut was the letter's own.
    Held-out mint_schoolbook_steep (a narrow serif face), renders 504 L8 and 506 F8: an L's foot ends in a serif
    that rises like a 1, it was cut off, and the stem left read I at 0.99, sure and wrong, its number (1, an L's
    value as well as an I's) and its nearest stored example (a stem, an I's) agreeing. Such a letter is asked
    (`vision.confidence`, "cut_not_number")."""
    if crop.glyph is None:
        return False
    letter = tile_letter(crop.window, crop.glyph, polarity)
    return without_point_number(crop.window, letter) is not letter


# A letter cut short beside its number (`cut_beside_its_number`) is read again whole, and the whole letter is taken
# when the network reads it plainly (WHOLE_LETTER_FROM); it stays asked either way ("cut_not_number"). In the
# held-out table of 2026-11-28's seventh stop (rules of 8675e98, 8 renders a style) 14 of 89301 squares were so cut:
# mint_schoolbook_steep 504 L8 and 506 F8, L's read I from the stem left, read whole L at 0.99 and 1.00 by the models
# trained without mint; the 12 others (umich's Z's, Q, M, B, jheidel's N's) read the same letter whole or not plainly,
# and nothing else of the table changes.
WHOLE_LETTER_FROM = 0.9


def _read_whole(seen: SeenSquares, draft: GridDraft, models: Models, tileset: TileSet, lettered: list[int],
                letters: list[str], shapes: list[str], cut_apart: list[bool]) -> None:
    """The letters of `lettered` cut short beside their number, read again whole (WHOLE_LETTER_FROM), in place:
    `letters`, `shapes` and the draft's grid and confidence, and the square's probabilities in `seen`."""
    again = [k for k, cut in enumerate(cut_apart) if cut]
    if not again:
        return
    raw, inputs = models.letters.probabilities_and_inputs([seen.crops[lettered[k]] for k in again], whole=True)
    probs = models.letters.letters_only(raw)
    whole_shapes = models.letters.shape_letters(inputs)
    classes = models.letters.net.classes
    for row, k in enumerate(again):
        best = int(probs[row].argmax())
        letter = classes[best]
        if letter == letters[k] or letter == BLANK or letter not in tileset.values or (
                float(probs[row, best]) < WHOLE_LETTER_FROM):
            continue
        i = lettered[k]
        r, c = seen.tile_squares[i]
        letters[k], shapes[k] = letter, whole_shapes[row]
        draft.grid[r][c] = letter
        draft.confidence[r][c] = float(seen.occupancy[r, c]) * float(probs[row, best])
        draft.deciders[r][c] = "whole"
        seen.probs[i], seen.inputs[i] = probs[row], inputs[row]


def letter_evidence_grid(seen: SeenSquares, draft: GridDraft, models: Models, tileset: TileSet,
                         ask_tesseract: bool = True) -> EvidenceGrid:
    """Per square, what vouches for its letter besides the network (`vision.evidence` tags: its point
    number, its nearest stored example, Tesseract); "" for empty squares and blanks. `vision.confidence.assess`
    keeps letters without it below sure. With `ask_tesseract` and the in-process engine
    (`TesseractRecogniser.fast`), Tesseract reads every letter its point number does not vouch for.
    A letter whose clearly read number names another value gives way first (`narrow_by_number`, in `draft`)."""
    grid, squares = draft.grid, seen.tile_squares
    evidence = [[""] * SIZE for _ in range(SIZE)]
    tess_read = [[""] * SIZE for _ in range(SIZE)]
    number_value: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    number_found = [[False] * SIZE for _ in range(SIZE)]
    lettered = [i for i, (r, c) in enumerate(squares) if grid[r][c] in tileset.values and grid[r][c] != BLANK]
    if lettered:
        crops = [seen.crops[i] for i in lettered]
        letters = [grid[squares[i][0]][squares[i][1]] for i in lettered]
        numbers = (models.points.values(crops, set(tileset.values.values())) if models.points
                   else [None] * len(lettered))
        shapes = models.letters.shape_letters(seen.inputs[lettered])
        polarity = print_polarity(np.array([crop.window for crop in crops]), CELL)
        cut_apart = [q is not None and cut_beside_its_number(crop, int(v))
                     for q, crop, v in zip(numbers, crops, polarity, strict=True)]
        _read_whole(seen, draft, models, tileset, lettered, letters, shapes, cut_apart)
        found = letter_evidence(letters, numbers, shapes, tileset.values)
        reads: list[tuple[str, float] | None] = [None] * len(lettered)
        # Tesseract reads every letter its number does not vouch for, and the letters the number alone cannot make
        # sure (`vision.confidence.agreement_excuses`): where the network's letter is below sure, or the nearest
        # stored example is of another letter. (A board the network hesitates over needs no more: there the number
        # alone answers for a firm letter.)
        ask = [k for k, ev in enumerate(found) if crops[k].glyph is not None
               and (ev.number <= 0 or ev.shape < 0
                    or draft.confidence[squares[lettered[k]][0]][squares[lettered[k]][1]] < SURE)]
        if ask and ask_tesseract and TesseractRecogniser.fast():
            answers = TesseractRecogniser(tileset.alphabet).classify([crops[k] for k in ask])
            for k, answer in zip(ask, answers, strict=True):
                reads[k] = answer
        for k, (i, q) in enumerate(zip(lettered, numbers, strict=True)):
            r, c = squares[i]
            number_found[r][c] = q is not None
            if q:
                value, p = max(q.items(), key=lambda kv: kv[1])
                number_value[r][c] = value if p >= NARROWING_NUMBER_FROM else None
            narrowed = narrow_by_number(seen.probs[i], models.letters.net.classes, letters[k], number_value[r][c],
                                        reads[k], tileset.values)
            if narrowed is not None:
                letters[k], p_new = narrowed
                grid[r][c] = letters[k]
                draft.confidence[r][c] = float(seen.occupancy[r, c]) * p_new
                draft.deciders[r][c] = "number"
                continue
            told = tesseract_decides(seen.probs[i], models.letters.net.classes, letters[k], reads[k], shapes[k],
                                     number_value[r][c], draft.confidence[r][c], tileset.values)
            if told is not None:
                letters[k], conf = told
                grid[r][c] = letters[k]
                draft.confidence[r][c] = float(seen.occupancy[r, c]) * conf
                draft.deciders[r][c] = "tesseract"
        found = letter_evidence(letters, numbers, shapes, tileset.values, reads)
        for i, ev, read, letter, shape, cut in zip(lettered, found, reads, letters, shapes, cut_apart, strict=True):
            r, c = squares[i]
            evidence[r][c] = ev.tags
            if cut:
                evidence[r][c] += ",cut_apart"  # a piece of the letter cut off as its number, which stands apart
            if ev.number > 0 and ev.shape < 0 and tileset.values.get(shape) != tileset.values.get(letter):
                # the nearest example is of a letter of another value, which the number read rules out: the number,
                # a reading outside the network, decides between the two (`vision.confidence`)
                evidence[r][c] += ",number>shape"
            if read is not None:
                tess_read[r][c] = f"{read[0]} {read[1]:.2f}"
    return EvidenceGrid(evidence, tess_read, number_value, number_found)


def tesseract_decides(probs: F32, classes: Sequence[str], letter: str, tesseract: tuple[str, float] | None,
                      shape: str, value: int | None, confidence: float,
                      values: Mapping[str, int]) -> tuple[str, float] | None:
    """Tesseract's letter in place of the network's, and its confidence, where the network is unsure of its own
    (below SURE), nothing else vouches for it (the nearest stored example is of another letter, the number does
    not read its value), Tesseract reads another letter clearly (TESSERACT_AGAINST), the network found that
    letter plausible (PLAUSIBLE_FROM) and the number does not read against it; else None. Two independent
    readings against one unsure network, as `decide_letters` lets Tesseract decide below SECOND_OPINION_BELOW;
    the confidence is found the same way, so the letter stays below sure and is asked about.
    Held-out plum_slab (a slab face the network never trained on): 503 D2, an E read R at 0.68 (E 0.06),
    and 501 E6, an E read Z at 0.65 (E 0.24), each with Tesseract reading E at 0.93 and its nearest stored
    example a B. In the held-out records of every labelled set and trained style at the same rules, Tesseract
    read another letter this clearly under an unsure letter only there (both times right)."""
    if tesseract is None or confidence >= SURE or shape == letter:
        return None
    said, clear = tesseract
    if said == letter or not said.isalpha() or said not in classes or said not in values or clear < TESSERACT_AGAINST:
        return None
    if value is not None and (value == values.get(letter) or value != values[said]):
        return None
    p_said = float(probs[classes.index(said)])
    if p_said < PLAUSIBLE_FROM:
        return None
    return said, max(p_said, min(clear, float(probs.max())))


def narrow_by_number(probs: F32, classes: Sequence[str], letter: str, value: int | None,
                     tesseract: tuple[str, float] | None, values: Mapping[str, int]) -> tuple[str, float] | None:
    """The letter a tile's clearly read point number narrows the network's reading to, and its probability; None
    when the number is unclear, agrees with `letter`, or names a value none of whose letters the network found
    plausible (NARROWED_FROM) nor Tesseract read, or when Tesseract reads `letter` itself."""
    if value is None or letter not in values or values[letter] == value:
        return None
    best: tuple[str, float] | None = None
    for k in np.argsort(-probs):
        ch = classes[int(k)]
        if ch.isalpha() and values.get(ch) == value:
            best = (ch, float(probs[int(k)]))
            break
    if best is None:
        return None
    said = tesseract[0] if tesseract is not None else ""
    if said == letter:
        return None  # Tesseract reads the network's letter: the number alone does not outweigh two readings
    if best[1] >= NARROWED_FROM or (said == best[0] and best[1] >= PLAUSIBLE_FROM):
        return best
    return None
