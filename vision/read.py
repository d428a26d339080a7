"""The board reader's pipeline: photo -> grid of letters with confidences -> the move just played.

`read_board(image, corners=None, previous=None, tiles="en")` is what the app and `companion read` call.
It decodes the photo, finds the grid (the four corners given, or `vision.locate` when present),
straightens it, decides occupancy per square, reads the letter on each tile (numpy recogniser first,
Tesseract as a second opinion on unsure tiles when installed), and with a previous board reports the
new tiles, the words they form and their score under the chosen tile set, by the rules core.
A known tile that now reads differently is reported in `changed`, never silently replaced.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, Field

from companion.rules.board import Board, PlacedTile, Square, Tile, load_layout
from companion.rules.errors import IllegalPlacement, RulesDataError
from companion.rules.placement import validate_placement
from companion.rules.scoring import score_play
from companion.rules.tiles import TileSet, load_tileset
from vision.cells import CELL, MARGIN, SIZE, U8, cell_window, find_glyph, glyph_features, warp_board
from vision.confidence import DOUBTFUL_AT_MOST, assess
from vision.decode import Photo, decode_image, decode_photo  # noqa: F401 - decode_image: read.py's public API
from vision.errors import NoBoardFound
from vision.evidence import letter_evidence
from vision.mlp import Mlp
from vision.occupancy import FEATURES, PLAIN_AT_MOST, OccupancyModel, SquareLook, letter_offset_near, measure
from vision.orientation import number_votes, upright_turn
from vision.points import ASSET as POINTS_ASSET
from vision.points import PointReader, from_extras
from vision.recognise import BLANK, MlpRecogniser, TesseractRecogniser, TileCrop
from vision.sequence import Disagreement, illegal_doubt, reconcile, unclear_letter_doubt, unseen_doubt
from vision.words import SETTLED_AT_MOST, TRIED_PER_SQUARE, settle_by_words

# OpenCV threads while reading. The app runs on small machines (2 cores shared with the server, the
# browser, other reads): OpenCV's idle worker threads spin and add CPU time without making a read
# faster. One thread, measured with benchmarks/vision.py at 2 MP: CPU median 0.49-0.55 -> 0.32-0.34 s
# with wall time unchanged (0.30-0.35 s). Set COMPANION_VISION_THREADS to another count, 0 for OpenCV's
# own default (a big machine reading one photo at a time).
THREADS_ENV = "COMPANION_VISION_THREADS"


@functools.lru_cache(maxsize=1)
def _opencv_threads() -> int:
    """Set OpenCV's thread count once, at the first read (it is process-wide); returns it (0: default)."""
    raw = os.environ.get(THREADS_ENV, "1").strip()
    if not raw.isdigit():
        raise ValueError(f"{THREADS_ENV} must be a whole number of threads (0 for OpenCV's default), not {raw!r}")
    n = int(raw)
    if n > 0:
        cv2.setNumThreads(n)
    return n


# Above this many pixels along the board's side the photo is shrunk before warping: the straightened
# board is only 15 * CELL pixels, and shrinking first both saves time and avoids aliasing.
_MAX_BOARD_PX = 2 * 16 * CELL
Z_SCALE = 5.0  # `measure` stores the z features clipped and divided by 5
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
MARK_OFF_TILES_AT_MOST = 0.2  # squares: how far a mark may sit from where the tiles around show their letters
# Premium squares differ from plain ones by 47-100 Lab units on every labelled photo; noise gives < 10.
NO_BOARD_BELOW = 20.0
UPRIGHT_SAMPLE = 40  # tiles the orientation vote looks at, at most
# Glyphs turned k quarter turns counter-clockwise read upright -> roll of the corner list that names the
# board from that side.
_ROLL_FOR_GLYPH_TURN = {1: 3, 2: 2, 3: 1}  # primary confidence under which Tesseract is asked, when available


class NewTile(BaseModel):
    square: str
    letter: str
    confidence: float


class ChangedTile(BaseModel):
    square: str
    was: str
    now: str


class WordScore(BaseModel):
    word: str
    position: str
    score: int


