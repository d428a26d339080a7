"""A table watched by a camera (issue #22): plain Python, no UI.

`TableWatch` is one table's watcher (`vision.watch.Watcher`, the pure core: frames in, decisions out)
with what the app adds around it:

- frames come from the referee's camera (the tab that switched Watch on) and are read **off the event
  loop**, one at a time per table, on the table's own worker thread; a frame offered while the previous
  one is still being read is dropped, never queued (the reader takes 0.1-0.3 s; a queue would only grow);
- the watch state (`WatchView`) lives here, with the table, so the referee's screen and every follower's
  show the same thing (`Hub.notify` redraws the tabs watching the table; nothing is saved: no game
  event is made by watching alone);
- a committed move is recorded through the same path as a confirmed photo (`record`, the referee tab's
  `AppState.record_watched`: `check_read` then the play, one event, undone like any play);
- whenever the game's board changed by any other way (a recorded move, the referee's answer to a
  question, a hand-entered play, a challenge that withdrew a play, an undo), the watcher is told
  (`Watcher.set_board`) before it reads the next frame, with the squares that lost their tiles as
  `withdrawn`: the table is expected to lift those.

The table's word list is the watcher's evidence too (`WatchWords`): a new tile the reader is not sure
of, whose letter is the only one that makes words there in the list the table judges challenges with,
needs no question. The list is loaded off the event loop (a thread started with the watch; the
watcher's first use waits for it on the table's worker thread), never on the way to the first frame.

Bad input changes nothing: a frame that is not an image, a camera refused or a stream that stops
becomes one sentence (`WatchView.problem`) and the watcher reads nothing from it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from vision.errors import VisionError

LOG = logging.getLogger("companion.watch")

# How often the referee's tab takes a picture while watching. On the web client a picture of the fake
# camera's 640x480 stream took 10-50 ms (median ~20 ms, 76 pictures, flet-camera 1.0.5, headless
# Chromium on this 2-core machine), so the camera is never the limit: the reader is (0.1-0.3 s a frame).
# Three a second keeps the board's changes well within the "at least one a second" even when
# every other frame is dropped for a read still running.
FRAME_INTERVAL = 0.33
# No picture for this long (take_picture hanging or failing) and the stream is taken as stopped: nothing
# is committed from it, the countdown is held and the table is told.
STALL_SECONDS = 4.0
# The settle seconds the referee may choose (a table setting): below 1 s a hand pausing over the board
# would end a move; above 30 s nobody waits.
SETTLE_RANGE = (1.0, 30.0)
# A picture whose 64x48 grey thumbnail varies less than this (standard deviation, 8-bit levels) shows
# nothing: the web camera's pictures after its stream stopped are all black (0.0); of the frames of the
# rendered boards seen through the browser and 60 shared board photos none was below 22.
BLANK_STD = 4.0
STOPPED = ("The camera stopped sending pictures (they are blank): nothing is confirmed until it sends the "
           "board again. Check the phone, then switch Watch off and on.")
# A folder to keep every frame read in (for checking a watched game afterwards with `companion watch`).
FRAMES_DIR = os.environ.get("COMPANION_WATCH_FRAMES", "")


# The shipped word lists (assets/lexicon/lexicons.json: ENABLE) are English. A game played with another
# language's tiles (the Romanian set) gets no vouching from them: a line that happens to spell an English
# word says nothing about a Romanian tile's letter, and the policy would skip a question on a coincidence.
# A player's own list (by name or file) is taken as the table chose it: the table judges its challenges
# with it.
ENGLISH_TILE_SETS = ("en",)


def shipped_lexicon(name: str) -> bool:
    """`name` is one of the word lists that ship with the app (English), not a player's own."""
    import json

    from lexicon.store import ASSETS  # the shipped lists' folder and catalog, which names resolve to first

    catalog = json.loads((ASSETS / "lexicons.json").read_text(encoding="utf-8"))["lexicons"]
    return name.upper() in catalog


def words_fit(lexicon: str, tiles: str) -> bool:
    """The word list `lexicon` may vouch for the letters of a game played with the tile set `tiles`."""
    return tiles in ENGLISH_TILE_SETS or not shipped_lexicon(lexicon)


