"""The drafts of a turn on the 15x15 word board, owned by the word-board games (classic Scrabble and
Monopoly Scrabble): a photo's reading and its corrections, a play typed by hand and its check, the camera,
the challenge's ruling, the watched board (issue #22), the racks left at the end; and the tab's actions on
them (read a photo, correct a square, confirm, pass, exchange, challenge, end the game).

`WordBoardForm` (the typed text) and `WordBoardTurn` (the observable drafts and their actions) are mixed
into the shell's `Form` and `AppState` (`companion.ui.models`), which name no game: the word-board screens
(`components/turn.py`, `board.py`, `correction.py`, `camera.py`, `verdict.py`, `end_game.py`, the watch)
read and call them on the tab's `app` as before. Every action that records an event goes through the
shell's guarded `AppState._act` (issue #26: one tap, one action).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games import GAMES
from companion.ui.adapters import BoardRead, ReaderUnavailable, Verdict, read_board
from companion.ui.hub import HUB, PIN_NEEDED
from companion.ui.table import TableAction, TableBase, TableError
from companion.ui.word_table import PlayCheck

if TYPE_CHECKING:  # models.py imports this module to build its Form and AppState on it
    from companion.ui.models import Form

LOG = logging.getLogger("companion.ui")


def _game_ui(game: Any) -> Any:
    """The UI side (`GameUI`) of a table's game: its screens' names."""
    return GAMES.get(game.kind).load_ui()


class WordBoardForm:
    """The typed text of a word-board turn, kept off the observable (a keystroke does not redraw the page)."""

    def __init__(self) -> None:
        self.word = ""
        self.square = ""
        self.direction = "across"
        self.letter = ""  # the letter typed for a square being corrected
        self.exchange_count = "7"
        self.racks: dict[str, str] = {}  # the tiles left on each rack, typed at the end
        self.bought = ""  # Monopoly Scrabble: Bank rack letters in the word (classic Scrabble ignores it)
        self.play_rack = ""  # the player's rack typed with a play, for tables that record it (`play_with_rack`)
        self.settle = ""  # watching: the settle seconds typed (the table's setting, `TableWatch.set_settle`)
        self.watch_question = 0  # watching: the last question loaded into this tab's correction screen

    def forget_table(self) -> None:
        """What was typed for one table stays with it, not on the next this tab opens."""
        self.racks = {}
        self.play_rack = ""
        self.bought = ""


class _Shell:
    """What `WordBoardTurn` uses of the shell's `AppState` (declared for the type checker only)."""

    if TYPE_CHECKING:
        form: Form
        session_key: str
        screen: str
        role: str
        busy: str
        error: str

        @property
        def game(self) -> Any: ...
        def fail(self, message: str) -> None: ...
        def say(self, message: str) -> None: ...
        def go(self, screen: str) -> None: ...
        def go_home(self) -> None: ...
        def touch(self) -> None: ...
        def refused(self) -> None: ...
        def _done(self, message: str = "") -> None: ...
        def _act(self, game: TableBase, action: TableAction, *args: Any) -> Any: ...
        def do(self, action: TableAction, *args: Any) -> bool: ...


