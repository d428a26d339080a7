"""Watching a board through a camera that stands over it: frames in, decisions out (issue #22).

Owns the per-frame decision of watch mode: no board in view / the board partly hidden (a hand, an arm, a
head, a cup) / still and unchanged / a move being laid / a move seen (proposed) / asking the referee /
waiting for withdrawn tiles to be lifted, and the move's boundary (when a proposal is committed). Pure:
no UI, no I/O, no game events; the caller (the app's table, `companion watch`) turns `commit` into the
game's play and tells the watcher the game's board with `set_board`.

How, and why it is cheap:
- The grid is located once (`vision.locate`) and its corners reused while the frame still fits them.
- Each frame is straightened with those corners into a small "look" (`vision.looks`): per square (and a
  ring of squares around the grid) the mean colour and texture at LOOK_CELL pixels a square, ~2-4 ms at
  2 MP. Looks are compared after a per-channel gain (a lighting change dims or tints everything alike).
- Squares that differ from the look of the game's board form regions; a region that runs from the grid
  over the ring around it is something reaching in over the board's edge (a hand, an arm, a head): the
  view is hidden. Most of the board differing at once is the camera or the board moved (or an arm over
  it): when two frames in a row agree, the grid is found again (`vision.locate`), and the looks, being in
  board coordinates, compare again at once. The game's board is the anchor: nothing is re-scored.
- Only a clear view that differs from the game's board is read in full (`vision.read.read_board` with
  `previous=` the game's board, which reads in sequence and says when it is unsure), once per look.
- A confident legal move is proposed at once; it is committed after `settle_seconds` in which the board
  looks the same with nothing over it, or at `boundary(t)` (a clock tap), or when the next player's tiles
  appear first (the earlier move is committed, then the rest is read against it). While the board keeps
  changing the proposal follows it and the countdown starts again: tiles laid one by one are one move.
- Any doubt asks (phase ASKING, with the question and its squares) and nothing is committed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel

from vision.confidence import SURE, vouched
from vision.decode import decode_image
from vision.errors import NoBoardFound, NotAnImage
from vision.looks import (
    F32,
    GRID,
    REGISTER_KEEP_SHARE,
    REGISTER_MIN_CC,
    REGISTER_MIN_SHIFT,
    RING,
    SIZE,
    Frame,
    Look,
    differing,
    look_grid_corners,
    look_of,
    reaching_in,
    reaching_side,
    register,
    still_non_hands,
    tile_like,
    towards_white,
    washed_out,
)
from vision.mlp import Mlp
from vision.occupancy import OccupancyModel
from vision.read import BoardReading, NewTile, read_board
from vision.sequence import NEW_LETTER_DOUBT

# A reading's doubt about which side of the board faces the camera (vision.read's orientation doubt).
ORIENTATION_DOUBT = "which side of the board is at the bottom of the photo is unclear"
Square = tuple[int, int]


class WatchConfig(BaseModel, frozen=True):
    """A table's watch settings (stored with the game's settings by the app).

    The thresholds were measured on streams built by `vision.stream` from the shared photographed games
    and rendered boards (`benchmarks/watch.py`); each says how.
    """

    # Seconds of a still board with nothing over it before a proposal is committed. The streams lay a
    # move's tiles in groups with the hand lifted off the board for up to 2.5 s between groups; a settle
    # time shorter than the longest such pause commits a partial move. 4 s leaves 1.5 s of margin (the
    # benchmark's --settle sweep: 0 partial commits at 3 s and above on its streams) while the move is
    # still committed a few seconds after the hand leaves.
    settle_seconds: float = 4.0
    tiles: str = "en"  # the game's tile set name
    # A square's look differs when its mean colour moved by more than `changed_levels` 8-bit levels in one
    # channel (after the gain), or its texture (mean |Laplacian| of its middle) by more than
    # `changed_texture` and by more than `changed_texture_share` of the larger of the two. Measured on
    # rendered boards (benchmarks/_w3-style check, three seeds): sensor noise moves levels <= 0.9 and
    # texture <= 0.7; the same board after a bump and the grid found again: levels <= 6.5, texture <= 12
    # (share <= 0.29); a tile put on an empty square: texture 64-78 (share 0.90-0.92) or, a tile whose
    # letter is faint at this size, levels >= 100.
    changed_levels: float = 14.0
    changed_texture: float = 15.0
    changed_texture_share: float = 0.4
    # Share of the grid's squares that differ at once above which the camera or the board is taken to
    # have moved (or an arm covers the board): a move changes at most 7 squares (+ a nudged neighbour).
    moved_share: float = 0.3
    # Ring squares that must differ, joined to differing grid squares, for something to be reaching in.
    reaching_ring_squares: int = 1
    # The ask policy for a new tile the reader did not doubt (it asks by itself below 0.7,
    # vision.sequence.NEW_LETTER_DOUBT): it asks when its confidence is below `sure_new_tile` and nothing
    # outside the letter network vouches for its letter: neither its point number (it reads the letter's
    # value: vision.confidence.vouched) nor the word list (`word_vouched`, with a word list given to the
    # Watcher); and, with `ask_contradicted`, when such evidence speaks against its letter (its point
    # number reads another letter's value, or its nearest stored example is another letter: the `!number`
    # / `!shape` tags of vision.evidence), whatever its confidence. The reader gives a new tile 0.95 when
    # only the number's confirmation is missing (a number too small or worn to read). What each choice
    # asks and would commit wrongly is printed by benchmarks/watch.py ("ask policy"); the default was
    # chosen from it (see the closing note); 0.98 (vision.confidence.SURE) asks about every tile
    # the reader is not sure of, 0 with ask_contradicted False is the rule before the policy.
    sure_new_tile: float = 0.9
    ask_contradicted: bool = True
    # With a word list given to the Watcher: a new tile below the reader's sure band (vision.confidence.SURE)
    # whose lines are not all words of the list asks, whatever else vouches for it. A misread letter seldom
    # makes a word: at the fake camera's 640x480 an H read I at 0.95 (its point number too small to read)
    # committed HOE as IOE under the rules above (`benchmarks/watch_words.py`, cream_red_letters seed 3:
    # 39 moves asked of 100 and 1 committed wrong without this rule, 40 and 0 with it). Off by default: a
    # phony laid on purpose (the browser test's XOL at 640x480, read right at 0.95, number unread) then
    # asks too, which stops the watched game for a play the table should challenge, and hints to the table
    # that the word is not in the list. At 960x720 the same streams' numbers are read and vouch (0.98 and
    # more: XOL and HOE commit or ask alike with it on or off); phones give the app larger pictures still.
    ask_unlisted: bool = False


class Phase(StrEnum):
    """What the camera sees / what the watcher is doing, shown to everyone at the table."""

    NO_BOARD = "no board in view"
    HIDDEN = "waiting for a clear view"
    WATCHING = "watching"
    CHANGING = "move being laid"
    PROPOSED = "move seen"
    ASKING = "asking the referee"
    LIFT = "waiting for the withdrawn tiles to be lifted"


@dataclass(frozen=True)
class WatchStatus:
    t: float  # the frame's time (seconds)
    phase: Phase
    message: str  # one sentence for the table
    proposal: BoardReading | None = None  # read against the game's board (new_tiles, words, score)
    countdown: float | None = None  # seconds left before the proposal is committed (None: no countdown)
    question: str | None = None  # why the watcher asks (one sentence), when phase is ASKING
    squares: tuple[Square, ...] = ()  # the squares the question is about (row, col)
    commit: BoardReading | None = None  # set on exactly one status per move: record this move NOW


def square_name(sq: Square) -> str:
    return f"{chr(65 + sq[1])}{sq[0] + 1}"


def _on_the_move_line(squares: tuple[Square, ...], new: list[Square]) -> tuple[Square, ...]:
    """The squares on the line of the move's new tiles, between its ends or one square beyond them (a
    single new tile: its row and its column, one square either side)."""
    if not new:
        return ()
    rows = {r for r, _ in new}
    cols = {c for _, c in new}
    out = []
    for r, c in squares:
        if len(rows) == 1 and r in rows and min(cols) - 1 <= c <= max(cols) + 1 or len(cols) == 1 and c in cols and min(rows) - 1 <= r <= max(rows) + 1:
            out.append((r, c))
    return tuple(out)


def _square_of(tile: NewTile) -> Square:
    return int(tile.square[1:]) - 1, ord(tile.square[0]) - 65


class Watcher:
    """Watches one table's board. Feed it frames in time order; it says what it sees and when to commit."""

    def __init__(self, board_rows: list[str], config: WatchConfig | None = None, *,
                 occupancy_model: OccupancyModel | None = None, letters_net: Mlp | None = None,
                 words: Callable[[str], bool] | None = None) -> None:
        """`occupancy_model` and `letters_net` replace the reader's shipped models (the benchmark passes
        held-out ones). `words` is the game's word list's membership test (e.g. a `lexicon.store.Lexicon`'s
        `__contains__`): a new tile's letter it vouches for (`word_vouched`) needs no question; without it
        every new tile below `config.sure_new_tile` asks."""
        self.config = config or WatchConfig()
        self._words = words
        self._letters: str | None = None  # the tile set's letters (for `word_vouched`)
        self._models = (occupancy_model, letters_net)
        self._game = _check_rows(board_rows)
        self._corners: F32 | None = None
        self._frame_shape: tuple[int, ...] | None = None
        self._ref: Look | None = None  # the look of the game's board (None: not seen yet)
        self._upright_settled = False  # the side of the board at the frame's bottom is known
        # Asked, not answered yet: the question, its squares, and the reading that raised it (the referee's
        # correction screen opens on it).
        self._question: tuple[str, tuple[Square, ...], BoardReading] | None = None
        self._pending: tuple[float, str, tuple[Square, ...], BoardReading] | None = None  # seen since t, not asked yet
        self._ref_is_game = False  # False: `_ref` is an earlier board's look (kept to see hands by)
        self._clear: Look | None = None  # the last clear view's look
        self._prev: Look | None = None  # the previous frame's look
        self._relocated_for: Look | None = None  # the look a failed search for the grid was made on
        self._read_look: Look | None = None  # the look last read in full, and its reading
        self._reading: BoardReading | None = None
        self._proposal: BoardReading | None = None
        self._proposal_look: Look | None = None  # the look the proposal was read from
        self._confirmed: BoardReading | None = None  # the proposal a second picture was read to confirm
        self._still_reach_since: float | None = None  # since when a still thing lies over the edge
        self._hand_sides: set[str] = set()  # sides hands reached in from since the last reading was judged
        self._player_sides: set[str] = set()  # sides the hands that laid the proposal's tiles came from
        self._clear_since: float | None = None  # since when the proposal's look is seen with nothing over it
        self._held = False
        self._boundary = False  # a clock tap is waiting for a clear view to commit
        self._withdrawn: tuple[Square, ...] = ()
        self._committed_rows: list[str] | None = None
        self._last = WatchStatus(0.0, Phase.NO_BOARD, "No board in view yet: point the camera at the whole board.")

    # ----- the caller's calls
    def feed(self, frame: Frame | bytes, t: float) -> WatchStatus:
        """Decide about one frame (a BGR array, or JPEG/PNG bytes) taken at time `t` (seconds).

        Raises `vision.errors.NotAnImage` for bytes or an array that are not an image (nothing changes)."""
        image = decode_image(frame) if isinstance(frame, (bytes, bytearray)) else _as_frame(frame)
        if self._frame_shape is not None and image.shape[:2] != self._frame_shape[:2]:
            self._corners = None  # another camera resolution: the grid is found again
        self._frame_shape = image.shape
        status = self._decide(image, t)
        self._last = status
        return status

    def tick(self, t: float) -> WatchStatus:
        """Time passes with no new frame: the countdown runs on (and may commit)."""
        last = self._last
        if self._pending is not None and self._question is None:
            self._last = self._doubt_status(t)
            return self._last
        if last.phase is Phase.PROPOSED and self._proposal is not None and self._clear_since is not None:
            self._last = self._proposed(t)
            return self._last
        self._last = WatchStatus(t, last.phase, last.message, last.proposal, last.countdown, last.question,
                                 last.squares)
        return self._last

    def boundary(self, t: float) -> WatchStatus:
        """A clock tap ends the move: commit the proposal now when the view is clear and the watcher sure;
        otherwise at the next clear frame that shows a sure move."""
        if self._last.phase is Phase.PROPOSED and self._proposal is not None:
            self._last = self._commit(t)
            return self._last
        self._boundary = True
        if self._pending is not None and self._question is None:
            self._last = self._doubt_status(t)
            return self._last
        self._last = WatchStatus(t, self._last.phase, self._last.message, self._last.proposal, None,
                                 self._last.question, self._last.squares)
        return self._last

    def hold(self) -> None:
        """Any tap stops the countdown until the board changes again."""
        self._held = True

    def set_board(self, board_rows: list[str], withdrawn: Sequence[Square] = ()) -> None:
        """The game's board changed (a move recorded, a question answered, a play withdrawn: `withdrawn`
        are its squares, which the table is expected to lift)."""
        rows = _check_rows(board_rows)
        if rows == self._game and not withdrawn and self._question is None:
            self._committed_rows = None  # the move just committed (or nothing new): the watch goes on
            return
        if (rows != self._game and rows != self._committed_rows) or withdrawn:
            # another board than the one the watcher saw last: its look is learned again from the next
            # clear view (the old look still tells a hand over the board)
            self._ref_is_game = False
        self._game = rows
        self._committed_rows = None
        self._question = None
        self._pending = None
        self._withdrawn = tuple(withdrawn)
        self._proposal = None
        self._clear_since = None
        self._read_look = None
        self._reading = None
        self._boundary = False
        self._held = False
        self._hand_sides = set()
        self._player_sides = set()

    @property
    def board(self) -> list[str]:
        """The game's board as the watcher holds it."""
        return list(self._game)

    @property
    def reading(self) -> BoardReading | None:
        """The last full reading of the board (what a proposal or a question is about), None when none."""
        return self._reading

    @property
    def corners(self) -> list[list[float]] | None:
        """The grid's corners in the frame (TL, TR, BR, BL), when found."""
        return None if self._corners is None else [[float(v) for v in p] for p in self._corners]

    # ----- the decision
    def _decide(self, frame: Frame, t: float) -> WatchStatus:
        if self._corners is None and not self._locate(frame):
            return self._no_board(t)
        assert self._corners is not None
        look = self._registered(frame, look_of(frame, self._corners))
        prev, self._prev = self._prev, look
        moving = differing(look, prev, self.config) if prev is not None else np.ones(GRID.shape, bool)
        still = not moving.any()
        verdict = self._over_board(look, moving=moving)
        if verdict == "reaching" and still:
            if self._still_reach_since is None:
                self._still_reach_since = t
            elif t - self._still_reach_since >= self.config.settle_seconds:
                # Something has lain over the board's edge, unmoving, for the settle time (a reflection's
                # rim, a cup, a resting arm): the view is read as it is; the reader says what it hides.
                verdict = None
        else:
            self._still_reach_since = None
        if verdict is not None:
            moved = verdict == "moved"
            tried = self._relocated_for is not None and not differing(look, self._relocated_for, self.config).any()
            if not still or tried:
                return self._hidden(t, "Waiting for a clear view: most of the board looks different (an arm over "
                                    "it, or the camera moved)." if moved else "Waiting for a clear view of the board.")
            # Two frames agree: the camera or the board may have moved. Find the grid again.
            self._relocated_for = look
            if not self._locate(frame):
                if moved:
                    return self._no_board(t)
                return self._hidden(t, "Waiting for a clear view of the board.")
            look = look_of(frame, self._corners)
            self._prev = look
            again = self._over_board(look, reaching_first=True, moving=np.zeros(GRID.shape, bool))
            if again == "reaching":
                return self._hidden(t, "Waiting for a clear view: something lies over the board or its edge.")
            # Most of the board still looks different in two frames that agree, with the grid where it is:
            # the light changed more than the gain explains, or much changed at once. The full read decides.
        self._clear = look
        if self._ref is not None and self._ref_is_game and not differing(look, self._ref, self.config)[GRID].any():
            return self._unchanged(t)
        return self._changed(frame, look, still, t)

    def _over_board(self, look: Look, reaching_first: bool = False,
                    moving: npt.NDArray[np.bool_] | None = None) -> str | None:
        """"moved" (most of the board differs from both the game's board and the last clear view),
        "reaching" (something reaches in over the board's edge in both), or None (a clear view).
        `moving`: the squares that differ from the previous frame (what lies still over the edge may be no
        hand: `still_non_hands`)."""
        refs = [r for r in (self._ref, self._clear) if r is not None]
        if not refs:
            return None
        # (a reflection that came or went: either look may be the glaring one)
        diffs = [differing(look, r, self.config) & ~washed_out(look, r) & ~washed_out(r, look) for r in refs]
        moved = all(float(d[GRID].mean()) > self.config.moved_share for d in diffs)
        reaching = [reaching_in(d, self.config) for d in diffs]
        if moving is not None:
            reaching = [r & ~still_non_hands(r, look, ref, moving, self.config)
                        for r, ref in zip(reaching, refs, strict=True)]
        if (reaching_first or not moved) and all(r.any() for r in reaching):
            self._hand_sides.add(reaching_side(reaching[0]))
            return "reaching"
        return "moved" if moved else None

    def _registered(self, frame: Frame, look: Look) -> Look:
        """`look`, or the frame's look with the grid's corners moved when the board lies shifted against
        the last clear view (`register`: the camera knocked, the board slid), the corners kept then. The
        game's board is the anchor: the new corners must make the look agree with the clear view's on more
        squares, and what changed is read against the game's board as always (known tiles must read as
        the game's letters, or the watcher asks)."""
        ref = self._clear if self._clear is not None else self._ref
        if ref is None or self._corners is None:
            return look
        found = register(look, ref)
        if found is None or found[1] < REGISTER_MIN_CC:
            return look
        warp = found[0]
        grid = look_grid_corners()
        seen = cv2.perspectiveTransform(grid.reshape(-1, 1, 2).astype(np.float64), warp).reshape(4, 2)
        if float(np.abs(seen - grid).max()) < REGISTER_MIN_SHIFT:
            return look
        to_look = cv2.getPerspectiveTransform(self._corners, grid)
        corners = cv2.perspectiveTransform(seen.reshape(-1, 1, 2), np.linalg.inv(to_look)).reshape(4, 2)
        moved = look_of(frame, corners.astype(np.float32))
        before = int(differing(look, ref, self.config)[GRID].sum())
        after = int(differing(moved, ref, self.config)[GRID].sum())
        if after > REGISTER_KEEP_SHARE * before:
            return look
        self._corners = corners.astype(np.float32)
        return moved

    def _locate(self, frame: Frame) -> bool:
        from vision import locate

        try:
            found = locate.locate_grid(frame)
        except NoBoardFound:
            return False
        if found.doubtful:
            return False
        corners = np.asarray(found.corners, np.float32).reshape(4, 2)
        if self._corners is not None:
            # Keep the side of the board the reading settled on (locate names corners from the image).
            corners = _same_turn(corners, self._corners)
        self._corners = corners
        return True

    def _unchanged(self, t: float) -> WatchStatus:
        """A clear view that looks like the game's board."""
        self._proposal = None
        self._clear_since = None
        self._boundary = False
        self._held = False
        self._read_look = None
        self._reading = None
        self._withdrawn = ()
        self._question = None
        self._pending = None
        self._hand_sides = set()
        self._player_sides = set()
        return WatchStatus(t, Phase.WATCHING, "Watching the board.")

    def _read(self, frame: Frame, previous: list[str]) -> BoardReading:
        """The full read against `previous`. The camera stands still, so which side of the board is at the
        bottom of the frame is settled by the first reading that is clear about it, and kept; before that,
        a reading unclear about it is taken as the frame stands (the phone at a player's side, facing
        across the board), rather than asked about on every early move."""
        occupancy, letters = self._models
        reading = read_board(frame, corners=self._corners, previous=previous, tiles=self.config.tiles,
                             upright=not self._upright_settled, occupancy_model=occupancy, letters_net=letters)
        unclear = any(ORIENTATION_DOUBT in d for d in reading.doubts)
        if not self._upright_settled and unclear and not any("turned" in w for w in reading.warnings):
            reading = read_board(frame, corners=self._corners, previous=previous, tiles=self.config.tiles,
                                 upright=False, occupancy_model=occupancy, letters_net=letters)
        elif not self._upright_settled and not unclear and sum(ch != "." for row in reading.grid for ch in row) >= 4:
            self._upright_settled = True
        return reading

    def _changed(self, frame: Frame, look: Look, still: bool, t: float) -> WatchStatus:
        """A clear view that differs from the game's board's look (or the board's look is not known yet)."""
        same_as_read = self._read_look is not None and not differing(look, self._read_look, self.config).any()
        if not same_as_read:
            if self._proposal is not None:
                self._clear_since = None
            self._held = False
            self._pending = None  # the board looks otherwise: a doubt is timed from now
            try:
                reading = self._read(frame, self._game)
                if (reading.doubtful or reading.changed or self._unexplained(reading, look)[0] is not None) \
                        and self._relocated_for is not look:
                    # Known tiles unseen or moved, or a change the reading has no tile for: the camera may
                    # have been knocked by a little (too little to tell from the look; read with the old
                    # corners a new tile can be missed). Find the grid again once and read again if it moved.
                    reading = self._read_again_if_moved(frame, look, reading)
            except (NotAnImage, NoBoardFound):
                return self._no_board(t)
            if reading.corners:
                corners = np.asarray(reading.corners, np.float32).reshape(4, 2)
                if self._corners is None or float(np.abs(corners - self._corners).max()) > 0.5:
                    # The board was read from another side: its looks are learned again.
                    self._ref = self._clear = None
                    self._corners = corners
                    look = look_of(frame, corners)
                    self._prev = self._clear = look
            self._read_look, self._reading = look, reading
        elif self._proposal is not None and self._proposal is self._reading and self._confirmed is not self._proposal:
            self._confirm(frame)
        held = self._reading
        assert held is not None
        return self._judge(frame, held, look, still, t)

    def _confirm(self, frame: Frame) -> None:
        """The proposal read once more, from the next frame that looks the same (another picture of the
        same board: its sensor noise and compression differ). The reader's letter on a tile can turn on a
        few levels of noise: a blank on jheidel's O15, read from four pictures of one still board with the
        same corners, was a sure I (0.95) in two and a doubtful I (0.49) in the other two. When the second
        reading has another letter or a tile more, a known tile gone, or a new tile's letter below the
        reader's own doubt line (vision.sequence.NEW_LETTER_DOUBT; not the ask policy's 0.9: on the tests'
        960x720 frames a right I read 0.95, then below 0.9), it replaces the proposal (a doubt asks): a move
        is committed only when two pictures agree on it. A tile the second picture misses is no
        disagreement (a rendered black N's occupancy came and went between pictures). One more full read
        per proposal."""
        proposal = self._proposal
        assert proposal is not None
        self._confirmed = proposal
        try:
            again = self._read(frame, self._game)
        except (NotAnImage, NoBoardFound):
            return
        agrees = ({(tile.square, tile.letter) for tile in again.new_tiles or []}
                  <= {(tile.square, tile.letter) for tile in proposal.new_tiles or []})
        unclear = any(again.confidence[r][c] < NEW_LETTER_DOUBT for r, c in map(_square_of, again.new_tiles or []))
        if not agrees or again.changed or unclear:
            self._reading = again

    def _read_again_if_moved(self, frame: Frame, look: Look, reading: BoardReading) -> BoardReading:
        """`reading` again with the grid found afresh, when it lies more than a fifth of a square away."""
        self._relocated_for = look
        before = self._corners
        if before is None or not self._locate(frame):
            return reading
        assert self._corners is not None
        square = float(np.linalg.norm(before[1] - before[0])) / SIZE
        if float(np.abs(self._corners - before).max()) < 0.2 * square:
            self._corners = before
            return reading
        return self._read(frame, self._game)

    def _judge(self, frame: Frame, reading: BoardReading, look: Look, still: bool, t: float) -> WatchStatus:
        """What a clear view's reading means for the move."""
        new = [_square_of(tile) for tile in reading.new_tiles or []]
        if not new and not reading.changed and not reading.doubtful:
            # The game's board as it is: its look is learned (or learned again after a lighting change, a
            # lamp's reflection moved), from a still frame only: a hand coming in over the table beside the
            # board (in the ring, not yet over the grid) learned into it made the board's edge "differ" once
            # the hand had gone, and new tiles at the edge beside it were taken for an arm (cava glare).
            if still or self._ref is None:
                self._ref, self._ref_is_game = look, True
            return self._unchanged(t)
        if self._withdrawn and not reading.doubtful and not reading.changed and set(new) <= set(self._withdrawn):
            self._proposal = None
            left = ", ".join(square_name(s) for s in new)
            return WatchStatus(t, Phase.LIFT, f"Waiting for the withdrawn tiles to be lifted ({left}).",
                               squares=tuple(new))
        question, squares = self._doubt(reading)
        if question is None:
            question, squares = self._unexplained(reading, look, asking=True)
        if question is not None and self._proposal is not None and self._proposal is not reading:
            split = self._next_player_first(frame, self._proposal, reading, look, still, t)
            if split is not None:
                return split
        if question is not None:
            # A doubt is asked once the view has stayed so, clear, for the settle time (or at a clock tap):
            # tiles being laid are often not one legal play yet (a gap, the first tiles off the centre).
            self._proposal = None
            self._clear_since = None
            if self._question is not None and set(squares) == set(self._question[1]):
                # The question asked stands while the view shows the same doubt: timing it again from this
                # frame showed "A move is being laid" for the settle time after every ask, and each ask
                # after it reached the referee's tab as a new question (the correction screen reopened).
                self._question = (self._question[0], self._question[1], reading)
                return self._asking(t)
            if self._pending is None:
                self._pending = (t, question, squares, reading)
            return self._doubt_status(t)
        if self._question is not None:
            return self._asking(t)
        if self._proposal is not reading:
            earlier = self._proposal
            if earlier is not None and _facing(self._hand_sides, self._player_sides) and _extends(earlier, reading):
                # More tiles in the move's line, laid by an arm from another side of the table: the next
                # player extending the word, or the same player reaching round? Nobody can tell: ask.
                added = tuple(sorted(set(map(_square_of, reading.new_tiles or []))
                                     - set(map(_square_of, earlier.new_tiles or []))))
                self._proposal = None
                self._clear_since = None
                self._question = (("tiles were added in the line of the move seen by a hand from another side "
                                   "of the table: say whether they are the same move or the next player's."), added,
                                  reading)
                return self._asking(t)
            if earlier is None:
                self._player_sides = set(self._hand_sides)
            else:
                self._player_sides |= self._hand_sides
            self._hand_sides = set()
            self._proposal, self._proposal_look = reading, look
            self._clear_since = t
        elif self._clear_since is None:
            self._clear_since = t
        return self._proposed(t)

    def _proposed(self, t: float) -> WatchStatus:
        """The proposal stands; commit it when its time has come."""
        proposal = self._proposal
        assert proposal is not None and self._clear_since is not None
        if self._boundary:
            return self._commit(t)
        if self._held:
            return WatchStatus(t, Phase.PROPOSED, f"Move seen: {describe(proposal)}; waiting for a tap.",
                               proposal=proposal)
        left = self.config.settle_seconds - (t - self._clear_since)
        if left <= 0:
            return self._commit(t)
        return WatchStatus(t, Phase.PROPOSED, f"Move seen: {describe(proposal)}, confirming in {left:.0f} s.",
                           proposal=proposal, countdown=left)

    def _commit(self, t: float) -> WatchStatus:
        proposal = self._proposal
        assert proposal is not None
        self._record(proposal)
        return WatchStatus(t, Phase.WATCHING, f"Move recorded: {describe(proposal)}.", commit=proposal)

    def _record(self, proposal: BoardReading) -> None:
        """The watcher's own board after a commit (the caller confirms it with `set_board`)."""
        rows = merged_rows(self._game, proposal)
        self._game = rows
        self._committed_rows = rows
        self._ref, self._ref_is_game = self._proposal_look, self._proposal_look is not None
        self._proposal = None
        self._proposal_look = None
        self._hand_sides = set()
        self._player_sides = set()
        self._clear_since = None
        self._boundary = False
        self._held = False
        self._read_look = None
        self._reading = None

    def _next_player_first(self, frame: Frame, earlier: BoardReading, now: BoardReading, look: Look,
                           still: bool, t: float) -> WatchStatus | None:
        """`now` shows the earlier proposal's tiles, unchanged, and more tiles that cannot be part of one
        play with them (not in their line): the next player laid tiles before the earlier move's
        countdown ended. The earlier move is committed and the rest read against it (its status carries
        the commit); None when that is not the case (tiles in the same line are the same move, still
        being laid: a gap is often filled a moment later)."""
        had = {(tile.square, tile.letter) for tile in earlier.new_tiles or []}
        has = {(tile.square, tile.letter) for tile in now.new_tiles or []}
        if not had or not had < has or now.changed or self._doubt(earlier)[0] is not None:
            return None
        squares = [_square_of(tile) for tile in now.new_tiles or []]
        if len({r for r, _ in squares}) == 1 or len({c for _, c in squares}) == 1:
            return None
        after = merged_rows(self._game, earlier)
        rest = self._read(frame, after)
        if rest.changed or not rest.new_tiles:
            return None
        self._record(earlier)
        self._clear = look
        self._read_look, self._reading = look, rest
        status = self._judge(frame, rest, look, still, t)
        return replace(status, commit=earlier, message=f"Move recorded: {describe(earlier)}. {status.message}")

    def _doubt(self, reading: BoardReading) -> tuple[str | None, tuple[Square, ...]]:
        """The question a reading raises, and its squares; (None, ()) for a sure, legal move."""
        new = tuple(_square_of(tile) for tile in reading.new_tiles or [])
        if reading.changed:
            squares = tuple((int(c.square[1:]) - 1, ord(c.square[0]) - 65) for c in reading.changed)
            gone = ", ".join(c.square for c in reading.changed)
            return f"a tile of the game's board looks gone or moved ({gone}): put it back, or say what happened.", squares
        blanks = tuple(_square_of(tile) for tile in reading.new_tiles or [] if tile.letter == "?")
        if blanks:
            where = ", ".join(square_name(s) for s in blanks)
            return f"a blank tile was played on {where}: which letter does it stand for?", blanks
        # a blank printed with the lower-case letter it stands for (`vision.lowercase`): its letter offered, asked
        printed = [(_square_of(tile), tile.letter) for tile in reading.new_tiles or [] if tile.letter.islower()]
        if printed:
            said = ", ".join(f"{square_name(sq)} (read as a blank for {letter.upper()})" for sq, letter in printed)
            return (f"a blank tile was played on {said}: it scores 0; check its letter before the play is scored.",
                    tuple(sq for sq, _ in printed))
        illegal = [w for w in reading.warnings if "do not form a legal play" in w]
        if illegal:
            return (("the new tiles are not one legal play (not in one line, not joined to the board, or two "
                     "moves at once): check them."), new)
        if reading.doubtful:
            return (f"the reader is unsure of this move ({reading.doubts[0] if reading.doubts else 'a doubtful read'}).",
                    new or _doubt_squares(reading))
        if reading.score is None:
            return ("the move cannot be scored: check the new tiles.", new)
        unsure = self._unsure_letters(reading)
        if unsure:
            said = ", ".join(f"{square_name(sq)} (read {letter})" for sq, letter in unsure[:4])
            return (f"not sure of the letter{'s' if len(unsure) > 1 else ''} on {said}: check "
                    f"{'them' if len(unsure) > 1 else 'it'} before the play is scored."), tuple(sq for sq, _ in unsure)
        return None, ()

    def _unsure_letters(self, reading: BoardReading) -> list[tuple[Square, str]]:
        """The new tiles the ask policy asks about (see `WatchConfig.sure_new_tile`)."""
        out = []
        after: list[str] | None = None
        for tile in reading.new_tiles or []:
            if tile.letter == "?" or tile.letter.islower():
                continue  # a blank is asked about anyway
            sq = _square_of(tile)
            tags = set(reading.evidence[sq[0]][sq[1]].split(",")) if reading.evidence else set()
            if self.config.ask_contradicted and tags & {"!number", "!shape"}:
                out.append((sq, tile.letter))
                continue
            confidence = reading.confidence[sq[0]][sq[1]]
            if self._words is not None and self.config.ask_unlisted and confidence < SURE:
                after = after or merged_rows(self._game, reading)
                if not all(self._words(word) for word, _ in _lines_through(after, sq)):
                    out.append((sq, tile.letter))
                    continue
            if confidence >= self.config.sure_new_tile or vouched(",".join(tags)):
                continue  # sure, or its point number reads the letter's value (evidence outside the network)
            if self._words is not None:
                after = after or merged_rows(self._game, reading)
                if word_vouched(after, sq, self._words, self._alphabet()):
                    continue
            out.append((sq, tile.letter))
        return out

    def _alphabet(self) -> str:
        if self._letters is None:
            from companion.rules.tiles import load_tileset

            self._letters = "".join(ch for ch in load_tileset(self.config.tiles).alphabet if ch.isalpha())
        return self._letters

    def _unexplained(self, reading: BoardReading, look: Look, *, asking: bool = False
                     ) -> tuple[str | None, tuple[Square, ...]]:
        """A question when the look shows a change on a square where the reading has no tile, new or known
        (the reader missed a tile: a rendered black Y with a white letter was read empty on a stream with
        the camera bumped, and the move without it was committed as a partial play); a lamp's reflection
        (`washed_out`, `towards_white`) is no such change. (None, ()) when every change is read."""
        ref = self._ref
        if ref is None or not self._ref_is_game:
            return None, ()
        changed = (tile_like(look, ref) & ~washed_out(look, ref) & ~washed_out(ref, look)
                   & ~towards_white(look, ref))[RING:RING + SIZE, RING:RING + SIZE]
        read = np.array([[ch != "." for ch in row] for row in merged_rows(self._game, reading)])
        missed = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(changed & ~read), strict=True))
        if asking:
            # Asked about only where a missed tile would make the committed play partial: on the line of
            # the move's new tiles, between them or one square beyond either end. A change elsewhere (a
            # tile's shadow beside the word, a pixel's misregistration after a bump, the squares of a
            # withdrawn play) is not part of this move: it only makes the watcher find the grid again.
            missed = _on_the_move_line(missed, [_square_of(tile) for tile in reading.new_tiles or []])
        if not missed:
            return None, ()
        where = ", ".join(square_name(sq) for sq in missed[:4])
        return (f"the board looks changed on {where}, where the reader sees no tile: check "
                f"{'them' if len(missed) > 1 else 'it'} (a tile, or something lying there?)."), missed

    def _doubt_status(self, t: float) -> WatchStatus:
        """A doubt seen: asked when its time has come, until then the move is taken as still being laid."""
        assert self._pending is not None
        since, question, squares, reading = self._pending
        if self._boundary or t - since >= self.config.settle_seconds:
            self._question = (question, squares, reading)
            self._pending = None
            self._boundary = False
            return self._asking(t)
        return WatchStatus(t, Phase.CHANGING, "A move is being laid.")

    def _asking(self, t: float) -> WatchStatus:
        """The question stands until the referee answers (`set_board`) or the board is the game's again."""
        assert self._question is not None
        question, squares, reading = self._question
        # With the reading that raised it, so the referee's tab opens its correction screen on what was read
        # (the squares asked about ringed): "The board is right", or a letter corrected, then the play confirmed.
        return WatchStatus(t, Phase.ASKING, f"Asking the referee: {question}", proposal=reading, question=question,
                           squares=squares)

    def _hidden(self, t: float, message: str) -> WatchStatus:
        self._pending = None
        if self._question is not None:
            return self._asking(t)
        if self._proposal is not None:
            self._clear_since = None  # the countdown starts again when the view is clear
            return WatchStatus(t, Phase.HIDDEN, message, proposal=self._proposal)
        return WatchStatus(t, Phase.HIDDEN, message)

    def _no_board(self, t: float) -> WatchStatus:
        self._pending = None
        if self._proposal is not None:
            self._clear_since = None
        return WatchStatus(t, Phase.NO_BOARD, "No board in view: point the camera at the whole board from above.",
                           proposal=self._proposal)