class WatchWords:
    """A word list's membership test for the watcher (`vision.watch.Watcher(words=...)`), loaded once,
    off the event loop: `load()` runs on a thread of its own when the watch starts, and the first word
    looked up (on the table's worker thread, only when a new tile is below the sure band) waits for it.
    A list that cannot be loaded (a player's own file gone) vouches for nothing: the watcher then asks,
    as it does with no list.

    Loading measured on this shared 2-core machine (`benchmarks/watch_words.py`, load average 24): ENABLE
    from the compiled cache 20 ms; compiled from its text on first use (an empty cache folder) 4.7-6.7 s;
    `TableWatch.start()` meanwhile returns in 2.4 ms. The app loads its default list at start-up
    (`JUDGE.warm()`), so a table on the default finds it loaded."""

    def __init__(self, name: str, load: Callable[[str], Any]) -> None:
        self.name = name
        self._load = load
        self._lock = threading.Lock()
        self._contains: Callable[[str], bool] | None = None
        self.error = ""  # why the list could not be loaded ('' when it was, or not tried yet)
        self.load_seconds: float | None = None

    def load(self) -> None:
        with self._lock:
            if self._contains is not None or self.error:
                return
            t0 = time.perf_counter()
            try:
                self._contains = self._load(self.name).__contains__
            except (ValueError, OSError) as exc:  # the judge's sentence for a list it cannot load
                self.error = str(exc)
                LOG.warning("watch: the word list %s is not used as evidence: %s", self.name, exc)
            self.load_seconds = time.perf_counter() - t0

    def start_loading(self) -> None:
        threading.Thread(target=self.load, name=f"watch-words-{self.name}", daemon=True).start()

    def __call__(self, word: str) -> bool:
        if self._contains is None:
            self.load()
        return self._contains is not None and self._contains(word)


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    if not text:
        return text
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


@dataclass(frozen=True)
class WatchView:
    """What every tab shows of the watch: plain data, made anew for each change (never mutated)."""

    on: bool = False
    phase: str = ""  # vision.watch.Phase value ("watching", "move seen", ...), "" when off
    message: str = ""  # the watcher's sentence for the table
    problem: str = ""  # bad input (camera refused, stream stopped, not an image): one sentence
    proposal: Any = None  # PlayCheck of the proposed move (tiles, words, score, money and token effects)
    proposal_rows: tuple[str, ...] | None = None
    countdown_until: float | None = None  # time.monotonic() at which the proposal is committed
    settle: float = 4.0  # the table's settle seconds (the countdown's whole length)
    question: str = ""  # why the watcher asks the referee
    squares: tuple[tuple[int, int], ...] = ()  # the squares the question (or the lift) is about
    question_seq: int = 0  # increases with each new question (the referee's tab loads each once)
    confidence: tuple[tuple[float, ...], ...] | None = None
    paused: str = ""  # why frames are not read now (a Monopoly step pending...), "" when reading
    fps: float = 0.0  # pictures a second the camera delivered over the last few seconds
    read_fps: float = 0.0  # of which read (the rest dropped while a read was running)

    def seconds_left(self, now: float | None = None) -> int | None:
        if self.countdown_until is None:
            return None
        return max(0, math.ceil(self.countdown_until - (time.monotonic() if now is None else now)))

    def share_left(self) -> float:
        """How much of the countdown is left, 1.0 (all) to 0.0 (none): the bar every tab shows."""
        if self.countdown_until is None:
            return 0.0
        left = (self.countdown_until - time.monotonic()) / max(self.settle, 1e-6)
        return min(1.0, max(0.0, left))


@dataclass
class _Rates:
    """Pictures offered and read over a sliding window, for the frames-per-second figures shown."""

    window: float = 6.0
    offered: list[float] = field(default_factory=list)
    read: list[float] = field(default_factory=list)

    def note(self, t: float, read: bool) -> None:
        self.offered.append(t)
        if read:
            self.read.append(t)
        for times in (self.offered, self.read):
            while times and times[0] < t - self.window:
                times.pop(0)

    def fps(self, times: list[float]) -> float:
        if len(times) < 2:
            return 0.0
        return (len(times) - 1) / max(1e-6, times[-1] - times[0])


# Recording a committed move: the referee tab's function, given the checked play and the moves count
# the watcher's board was set at; returns '' or the refusal's sentence.
Record = Callable[[Any, int], str]
# Loading a question into the referee tab's photo-correction screen.
Ask = Callable[[WatchView], None]