class OverruledSquare(BaseModel):
    """A square where the known board or the rules overruled the photo (`vision.sequence.Disagreement`)."""

    square: str
    row: int
    col: int
    known: str  # the known tile kept, or "." for a mark not taken as a new tile
    read: str  # what the photo alone showed
    confidence: float
    why: str


class BoardReading(BaseModel):
    """Everything one photo told the reader; `grid` uses `.` empty, `A`-`Z` tiles, `?` blank tiles."""

    grid: list[str]
    confidence: list[list[float]]
    corners: list[list[float]]
    located: str  # "given" or the locator's method
    doubtful: bool = False
    recogniser: list[list[str]] = Field(default_factory=list)  # who decided each tile ("" when empty)
    occupancy: list[list[float]] = Field(default_factory=list)  # P(tile) per square
    new_tiles: list[NewTile] | None = None
    words: list[WordScore] | None = None
    score: int | None = None
    changed: list[ChangedTile] = Field(default_factory=list)
    # read with a previous board: squares where it overruled this photo (unclear known tiles kept, stray
    # marks not taken as new tiles)
    disagreements: list[OverruledSquare] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    doubts: list[str] = Field(default_factory=list)  # why the reading is doubtful (vision.confidence.assess)
    # per square, what vouches for the letter besides the letter network (`vision.evidence` tags: "number",
    # "shape", "!number", "!shape", comma-separated; "" for empty squares and blanks)
    evidence: list[list[str]] = Field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The CLI's JSON: grid, confidence, corners and, with a previous board, the move."""
        out: dict[str, Any] = {
            "grid": self.grid,
            "confidence": [[round(c, 3) for c in row] for row in self.confidence],
            "corners": [[round(v, 1) for v in pt] for pt in self.corners],
            "located": self.located,
            "doubtful": self.doubtful,
            "doubts": self.doubts,
            # Who decided each tile: "mlp" (numpy recogniser), "tesseract", "mlp+tesseract" (agreed) or
            # "blank" (no letter printed); row-major, tiles only.
            "tiles": [
                {"square": f"{chr(65 + c)}{r + 1}", "letter": self.grid[r][c],
                 "confidence": round(self.confidence[r][c], 3), "recogniser": self.recogniser[r][c],
                 # what vouched for the letter besides the network (vision.evidence): "number", "shape",
                 # "!number" (the point number reads another value), "!shape"
                 "evidence": self.evidence[r][c] if self.evidence else ""}
                for r in range(SIZE) for c in range(SIZE) if self.grid[r][c] != "."
            ],
        }
        if self.new_tiles is not None:
            out["new_tiles"] = [{"square": t.square, "letter": t.letter} for t in self.new_tiles]
            out["words"] = [w.word for w in self.words or []]
            out["word_scores"] = [w.model_dump() for w in self.words or []]
            out["score"] = self.score
            out["changed"] = [c.model_dump() for c in self.changed]
            out["kept"] = [d.model_dump() for d in self.disagreements]
        out["warnings"] = self.warnings
        return out


def _parse_corners(corners: npt.ArrayLike) -> npt.NDArray[np.float32]:
    arr = np.asarray(corners, dtype=np.float32).reshape(-1)
    if arr.size != 8 or not np.all(np.isfinite(arr)):
        raise ValueError("corners must be four x,y points: top-left, top-right, bottom-right, bottom-left")
    return arr.reshape(4, 2)


def _locate(image: U8) -> tuple[npt.NDArray[np.float32], str, bool]:
    try:
        from vision import locate  # the grid finder (part 1), when it is installed
    except ImportError:
        raise NoBoardFound(
            "automatic board finding is not available here: give the four grid corners (--corners)"
        ) from None
    found = locate.locate_grid(image)
    return np.asarray(found.corners, np.float32), str(found.method), bool(found.doubtful)


@functools.lru_cache(maxsize=1)
def _occupancy_model() -> OccupancyModel:
    return OccupancyModel.load()


@functools.lru_cache(maxsize=1)
def _shipped_point_reader() -> PointReader | None:
    return PointReader.load() if POINTS_ASSET.exists() else None


