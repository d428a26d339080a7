"""Per-tab state with methods and no UI (the trolli pattern).

`AppState` is what one browser tab shows: which screen, which game is being set up, errors in plain
words, and what the referee is drafting. The game itself lives in the hub and is shared; every action
here calls the game's table (`companion.ui.table.TableBase` and its game's subclass, which call the
rules) through `act`, then `HUB.publish(game, exclude=self.session_key)`.

A tab shows one table at a time (`AppState.table`, a game id; the address `/table/<id>`), or the home
screen's list of tables. Whether the tab may change that game is the hub's decision
(`HUB.may_change`, checked in `_act` for every action), not the tab's `role`: the role only picks
which screens the tab draws.

No game is named here: the games come from the registry (`companion.games`). The drafts of a turn on
the 15x15 word board (photo read, corrections, a typed play, challenges, racks left), shared by the two
word-board games, are theirs: `companion.ui.word_drafts` (`WordBoardForm`, `WordBoardTurn`), mixed into
`Form` and `AppState`. Any other game keeps its drafts in its own per-tab object, `app.local()` (made by
its `GameUI.tab_state`), and calls `app.do(action, ...)` to change the game.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.games import GAMES
from companion.ui.adapters import JUDGE
from companion.ui.hub import HUB, PIN_NEEDED, table_path
from companion.ui.table import (
    LOOK_AGAIN,
    TOKEN_COLOURS,
    PlayerInfo,
    RepeatedTap,
    TableAction,
    TableBase,
    TableError,
    _plain_validation,
    action_name,
)
from companion.ui.word_drafts import WordBoardForm, WordBoardTurn

# Faults the user is told about in one sentence are logged here with their traceback (a bug in `vision/`
# must not look like a bad photo in the log either).
LOG = logging.getLogger("companion.ui")

# One tap, one action (issue #26). Every tap that records an event passes through `AppState._act`, and
# every tap that opens another screen through `AppState.open_screen` (a double tap on "Finish and show the
# winner" once landed its second tap on the winner screen's "New game"); a tap is dropped there, doing
# nothing and saying nothing, when it is the second tap of a double tap:
# - it started within TAP_REPEAT_SECONDS of this tab's previous recorded tap. A double tap's taps are
#   120-200 ms apart (issue #26; Android's double-tap timeout is 300 ms), but the second is handled late
#   when the device is busy drawing what the first changed, and then lands on the new screen: measured
#   with `tests/test_ui_browser_double_tap.py` (COMPANION_TAP_LOG=1) on this shared 2-core machine, a
#   second click made 150 ms after the first reached the server 0.17-0.57 s after it in most runs, and
#   1.04 s once (Chromium drew the new screen first: the click laid a card). 1.2 s covers what was
#   measured; the cost is that a deliberate second tap sooner than that (the new screen appears after
#   0.2-0.6 s here, then it must be seen) is dropped and must be tapped again, where an unwanted one
#   recorded is the harm the issue reports;
# - or it started before the tab drew what the first tap changed (`DRAWN_AT`, noted by
#   `companion/ui/flet_patch.install`; a tab's redraw waits for the change's save), or within TAP_SETTLE_SECONDS
#   after: it was aimed at the old screen (measured: a second click 0.54 s after the first came 0.32 s
#   after the drawing).
#   A redraw that never comes (a save stuck for TAP_UNDRAWN_SECONDS) does not block the table longer.
# COMPANION_TAP_GUARD=off switches it off: the browser tests that tap at machine speed run the app so
# (`tests/browser/harness.app_server`); the double-tap test runs it on.
TAP_REPEAT_SECONDS = 1.2
TAP_SETTLE_SECONDS = 0.35
TAP_UNDRAWN_SECONDS = 2.0
# When each tab (its session id) first finished drawing after its latest recorded tap: that tap's redraw.
DRAWN_AT: dict[str, float] = {}


def game_ui(kind: str) -> Any:
    """The UI side (`GameUI`) of a registered game."""
    return GAMES.get(kind).load_ui()


def setup_games() -> list[Any]:
    """The games the setup screen offers: every registered game that loads and has screens."""
    return [spec for spec in GAMES.available() if spec.ui is not None]


class Form(WordBoardForm):
    """Typed-in text kept off the observable, so a keystroke does not redraw the page (the word-board
    turn's own: `WordBoardForm`)."""

    def __init__(self) -> None:
        super().__init__()
        self.names = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"]
        self.colours = list(TOKEN_COLOURS[:6])
        self.lexicon = ""  # empty: the judge's default (ENABLE unless COMPANION_LEXICON says otherwise)
        self.pin = ""
        self.pin_try = ""
        # The game as this tab last showed it (game id, moves): an action from an older screen is refused.
        self.seen: tuple[str, int] | None = None
        # The game (id, moves) when this tab was told the game changed on another device (`LOOK_AGAIN`).
        self.stale_at: tuple[str, int] | None = None
        # When this tab's latest recorded tap started and ended (time.monotonic()): the double-tap guard.
        self.last_tap: tuple[float, float] = (float("-inf"), float("-inf"))
        self.not_a_tap = False  # set while the watcher records a move: no finger, so no double tap
        # Each game's own per-tab object (`GameUI.tab_state`): its drafts by table (game id), its setup
        # answers by "setup:<registry id>" (see `AppState.local`).
        self.games: dict[str, Any] = {}
        # The shell's tools (word lookup, rack check: `components/tools.py`), by name: their drafts.
        self.tools: dict[str, Any] = {}


@ft.observable
@dataclass
class AppState(WordBoardTurn):
    """One tab: its screen, its table, its messages; the word-board turn's drafts come with
    `WordBoardTurn`."""

    screen: str = "home"
    role: str = "referee"
    revision: int = 0
    error: str = ""
    info: str = ""
    busy: str = ""
    # new game: the registry id of the game being set up ("" = the first the registry offers)
    chosen_game: str = ""
    player_count: int = 2
    form: Form = field(default_factory=Form)
    session_key: str = ""
    # the game id of the table this tab shows ("" = none: the home screen, setup, the tools)
    table: str = ""

    # ----- navigation and messages
    @property
    def game(self) -> Any:
        """The game of the table this tab shows (a `TableBase` of the game's own kind), or None."""
        return HUB.table(self.table) if self.table else None

    def path(self) -> str:
        """The address this tab should show in the browser's address bar: its table's, or the home's."""
        return table_path(self.table) if self.table and self.game is not None else "/"

    def open_table(self, game_id: str) -> None:
        """Show the table `game_id` (from the home list, an address or a QR code): as its referee when
        this tab may change it, else as a follower."""
        game = HUB.table(game_id)
        if game is None:
            self.go_home()
            self.fail(f"There is no game {game_id} on this server: pick a table below.")
            return
        if game_id != self.table:
            self.clear_draft()
            self.form.forget_table()
        self.table = game_id
        HUB.watch(self.session_key, game_id)
        if HUB.is_referee(game, self.session_key):
            self.role = "referee"
            ui = game_ui(game.kind)
            self.go(ui.end_screen if game.finished and ui.end_screen else ui.play_screen)
        else:
            self.follow()

    def back_screen(self) -> str:
        """Where 'Back to the game' goes: the referee's play screen, or the follower's view."""
        game = self.game
        if game is None:
            return "home"
        return game_ui(game.kind).play_screen if self.role == "referee" else "follow"

    def go_home(self) -> None:
        """The home screen: the list of tables (this tab watches none)."""
        self.go("home")

    def local(self, kind: str | None = None) -> Any:
        """This tab's object of the game `kind` (default: the game on the table, else the one being set
        up), made by its `GameUI.tab_state` on first use: the table's drafts, or the setup answers."""
        game = self.game
        kind = kind or (game.kind if game is not None else self.setup_kind())
        # A table's drafts are that table's: two tables of one game opened in turn by this tab keep
        # their own (a half-typed word on one never shows on the other). Setup answers, with no table
        # yet, are kept per game, for the next game of that kind this tab sets up.
        key = game.id if game is not None and game.kind == kind else f"setup:{kind}"
        if key not in self.form.games:
            factory = game_ui(kind).tab_state
            self.form.games[key] = factory() if factory is not None else None
        return self.form.games[key]

    def touch(self) -> None:
        """Redraw this tab (after a change to an object the observable does not watch, e.g. `local()`)."""
        self.revision += 1

    def go(self, screen: str) -> None:
        if screen in ("home", "setup") and self.table:
            # The home screen lists the tables and the setup screen makes a new one: this tab now watches
            # none of them (a game's "New game" button may go straight to "setup").
            self.table = ""
            HUB.watch(self.session_key, "")
        self.error = ""
        self.info = ""
        self.screen = screen
        self.look()

    def refresh(self) -> None:
        self.note_change()
        self.revision += 1

    def note_change(self) -> None:
        """The game changed (here or on another tab): note it as this tab is about to show it, take down
        what is shown only for a while (`age_drafts`: a ruling after its time), and a "the game changed on
        another device" refusal once the game has changed again (the tab shows the newer game: the refusal
        no longer applies). Notifies nobody by itself: see `App`'s redraw."""
        self.look()
        self.age_drafts()
        if self.error == LOOK_AGAIN and self.form.seen != self.form.stale_at:
            self.error = ""

    def look(self) -> None:
        """Note the game as this tab is about to show it (called whenever the tab is redrawn for a change)."""
        game = self.game
        self.form.seen = (game.id, game.moves) if game is not None else None

    def _second_tap(self, started: float, what: str) -> bool:
        """Whether a tap that started at `started` (time.monotonic()) is the second tap of a double tap
        (the guard above): to be dropped, nothing done and nothing said. `what` names it in the tap log."""
        last_start, last_end = self.form.last_tap
        drawn = DRAWN_AT.get(self.session_key, float("-inf"))
        if drawn > last_start:  # the previous tap's result is drawn: a tap is aimed at it after a moment
            settled, window = drawn, TAP_SETTLE_SECONDS
        else:  # not drawn yet (its save is still on its way): a tap now is aimed at the old screen
            settled, window = last_end, TAP_UNDRAWN_SECONDS
        if os.environ.get("COMPANION_TAP_LOG"):  # why a tap was kept or dropped (to tune the guard)
            print(f"tap {what}: {started - last_start:.3f} s after the last tap's start, "
                  f"{started - settled:.3f} s after its {'drawing' if drawn > last_start else 'end'}",
                  file=sys.stderr, flush=True)
        if self.form.not_a_tap or last_start == float("-inf") or os.environ.get("COMPANION_TAP_GUARD", "on") == "off":
            return False  # no finger, no tap yet to be the second of, or the guard off
        return started - last_start < TAP_REPEAT_SECONDS or started - settled < window

    def _tapped(self, started: float) -> None:
        """A tap that started at `started` was acted on: the guard's window counts from it, and the next
        drawing of this tab shows its result. (A change the watcher records, `not_a_tap`, is no tap.)"""
        if self.form.not_a_tap:
            return
        self.form.last_tap = (started, time.monotonic())
        DRAWN_AT.pop(self.session_key, None)

    def open_screen(self, screen: str) -> None:
        """A tap on a button that opens another screen ("New game", "End", "Back to the game"...). A
        double tap's second tap lands on the screen the first opened, or the first tap was one that
        recorded and its second lands here: so such a tap passes the same guard as one that records (the
        winner's screen, opened by "Finish and show the winner", drew "New game" where that button was,
        and a double tap on it left the winner for a new game's setup), and counts as a tap for it."""
        started = time.monotonic()
        if self._second_tap(started, f"open {screen}"):
            return
        self.go(screen)  # ("setup" leaves the table the tab watched, as "New game" must)
        self._tapped(started)

    def _act(self, game: TableBase, action: TableAction, *args: Any) -> Any:
        """Change the game on behalf of this tab: refused (StaleView) if another device changed it since
        this tab last looked; afterwards this tab has seen its own change."""
        started = time.monotonic()
        problem = HUB.may_change(game, self.session_key)
        if problem:
            self.refused()
            raise TableError(problem)
        with game.lock:  # held until this tab has noted the result: no other change slips in between
            if self._second_tap(started, action_name(action)):
                raise RepeatedTap("")  # the second tap of a double tap: nothing recorded, nothing said
            try:
                result = game.act(self.form.seen, action, *args)
            finally:
                self.look()  # the redraw after this tap (or its refusal) shows the game as it is now
            self._tapped(started)
            return result

    def refused(self) -> None:
        """The hub refused this tab a change: it shows the game as a follower from now on."""
        self.role = "follower"
        self.screen = "follow"

    def follow(self) -> None:
        self.role = "follower"
        self.go("follow")

    def take_over(self) -> None:
        """Referee the game on this device; with a referee PIN set, only after the PIN is given."""
        game = self.game
        if game is None:
            self.go_home()
            return
        if HUB.store.has_pin(game) and not HUB.is_referee(game, self.session_key):
            problem = HUB.store.check_pin(game, self.form.pin_try.strip())
            self.form.pin_try = ""
            if problem:
                self.fail(problem)
                return
        HUB.authorise(game.id, self.session_key)
        self.role = "referee"
        ui = game_ui(game.kind)
        self.go(ui.end_screen if game.finished and ui.end_screen else ui.play_screen)

    def fail(self, message: str) -> None:
        if not message:
            return  # a dropped repeated tap (`RepeatedTap`): the screen keeps what the first tap said
        self.info = ""
        self.error = message
        if message == LOOK_AGAIN and self.form.seen is not None:
            self.form.stale_at = self.form.seen

    def say(self, message: str) -> None:
        self.error = ""
        self.info = message

    def _done(self, message: str = "") -> None:
        HUB.publish(self.game, exclude=self.session_key)
        self.say(message)
        self.touch()  # the game changed: redraw this tab even when the message line stays the same

    # ----- new game
    def new_game(self) -> None:
        """Set up a game on a new table: the games already on the server carry on untouched."""
        self.table = ""
        HUB.watch(self.session_key, "")
        self.go("setup")

    def setup_kind(self) -> str:
        """The game being set up: the one chosen, else the first the registry offers."""
        offered = [spec.id for spec in setup_games()]
        if self.chosen_game in offered:
            return self.chosen_game
        return offered[0] if offered else ""

    def choose_game(self, game_id: str) -> None:
        """A tap on a game's chip in the setup. It passes the double-tap guard, as a tap that opens a screen does:
        the setup draws its chips where the home screen's "New game" stood, and a double tap on that button
        chose the game under its second tap."""
        self._choose(f"choose {game_id}", lambda: setattr(self, "chosen_game", game_id))

    def choose_player_count(self, n: int) -> None:
        """A tap on a "N players" chip in the setup (guarded as `choose_game` is)."""
        self._choose(f"choose {n} players", lambda: self.set_player_count(n))

    def _choose(self, what: str, change: Callable[[], None]) -> None:
        started = time.monotonic()
        if self._second_tap(started, what):
            return
        change()
        self.set_player_count(self.player_count)  # (within the chosen game's limits)
        self._tapped(started)

    def set_player_count(self, n: int) -> None:
        kind = self.setup_kind()
        ui = game_ui(kind) if kind else None
        low, high = (ui.min_players, ui.max_players) if ui is not None else (2, 4)
        self.player_count = max(low, min(high, len(self.form.names), n))

    def start_game(self) -> None:
        started = time.monotonic()
        if self._second_tap(started, "start"):  # a double tap on "New game" lands here on a phone's setup
            return
        f = self.form
        kind = self.setup_kind()
        if not kind:
            self.fail("No game could be loaded: see the app's log.")
            return
        ui = game_ui(kind)
        players = [PlayerInfo(f.names[i].strip(), f.colours[i]) for i in range(self.player_count)]
        if any(not p.name for p in players):
            self.fail("Every player needs a name.")
            return
        if len({p.colour for p in players}) != len(players):
            self.fail("Two players have the same token colour: pick another colour.")
            return
        try:
            game = ui.start(self, players)
        except TableError as exc:
            self.fail(str(exc))
            return
        pin = f.pin.strip()
        if pin and (len(pin) < 4 or not pin.isdigit()):
            self.fail("The referee PIN is 4 or more digits (or leave it empty for no PIN).")
            return
        game.new_pin = pin
        f.pin = ""
        # "Start game" is a tap like any that records: the play screen it opens may draw an action where the
        # finger was, so the guard of `_act` counts from it (the second tap of a double tap records nothing).
        self._tapped(started)
        self.clear_draft()
        HUB.add(game, referee=self.session_key)
        self.table = game.id
        HUB.watch(self.session_key, game.id)
        self.role = "referee"
        self.go(ui.play_screen)

    def lexicon_name(self) -> str:
        return self.form.lexicon or JUDGE.default_name()

    def toggle_clocks(self) -> None:
        """Start or pause the game clocks; saved and shown on every tab like any other change."""
        game = self.game
        if game is None or game.clocks is None:
            return
        if HUB.may_change(game, self.session_key):
            self.refused()
            self.fail(PIN_NEEDED)
            return
        if game.clocks.paused():
            game.start_clock()
        else:
            game.pause_clock()
        self._done("")
        self.refresh()

    def do(self, action: TableAction, *args: Any) -> bool:
        """Run a table action (the table's method, unbound: `app.do(BuilderTable.buy)`); refusals become the error line. True when it was recorded."""
        game = self.game
        if game is None:
            return False
        try:
            result = self._act(game, action, *args)
        except TableError as exc:
            self.fail(str(exc))
            return False
        except ValueError as exc:
            self.fail(str(exc))
            return False
        except Exception as exc:  # a bug: say so plainly, keep the game as it was
            LOG.exception("the table action %s failed", action_name(action))
            self.fail(f"Something went wrong ({exc.__class__.__name__}: {exc}). The game was not changed.")
            return False
        self.clear_draft()
        message = result if isinstance(result, str) else ""
        self._done(message)
        return True

    def undo(self) -> None:
        if self.do(TableBase.undo):
            self.say("The last action was undone.")


def plain(exc: Exception) -> str:
    """A refusal as one sentence, starting with a capital and ending with a full stop."""
    text = _plain_validation(exc).strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
