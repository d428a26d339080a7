"""When a reading must not be trusted: honest per-square confidence and the doubts of a whole reading.

The table trusts what the reader is sure of, so the worst thing the reader can do is be sure and wrong:
a photo of a real game read as an empty board, a tile of an unfamiliar colour read as an empty square with
confidence 1.0. The networks' probabilities alone cannot see that (they are sure about anything far from
what they were trained on), so this module checks a reading against what the photo and the game say
independently of them:

- squares read empty that do not look like the empty squares of their premium kind (colour) cannot be
  sure (`ODD_EMPTY_AT_MOST`): they may be tiles the reader does not know; nor can an empty square
  between letters in its row or column (a blank or an unseen tile inside a word), one showing a
  centred letter-sized mark, or one the occupancy model judged a tile whose mark is no letter, or, on a
  board whose tiles are coloured like its empty squares, one at a word's end (a blank would look just so);
- a blank read where no letter was found, a letter read from a mark that is not a centred letter-sized
  glyph, and a letter whose glyph is barely a letter, cannot be sure;
- nor can a letter that nothing but the network vouches for (`vouched`, issue 27): its point number must
  read the letter's value in the tile set (`vision.points`, `vision.evidence`), or Tesseract or the word list
  read it; and a letter independent readings agree on is sure despite the doubts they answer
  (`agreement_excuses`: the board-level "hesitant letters" rule, a letter shifted where the letters around sit,
  and with two witnesses the nearest example against and the network below sure; docs/reader-questions.md).
  Every doubt is named per square in `BoardReading.square_doubts` (`DOUBT_TAGS`);
- a reading with no tile at all where the board shows tile-like squares, or one that contradicts the board the game already holds (a known tile missing or read as another
  letter), or whose grid was found with low confidence, is `doubtful`, with one sentence per reason in
  `doubts`: the app then asks the referee instead of scoring, and `companion read` prints them.

Every limit here was chosen on the leave-one-set-out readings of `benchmarks/vision_styles.py` and is
checked per set by `benchmarks/vision_calibration.py` (share right among squares read with confidence
>= SURE).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from vision.occupancy import FEATURES, SquareLook, letter_offset_near, touching, where_letters_sit
from vision.occupancy import _centred as centred  # the occupancy model's own test of a letter-sized mark

if TYPE_CHECKING:
    from vision.read import BoardReading

SIZE = 15
SURE = 0.98  # what the app and the calibration table call a sure square
# An empty square this unusual for its premium kind (robust z of the colour distance, FEATURES' z_to_empty is
# clipped and divided by 5) may be a tile of an unknown colour: its confidence stays below SURE.
ODD_Z = 4.0
ODD_EMPTY_AT_MOST = 0.9
# A reading with no tile is doubtful when this many squares are very unlike the empty squares of their kind
# (robust z > VERY_ODD_Z). Empty boards (cava_ro's templates, a tournament board under a glare-casting
# cover) have none; rendered boards of black, maroon and navy tiles 13-32.
VERY_ODD_Z = 8.0
NO_TILE_ODD_SQUARES = 3
BLANK_AT_MOST = 0.9  # a blank is a tile where no letter was found: as likely a letter the reader missed
LETTER_MARGIN = 0.9  # below this gap between the best and second letter, a letter is not sure
UNFAMILIAR_SHARE = 0.1  # share of hesitant letters from which no letter of the board is sure
# A mark at least this tall, wide (shares of a square) and inky (the glyph_ink feature) is letter-sized:
# missed T and E tiles on jheidel 0.48-0.50 / 0.40-0.44 / 0.77-1.38; an I is narrower and is not caught.
LETTER_HEIGHT = 0.4
LETTER_WIDTH = 0.3
LETTER_INK = 0.5
# A letter whose mark is not centred (`centred`: within 0.22 of the square's centre, LETTER_TALL of a square tall) is
# "shifted" rather than off its tile when it is as tall and sits within SHIFTED_WITHIN of where the letters around
# sit: `vision.stages.MARK_OFF_TILES_AT_MOST`, the rule that rescues a missed tile's letter. LETTER_TALL starts below
# the occupancy model's letter-sized mark (0.38; labelled letters 0.4-0.65): print set small on its tile stands
# 0.35-0.38 of a square, and a letter that only stood short was "off centre", asked whatever vouched for it. The
# four test renders of every style, measured after the fourteenth blind style's read: 93 letters of 0.35-0.38 (chalk
# Bookman Light 21, crossword_yellow 21, sand 12, crossword_blue 10, rose 9, ...), none on the labelled photos; the
# dark gaps and shadows this doubt is for stand 0.78 and taller.
LETTER_TALL = (0.35, 0.78)
SHIFTED_WITHIN = 0.2
# A board whose tiles and empty squares differ in colour by less than this (the `tile_board_contrast` feature
# x 50: the Lab distance between the median tile and the median empty square, + 8) hides a plain blank among
# its empty squares: there an empty square at a word's end (two tiles in line beside it, where a blank
# extends the word) is not sure. Jheidel's 2015 board, left out: 170746 (19.1) and 170757 (17.6) read their
# blank at a word's end empty with confidence 0.99997 and 0.998. At 22 the rule takes 529 of 9460 sure
# squares of jheidel below SURE, 187 of 5240 of umich, 20 of 491 of declanfinerty, none of the other sets
# (the next boards are above 26), and no square it takes was wrong but those two.
BLANK_LOOKALIKE_BELOW = 22.0
# Tesseract reading the network's letter (`vision.evidence`: the "tesseract" tag, Tesseract's confidence >=
# TESSERACT_AGREES) vouches for it as its point number does (issue 27, docs/reader-agree.md). The network's side
# of "each confidently" is the rest of `assess`: a letter is sure only at >= SURE with a clear margin.
TESSERACT_VOUCHES = True
# "Sure empty" needs agreement as a sure letter does (issue 27): the occupancy network's P(empty), and no mark on
# the square that reads as a letter. A square the occupancy network judged empty whose letter-tall mark sits where
# the tiles around show their letters is read by the letter network (`vision.stages.see_squares`, the rescue of
# missed tiles); when the network does not call that mark "not a letter" (P(not a letter) below this), yet it was
# not plainly enough a letter to be rescued, the square is not sure. Jheidel 170746 J4, left out: a thin I tile
# (the mark 0.17 of a square wide, where the letters around sit) read I at 0.949, not a letter 0.001, one short of
# the rescue's 0.95, and the square empty with P(empty) 0.988. Measured on the same readings
# (docs/reader-sure-empty.md): no square read empty with confidence >= SURE on jheidel had such a mark but J4, at
# any threshold from 0.1 to 1.0; 0.5 is "the network reads a letter rather than no letter".
EMPTY_MARK_NOT_LETTER_BELOW = 0.5
AGREED_CONFIDENCE = 0.98  # a letter its network, number and Tesseract agree on, read below SURE
UNSURE_AT_MOST = 0.95  # the confidence given to a square that is not sure by one of the rules above
DOUBTFUL_AT_MOST = 0.9  # every square of a doubtful reading stays below this


def vouched(tags: str) -> bool:
    """Whether a letter's evidence (`vision.evidence` tags) lets it be sure: its point number must read the
    letter's value, or (TESSERACT_VOUCHES) Tesseract must read the same letter with the number not against
    it; and the nearest stored example must not be of another letter.

    A number that is missing (worn print, a number too small to read, a blank printed with a letter) leaves
    the letter unsure unless Tesseract agrees, as one read against it does. The number rule was chosen over
    "nothing against" (the number or the nearest example agreeing, neither against) on the leave-one-set-out
    readings of `benchmarks/vision_styles.py` (issue 27): neither rule found a sure-and-wrong square there (the
    older rules leave none), the strict one costs more questions where numbers are hard to read (letter tiles
    not sure: b3nkang 15 -> 138 of 208, its numbers 4-6 px; umich 1157 -> 1555 of 3049; jheidel 796 -> 1040
    of 2368; cava 230 -> 283 of 2034), and it is the one that does not lean on the letter network's own
    training data: the nearest example lives in the network's inputs and training set, the number does not.
    Tesseract does not either (an OCR engine trained on text): docs/reader-agree.md measures it.
    """
    found = set(tags.split(","))
    if "!shape" in found:
        return False
    return "number" in found or (TESSERACT_VOUCHES and "tesseract" in found and "!number" not in found)


# What each doubt of `assess` is called in `BoardReading.square_doubts` (a leading "~": excused, see
# `agreement_excuses`; "network 0.934": the reading's own confidence, below SURE before any rule).
DOUBT_TAGS = {
    "odd_colour": "read empty, but unlike the empty squares of its premium kind",
    "in_line": "read empty between letters, or showing a centred mark",
    "maybe_tile": "read empty, showing a letter-sized mark or coloured like the tiles beside it",
    "word_end": "read empty at a word's end on a board whose tiles are coloured like its squares",
    "judged_tile": "read empty though the occupancy network judged it a tile",
    "letter_mark": "read empty though its mark reads as a letter",
    "blank": "a blank: the table names its letter",
    "off_centre": "a letter read from a mark that is not a centred letter-sized glyph",
    "shifted": "a letter-sized mark off its square's centre, where the letters around sit",
    "margin": "the letter network hesitated between two letters",
    "hesitant_board": "a board whose letters the network often hesitates over",
    "unvouched": "neither the point number nor Tesseract vouches for the letter",
    "number_against": "the point number reads another letter's value",
    "shape_against": "the nearest stored example is of another letter (of the same value, or no number read)",
    "tesseract_against": "Tesseract reads another letter",
    "second_look_against": "a second look at the mark, its blurred strokes kept, plainly reads another letter",
    "cut_not_number": "a piece of the letter was cut off as its point number, but its number stands apart",
}


def _evidence_doubts(tags: str) -> list[str]:
    """The doubts a letter's evidence (`vision.evidence` tags) raises: a witness against it, or none for it."""
    found = set(tags.split(","))
    out = []
    if not vouched(tags) and "!shape" not in found and not ("words" in found and "!number" not in found):
        out.append("unvouched")
    if "!number" in found:
        out.append("number_against")
    if "!shape" in found and "number>shape" not in found:
        out.append("shape_against")
    if "!tesseract" in found:
        out.append("tesseract_against")
    if "cut_apart" in found:
        out.append("cut_not_number")  # no witness answers it: the number and the shapes read the cut glyph
    return out