def _point_reader(letters_net: Mlp | None) -> PointReader | None:
    """The point-number reader a given letter network carries (held-out benchmark models), else the shipped one."""
    if letters_net is not None:
        return from_extras(letters_net.extras) or _shipped_point_reader()
    return _shipped_point_reader()


@functools.lru_cache(maxsize=8)
def _recogniser(alphabet: str) -> MlpRecogniser:
    return MlpRecogniser.load(alphabet)


def _tileset(tiles: str | Path | TileSet) -> TileSet:
    return tiles if isinstance(tiles, TileSet) else load_tileset(tiles)


def previous_grid(previous: BoardReading | Board | Sequence[str]) -> list[str]:
    """A previous board as 15 strings, from a reading, a Board or rows; `ValueError` if malformed."""
    if isinstance(previous, BoardReading):
        return list(previous.grid)
    if isinstance(previous, Board):
        return previous.rows()
    rows = [str(r) for r in previous]
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError(f"a previous board must be {SIZE} rows of {SIZE} characters")
    Board.from_rows(rows)  # raises ValueError naming the bad square
    return rows


def read_board(
    image: bytes | bytearray | str | Path | U8 | Photo,
    corners: npt.ArrayLike | None = None,
    previous: BoardReading | Board | Sequence[str] | None = None,
    tiles: str | Path | TileSet = "en",
    second_opinion: bool = True,
    occupancy_model: OccupancyModel | None = None,
    letters_net: Mlp | None = None,
    upright: bool = True,
    words: Callable[[str], bool] | None = None,
) -> BoardReading:
    """Read one photo of a board; with `previous`, also the move played since.

    Raises `NotAnImage`, `NoBoardFound` (give corners), `ValueError` for malformed corners or previous
    board, and `RulesDataError` for an unknown tile set. `occupancy_model` and `letters_net` replace
    the shipped models (the benchmark passes held-out ones). With `upright`, a board photographed from
    another side of the table (letters sideways or upside down) is turned so its letters read upright.

    With `previous` (the board the game holds), the photo is read knowing it (`vision.sequence`): a known
    tile keeps its letter unless the photo clearly shows otherwise (then it is listed in `changed`), and
    unsure marks that no legal play can include are not new tiles; `disagreements` lists what was
    overruled. With `words` (a word list's membership test, e.g. a `lexicon.store.Lexicon`'s) and no
    `previous`, a letter the photo left unclear is decided by the words through its square (`vision.words`);
    never a move's new tiles, which may be a phony about to be challenged. Corners, given or found, are in
    the pixels of the whole photo as it is shown (EXIF orientation applied), whatever size it was decoded at.
    """
    _opencv_threads()
    tileset = _tileset(tiles)
    # A big JPEG is decoded at the reduced size the grid needs (`vision.decode`).
    photo = image if isinstance(image, Photo) else decode_photo(image)
    warnings: list[str] = []
    if corners is not None:
        pts = _parse_corners(corners) * np.float32(photo.scale)
        located, doubtful = "given", False
    else:
        pts, located, doubtful = _locate(photo.image)
        if doubtful:
            warnings.append("the board's corners were found with low confidence: check the overlay or give them")

    side = _board_side(pts)
    if side < SIZE * CELL and photo.scale < 1.0:
        # The board is small in a reduced decode: decode the same bytes sharper, so the straightened squares
        # are made from at least CELL pixels each rather than blown up.
        finer = photo.finer(photo.scale * SIZE * CELL / side)
        pts, photo = pts * np.float32(finer.scale / photo.scale), finer
        side = _board_side(pts)
    img = photo.image
    # Shrink very large photos first (a 12 MP photo's board is far bigger than the straightened image).
    work, work_pts = img, pts
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
    warped = warp_board(work, work_pts, CELL, MARGIN)
    look = measure(warped, CELL)
    if look.board_evidence < NO_BOARD_BELOW:
        if corners is None:
            raise NoBoardFound("no board was found in the photo (no premium squares where the grid should be): "
                               "photograph the whole board from above, or give its four corners")
        warnings.append("the squares inside the given corners do not show a board's premium pattern: "
                        "check the corners")
    occ = (occupancy_model or _occupancy_model()).probabilities(look)
    # Leave-one-set-out, this takes two empty squares in shadow off declanfinerty board_003 (it shows its
    # two real blanks), and one spacer tile off umich's name-art board rectified_w11 (seven, not a game).
    _at_most_the_sets_blanks(occ, look, tileset)
    gray = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)

    tile_squares = [(r, c) for r in range(SIZE) for c in range(SIZE) if occ[r, c] >= 0.5]
    # Squares judged empty that show a letter-sized mark where the tiles around show theirs are read too
    # (one network pass for all): a plain tile on a board of nearly its colour (umich's dim wooden boards)
    # carries its letter anyway, and so does a tile whose top the camera's angle shifted off its square.
    maybe = _letter_marks_where_tiles_show_them(look, occ)
    crops = []
    for r, c in tile_squares + maybe:
        window = cell_window(gray, r, c, 1.5, CELL, MARGIN)
        # (a thin mark set aside as a tile's edge is not taken again: a plain tile is a blank)
        edge = look.edges.get((r, c))
        glyph = look.glyphs[r][c] or find_glyph(window, CELL, light_letters=True,
                                                exclude=(edge.dx, edge.dy) if edge else None)
        crops.append(TileCrop(window, glyph))
    primary = MlpRecogniser(letters_net, tileset.alphabet) if letters_net else _recogniser(tileset.alphabet)
    raw, inputs = primary.probabilities_and_inputs(crops)
    noise = primary.not_letter(raw)
    probs = primary.letters_only(raw)  # one network pass serves both
    n_tiles = len(tile_squares)
    rescued = [i for i in range(n_tiles, len(crops)) if _plainly_a_letter(primary, probs[i], float(noise[i]))]
    for i in rescued:
        occ[maybe[i - n_tiles]] = RESCUED_OCCUPANCY
    keep = list(range(n_tiles)) + rescued
    tile_squares = tile_squares + [maybe[i - n_tiles] for i in rescued]
    crops, raw, noise, probs, inputs = [crops[i] for i in keep], raw[keep], noise[keep], probs[keep], inputs[keep]
    orientation_doubt = ""
    if upright:
        # Two signals: the letter network's reading of the tiles turned, and where the point numbers stand
        # (`vision.orientation`, no trained model).
        turn, unclear = upright_turn(_letter_scores(primary, crops), number_votes(crops))
        if unclear:
            orientation_doubt = ("the letters read almost as well turned a quarter or half turn, or the tiles' "
                                 "point numbers stand for another turn than the letters: which side of "
                                 "the board is at the bottom of the photo is unclear; check the reading, or "
                                 "photograph the board from a player's seat")
        if turn:
            # The letters stand turned: read again with the corners named from another side.
            turned = read_board(photo, np.roll(pts, _ROLL_FOR_GLYPH_TURN[turn], axis=0) / photo.scale, previous,
                                tileset,
                                second_opinion,
                                occupancy_model, letters_net, upright=False, words=words)
            turned.located = located
            turned.doubtful = doubtful or turned.doubtful
            turned.warnings[:0] = warnings + [
                (f"the letters were sideways or upside down: the board was read turned {90 * turn} degrees "
                "counter-clockwise so they stand upright (rows and columns follow the turned board)")]
            if orientation_doubt:  # another turn read the letters about as well as the one taken
                _doubt(turned, orientation_doubt)
            return turned
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

    grid = [["."] * SIZE for _ in range(SIZE)]
    conf = [[float(1.0 - occ[r, c]) for c in range(SIZE)] for r in range(SIZE)]
    rec = [[""] * SIZE for _ in range(SIZE)]
    for i, ((r, c), letter, cf, w) in enumerate(zip(tile_squares, letters, confs, who, strict=True)):
        if noise[i] > NOT_LETTER_ABOVE and occ[r, c] < OCCUPIED_SURE:
            # The mark is premium print, the star or a neighbour's edge, and the square's look alone
            # was not decisive: it stays empty.
            conf[r][c] = float(noise[i])
            continue
        grid[r][c] = letter
        conf[r][c] = float(occ[r, c]) * cf
        rec[r][c] = w

    # What vouches for each letter besides the network (`vision.evidence`): its point number, its nearest
    # stored example. `vision.confidence.assess` keeps letters without it below sure.
    evidence = [[""] * SIZE for _ in range(SIZE)]
    lettered = [i for i, (r, c) in enumerate(tile_squares) if grid[r][c] in tileset.values and grid[r][c] != BLANK]
    if lettered:
        points = _point_reader(letters_net)
        numbers = (points.values([crops[i] for i in lettered], set(tileset.values.values())) if points
                   else [None] * len(lettered))
        shapes = primary.shape_letters(inputs[lettered])
        found = letter_evidence([grid[tile_squares[i][0]][tile_squares[i][1]] for i in lettered], numbers, shapes,
                                tileset.values)
        for i, ev in zip(lettered, found, strict=True):
            evidence[tile_squares[i][0]][tile_squares[i][1]] = ev.tags

    if words is not None and previous is None:
        _settle_by_words(grid, conf, rec, occ, tile_squares, probs, primary.net.classes, words,
                         tileset.alphabet, warnings)

    before = previous_grid(previous) if previous is not None else None
    overruled: list[Disagreement] = []
    if before is not None:
        # Known tiles keep their letters unless the photo clearly shows otherwise (`vision.sequence`).
        index = {sq: i for i, sq in enumerate(tile_squares)}
        classes = primary.net.classes
        p_known = {(r, c): float(probs[index[(r, c)], classes.index(before[r][c])])
                   for r in range(SIZE) for c in range(SIZE)
                   if (r, c) in index and before[r][c] in classes and before[r][c].isupper()}
        empty_z, tile_z = ((look.features[:, FEATURES.index(name)] * Z_SCALE).reshape(SIZE, SIZE).tolist()
                           for name in ("z_to_empty", "z_to_tile"))
        overruled = reconcile(grid, conf, before, p_known, tileset, empty_z, tile_z)
        for d in overruled:
            rec[d.row][d.col] = "known" if d.known != "." else ""
    out_corners = (pts / np.float32(photo.scale)).tolist()
    reading = BoardReading(
        grid=["".join(row) for row in grid], confidence=conf, corners=out_corners, located=located,
        doubtful=doubtful, recogniser=rec, occupancy=occ.round(4).tolist(), warnings=warnings, evidence=evidence,
        disagreements=[OverruledSquare(**vars(d)) for d in overruled],
    )
    if before is not None:
        if overruled:
            reading.warnings.append(_overruled_note(overruled))
        detect_move(reading, before, tileset)
    # Honest confidence and the reading's doubts (vision/confidence.py owns the policy).
    assess(reading, look, tile_squares, probs, previous_grid(previous) if previous is not None else None)
    unseen = unseen_doubt(overruled)
    if before is not None and not unseen:
        unseen = illegal_doubt(reading.grid, before, tileset)
    if before is not None and not unseen:
        unseen = unclear_letter_doubt(reading.grid, reading.confidence, before)
    for doubt in (unseen, orientation_doubt):
        if doubt:
            # Many known tiles hidden (the move's own tiles may be hidden too), new tiles that cannot be one
            # play, a new tile's letter guessed, or an unclear orientation (a wrong side puts every tile on another square).
            _doubt(reading, doubt)
    return reading


