"""The board reader's pipeline: photo -> grid of letters with confidences -> the move just played.

`read_board(image, corners=None, previous=None, tiles="en")` is what the app and `companion read` call.
It decodes the photo, then runs the stages of `vision.stages` (find the grid, straighten it, decide
occupancy per square, read the letter on each tile with the numpy recogniser first and Tesseract as a second
opinion on unsure tiles when installed, turn a board photographed from another side), and applies what the
game knows: the word list settles unclear letters; with a previous board it reports the new tiles, the
words they form and their score under the chosen tile set, by the rules core. A known tile that now reads
differently is reported in `changed`, never silently replaced. This module owns the reading's types, the
driver `read_board`, and these game-knowing steps.
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
from vision import stages
from vision.cells import SIZE, U8
from vision.confidence import DOUBTFUL_AT_MOST, assess
from vision.decode import Photo, decode_image, decode_photo  # noqa: F401 - decode_image: read.py's public API
from vision.lowercase import read_lower_case_blanks
from vision.mlp import Mlp
from vision.occupancy import FEATURES, OccupancyModel
from vision.recognise import BLANK
from vision.sequence import Disagreement, illegal_doubt, reconcile, unclear_letter_doubt, unseen_doubt
from vision.stages import Models
from vision.words import SETTLED_AT_MOST, TRIED_PER_SQUARE, fill_by_words, settle_by_words

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


Z_SCALE = 5.0  # `measure` stores the z features clipped and divided by 5


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
    # "shape", "!number", "!shape", comma-separated; "" for empty squares and blanks; "words": the word list
    # vouches, `_words_witness`; "number>shape": the number rules out the nearest example's letter)
    evidence: list[list[str]] = Field(default_factory=list)
    # per square, what Tesseract read where it was asked as a witness ("A 0.93": letter and confidence; "" not
    # asked): every letter its point number does not vouch for, when the in-process engine is installed
    tesseract: list[list[str]] = Field(default_factory=list)
    # per square, the rules that doubt it (`vision.confidence.DOUBT_TAGS`, comma-separated; "network 0.93": read
    # below sure before any rule; a leading "~": answered by the agreement of independent readings); "" none
    square_doubts: list[list[str]] = Field(default_factory=list)

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
                 "evidence": self.evidence[r][c] if self.evidence else "",
                 # what Tesseract read where the number did not vouch ("A 0.93"; "" not asked)
                 "tesseract": self.tesseract[r][c] if self.tesseract else "",
                 # why the tile is not sure (vision.confidence.DOUBT_TAGS; "~": answered by agreeing readings)
                 "doubts": self.square_doubts[r][c] if self.square_doubts else ""}
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
    models = Models.of(tileset, occupancy_model, letters_net)
    # A big JPEG is decoded at the reduced size the grid needs (`vision.decode`).
    photo = image if isinstance(image, Photo) else decode_photo(image)
    place = stages.place_grid(photo, corners)
    seen = stages.see_squares(place, tileset, models)
    # (letters lying on their side are partly missed: a thin or unclear first look is looked at again a
    # quarter turn round, `stages.upright_look`)
    look = stages.upright_look(place, seen, tileset, models) if upright else None
    side = look.side if look is not None else stages.Orientation(0, "")
    if not side.turn:
        reading = _reading(place, seen, models, tileset, second_opinion, words, previous)
    else:
        # The letters stand turned: read again with the corners named from another side. The reading keeps
        # how the grid was found and the first look's warnings.
        if look is not None and look.quarter and side.turn == look.quarter:
            turned, turned_seen = look.place, look.seen  # the quarter look is already named from that side
        else:
            turned = stages.turned_place(place, side.turn)
            turned_seen = stages.see_squares(turned, tileset, models)
        reading = _reading(turned, turned_seen, models, tileset, second_opinion, words, previous)
        reading.located = place.located
        # (The turned reading was assessed as read from given corners: a doubtful locate makes it doubtful
        # here but adds no sentence to `doubts` and no cap on its confidences, as before the stages.)
        reading.doubtful = place.doubtful or reading.doubtful
        reading.warnings[:0] = place.warnings + seen.warnings + [side.note]
    if side.doubt:
        # Another turn read the letters about as well as the one taken: a wrong side puts every tile on
        # another square.
        _doubt(reading, side.doubt)
    return reading


def _reading(place: stages.GridPlace, seen: stages.SeenSquares, models: Models, tileset: TileSet,
             second_opinion: bool, words: Callable[[str], bool] | None,
             previous: BoardReading | Board | Sequence[str] | None) -> BoardReading:
    """The reading of squares seen upright: letters decided, then what the game knows (the word list, the
    board before) applied, the move found and the reading's doubts listed."""
    draft = stages.fill_grid(seen, stages.decide_letters(seen, models, tileset, second_opinion))
    evidence = stages.letter_evidence_grid(seen, draft, models, tileset, ask_tesseract=second_opinion)
    warnings = place.warnings + seen.warnings
    if words is not None and previous is None:
        _fill_by_words(draft, seen, words, tileset.alphabet, warnings)
        _settle_by_words(draft, seen, evidence, models.letters.net.classes, words, tileset, warnings)
        _words_witness(draft, evidence, words, tileset)
    # Blanks printed with the letter they stand for in lower case (`vision.lowercase`): the lower-case letter, a
    # blank that scores 0, never sure.
    lower = read_lower_case_blanks(seen, draft, evidence)
    if lower:
        warnings.append("blank tiles printed with a lower-case letter were read (each scores 0; check the letter): "
                        + ", ".join(f"{Square(r, c).name} {draft.grid[r][c]}" for r, c in lower))
    before = previous_grid(previous) if previous is not None else None
    overruled = _keep_known_tiles(draft, seen, models, tileset, before) if before is not None else []
    reading = BoardReading(
        grid=draft.rows, confidence=draft.confidence, corners=place.corners_in_photo, located=place.located,
        doubtful=place.doubtful, recogniser=draft.deciders, occupancy=seen.occupancy.round(4).tolist(),
        warnings=warnings, evidence=evidence.tags, tesseract=evidence.tesseract,
        disagreements=[OverruledSquare(**vars(d)) for d in overruled],
    )
    if before is not None:
        if overruled:
            reading.warnings.append(_overruled_note(overruled))
        detect_move(reading, before, tileset)
    # Honest confidence and the reading's doubts (vision/confidence.py owns the policy).
    assess(reading, seen.look, seen.tile_squares, seen.probs, before, seen.empty_marks, seen.by_shape,
           seen.looks_against)
    if before is not None:
        # Many known tiles hidden (the move's own tiles may be hidden too), new tiles that cannot be one
        # play, or a new tile's letter guessed.
        unseen = (unseen_doubt(overruled) or illegal_doubt(reading.grid, before, tileset)
                  or unclear_letter_doubt(reading.grid, reading.confidence, before))
        if unseen:
            _doubt(reading, unseen)
    return reading


