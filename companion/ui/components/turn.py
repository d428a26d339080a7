"""The referee's turn screen of the word-board games: photo or hand entry, corrections, score, confirm;
pass, exchange, challenge. Each word-board game shows it through its own screen (`GameUI.screens`), with
what only it has: `steps` (a component drawn above the board, e.g. Monopoly Scrabble's pending steps)
and `exchange` (classic Scrabble's tile exchange). On a wide page the board is on the left and the rest
beside it (`layout.split`).

`TurnScreen` is a short dispatcher: the turn's header (`_header`: players, whose turn, clocks, the
game's steps, the watch, the rack), then one panel for the state the turn is in (`_entry_panel`):
`DoubtfulReadPanel` (a photo the reader is not sure of), `ReadPanel` (a photo read, to correct and
confirm) or `WordEntryPanel` (no photo yet: upload, camera, hand entry, pass, exchange); none when it is
nobody's turn to play a word. Then the challenge of the last play and undo / end by agreement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.ui.components.board import BoardGrid
from companion.ui.components.camera import CameraPanel
from companion.ui.components.choice import Choice
from companion.ui.components.correction import Correction
from companion.ui.components.layout import split
from companion.ui.components.players import PlayersStrip
from companion.ui.components.watch import WatchPanel, play_summary
from companion.ui.models import AppState

ERROR_COLOUR = "#B71C1C"
PANEL_SPACING = 10  # as `layout.split`'s column: a panel's lines sit as they did when they were the column's own


def _panel(items: list[ft.Control]) -> ft.Control:
    """A panel's lines, spaced as the screen's column spaces its own."""
    return ft.Column(items, spacing=PANEL_SPACING, tight=True)


def _discard_button(app: AppState) -> ft.Control:
    def discard(e: Any) -> None:
        app.clear_draft()
        app.say("")

    return ft.OutlinedButton("Discard photo", on_click=discard)


@ft.component
def DoubtfulReadPanel(app: AppState) -> ft.Control:
    """A doubtful reading is not scored: the referee sees why and checks the board first."""
    items: list[ft.Control] = [Correction(app)] if app.selected is not None else []
    items.append(ft.Text("The reader is not sure of this photo:", weight=ft.FontWeight.BOLD, color=ERROR_COLOUR))
    items += [ft.Text(d, color=ERROR_COLOUR) for d in app.read_doubts]
    items.append(ft.Text("Compare the board shown with the real one and tap any square to correct it.", size=13))
    items.append(ft.Row([
        ft.FilledButton("The board is right", on_click=lambda e: app.accept_doubtful_read()),
        ft.OutlinedButton("Enter by hand", on_click=lambda e: app.read_by_hand()),
        _discard_button(app),
    ], wrap=True))
    return _panel(items)


@ft.component
def ReadPanel(app: AppState) -> ft.Control:
    """A photo read: corrections, the play's score (or why it is no play), notes, confirm or discard."""
    items: list[ft.Control] = [Correction(app)] if app.selected is not None else []
    check = app.read_check
    if check is not None and check.ok:
        items.append(play_summary(check))
    elif check is not None:
        items.append(ft.Text(check.error, color=ERROR_COLOUR))
    items += [ft.Text(f"Note: {w} (the board keeps its tile).", size=12, italic=True) for w in app.read_warnings[:3]]
    items.append(ft.Row([
        ft.FilledButton("Confirm play", on_click=lambda e: app.confirm_read(),
                        disabled=not (check is not None and check.ok)),
        _discard_button(app),
    ], wrap=True))
    return _panel(items)


@ft.component
def WordEntryPanel(app: AppState, exchange: bool = False) -> ft.Control:
    """No photo yet: a photo (upload or camera), or the play typed by hand; pass or exchange."""
    game, f = app.game, app.form
    _, redraw = ft.use_state(0)
    picker = ft.use_memo(lambda: ft.FilePicker(), [])
    watching = app.watching()

    async def upload(e: Any) -> None:
        files = await picker.pick_files(with_data=True, file_type=ft.FilePickerFileType.IMAGE,
                                        dialog_title="Photo of the board")
        if not files:
            return
        data = files[0].bytes
        if not data:
            app.fail("The photo arrived empty: try again.")
            return
        await app.read_photo(data)

    photo: list[ft.Control] = [ft.FilledButton("Upload photo", icon=ft.Icons.UPLOAD_FILE, on_click=upload)]
    if not watching:  # one camera at a time: the watch's is on
        photo.append(ft.OutlinedButton("Camera", icon=ft.Icons.PHOTO_CAMERA, on_click=lambda e: app.toggle_camera()))
    items: list[ft.Control] = [ft.Row(photo, wrap=True)]
    if app.camera_open and not watching:
        items.append(CameraPanel(app))
    items.append(ft.Text("Or enter the play by hand (lower-case letter = blank):", size=13))
    items.append(ft.Row([
        ft.TextField(label="Word", value=f.word, width=150, dense=True,
                     on_change=lambda e: setattr(f, "word", e.control.value),
                     on_submit=lambda e: app.check_hand()),
        ft.TextField(label="Square", value=f.square, width=110, dense=True, hint_text="H8",
                     on_change=lambda e: setattr(f, "square", e.control.value),
                     on_submit=lambda e: app.check_hand()),
    ], wrap=True))
    def choose_direction(direction: str) -> None:
        f.direction = direction
        redraw(lambda x: x + 1)  # the form is not observed: redraw the panel for the choice to show

    items.append(Choice([("across", "Across"), ("down", "Down")], f.direction, choose_direction))
    if app.hand_check is not None and app.hand_check.ok:
        items.append(play_summary(app.hand_check))
    items.append(ft.Row([
        ft.OutlinedButton("Check", on_click=lambda e: app.check_hand()),
        ft.FilledButton("Confirm play", on_click=lambda e: app.confirm_hand()),
    ], wrap=True))
    other: list[ft.Control] = [ft.OutlinedButton("Pass", on_click=lambda e: app.pass_turn())]
    if exchange and game.exchange_counts():  # only when the rules offer an exchange (the bag allows it)
        other += [
            ft.TextField(label="Tiles", value=f.exchange_count, width=70, dense=True,
                         on_change=lambda e: setattr(f, "exchange_count", e.control.value)),
            ft.OutlinedButton("Exchange", on_click=lambda e: app.exchange()),
        ]
    items.append(ft.Row(other, wrap=True))
    return _panel(items)


