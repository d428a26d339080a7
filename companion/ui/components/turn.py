"""The referee's turn screen of the word-board games: photo or hand entry, corrections, score, confirm;
pass, exchange, challenge. Each word-board game shows it through its own screen (`GameUI.screens`), with
what only it has: `steps` (a component drawn above the board, e.g. Monopoly Scrabble's pending steps)
and `exchange` (classic Scrabble's tile exchange). On a wide page the board is on the left and the rest
beside it (`layout.split`)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.ui.components.board import BoardGrid
from companion.ui.components.camera import CameraPanel
from companion.ui.components.choice import Choice
from companion.ui.components.correction import Correction
from companion.ui.components.layout import split
from companion.ui.components.players import PlayersStrip
from companion.ui.components.watch import WatchPanel, play_summary
from companion.ui.models import AppState


def _words(check) -> ft.Control:
    return play_summary(check)


@ft.component
def TurnScreen(app: AppState, steps: Callable[[AppState], ft.Control] | None = None, exchange: bool = False):
    game = app.game
    _, redraw = ft.use_state(0)
    picker = ft.use_memo(lambda: ft.FilePicker(), [])
    if game is None:
        return ft.Text("No game yet.")
    f = app.form

    async def upload(e):
        files = await picker.pick_files(with_data=True, file_type=ft.FilePickerFileType.IMAGE,
                                        dialog_title="Photo of the board")
        if not files:
            return
        data = files[0].bytes
        if not data:
            app.fail("The photo arrived empty: try again.")
            return
        await app.read_photo(data)

    items: list[ft.Control] = [PlayersStrip(app)]
    current = game.current_player
    if game.finished:
        items.append(ft.FilledButton("See the final table", on_click=lambda e: app.go("end")))
    elif current is None:
        items.append(ft.Text("The game is over: enter the tiles left on each rack.", weight=ft.FontWeight.BOLD))
        items.append(ft.FilledButton("Finish the game", on_click=lambda e: app.go("end")))
    else:
        items.append(ft.Text(f"{current} to play", size=20, weight=ft.FontWeight.BOLD))
    if game.clocks is not None and not game.finished:
        label = "Start clocks" if game.clocks.paused() else "Pause clocks"
        items.append(ft.OutlinedButton(label, on_click=lambda e: app.toggle_clocks()))
    if steps is not None:
        items.append(steps(app))
    watching = app.watching()
    if not game.finished and current is not None and app.watch() is not None:
        # Watch the board (issue #22): the camera's preview and the watch state, above the turn's entries.
        items.append(WatchPanel(app))
    if current is not None and callable(getattr(game, "play_with_rack", None)):
        # Optional: the tiles are then checked against it, and the end screen reviews each rack's best play.
        items.append(ft.TextField(label="Rack (optional)", value=f.play_rack, width=200, dense=True,
                                  capitalization=ft.TextCapitalization.CHARACTERS,
                                  on_change=lambda e: setattr(f, "play_rack", e.control.value)))
    before, items = items, []
    if app.read_rows is not None and app.read_doubts:
        # A doubtful reading is not scored: the referee sees why and checks the board first.
        if app.selected is not None:
            items.append(Correction(app))
        items.append(ft.Text("The reader is not sure of this photo:", weight=ft.FontWeight.BOLD, color="#B71C1C"))
        for d in app.read_doubts:
            items.append(ft.Text(d, color="#B71C1C"))
        items.append(ft.Text("Compare the board shown with the real one and tap any square to correct it.", size=13))
        items.append(ft.Row([
            ft.FilledButton("The board is right", on_click=lambda e: app.accept_doubtful_read()),
            ft.OutlinedButton("Enter by hand", on_click=lambda e: app.read_by_hand()),
            ft.OutlinedButton("Discard photo", on_click=lambda e: (app.clear_draft(), app.say(""))),
        ], wrap=True))
    elif app.read_rows is not None:
        if app.selected is not None:
            items.append(Correction(app))
        check = app.read_check
        if check is not None and check.ok:
            items.append(_words(check))
        elif check is not None:
            items.append(ft.Text(check.error, color="#B71C1C"))
        for w in app.read_warnings[:3]:
            items.append(ft.Text(f"Note: {w} (the board keeps its tile).", size=12, italic=True))
        items.append(ft.Row([
            ft.FilledButton("Confirm play", on_click=lambda e: app.confirm_read(),
                            disabled=not (check is not None and check.ok)),
            ft.OutlinedButton("Discard photo", on_click=lambda e: (app.clear_draft(), app.say(""))),
        ], wrap=True))
    elif current is not None and game.turn_stage() == "word":
        photo: list[ft.Control] = [ft.FilledButton("Upload photo", icon=ft.Icons.UPLOAD_FILE, on_click=upload)]
        if not watching:  # one camera at a time: the watch's is on
            photo.append(ft.OutlinedButton("Camera", icon=ft.Icons.PHOTO_CAMERA, on_click=lambda e: app.toggle_camera()))
        items.append(ft.Row(photo, wrap=True))
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
        items.append(Choice([("across", "Across"), ("down", "Down")], f.direction,
                            lambda v: (setattr(f, "direction", v), redraw(lambda x: x + 1))))
        if app.hand_check is not None and app.hand_check.ok:
            items.append(_words(app.hand_check))
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
        tail.append(ft.TextButton("End game by agreement", on_click=lambda e: app.go("end")))
    items.append(ft.Row(tail, wrap=True))

    async def stop_countdown(e) -> None:
        await app.watch_hold()

    # Any tap on the screen that is no action of its own stops a watched move's countdown (issue #22): a
    # button, a field or a board square takes its tap first (Flutter gives a tap to the innermost
    # detector), every other tap reaches this one. Always here, watching or not, so that the live camera
    # preview's place in the tree never changes (a changed ancestor would start the camera again); kept out
    # of the semantics tree, which stays as it was.
    return ft.GestureDetector(content=split([BoardGrid(app)], before, items), on_tap=stop_countdown,
                              exclude_from_semantics=True)