def _settle_by_words(grid: list[list[str]], conf: list[list[float]], rec: list[list[str]],
                     occ: npt.NDArray[np.float32], tile_squares: Sequence[tuple[int, int]],
                     probs: npt.NDArray[np.float32], classes: Sequence[str], words: Callable[[str], bool],
                     alphabet: str, warnings: list[str]) -> None:
    """Letters the network was unsure of, decided by the words through their squares (`vision.words`)."""
    options: dict[tuple[int, int], list[tuple[str, float]]] = {}
    for i, (r, c) in enumerate(tile_squares):
        if grid[r][c] in (".", BLANK):
            continue
        # (which of them the words may change is `vision.words`' decision: CHANGE_BELOW)
        order = np.argsort(-probs[i])[:TRIED_PER_SQUARE + 1]
        options[(r, c)] = [(classes[int(k)], float(probs[i, k])) for k in order]
        if grid[r][c] not in dict(options[(r, c)]):  # Tesseract's letter, outside the network's few
            options[(r, c)].append((grid[r][c], float(probs[i, classes.index(grid[r][c])])
                                    if grid[r][c] in classes else 0.0))
    settled = settle_by_words(grid, options, words, "".join(ch for ch in alphabet if ch.isalpha()))
    for s in settled:
        grid[s.row][s.col] = s.letter
        conf[s.row][s.col] = float(occ[s.row, s.col]) * min(SETTLED_AT_MOST, s.p_read + s.p_letter)
        rec[s.row][s.col] = "words"
    if settled:
        warnings.append("letters the photo left unclear were decided by the words through them (check them): "
                        + ", ".join(f"{s.square} {s.letter} (read {s.read})" for s in settled))