def _header(app: AppState, steps: Callable[[AppState], ft.Control] | None) -> list[ft.Control]:
    """Above the board on a phone, atop the column beside it on a wide page: the players, whose turn it
    is, the clocks, the game's own steps, the watch and the rack."""
    game = app.game
    items: list[ft.Control] = [PlayersStrip(app)]
    current = game.current_player
    if game.finished:
        items.append(ft.FilledButton("See the final table", on_click=lambda e: app.open_screen("end")))
    elif current is None:
        items.append(ft.Text("The game is over: enter the tiles left on each rack.", weight=ft.FontWeight.BOLD))
        items.append(ft.FilledButton("Finish the game", on_click=lambda e: app.open_screen("end")))
    else:
        items.append(ft.Text(f"{current} to play", size=20, weight=ft.FontWeight.BOLD))
    if game.clocks is not None and not game.finished:
        label = "Start clocks" if game.clocks.paused() else "Pause clocks"
        items.append(ft.OutlinedButton(label, on_click=lambda e: app.toggle_clocks()))
    if steps is not None:
        items.append(steps(app))
    if not game.finished and current is not None and app.watch() is not None:
        # Watch the board (issue #22): the camera's preview and the watch state, above the turn's entries.
        items.append(WatchPanel(app))
    if current is not None and callable(getattr(game, "play_with_rack", None)):
        # Optional: the tiles are then checked against it, and the end screen reviews each rack's best play.
        items.append(ft.TextField(label="Rack (optional)", value=app.form.play_rack, width=200, dense=True,
                                  capitalization=ft.TextCapitalization.CHARACTERS,
                                  on_change=lambda e: setattr(app.form, "play_rack", e.control.value)))
    return items


def _entry_panel(app: AppState, exchange: bool) -> ft.Control | None:
    """The panel for the state the turn is in, or None when there is no play to enter."""
    game = app.game
    if app.read_rows is not None and app.read_doubts:
        return DoubtfulReadPanel(app)
    if app.read_rows is not None:
        return ReadPanel(app)
    if game.current_player is not None and game.turn_stage() == "word":
        return WordEntryPanel(app, exchange)
    return None


def _challenge_and_undo(app: AppState) -> list[ft.Control]:
    """The last play's challenge (who challenges), then undo and end by agreement."""
    game = app.game
    items: list[ft.Control] = []
    last = game.last_play_words()
    if last is not None and not game.finished:
        player, words = last
        items.append(ft.Text(f"Challenge {player}'s {', '.join(words)}? Open {game.challenge_closes()}. "
                             "Who challenges:", size=13))
        items.append(ft.Row([ft.OutlinedButton(f"Challenge by {p}", on_click=lambda e, p=p: app.challenge(p))
                             for p in game.challengers()], wrap=True))
    tail: list[ft.Control] = []
    if game.can_undo():
        tail.append(ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo()))
    if game.can_end_by_agreement():
        tail.append(ft.TextButton("End game by agreement", on_click=lambda e: app.open_screen("end")))
    items.append(ft.Row(tail, wrap=True))
    return items


@ft.component
def TurnScreen(app: AppState, steps: Callable[[AppState], ft.Control] | None = None,
               exchange: bool = False) -> ft.Control:
    if app.game is None:
        return ft.Text("No game yet.")
    panel = _entry_panel(app, exchange)
    after = ([panel] if panel is not None else []) + _challenge_and_undo(app)

    async def stop_countdown(e: Any) -> None:
        await app.watch_hold()

    # Any tap on the screen that is no action of its own stops a watched move's countdown (issue #22): a
    # button, a field or a board square takes its tap first (Flutter gives a tap to the innermost
    # detector), every other tap reaches this one. Always here, watching or not, so that the live camera
    # preview's place in the tree never changes (a changed ancestor would start the camera again); kept out
    # of the semantics tree, which stays as it was.
    return ft.GestureDetector(content=split([BoardGrid(app)], _header(app, steps), after), on_tap=stop_countdown,
                              exclude_from_semantics=True)