def describe(reading: BoardReading) -> str:
    """`HOTEL 8H 18`: the main word, its position and the move's score."""
    words = reading.words or []
    if not words:
        return f"{len(reading.new_tiles or [])} new tiles"
    main = words[0]
    return f"{main.word} {main.position} {reading.score}"


def merged_rows(rows: Sequence[str], reading: BoardReading) -> list[str]:
    """The board after a reading's new tiles are put on `rows`."""
    grid = [list(r) for r in rows]
    for tile in reading.new_tiles or []:
        r, c = _square_of(tile)
        grid[r][c] = tile.letter
    return ["".join(r) for r in grid]


OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}


def _facing(new: set[str], player: set[str]) -> bool:
    """The arms that laid the new tiles came only from across the table from the player's: none from the
    player's side, each from the side opposite one of theirs. (An arm reaching in near a corner crosses
    two sides; adjacent sides are not told apart.)"""
    return bool(new) and bool(player) and not new & player and all(OPPOSITE[side] in player for side in new)


def _extends(earlier: BoardReading, now: BoardReading) -> bool:
    """`now` holds all of `earlier`'s new tiles, unchanged, and more."""
    had = {(tile.square, tile.letter) for tile in earlier.new_tiles or []}
    return bool(had) and had < {(tile.square, tile.letter) for tile in now.new_tiles or []}