# Which doubts independent readings of a letter answer (`agreement_excuses`). A witness is a reading that does not
# come from the letter network's weights: its point number reading the letter's value, Tesseract reading the letter,
# or the word list (on a board read on its own: every line through the square a word, and with no other letter;
# `vision.read._words_witness`). One witness agreeing (the number or the words), nothing against, answers the
# board-level "hesitant letters"
# rule (it speaks of the network's margins on the board's other tiles, not of this tile, whose firm letter a
# reading outside the network confirms) and a letter-sized mark shifted off the square's centre where the letters
# around sit. Two, one of them from the photo (the number or Tesseract), answer as well the nearest stored example
# against (it lives in the network's own training data: not an independent reading), the network's hesitation
# between two letters and its letter below sure (from AGREED_NETWORK_FROM): three readings agree.
WITNESSES = frozenset({"number", "tesseract", "words"})
# The witnesses that answer alone: not Tesseract, which reads the very glyph pixels the network reads and shares
# their defects. A 640x480 render of cream tiles with red print (tests/test_watch_words.py, seed 3): an H whose bar
# the small image lost read I by the network at 0.998 and by Tesseract at 0.93-0.94, its number too small to read;
# on a board the network hesitates over, Tesseract alone answering would have made that I sure.
ONE_WITNESS_FROM = frozenset({"number", "words"})
ONE_WITNESS_ANSWERS = frozenset({"hesitant_board", "shifted"})
TWO_WITNESSES_ANSWER = ONE_WITNESS_ANSWERS | {"shape_against", "margin", "network"}
# The network's own probability (times P(tile)) from which its letter, agreed by the number and Tesseract, is sure.
AGREED_NETWORK_FROM = 0.5


