"""Per-tab state with methods and no UI (the trolli pattern).

`AppState` is what one browser tab shows: which screen, what the referee is drafting (a photo read
with corrections, a hand-entered play), errors in plain words. The game itself lives in the hub and
is shared; every action here calls `TableGame` (which calls the engines) and then `HUB.publish(exclude=self.session_key)`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.ui.adapters import BoardRead, ReaderUnavailable, Verdict, read_board
from companion.ui.hub import HUB
from companion.ui.table import TOKEN_COLOURS, PlayCheck, PlayerInfo, TableError, TableGame


class Form:
    """Typed-in text kept off the observable, so a keystroke does not redraw the page."""

    def __init__(self) -> None:
        self.names = ["Ann", "Bob", "Cleo", "Dev"]
        self.colours = list(TOKEN_COLOURS[:4])
        self.preset = "box"
        self.variant = "standard"
        self.finish_level = "intermediate"
        self.tileset = "en"
        self.lexicon = ""  # empty: the judge's default (ENABLE unless COMPANION_LEXICON says otherwise)
        self.banker = ""
        self.pin = ""
        self.pin_try = ""
        self.word = ""
        self.square = ""
        self.direction = "across"
        self.letter = ""
        self.exchange_count = "7"
        self.racks: dict[str, str] = {}
        # The game as this tab last showed it (game id, moves): an action from an older screen is refused.
        self.seen: tuple[str, int] | None = None
        self.amount = ""
        self.space = ""
        self.bought = ""
        # board profile editor
        self.card_value = ""
        self.rent = ""
        self.amount_value = ""
        self.space_index = ""
        self.space_name = ""


@ft.observable
@dataclass
class AppState:
    screen: str = "home"
    role: str = "referee"
    revision: int = 0
    error: str = ""
    info: str = ""
    busy: str = ""
    # new game
    kind: str = "monopoly"
    player_count: int = 2
    # turn draft
    read_rows: tuple[str, ...] | None = None
    read_conf: tuple[tuple[float, ...], ...] | None = None
    read_check: Any = None
    read_warnings: tuple[str, ...] = ()
    selected: tuple[int, int] | None = None
    hand_check: Any = None
    camera_open: bool = False
    camera_mirrored: bool = False
    show_gcg: bool = False
    gcg_path: str = ""
    # challenge
    verdict: Any = None
    verdict_until: float = 0.0
    form: Form = field(default_factory=Form)
    session_key: str = ""
    # board profile being edited (a companion.games.monopoly_scrabble.profile.Profile; None = not loaded yet)
    profile: Any = None
    edit_group: str = "brown"
    edit_amount: str = "go_salary"
    edit_space_type: str = "property"

    # ----- navigation and messages
    @property
    def game(self) -> TableGame | None:
        return HUB.game

    def go(self, screen: str) -> None:
        self.error = ""
        self.info = ""
        self.screen = screen
        self.look()

    def refresh(self) -> None:
        self.look()
        self.revision += 1
        if self.verdict is not None and time.time() > self.verdict_until:
            self.verdict = None

    def look(self) -> None:
        """Note the game as this tab is about to show it (called whenever the tab is redrawn for a change)."""
        game = self.game
        self.form.seen = (game.id, game.moves) if game is not None else None

    def _act(self, game: TableGame, action: str, *args: Any) -> Any:
        """Change the game on behalf of this tab: refused (StaleView) if another device changed it since
        this tab last looked; afterwards this tab has seen its own change."""
        with game.lock:  # held until this tab has noted the result: no other change slips in between
            try:
                return game.act(self.form.seen, action, *args)
            finally:
                self.look()  # the redraw after this tap (or its refusal) shows the game as it is now

    def follow(self) -> None:
        self.role = "follower"
        self.go("follow")

    def take_over(self) -> None:
        """Referee the game on this device; with a referee PIN set, only after the PIN is given."""
        game = self.game
        if game is not None and HUB.store.has_pin(game):
            problem = HUB.store.check_pin(game, self.form.pin_try.strip())
            self.form.pin_try = ""
            if problem:
                self.fail(problem)
                return
        self.role = "referee"
        game = self.game
        self.go("end" if game is not None and game.finished else "turn")

    def fail(self, message: str) -> None:
        self.info = ""
        self.error = message

    def say(self, message: str) -> None:
        self.error = ""
        self.info = message

    def _done(self, message: str = "") -> None:
        HUB.publish(exclude=self.session_key)
        self.say(message)

    # ----- new game
    def new_game(self) -> None:
        """Only the referee may replace a game in progress that has a referee PIN."""
        game = self.game
        if (game is not None and not game.finished and self.role != "referee" and HUB.store.has_pin(game)):
            self.fail("A game is on: type the referee PIN and tap 'Referee this game' first.")
            return
        self.go("setup")

    def set_kind(self, kind: str) -> None:
        self.kind = kind

    def set_player_count(self, n: int) -> None:
        self.player_count = max(2, min(4, n))

    def start_game(self) -> None:
        f = self.form
        players = [PlayerInfo(f.names[i].strip(), f.colours[i]) for i in range(self.player_count)]
        if any(not p.name for p in players):
            self.fail("Every player needs a name.")
            return
        if len({p.colour for p in players}) != len(players):
            self.fail("Two players have the same token colour: pick another colour.")
            return
        try:
            if self.kind == "classic":
                game = TableGame.new_classic(players, preset=f.preset, variant=f.variant,
                                             finish_level=f.finish_level, lexicon=self.lexicon_name(),
                                             tileset=f.tileset)
            else:
                from companion.games.monopoly_scrabble.table import new_monopoly

                banker = f.banker if f.banker in [p.name for p in players] else players[0].name
                game = new_monopoly(players, banker, self.table_profile(), lexicon=self.lexicon_name())
        except TableError as exc:
            self.fail(str(exc))
            return
        pin = f.pin.strip()
        if pin and (len(pin) < 4 or not pin.isdigit()):
            self.fail("The referee PIN is 4 or more digits (or leave it empty for no PIN).")
            return
        game.new_pin = pin
        f.pin = ""
        self.clear_draft()
        HUB.set_game(game)
        self.role = "referee"
        self.go("turn")

    def lexicon_name(self) -> str:
        from companion.ui.adapters import JUDGE

        return self.form.lexicon or JUDGE.default_name()

    # ----- turn: photo read
    def clear_draft(self) -> None:
        self.read_rows = None
        self.read_conf = None
        self.read_check = None
        self.read_warnings = ()
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
        except Exception as exc:  # noqa: BLE001 - the reader failed on this photo: say so, keep the turn
            self.busy = ""
            self.fail(f"The board could not be read from this photo ({exc}). Try again or enter the play by hand.")
            return
        self.busy = ""
        self.show_read(read)

    def show_read(self, read: BoardRead) -> None:
        game = self.game
        if game is None:
            return
        if len(read.rows) != game.board.size:
            self.fail(f"The reader found a {len(read.rows)}-row grid, not {game.board.size} rows.")
            return
        self.read_conf = tuple(tuple(r) for r in read.confidence)
        game.set_read(read)
        self.set_read_rows(list(read.rows))
        self.say("Check the highlighted squares. Tap a square to correct it." + (f" {read.note}" if read.note else ""))

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

    def toggle_clocks(self) -> None:
        """Start or pause the game clocks; saved and shown on every tab like any other change."""
        game = self.game
        if game is None or game.clocks is None:
            return
        if game.clocks.paused():
            game.start_clock()
        else:
            game.pause_clock()
        self._done("")
        self.refresh()

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
        try:
            self._act(game, "play", position, word, self.form.bought)
        except TableError as exc:
            self.fail(str(exc))
            return
        gained = game.scores().get(player or "", 0) - before
        self.clear_draft()
        self.form.bought = ""
        self._done(f"{player} played {word.upper()} at {position}: {gained} points.")
        if game.kind == "monopoly":
            self.screen = "turn"

    def do(self, action: str, *args: Any) -> None:
        """Run a TableGame action by name; refusals become the error line."""
        game = self.game
        if game is None:
            return
        try:
            result = self._act(game, action, *args)
        except TableError as exc:
            self.fail(str(exc))
            return
        except ValueError as exc:
            self.fail(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - a bug: say so plainly, keep the game as it was
            import traceback

            traceback.print_exc()
            self.fail(f"Something went wrong ({exc.__class__.__name__}: {exc}). The game was not changed.")
            return
        self.clear_draft()
        message = result if isinstance(result, str) else ""
        self._done(message)

    def card(self, effect: str, group: str | None = None) -> None:
        """Record the card the table drew: the amount, space or steps come from the card fields."""
        amount = 0
        space: int | None = None
        steps: int | None = None
        if effect in ("collect", "pay_bank", "pay_pot", "pay_each", "collect_each"):
            try:
                amount = int(self.form.amount.replace("M", "").replace(",", "").strip())
            except ValueError:
                self.fail("Type the amount printed on the card, like 200.")
                return
        elif effect in ("move_to", "move_by"):
            try:
                value = int(self.form.space.strip())
            except ValueError:
                self.fail("Type the track space (0 is GO) or the number of steps the card says, like 5 or -3.")
                return
            if effect == "move_to":
                space = value
            else:
                steps = value
        self.do("card", effect, amount, group, space, steps)
        if not self.error:
            self.form.amount = ""
            self.form.space = ""

    def pass_turn(self) -> None:
        game = self.game
        who = game.current_player if game else ""
        self.do("pass_turn")
        if not self.error:
            self.say(f"{who} passed.")

    def exchange(self) -> None:
        try:
            n = int(self.form.exchange_count)
        except ValueError:
            self.fail("Say how many tiles are exchanged (a number from 1 to 7).")
            return
        game = self.game
        who = game.current_player if game else ""
        self.do("exchange", n)
        if not self.error:
            self.say(f"{who} exchanged {n} tiles.")

    def undo(self) -> None:
        self.do("undo")
        if not self.error:
            self.say("The last action was undone.")

    # ----- challenge
    def challenge(self, challenger: str) -> None:
        game = self.game
        if game is None:
            return
        try:
            verdict: Verdict = self._act(game, "challenge", challenger)
        except TableError as exc:
            self.fail(str(exc))
            return
        except (FileNotFoundError, ValueError) as exc:
            self.fail(str(exc))
            return
        self.verdict = verdict
        self.verdict_until = time.time() + 6
        HUB.publish(exclude=self.session_key)
        self.go("verdict")

    def close_verdict(self) -> None:
        self.verdict = None
        self.go("turn")

    def toggle_gcg(self) -> None:
        game = self.game
        if game is None:
            return
        self.show_gcg = not self.show_gcg
        if self.show_gcg and HUB.store.data_dir:
            from pathlib import Path

            path = Path(HUB.store.data_dir) / f"{game.id}.gcg"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(game.gcg(), encoding="utf-8")
                self.gcg_path = str(path)
            except OSError as exc:
                self.fail(f"The GCG file could not be saved ({exc}).")

    # ----- end of game
    def end_game(self, agreed: bool = False) -> None:
        game = self.game
        if game is None:
            return
        racks = {p: self.form.racks.get(p, "") for p in game.players}
        try:
            self._act(game, "end_game", racks, agreed)
        except TableError as exc:
            self.fail(str(exc))
            return
        self._done("The game is over.")
        self.screen = "end"

    # ----- board profile (Monopoly Scrabble): what the table's box prints
    def table_profile(self) -> Any:
        """The profile being edited, else the table's saved one, else the box defaults."""
        from companion.games.monopoly_scrabble.profile import load_profile
        from companion.rules.errors import RulesDataError

        if self.profile is not None:
            return self.profile
        saved = _profile_file()
        if saved is not None and saved.exists():
            try:
                return load_profile(saved)
            except RulesDataError as exc:
                self.fail(f"The saved board profile could not be read ({exc}); using the box defaults.")
        return load_profile()

    def open_profile(self) -> None:
        self.profile = self.table_profile()
        self.go("profile")

    def _edit(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        from companion.rules.errors import RulesDataError

        try:
            self.profile = fn(self.profile, *args, **kwargs)
        except (RulesDataError, ValueError) as exc:
            self.fail(_sentence(_plain(exc)))
            return
        self.say("Changed. Save the profile to keep it for the next games.")

    def pick_group(self, group_id: str) -> None:
        self.edit_group = group_id
        g = self.profile.group(group_id)
        self.form.card_value = str(g.card_value.value or "")
        self.form.rent = str(g.rent.value or "")

    def toggle_square(self, row: int, col: int) -> None:
        from companion.games.monopoly_scrabble.profile import toggle_property_square

        self._edit(toggle_property_square, f"{'ABCDEFGHIJKLMNO'[col]}{row + 1}", self.edit_group)

    def set_card(self) -> None:
        from companion.games.monopoly_scrabble.profile import set_card

        try:
            value = int(self.form.card_value.replace("M", "").replace(",", "").strip())
            rent = int(self.form.rent.replace("M", "").replace(",", "").strip())
        except ValueError:
            self.fail("Type the card's printed value and rent as numbers, like 2000 and 600.")
            return
        self._edit(set_card, self.edit_group, card_value=value, rent=rent)

    def pick_amount(self, name: str) -> None:
        self.edit_amount = name
        self.form.amount_value = str(getattr(self.profile.amounts, name).value)

    def set_amount(self) -> None:
        from companion.games.monopoly_scrabble.profile import set_amount

        try:
            value = int(self.form.amount_value.replace("M", "").replace(",", "").strip())
        except ValueError:
            self.fail("Type the amount as a number, like 2000.")
            return
        self._edit(set_amount, self.edit_amount, value)

    def set_space(self, remove: bool = False) -> None:
        from companion.games.monopoly_scrabble.profile import Space, set_track_space

        try:
            index = int(self.form.space_index.strip())
        except ValueError:
            self.fail("Type the number of the track space (0 is GO).")
            return
        if remove:
            self._edit(set_track_space, index, None)
            return
        kind = self.edit_space_type
        group = self.edit_group if kind == "property" else None
        name = self.form.space_name.strip() or (self.profile.group(group).name if group else kind.replace("_", " ").title())
        try:
            space = Space(type=kind, name=name, group=group, confidence="table")  # type: ignore[arg-type]
        except ValueError as exc:
            self.fail(_sentence(_plain(exc)))
            return
        self._edit(set_track_space, index, space)

    def save_profile(self) -> None:
        from companion.games.monopoly_scrabble.profile import save_profile

        path = _profile_file()
        if path is None:
            self.fail("The app was started without a data folder: the profile is used for this session only.")
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_profile(self.profile, path)
        except (OSError, ValueError) as exc:
            self.fail(f"The profile could not be saved ({exc}).")
            return
        self.say(f"Board profile saved ({path}). New games use it.")

    def reset_profile(self) -> None:
        from companion.games.monopoly_scrabble.profile import load_profile

        self.profile = load_profile()
        self.say("Back to the box defaults (not saved yet).")


def _profile_file() -> Any:
    from pathlib import Path

    return Path(HUB.store.data_dir) / "profiles" / "table.json" if HUB.store.data_dir else None


def _plain(exc: Exception) -> str:
    from companion.ui.table import _plain_validation

    return _plain_validation(exc)


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