class TableWatch:
    """The watch of one table (a `WordTable`: `board.rows()`, `check_read`, `tileset_name`,
    `turn_stage`, `current_player`, `moves`), made on first use by `WordTable.watch()`."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.view = WatchView()
        self.settle_seconds: float | None = None  # None: the core's default (WatchConfig)
        self._watcher: Any = None
        self._board: list[str] = []  # the board the watcher was last told
        self._moves = -1  # the game's moves count at that time
        self._pool: ThreadPoolExecutor | None = None
        self._busy = False
        self._lock = threading.Lock()
        self._record: Record | None = None
        self._ask: Ask | None = None
        self._notify: Callable[[], None] = lambda: None
        self._rates = _Rates()
        self._question_seq = 0
        self._last_hand_t: float | None = None  # frame time of the last frame that saw a hand / a change
        self._proposal_key: tuple[str, ...] | None = None
        self.camera_tab = ""  # the session key of the tab whose camera feeds the watcher
        self.last_picture_at = 0.0  # time.monotonic() of the last picture the referee's camera offered
        self._frames_t0: float | None = None  # the first kept frame's time (COMPANION_WATCH_FRAMES)
        self.latencies: list[float] = []  # seconds from the last hand frame to the proposal published
        self.words: WatchWords | None = None  # the table's word list as the watcher's evidence (`table_words`)

    # ----- settings
    def default_settle(self) -> float:
        # Lazy here and below: the watcher and OpenCV cost ~1 s to import, needed only by a table that watches.
        from vision.watch import WatchConfig

        return float(WatchConfig().settle_seconds)

    def settle(self) -> float:
        return self.settle_seconds if self.settle_seconds is not None else self.default_settle()

    def set_settle(self, text: str) -> str:
        """The table's settle seconds from what the referee typed: '' or why it is refused (unchanged)."""
        try:
            value = float(text.strip().replace(",", "."))
        except ValueError:
            return f"Type the settle time in seconds, a number from {SETTLE_RANGE[0]:g} to {SETTLE_RANGE[1]:g}."
        if not (SETTLE_RANGE[0] <= value <= SETTLE_RANGE[1]) or math.isnan(value):
            return f"The settle time must be from {SETTLE_RANGE[0]:g} to {SETTLE_RANGE[1]:g} seconds."
        self.settle_seconds = value
        if self._watcher is not None:
            self._run_soon(self._new_watcher)  # the next frames are judged with the new time
        return ""

    # ----- switching on and off (on the event loop)
    @property
    def on(self) -> bool:
        return self.view.on

    def start(self, record: Record, ask: Ask, notify: Callable[[], None], camera_tab: str = "") -> None:
        """Watch from now on: `record` and `ask` belong to the referee's tab `camera_tab` (the one whose
        camera feeds the watcher: another referee tab shows the state but starts no camera of its own),
        `notify` redraws the table."""
        self._record, self._ask, self._notify = record, ask, notify
        self.camera_tab = camera_tab
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"watch-{self.game.id}")
        words = self.table_words()
        if words is not None:
            words.start_loading()  # on its own thread: neither the event loop nor the first frame waits
        self._new_watcher()
        self._rates = _Rates()
        self.last_picture_at = time.monotonic()
        self._publish(WatchView(on=True, phase="starting", message="Starting the camera..."))

    def _new_watcher(self) -> None:
        from vision.watch import WatchConfig, Watcher  # lazy: see default_settle

        config = WatchConfig(settle_seconds=self.settle(), tiles=self.game.tileset_name)
        words = self.table_words()
        with self.game.lock:
            rows = list(self.game.board.rows())
            moves = self.game.moves
        with self._lock:
            self._watcher = Watcher(rows, config, words=words)
            self._board, self._moves = rows, moves

    def table_words(self) -> WatchWords | None:
        """The word list the table judges challenges with (`WordTable.lexicon`: ENABLE, another installed
        list or a player's own), as the watcher's evidence; None when the list does not fit the game's
        tiles (`words_fit`). Made once per list name; loaded lazily (`WatchWords`)."""
        name = str(getattr(self.game, "lexicon", "") or "")
        if not name or not words_fit(name, self.game.tileset_name):
            return None
        if self.words is None or self.words.name != name:
            from companion.ui.adapters import JUDGE  # the app's loaded lists, shared with the challenges

            self.words = WatchWords(name, JUDGE.word_list)
        return self.words

    def stop(self, problem: str = "") -> None:
        """Stop watching (the switch, the game over, the camera gone): nothing is committed after this."""
        with self._lock:
            self._watcher = None
        self._publish(WatchView(on=False, problem=problem))

    def camera_ready(self) -> None:
        if self.on:
            self._publish(self._with(phase="watching", message="Watching the board.", problem=""))

    def camera_failed(self, sentence: str) -> None:
        """The camera was refused, or stopped sending pictures: say so, commit nothing, hold the countdown."""
        if self._watcher is not None:
            self._run_soon(lambda: self._watcher is not None and self._watcher.hold())
        self._publish(self._with(problem=_sentence(sentence), countdown_until=None))

    def silent_for(self) -> float:
        """Seconds since the referee's camera last offered a picture while watching (0 when off): a phone
        whose screen went to sleep sends none, and the other tabs should not keep showing "Watching"."""
        return time.monotonic() - self.last_picture_at if self.on and self.last_picture_at else 0.0

    # ----- frames (on the event loop; the reading runs on the table's worker thread)
    def paused_because(self) -> str:
        """Why frames are not read now ('' when they are): the game waits for something else first."""
        game = self.game
        if game.finished or game.current_player is None:
            return "The game is over: nothing more to watch."
        stage = game.turn_stage()
        if stage != "word":
            return "Watching resumes once the step above is done."
        return ""

    def offer(self, data: bytes, mirrored: bool, t: float) -> asyncio.Future[Any] | None:
        """A picture from the camera, taken at `t` (time.monotonic()): read it unless a read is running
        (then it is dropped). Returns the read's future, or None when dropped or not watching."""
        if not self.on or self._watcher is None or self._pool is None:
            return None
        self.last_picture_at = time.monotonic()
        paused = self.paused_because()
        if paused != self.view.paused:
            self._publish(self._with(paused=paused))
        if paused:
            return None
        dropped = self._busy
        self._rates.note(t, read=not dropped)
        if dropped:
            return None
        self._busy = True
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool, self._read, data, mirrored, t, False)
        future.add_done_callback(self._read_done)
        return future

    async def boundary(self, data: bytes | None, mirrored: bool, t: float) -> None:
        """The player's clock tap: the frame taken at that instant ends the move (`Watcher.boundary`)."""
        if not self.on or self._watcher is None or self._pool is None:
            return
        while self._busy:  # the tap's frame is never dropped: wait for the read in progress
            await asyncio.sleep(0.02)
        self._busy = True
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool, self._read, data, mirrored, t, True)
        future.add_done_callback(self._read_done)
        await future

    async def hold(self) -> None:
        """A tap on the referee's screen: the countdown stops until the board changes again."""
        watcher = self._watcher
        if watcher is None or self._pool is None:
            return
        await asyncio.get_running_loop().run_in_executor(self._pool, watcher.hold)
        if self.view.countdown_until is not None:
            self._publish(self._with(countdown_until=None,
                                     message="Countdown stopped: the move is confirmed when the board changes "
                                             "again or on the referee's word."))

    async def carry_on(self) -> None:
        """The referee's answer to a question is "nothing was played" (or the tiles were put right): the
        watcher takes the game's board as it is and watches on."""
        if self._watcher is None or self._pool is None:
            return

        def tell() -> None:
            with self.game.lock:
                rows, moves = list(self.game.board.rows()), self.game.moves
            with self._lock:
                if self._watcher is not None:
                    self._watcher.set_board(rows)
                self._board, self._moves = rows, moves

        await asyncio.get_running_loop().run_in_executor(self._pool, tell)
        self._publish(self._with(phase="watching", message="Watching the board.", question="", squares=(),
                                 proposal=None, proposal_rows=None, countdown_until=None, problem=""))

    def _run_soon(self, fn: Callable[[], Any]) -> None:
        if self._pool is not None:
            self._pool.submit(fn)

    def note_recorded(self) -> None:
        """A play was just recorded on this table while watching (the referee's answer to a question, or a
        play typed by hand): the watcher is told the board with it, as it stands now, before any later picture
        is read (the pool runs in order). Taken when a question is answered, such a play was never committed
        by the watcher: told only at the next read, after a challenge or an undo had taken it off again, the
        watcher would see its tiles still on the table as a new move and ask about them again, where they are
        a withdrawn play to lift (the browser test's XOL, asked about its X, then challenged: stop 33's CI)."""
        game = self.game
        with game.lock:
            rows, moves = list(game.board.rows()), game.moves
        self._run_soon(lambda: self._tell(rows, moves))

    # ----- on the worker thread
    def _sync_board(self) -> None:
        """Tell the watcher the game's board when it changed since it was last told (any way: a move
        recorded, a question answered, a challenge or an undo that took tiles off)."""
        game = self.game
        with game.lock:
            moves = game.moves
            if moves == self._moves:
                return
            rows = list(game.board.rows())
        self._tell(rows, moves)

    def _tell(self, rows: list[str], moves: int) -> None:
        """Tell the watcher the game's board `rows` (after `moves`); the tiles it holds that are not on them
        are a play taken back, to be lifted."""
        if moves == self._moves:
            return
        with self._lock:
            # The tiles the watcher holds on the board, not the board it was last told: after a commit it
            # holds the committed move already, and a challenge (or an undo) tapped before the next frame
            # was read takes that move off the game's board: its tiles are to be lifted, not a new move.
            held = self._watcher.board if self._watcher is not None else self._board
            withdrawn = [(r, c) for r, row in enumerate(held) for c, ch in enumerate(row)
                         if ch not in ".#" and rows[r][c] in ".#"]
            if self._watcher is not None:
                self._watcher.set_board(rows, withdrawn=withdrawn)
            self._board, self._moves = rows, moves

    def _read(self, data: bytes | None, mirrored: bool, t: float, boundary: bool) -> dict[str, Any]:
        import cv2  # lazy: ~300 ms at start; loaded with the watcher (vision.watch) before a frame comes
        import numpy as np

        image = None
        if data:
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if image is None and not boundary:
            return {"problem": "The camera sent a picture that is not an image: nothing was read from it. "
                               "Switch Watch off and on, or take the photo by hand."}
        if image is not None and _blank(image):
            # A stopped stream (a track ended, the camera taken by another app) still hands back pictures:
            # all one colour. Nothing is read from them and a countdown is held.
            with self._lock:
                if self._watcher is not None:
                    self._watcher.hold()
            return {"problem": STOPPED}
        if image is not None and mirrored:
            image = cv2.flip(image, 1)  # a front or external camera on the web comes back mirrored
        if image is not None and FRAMES_DIR:
            # The frames as the watcher got them, named by their seconds since the first (as `vision.stream`
            # names a folder's frames): `companion watch DIR` replays them.
            if self._frames_t0 is None:
                self._frames_t0 = t
            cv2.imwrite(os.path.join(FRAMES_DIR, f"t{t - self._frames_t0:010.3f}.jpg"), image)
        self._sync_board()
        with self._lock:
            watcher = self._watcher
            moves = self._moves
        if watcher is None:
            return {}
        from vision.watch import merged_rows  # lazy: see default_settle

        before = watcher.board  # the game's board as the watcher holds it: the readings' new tiles go on it
        try:
            status = watcher.feed(image, t) if image is not None else None
        except VisionError as exc:  # the watcher refuses this frame (not an image...): it changes nothing
            return {"problem": _sentence(f"{_sentence(str(exc))} Nothing was read from this picture")}
        if boundary:
            status = watcher.boundary(t)
        assert status is not None
        out: dict[str, Any] = {"status": status, "moves": moves, "t": t}
        game = self.game
        if status.commit is not None:
            before = merged_rows(before, status.commit)
            out["commit_rows"] = tuple(before)
            with game.lock:
                out["commit_check"] = game.check_read(list(before))[0]
        if status.proposal is not None:
            rows = merged_rows(before, status.proposal)
            out["proposal_rows"] = tuple(rows)
            if status.commit is None:  # else checked once the commit is recorded (the board it goes on)
                with game.lock:
                    out["proposal_check"] = game.check_read(rows)[0]
        return out

    # ----- back on the event loop
    def _read_done(self, future: asyncio.Future[Any]) -> None:
        self._busy = False
        try:
            result = future.result()
        except Exception as exc:  # a reader failure on one frame: say so, commit nothing
            LOG.exception("watch: reading a frame failed")
            self._publish(self._with(problem=_sentence(f"A frame could not be read ({exc}); nothing was "
                                                       "committed")))
            return
        if not result or not self.on:
            return
        if "problem" in result:
            self._publish(self._with(problem=result["problem"]))
            return
        self._apply(result)

    def _apply(self, result: dict[str, Any]) -> None:
        status = result["status"]
        phase = str(getattr(status.phase, "value", status.phase))
        now = time.monotonic()
        if phase in ("waiting for a clear view", "move being laid"):
            self._last_hand_t = result["t"]
        proposal_check = result.get("proposal_check")
        rows = result.get("proposal_rows")
        # The latency is of proposals: a question carries its reading too (for the correction screen).
        if rows is not None and rows != self._proposal_key and not status.question:
            self._proposal_key = rows
            if self._last_hand_t is not None:
                # Measured where it is published: what a tab then draws takes its own redraw on top.
                self.latencies.append(now - self._last_hand_t)
                # The wall-clock time the hand frame arrived, so a browser test can add what the tabs' drawing takes.
                LOG.warning("watch: proposal %s published %.2f s after the last frame with a hand, which arrived at "
                            "%.3f", status.message.split(",")[0], self.latencies[-1],
                            time.time() - (now - self._last_hand_t))
        if rows is None:
            self._proposal_key = None
        question = status.question or ""
        seq = self._question_seq
        if question and (question != self.view.question or tuple(status.squares) != self.view.squares):
            self._question_seq += 1
            seq = self._question_seq
        # The countdown runs from the frame's time (when the picture arrived), not from the end of its read.
        countdown_until = result["t"] + status.countdown if status.countdown is not None else None
        view = self._with(
            settle=self.settle(), phase=phase, message=status.message, problem="", proposal=proposal_check, proposal_rows=rows,
            countdown_until=countdown_until, question=question, squares=tuple(status.squares), question_seq=seq,
            confidence=(tuple(tuple(float(x) for x in r) for r in status.proposal.confidence)
                        if status.proposal is not None else None))
        commit = status.commit
        if commit is not None:
            check = result.get("commit_check")
            if check is not None and check.ok and self._record is not None:
                refusal = self._record(check, result["moves"])
                if refusal:
                    view = replace_view(view, problem=_sentence(refusal), countdown_until=None)
                elif rows is not None:  # the next player's tiles, seen first: checked on the board they go on
                    with self.game.lock:
                        view = replace_view(view, proposal=self.game.check_read(list(rows))[0])
            else:
                # The reader is sure of the tiles but the game refuses the play as seen: the referee decides.
                self._question_seq += 1
                why = check.error if check is not None else "the move could not be checked"
                view = replace_view(view, phase="asking the referee", question=_sentence(why),
                                    squares=tuple(check.new_squares) if check is not None else (),
                                    question_seq=self._question_seq, countdown_until=None,
                                    proposal_rows=result["commit_rows"])
                self._run_soon(lambda: self._watcher is not None and self._watcher.hold())
        self._publish(view)
        if view.question and view.proposal_rows is not None and self._ask is not None:
            self._ask(view)

    def _with(self, **changes: Any) -> WatchView:
        fps = round(self._rates.fps(self._rates.offered), 1)
        read_fps = round(self._rates.fps(self._rates.read), 1)
        return replace_view(self.view, fps=fps, read_fps=read_fps, **changes)

    def _publish(self, view: WatchView) -> None:
        """Show `view` on every tab of the table when it changed in what they draw."""
        old = self.view
        self.view = view
        shown = ("on", "phase", "message", "problem", "proposal_rows", "question", "squares", "paused")
        if any(getattr(old, k) != getattr(view, k) for k in shown) or (
                old.seconds_left() != view.seconds_left()) or old.proposal is not view.proposal and (
                old.proposal is None or view.proposal is None):
            self._notify()


def _blank(image: Any) -> bool:
    import cv2  # lazy: see _read

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    thumb = cv2.resize(grey, (64, 48), interpolation=cv2.INTER_AREA)
    return float(thumb.std()) < BLANK_STD


def replace_view(view: WatchView, **changes: Any) -> WatchView:
    return replace(view, **changes)


__all__ = ["FRAME_INTERVAL", "SETTLE_RANGE", "STALL_SECONDS", "TableWatch", "WatchView", "WatchWords", "words_fit"]