def agreement_excuses(tags: str, doubts: set[str], raw: float, network_from: float = AGREED_NETWORK_FROM,
                      one: frozenset[str] = ONE_WITNESS_ANSWERS, two: frozenset[str] = TWO_WITNESSES_ANSWER) -> set[str]:
    """The doubts of a letter its independent readings answer: all of `doubts` (and "network" when the reading's
    own confidence `raw` is below SURE) when every one of them is answered, else none. A witness (`WITNESSES`, the
    `vision.evidence` tags) is the point number reading the letter's value ("number"), Tesseract reading the letter
    ("tesseract") or the word list ("words"); none may read against it ("!number", "!tesseract"). One witness of
    `ONE_WITNESS_FROM` (the number or the words) answers `one`; two, one of them the number or Tesseract, answer
    `two`, "network" only from `network_from`."""
    found = set(tags.split(","))
    if found & {"!number", "!tesseract"}:
        return set()
    witnesses = len(found & WITNESSES)
    from_photo = bool(found & {"number", "tesseract"})
    answered = (two if witnesses >= 2 and from_photo else one if found & ONE_WITNESS_FROM else frozenset())
    needed = set(doubts) | ({"network"} if raw < SURE else set())
    if not needed or not needed <= answered or ("network" in needed and raw < network_from):
        return set()
    return needed