def _keep_known_tiles(draft: stages.GridDraft, seen: stages.SeenSquares, models: Models, tileset: TileSet,
                      before: list[str]) -> list[Disagreement]:
    """Known tiles keep their letters unless the photo clearly shows otherwise (`vision.sequence`), in place;
    returns the squares where the known board overruled the photo."""
    index = {sq: i for i, sq in enumerate(seen.tile_squares)}
    classes = models.letters.net.classes
    p_known = {(r, c): float(seen.probs[index[(r, c)], classes.index(before[r][c])])
               for r in range(SIZE) for c in range(SIZE)
               if (r, c) in index and before[r][c] in classes and before[r][c].isupper()}
    empty_z, tile_z = ((seen.look.features[:, FEATURES.index(name)] * Z_SCALE).reshape(SIZE, SIZE).tolist()
                       for name in ("z_to_empty", "z_to_tile"))
    overruled = reconcile(draft.grid, draft.confidence, before, p_known, tileset, empty_z, tile_z)
    for d in overruled:
        draft.deciders[d.row][d.col] = "known" if d.known != "." else ""
    return overruled


def _fill_by_words(draft: stages.GridDraft, seen: stages.SeenSquares, words: Callable[[str], bool], alphabet: str,
                   warnings: list[str]) -> None:
    """Tiles the occupancy network missed whose letter the network read plainly enough and the words through their
    squares need (`vision.words.fill_by_words`), in place; never sure."""
    marks = {sq: letter for sq, letter in seen.empty_mark_letters.items()
             if seen.empty_marks.get(sq, 1.0) <= stages.RESCUE_NOT_LETTER_AT_MOST}
    filled = fill_by_words(draft.grid, marks, words, "".join(ch for ch in alphabet if ch.isalpha()))
    for f in filled:
        draft.grid[f.row][f.col] = f.letter
        draft.confidence[f.row][f.col] = min(SETTLED_AT_MOST, f.p_letter)
        draft.deciders[f.row][f.col] = "words"
    if filled:
        warnings.append("tiles the photo showed faintly were taken because the words through them need them (check "
                        "them): " + ", ".join(f"{f.square} {f.letter}" for f in filled))