def _at_most_the_sets_blanks(occ: npt.NDArray[np.float32], look: SquareLook, tileset: TileSet) -> None:
    """A board holds no more blank tiles than its tile set has (English: 2): where more squares without a
    letter were judged tiles, only the most tile-like stay tiles (in place)."""
    if tileset.counts is None or BLANK not in tileset.counts:
        return
    plain = [(float(occ[r, c]), r, c) for r in range(SIZE) for c in range(SIZE)
             if look.glyphs[r][c] is None and occ[r, c] >= 0.5]
    for _p, r, c in sorted(plain, reverse=True)[tileset.counts[BLANK]:]:
        occ[r, c] = min(float(occ[r, c]), PLAIN_AT_MOST)


def _letter_marks_where_tiles_show_them(look: SquareLook, occ: npt.NDArray[np.float32]) -> list[tuple[int, int]]:
    """Squares judged empty whose mark is letter-sized and sits, within a fifth of a square, where the tiles
    judged occupied within two squares show their letters (the median offset; none near: the board's).

    Photographed at an angle, a tile's top (its letter) is seen off its square by the tile's thickness:
    on jheidel 170757 and 170803, T and L tiles a third of a square high, not centred and so missed.
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
            if abs(g.dx - dx) < MARK_OFF_TILES_AT_MOST and abs(g.dy - dy) < MARK_OFF_TILES_AT_MOST:
                out.append((r, c))
    return out


def _plainly_a_letter(primary: MlpRecogniser, letter_probs: npt.NDArray[np.float32], not_letter: float) -> bool:
    """Whether the letter network calls a centred mark plainly one letter (not print, a fold or a star)."""
    best = int(letter_probs.argmax())
    return (primary.net.classes[best] != BLANK and float(letter_probs[best]) >= RESCUE_LETTER_FROM
            and not_letter <= RESCUE_NOT_LETTER_AT_MOST)


def _doubt(reading: BoardReading, sentence: str) -> None:
    """Make a reading doubtful for one more reason: the app asks; like every doubtful reading
    (vision.confidence), no square of it stays sure."""
    reading.doubtful = True
    reading.doubts.append(sentence)
    reading.confidence = [[min(c, DOUBTFUL_AT_MOST) for c in row] for row in reading.confidence]


def _board_side(pts: npt.NDArray[np.float32]) -> float:
    """The longest side of the grid's quadrilateral, in pixels."""
    return float(max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[1]),
                     np.linalg.norm(pts[3] - pts[2]), np.linalg.norm(pts[0] - pts[3])))