def _feature(look: SquareLook, name: str) -> npt.NDArray[np.float32]:
    return look.features[:, FEATURES.index(name)].reshape(SIZE, SIZE)


def odd_empty(look: SquareLook, grid: Sequence[str], odd_z: float = ODD_Z) -> npt.NDArray[np.bool_]:
    """Squares read empty that look unlike the empty squares of their premium kind."""
    z_empty = _feature(look, "z_to_empty") * 5.0
    empty = np.array([[ch == "." for ch in row] for row in grid])
    return empty & (z_empty > odd_z)


def hesitant_board(letter_probs: npt.NDArray[np.float32] | None) -> bool:
    """Whether the letter network hesitates over many of a board's letters (a share UNFAMILIAR_SHARE of them
    with a margin under LETTER_MARGIN between the best and the second letter): a font it does not know well."""
    if letter_probs is None or not len(letter_probs):
        return False
    top2 = np.sort(letter_probs, axis=1)[:, -2:]
    return float(np.mean(top2[:, 1] - top2[:, 0] < LETTER_MARGIN)) >= UNFAMILIAR_SHARE


def assess(reading: BoardReading, look: SquareLook, tile_squares: Sequence[tuple[int, int]] = (),
           letter_probs: npt.NDArray[np.float32] | None = None, before: Sequence[str] | None = None,
           empty_marks: Mapping[tuple[int, int], float] | None = None,
           by_shape: Collection[tuple[int, int]] = (), looks_against: Collection[tuple[int, int]] = ()) -> None:
    """Limit the reading's confidences where they cannot be honest and list its doubts (in place).

    `tile_squares` are the squares judged occupied and `letter_probs` the letter network's probabilities
    for them (one row each); `before` is the board the game held before the photo, when known;
    `empty_marks` the squares judged empty whose letter-tall mark the letter network read, with its
    P(not a letter) (`vision.stages.SeenSquares.empty_marks`); `by_shape` the tiles read I by a thin stroke's shape
    (`vision.stages.SeenSquares.by_shape`); `looks_against` the tiles whose second look plainly reads another letter
    (`vision.stages.SeenSquares.looks_against`). Every rule that doubts a square is named in
    `reading.square_doubts` (`DOUBT_TAGS`); a letter two independent readings vouch for is sure despite the
    doubts they answer (`agreement_excuses`).
    """
    grid = reading.grid
    raw = np.array(reading.confidence, np.float64)
    caps: list[list[dict[str, float]]] = [[{} for _ in range(SIZE)] for _ in range(SIZE)]
    doubts: list[str] = []

    def doubt(mask: npt.NDArray[np.bool_], tag: str, at_most: float) -> None:
        for r, c in zip(*np.nonzero(mask), strict=True):
            caps[int(r)][int(c)][tag] = min(caps[int(r)][int(c)].get(tag, 1.0), at_most)

    doubt(odd_empty(look, grid), "odd_colour", ODD_EMPTY_AT_MOST)
    # An empty square inside a line of letters may hold a tile the reader could not see (a blank, a dark
    # tile on a dark premium square), and one showing a centred letter-sized mark may be a tile the
    # occupancy model missed (a J on a dim wooden board): possible, so not sure.
    empty = np.array([[ch == "." for ch in row] for row in grid])
    doubt(empty & ((_feature(look, "between_letters") > 0) | (_feature(look, "centred_letter") > 0)), "in_line",
          UNSURE_AT_MOST)
    # ... nor one showing a letter-sized mark off its centre (a T on a board whose corners were found a
    # third of a square off), nor one beside a tile that looks more like the tiles near it than like the
    # empty squares near it (a blank at a word's end): both found on jheidel, left out, read with the
    # shipped networks: 7 squares read empty with confidence >= 0.98 held a tile; these two rules take
    # 6 of them below SURE, and 27 + 483 right empty squares with them (of 8866 sure empties); on the five
    # other labelled sets 64 + 663 of 18791, none wrong.
    letter_sized = ((_feature(look, "glyph") > 0) & (_feature(look, "glyph_height") >= LETTER_HEIGHT)
                    & (_feature(look, "glyph_width") >= LETTER_WIDTH) & (_feature(look, "glyph_ink") >= LETTER_INK))
    like_tiles = touching(~empty) & (_feature(look, "to_local_tile") < _feature(look, "to_local_empty"))
    doubt(empty & (letter_sized | like_tiles), "maybe_tile", UNSURE_AT_MOST)
    # ... nor, on a board whose tiles are coloured like its empty squares, one at a word's end, where a plain
    # blank would look just like it (BLANK_LOOKALIKE_BELOW) ...
    if float(_feature(look, "tile_board_contrast")[0, 0]) * 50.0 < BLANK_LOOKALIKE_BELOW:
        doubt(empty & _beside_two_in_line(~empty), "word_end", UNSURE_AT_MOST)
    # ... nor one the occupancy model judged a tile, left empty only because the letter network called its
    # mark "not a letter" (vision.read): a plain tile's mark is no letter either. Jheidel 170757, left out: a
    # blank on O15 (P(tile) 0.52, its edge's shadow the mark) was read empty with the network's 0.998; of the
    # 40 other such squares of the six labelled sets, left out, none was read with confidence >= 0.98.
    if reading.occupancy:
        doubt(empty & (np.array(reading.occupancy, np.float64) >= 0.5), "judged_tile", UNSURE_AT_MOST)
    # ... nor one whose letter-tall mark, where the tiles around show their letters, the letter network reads as a
    # letter (EMPTY_MARK_NOT_LETTER_BELOW): a thin I tile looks like an empty square to the occupancy network.
    marked = np.zeros((SIZE, SIZE), bool)
    for (r, c), not_letter in (empty_marks or {}).items():
        marked[r, c] = not_letter < EMPTY_MARK_NOT_LETTER_BELOW
    doubt(empty & marked, "letter_mark", UNSURE_AT_MOST)
    blank = np.array([[ch == "?" for ch in row] for row in grid])
    doubt(blank, "blank", BLANK_AT_MOST)
    # A letter read from a mark that is not a centred letter-sized glyph (the dark gap beside a plain spacer tile
    # read as I): possibly right, never sure.
    # One that is letter-sized and sits where the letters of the tiles around sit (a photo's angle shows a tile's top
    # off its square by the tile's thickness) is only "shifted": a witness answers that (`agreement_excuses`).
    off = np.array([[grid[r][c] not in (".", "?") and not centred(look.glyphs[r][c], LETTER_TALL[0]) for c in range(SIZE)]
                    for r in range(SIZE)])
    shifted = off & _sits_with_the_letters_around(look)
    doubt(off & ~shifted, "off_centre", UNSURE_AT_MOST)
    doubt(shifted, "shifted", UNSURE_AT_MOST)
    # Two plain readings of one mark that disagree: the first look and a second with the blurred strokes kept
    # (`vision.stages.PIECE_NARROW_AT_MOST`). No witness answers this: on jheidel 170003 G10, left out with the
    # models of 2026-11-28's sixth stop, an R come apart into its stem was read I at 0.98 with its number (1, as R's)
    # and the nearest example's shape (a stem) agreeing, while its second look read R plainly.
    against = np.zeros((SIZE, SIZE), bool)
    for r, c in looks_against:
        against[r, c] = grid[r][c] not in (".", "?")
    doubt(against, "second_look_against", UNSURE_AT_MOST)
    if letter_probs is not None and len(tile_squares):
        top2 = np.sort(letter_probs, axis=1)[:, -2:]
        margins = top2[:, 1] - top2[:, 0]
        # A board whose letters the network often hesitates over is printed in a font it does not know
        # well: there its firm answers are not to be trusted on its word alone (umich's varied boards, left out).
        # (An I read by a thin stroke's shape, `by_shape`, is the reader's rule, not the network's hesitation.)
        read = np.array([sq not in by_shape for sq in tile_squares], bool)
        hesitant = hesitant_board(letter_probs[read])
        for (r, c), margin in zip(tile_squares, margins, strict=True):
            if grid[r][c] != "." and margin < LETTER_MARGIN:
                caps[r][c]["margin"] = UNSURE_AT_MOST
            if grid[r][c] != "." and hesitant:
                caps[r][c]["hesitant_board"] = UNSURE_AT_MOST

    # Sure needs more than the network: evidence that does not come from its weights (`vision.evidence`).
    if reading.evidence:
        for r in range(SIZE):
            for c in range(SIZE):
                if grid[r][c] not in (".", "?"):
                    for tag in _evidence_doubts(reading.evidence[r][c]):
                        caps[r][c][tag] = UNSURE_AT_MOST

    conf = raw.copy()
    square_doubts = [[""] * SIZE for _ in range(SIZE)]
    for r in range(SIZE):
        for c in range(SIZE):
            found = caps[r][c]
            excused = agreement_excuses(reading.evidence[r][c] if reading.evidence else "", set(found), raw[r, c])
            for tag, at_most in found.items():
                if tag not in excused:
                    conf[r, c] = min(conf[r, c], at_most)
            if excused and raw[r, c] < SURE:
                conf[r, c] = AGREED_CONFIDENCE  # the network's letter, its number and Tesseract agree
            names = [tag if tag not in excused else f"~{tag}" for tag in sorted(found)]
            if raw[r, c] < SURE:
                names.append(f"{'~' if excused else ''}network {raw[r, c]:.3f}")
            square_doubts[r][c] = ",".join(names)

    tiles = sum(ch != "." for row in grid for ch in row)
    n_odd = int(odd_empty(look, grid, VERY_ODD_Z).sum())
    if tiles == 0 and n_odd >= NO_TILE_ODD_SQUARES:
        doubts.append(f"no tile was read, yet {n_odd} squares do not look like empty squares: the tiles may be "
                      "of a colour the reader does not know (dark tiles with light letters?)")
    if before is not None:
        known = [(r, c) for r in range(SIZE) for c in range(SIZE) if before[r][c] != "."]
        if known and tiles == 0:
            doubts.append(f"no tile was read, but the board of the game holds {len(known)}: the photo may not "
                          "show this board, or the tiles were not recognised")
        else:
            missing = [_name(r, c) for r, c in known if grid[r][c] == "."]
            other = [f"{_name(r, c)} {before[r][c].upper()}->{grid[r][c]}" for r, c in known
                     if grid[r][c] not in (".", "?") and before[r][c] not in ("?",) and not before[r][c].islower()
                     and grid[r][c] != before[r][c]]
            if missing:
                doubts.append("the photo contradicts the board of the game: no tile read on "
                              + ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else ""))
            if other:
                doubts.append("the photo contradicts the board of the game: "
                              + ", ".join(other[:8]) + (" ..." if len(other) > 8 else ""))
    if reading.located not in ("given",) and reading.doubtful:
        doubts.append("the board's grid was found with low confidence: check the overlay or give its corners")
    if doubts:
        conf = np.minimum(conf, DOUBTFUL_AT_MOST)
        reading.doubtful = True
        reading.doubts = doubts
    reading.confidence = conf.tolist()
    reading.square_doubts = square_doubts