@dataclass
class WordBoardTurn(_Shell):
    """A tab's drafts of a word-board turn and its actions on them (mixed into the shell's `AppState`)."""

    # a photo's reading, as corrected so far
    read_rows: tuple[str, ...] | None = None
    read_conf: tuple[tuple[float, ...], ...] | None = None
    read_check: Any = None
    read_warnings: tuple[str, ...] = ()
    # A doubtful reading (the reader says why): nothing is scored until the referee confirms or corrects it.
    read_doubts: tuple[str, ...] = ()
    selected: tuple[int, int] | None = None
    hand_check: Any = None
    camera_open: bool = False
    camera_mirrored: bool = False
    # challenge
    verdict: Any = None
    verdict_until: float = 0.0

    # ----- turn: photo read
    def clear_draft(self) -> None:
        self.read_rows = None
        self.read_conf = None
        self.read_check = None
        self.read_warnings = ()
        self.read_doubts = ()
        self.selected = None
        self.hand_check = None
        self.form.word = ""
        self.form.square = ""

    async def read_photo(self, image: bytes, mirrored: bool = False) -> None:
        """The reader runs in a worker thread (it can take a second); the page stays live."""
        game = self.game
        if game is None:
            return
        self.busy = "Reading the board..."
        self.error = ""
        rows = game.board.rows()
        try:
            loop = asyncio.get_running_loop()
            read = await loop.run_in_executor(None, read_board, image, rows, game.tileset_name, mirrored)
        except (ReaderUnavailable, ValueError) as exc:
            self.busy = ""
            self.fail(str(exc))
            return
        except Exception as exc:  # the reader failed on this photo: say so, keep the turn
            LOG.exception("the board reader failed on a photo")
            self.busy = ""
            self.fail(f"The board could not be read from this photo ({exc}). Try again or enter the play by hand.")
            return
        self.busy = ""
        self.show_read(read)

    def show_read(self, read: BoardRead) -> None:
        game = self.game
        if game is None:
            return
        if HUB.may_change(game, self.session_key):
            self.refused()
            self.fail(PIN_NEEDED)
            return
        if len(read.rows) != game.board.size:
            self.fail(f"The reader found a {len(read.rows)}-row grid, not {game.board.size} rows.")
            return
        self.read_conf = tuple(tuple(r) for r in read.confidence)
        game.set_read(read)
        self.set_read_rows(list(read.rows))
        self.read_doubts = tuple(read.doubts)
        if self.read_doubts:
            self.say("The reader is not sure of this photo: check the board, correct it or enter the play by hand.")
            return
        self.say("Check the highlighted squares. Tap a square to correct it." + (f" {read.note}" if read.note else ""))

    def accept_doubtful_read(self) -> None:
        """The referee has checked a doubtful reading against the real board: it may now be scored."""
        self.read_doubts = ()
        self.say("Check the highlighted squares. Tap a square to correct it.")

    def read_by_hand(self) -> None:
        """Drop the photo's reading and enter the play by hand."""
        self.clear_draft()
        self.say("Enter the play by hand below.")

    def set_read_rows(self, rows: list[str]) -> None:
        game = self.game
        assert game is not None
        check, warnings = game.check_read(rows, self.form.bought)
        self.read_rows = tuple(rows)
        self.read_check = check
        self.read_warnings = tuple(warnings)

    def select(self, row: int, col: int) -> None:
        if self.read_rows is None and self.role == "referee":
            # No photo: tapping a square fills the start square of a hand-entered play.
            self.form.square = f"{'ABCDEFGHIJKLMNO'[col]}{row + 1}"
            self.selected = (row, col)
            self.say(f"Start square {self.form.square}. Type the word below and choose across or down.")
            return
        self.selected = (row, col)
        self.form.letter = ""

    def select_none(self) -> None:
        self.selected = None


    def toggle_camera(self) -> None:
        self.camera_open = not self.camera_open

    def correct(self, letter: str, blank: bool = False) -> None:
        """Set the selected square of the read to a letter, a blank standing for a letter, or empty."""
        if self.read_rows is None or self.selected is None:
            return
        r, c = self.selected
        letter = letter.strip()
        if letter and (len(letter) != 1 or not letter.isalpha()):
            self.fail("Type one letter (or leave it empty to clear the square).")
            return
        ch = "." if not letter else (letter.lower() if blank else letter.upper())
        if blank and not letter:
            ch = "?"
        rows = list(self.read_rows)
        rows[r] = rows[r][:c] + ch + rows[r][c + 1:]
        if self.read_conf is not None:
            conf = [list(x) for x in self.read_conf]
            conf[r][c] = 1.0
            self.read_conf = tuple(tuple(x) for x in conf)
        self.selected = None
        self.set_read_rows(rows)
        self.say("Square corrected.")

    def confirm_read(self) -> None:
        check: PlayCheck | None = self.read_check
        if check is None:
            return
        if self.read_doubts:
            self.fail("The reader doubts this photo: confirm the board is right as shown, or enter the play by hand.")
            return
        if not check.ok:
            self.fail(check.error)
            return
        self._play(check.position, check.word)

    # ----- turn: by hand
    def check_hand(self) -> None:
        game = self.game
        if game is None:
            return
        square = self.form.square.strip().upper()
        position = ""
        if square:
            if len(square) >= 2 and square[0].isalpha() and square[1:].isdigit():
                position = (square[1:] + square[0]) if self.form.direction == "across" else square
            elif square[0].isdigit() or (len(square) >= 2 and square[-1].isdigit()):
                position = square  # already GCG: 8H or H8
            else:
                self.hand_check = None
                self.fail(f"'{square}' is not a square: use a column letter then a row number, like H8.")
                return
        check = game.check(position, self.form.word, self.form.bought)
        self.hand_check = check
        if check.ok:
            self.say(f"{check.word} at {check.position}: {check.total} points. Confirm to record it.")
        else:
            self.fail(check.error)

    def confirm_hand(self) -> None:
        self.check_hand()
        check: PlayCheck | None = self.hand_check
        if check is None or not check.ok:
            return
        self._play(check.position, check.word)

    def _play(self, position: str, word: str) -> None:
        game = self.game
        assert game is not None
        player = game.current_player
        before = game.scores().get(player or "", 0)
        rack = self.form.play_rack.strip()
        try:
            # `type(game).x`: the game's own method (shared word-board code; a table may override it)
            if rack and callable(getattr(game, "play_with_rack", None)):
                self._act(game, type(game).play_with_rack, position, word, rack)
            else:
                self._act(game, type(game).play, position, word, self.form.bought)
        except TableError as exc:
            self.fail(str(exc))
            return
        self.form.play_rack = ""
        gained = game.scores().get(player or "", 0) - before
        self.clear_draft()
        self.form.bought = ""
        self._done(f"{player} played {word.upper()} at {position}: {gained} points.")
        self.screen = _game_ui(game).play_screen
        watch = self.watch()
        if watch is not None and watch.on:
            watch.note_recorded()  # before a challenge or an undo can take it off again (TableWatch.note_recorded)


    def pass_turn(self) -> None:
        game = self.game
        if game is None:
            return
        who = game.current_player
        if self.do(type(game).pass_turn):
            self.say(f"{who} passed.")

    def exchange(self) -> None:
        try:
            n = int(self.form.exchange_count)
        except ValueError:
            self.fail("Say how many tiles are exchanged (a number from 1 to 7).")
            return
        game = self.game
        if game is None:
            return
        who = game.current_player
        if self.do(type(game).exchange, n):
            self.say(f"{who} exchanged {n} tiles.")


    # ----- challenge
    def challenge(self, challenger: str) -> None:
        game = self.game
        if game is None:
            return
        try:
            verdict: Verdict = self._act(game, type(game).challenge, challenger)
        except TableError as exc:
            self.fail(str(exc))
            return
        except (FileNotFoundError, ValueError) as exc:
            self.fail(str(exc))
            return
        self.verdict = verdict
        self.verdict_until = time.time() + 6
        HUB.publish(game, exclude=self.session_key)
        if self.watching():
            # The ruling shows on the turn screen (`components/watch.py`): leaving it would stop the camera.
            self.say(game.notice)
            self.touch()
            return
        self.go("verdict")

    def age_drafts(self) -> None:
        """Take down what is shown only for a while: a challenge's ruling after its time."""
        if self.verdict is not None and time.time() > self.verdict_until:
            self.verdict = None

    def close_verdict(self) -> None:
        self.verdict = None
        game = self.game
        if game is None:
            self.go_home()
            return
        self.go(_game_ui(game).play_screen)

    # ----- watching the board (issue #22): the table's `TableWatch` (`companion.ui.watching`) and
    # this tab's part in it; the screen is `components/watch.py`.
    def watch(self) -> Any:
        """The watch of this tab's table, or None when its game cannot be watched."""
        game = self.game
        return game.watch() if game is not None and callable(getattr(game, "watch", None)) else None

    def watching(self) -> bool:
        watch = self.watch()
        return watch is not None and bool(watch.on)

    def watch_on(self) -> None:
        """Switch Watch on: this tab's camera feeds the table's watcher; its commits are this tab's plays."""
        game, watch = self.game, self.watch()
        if game is None or watch is None:
            return
        if HUB.may_change(game, self.session_key):
            self.refused()
            self.fail(PIN_NEEDED)
            return
        self.camera_open = False
        watch.start(self.record_watched, self.load_watch_question, lambda: HUB.notify(game), self.session_key)
        self.say("")
        self.touch()

    def watch_off(self) -> None:
        watch = self.watch()
        if watch is not None:
            watch.stop()
        self.touch()

    async def watch_hold(self) -> None:
        """A tap on the referee's screen while a move counts down: the countdown stops."""
        watch = self.watch()
        if watch is not None and watch.on and watch.view.countdown_until is not None:
            await watch.hold()

    async def watch_carry_on(self) -> None:
        """The referee answers the watcher's question with "nothing was played": it watches on."""
        watch = self.watch()
        if watch is not None and watch.on:
            self.clear_draft()
            await watch.carry_on()
            self.say("Watching on: the board as the game has it.")

    def set_watch_settle(self) -> None:
        """The table's settle seconds, typed by the referee: saved with the game's settings (a restart
        keeps them) and shown on every tab."""
        game, watch = self.game, self.watch()
        if game is None or watch is None:
            return
        if HUB.may_change(game, self.session_key):
            self.refused()
            self.fail(PIN_NEEDED)
            return
        problem = watch.set_settle(self.form.settle)
        if problem:
            self.fail(problem)
            return
        self.form.settle = ""
        self._done(f"A still board with new tiles is confirmed after {watch.settle():g} s.")

    def record_watched(self, check: PlayCheck, moves: int) -> str:
        """Record a move the watcher committed, as a confirmed photo is (one play); '' or the refusal.
        `moves`: the game's moves when the watcher was last told the board (a change since: refused)."""
        game = self.game
        if game is None:
            return "The table is gone."
        self.form.seen = (game.id, moves)
        self.form.not_a_tap = True  # the double-tap guard is for fingers (`_act`)
        try:
            self._play(check.position, check.word)
        finally:
            self.form.not_a_tap = False
        return self.error

    def load_watch_question(self, view: Any) -> None:
        """The watcher asks: its reading goes to this tab's photo-correction screen, the squares ringed."""
        if view.question_seq == self.form.watch_question or view.proposal_rows is None or self.game is None:
            return
        self.form.watch_question = view.question_seq
        conf = [list(r) for r in (view.confidence or [[1.0] * len(view.proposal_rows)] * len(view.proposal_rows))]
        for r, c in view.squares:
            conf[r][c] = 0.0  # ringed on the board as unsure
        self.read_conf = tuple(tuple(r) for r in conf)
        self.selected = None
        self.set_read_rows(list(view.proposal_rows))
        self.read_doubts = (view.question,)
        self.say("")
        self.touch()

    # ----- end of game
    def end_game(self, agreed: bool = False) -> None:
        game = self.game
        if game is None:
            return
        racks = {p: self.form.racks.get(p, "") for p in game.players}
        try:
            self._act(game, type(game).end_game, racks, agreed)
        except TableError as exc:
            self.fail(str(exc))
            return
        self._done("The game is over.")
        self.screen = _game_ui(game).end_screen or self.screen