def _overruled_note(overruled: Sequence[Disagreement]) -> str:
    kept = [d for d in overruled if d.known != "."]
    dropped = [d for d in overruled if d.known == "."]
    parts = []
    if kept:
        parts.append("known tiles this photo did not show clearly were kept: "
                     + ", ".join(f"{d.square} {d.known.upper()} (read {d.read})" for d in kept))
    if dropped:
        parts.append("unsure marks that no legal play includes were not taken as new tiles: "
                     + ", ".join(f"{d.square} {d.read}" for d in dropped))
    return "; ".join(parts)


def _letter_scores(primary: MlpRecogniser, crops: Sequence[TileCrop]) -> list[float] | None:
    """The letter network's mean confidence over the tiles' letters turned 0, 1, 2 and 3 quarter turns
    counter-clockwise (`np.rot90`); None when fewer than 4 tiles show a letter (too few to vote)."""
    glyphs = [c.glyph.image for c in crops if c.glyph is not None]
    if len(glyphs) < 4:
        return None
    # The vote is a mean over tiles: an even sample of a full board decides it as well, at a quarter of
    # the cost on a late-game board (this check was ~40% of the reading time at 2 MP).
    glyphs = [glyphs[i] for i in np.linspace(0, len(glyphs) - 1, min(len(glyphs), UPRIGHT_SAMPLE)).astype(int)]
    base = np.array(glyphs, np.float32)
    # all four turns in one batch: one feature pass and one network pass instead of four
    turned = np.concatenate([np.rot90(base, k, axes=(1, 2)) for k in range(4)])
    p = primary.net.predict_proba(glyph_features(np.ascontiguousarray(turned)))
    return [float(v) for v in p.max(axis=1).reshape(4, len(glyphs)).mean(axis=1)]