def _sits_with_the_letters_around(look: SquareLook) -> npt.NDArray[np.bool_]:
    """Squares whose mark is letter-sized (as `centred` measures) and sits within SHIFTED_WITHIN of where the
    centred letters within two squares sit (`vision.occupancy.where_letters_sit`, `letter_offset_near`; fewer
    than 3 near: the board's median); False everywhere when fewer than 3 letters are centred."""
    out = np.zeros((SIZE, SIZE), bool)
    letters_at = where_letters_sit(look.glyphs)
    if letters_at is None:
        return out
    at, board = letters_at
    for r, row in enumerate(look.glyphs):
        for c, g in enumerate(row):
            if g is None or not LETTER_TALL[0] <= g.height <= LETTER_TALL[1]:
                continue
            dx, dy = letter_offset_near(at, board, r, c)
            out[r, c] = abs(g.dx - dx) < SHIFTED_WITHIN and abs(g.dy - dy) < SHIFTED_WITHIN
    return out


def _beside_two_in_line(tiles: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Squares with two squares of `tiles` in a line beside them (left, right, above or below): a word's end."""
    p = np.pad(tiles, 2)

    def at(dr: int, dc: int) -> npt.NDArray[np.bool_]:
        return p[2 + dr:2 + dr + SIZE, 2 + dc:2 + dc + SIZE]

    return (at(0, -1) & at(0, -2)) | (at(0, 1) & at(0, 2)) | (at(-1, 0) & at(-2, 0)) | (at(1, 0) & at(2, 0))


def _name(r: int, c: int) -> str:
    return f"{chr(65 + c)}{r + 1}"