def _settle_by_words(draft: stages.GridDraft, seen: stages.SeenSquares, evidence: stages.EvidenceGrid,
                     classes: Sequence[str], words: Callable[[str], bool], tileset: TileSet,
                     warnings: list[str]) -> None:
    """Letters the network was unsure of, decided by the words through their squares (`vision.words`).

    Never a letter Tesseract vouches for, and never to a letter of another value than its number clearly reads
    when that number agrees with the network's letter: the list lacks words players play (ROME on jheidel's board),
    and two readings that agree outweigh it."""
    grid, probs = draft.grid, seen.probs
    options: dict[tuple[int, int], list[tuple[str, float]]] = {}
    for i, (r, c) in enumerate(seen.tile_squares):
        if grid[r][c] in (".", BLANK):
            continue
        if "tesseract" in evidence.tags[r][c].split(","):
            continue  # Tesseract vouches for the letter (a square without options keeps its letter)
        # (which of them the words may change is `vision.words`' decision: CHANGE_BELOW)
        order = np.argsort(-probs[i])[:TRIED_PER_SQUARE + 1]
        # a number that reads the network's letter's value rules out letters of other values (ROME's R, its 1
        # printed, is not POME's P); one that reads against it may be misread (a J's 8 read 5: AJAR stays possible)
        value = evidence.number_value[r][c] if "number" in evidence.tags[r][c].split(",") else None
        options[(r, c)] = [(classes[int(k)], float(probs[i, k])) for k in order
                           if value is None or tileset.values.get(classes[int(k)]) in (value, None)
                           or classes[int(k)] == grid[r][c]]
        if grid[r][c] not in dict(options[(r, c)]):  # Tesseract's letter, outside the network's few
            options[(r, c)].append((grid[r][c], float(probs[i, classes.index(grid[r][c])])
                                    if grid[r][c] in classes else 0.0))
    settled = settle_by_words(grid, options, words, "".join(ch for ch in tileset.alphabet if ch.isalpha()))
    for s in settled:
        grid[s.row][s.col] = s.letter
        draft.confidence[s.row][s.col] = float(seen.occupancy[s.row, s.col]) * min(SETTLED_AT_MOST,
                                                                                   s.p_read + s.p_letter)
        draft.deciders[s.row][s.col] = "words"
    if settled:
        warnings.append("letters the photo left unclear were decided by the words through them (check them): "
                        + ", ".join(f"{s.square} {s.letter} (read {s.read})" for s in settled))


def _words_witness(draft: stages.GridDraft, evidence: stages.EvidenceGrid, words: Callable[[str], bool],
                   tileset: TileSet) -> None:
    """Tag "words" (`vision.evidence`) on each letter the word list vouches for (`vision.watch.word_vouched`: every
    line of two or more tiles through it is a word, and with no other letter of the set would every one be), in
    place: a reading that does not come from the photo. Not on a letter the words themselves decided."""
    from vision.watch import word_vouched  # (vision.watch reads boards through this module)

    rows = draft.rows
    alphabet = "".join(ch for ch in tileset.alphabet if ch.isalpha())
    for r in range(SIZE):
        for c in range(SIZE):
            if (rows[r][c] in (".", BLANK) or draft.deciders[r][c] == "words"
                    or not word_vouched(rows, (r, c), words, alphabet)):
                continue
            evidence.tags[r][c] = ",".join(t for t in (evidence.tags[r][c], "words") if t)


def _doubt(reading: BoardReading, sentence: str) -> None:
    """Make a reading doubtful for one more reason: the app asks; like every doubtful reading
    (vision.confidence), no square of it stays sure."""
    reading.doubtful = True
    reading.doubts.append(sentence)
    reading.confidence = [[min(c, DOUBTFUL_AT_MOST) for c in row] for row in reading.confidence]


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
                # a blank: `?` (its letter unknown) or printed with the lower-case letter it stands for
                tile = Tile(n, blank=True) if n == BLANK else Tile(n.upper(), blank=True) if n.islower() else Tile(n)
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
    if not any(p.tile.letter == BLANK for p in new):  # (a blank whose letter is known is checked like any tile)
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
    if any(p.tile.letter == BLANK for p in new):
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