def detect_move(reading: BoardReading, before: list[str], tileset: TileSet) -> None:
    """Fill `new_tiles`, `words`, `score` and `changed` of a reading from the board before the turn."""
    now = reading.grid
    new: list[PlacedTile] = []
    new_out: list[NewTile] = []
    changed: list[ChangedTile] = []
    merged = [list(row) for row in before]
    for r in range(SIZE):
        for c in range(SIZE):
            b, n = before[r][c], now[r][c]
            name = Square(r, c).name
            if b == "." and n != ".":
                tile = Tile(n, blank=True) if n == BLANK else Tile(n)
                new.append(PlacedTile(Square(r, c), tile))
                new_out.append(NewTile(square=name, letter=n, confidence=round(reading.confidence[r][c], 4)))
                merged[r][c] = n
            elif b != "." and n == ".":
                changed.append(ChangedTile(square=name, was=b, now="."))
            elif b != "." and b.upper() != n and not (b.islower() and n == BLANK) and b != BLANK:
                changed.append(ChangedTile(square=name, was=b, now=n))
    reading.new_tiles = new_out
    reading.changed = changed
    if changed:
        reading.warnings.append(
            "the photo clearly shows known tiles differently (the move is scored on the board as it was; "
            "check these squares): "
            + ", ".join(f"{c.square} {c.was}->{c.now}" for c in changed)
        )
    if not new:
        reading.words, reading.score = [], 0
        reading.warnings.append("no new tiles were found since the previous board")
        return
    board = Board.from_rows(before)
    layout = load_layout("standard")
    if not any(p.tile.blank for p in new):
        try:
            validate_placement(board, new, layout, tileset)
        except IllegalPlacement as exc:
            reading.warnings.append(f"the new tiles do not form a legal play ({exc}): check the reading")
    try:
        play = score_play(board, new, layout, tileset)
    except RulesDataError as exc:
        reading.warnings.append(f"cannot score the play: {exc}")
        reading.words, reading.score = [], None
        return
    reading.words = [WordScore(word=w.text, position=w.position.notation, score=w.score) for w in play.words]
    reading.score = play.total
    if any(p.tile.blank for p in new):
        reading.warnings.append("a blank tile was played: say which letter it stands for (it scores 0)")


def load_previous(path: Path, tiles: str | Path | TileSet = "en",
                  corners: npt.ArrayLike | None = None, words: Callable[[str], bool] | None = None) -> list[str]:
    """A previous board from a file: a grid (15 lines, or JSON with a `grid`) or a photo to read."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot open the previous board {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        stripped = text.strip()
        if stripped.startswith(("{", "[")):
            try:
                obj = json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise ValueError(f"the previous board {path} is not valid JSON: {exc}") from None
            rows = obj.get("grid") if isinstance(obj, dict) else obj
            if not isinstance(rows, list):
                raise ValueError(f"the previous board {path} has no 'grid' list of 15 rows")
            return previous_grid([str(r) for r in rows])
        lines = [ln.strip() for ln in stripped.splitlines() if ln.strip()]
        return previous_grid(lines)
    return read_board(data, corners=corners, tiles=tiles, words=words).grid