def _lines_through(rows: Sequence[str], square: Square) -> list[tuple[str, int]]:
    """The lines of two or more tiles through `square` (across, then down), each with the square's index
    in it."""
    r, c = square
    out = []
    for dr, dc in ((0, 1), (1, 0)):
        r0, c0 = r, c
        while 0 <= r0 - dr and 0 <= c0 - dc and rows[r0 - dr][c0 - dc] != ".":
            r0, c0 = r0 - dr, c0 - dc
        letters = []
        rr, cc = r0, c0
        while rr < SIZE and cc < SIZE and rows[rr][cc] != ".":
            letters.append(rows[rr][cc].upper())
            rr, cc = rr + dr, cc + dc
        if len(letters) >= 2:
            out.append(("".join(letters), (r - r0) + (c - c0)))
    return out


def word_vouched(rows: Sequence[str], square: Square, is_word: Callable[[str], bool],
                 alphabet: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ") -> bool:
    """The word list vouches for the letter on `square` of `rows` (the board after the move): every line
    of two or more tiles through it is a word, and with any other letter of `alphabet` there some line
    would not be. A misread letter then made the only word there is, out of a player's phony."""
    letter = rows[square[0]][square[1]].upper()
    lines = _lines_through(rows, square)
    if letter not in alphabet or not lines or not all(is_word(word) for word, _ in lines):
        return False
    for other in alphabet:
        if other != letter and all(is_word(word[:k] + other + word[k + 1:]) for word, k in lines):
            return False
    return True


def _doubt_squares(reading: BoardReading) -> tuple[Square, ...]:
    return tuple((d.row, d.col) for d in reading.disagreements)


def _same_turn(found: F32, before: F32) -> F32:
    """`found` corners rolled to name the board from the same side as `before` (the nearest roll)."""
    best = min(range(4), key=lambda k: float(np.linalg.norm(np.roll(found, k, axis=0) - before)))
    return np.asarray(np.roll(found, best, axis=0), np.float32)


def _as_frame(frame: npt.NDArray[np.uint8]) -> Frame:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise NotAnImage("a frame must be an H x W x 3 BGR image of 8-bit values")
    return frame


def _check_rows(rows: Sequence[str]) -> list[str]:
    out = [str(r) for r in rows]
    if len(out) != SIZE or any(len(r) != SIZE for r in out):
        raise ValueError(f"a board must be {SIZE} rows of {SIZE} characters")
    return out
