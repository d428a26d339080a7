"""First screen: the tables of this server. Start a game on a new table, open a game in progress
(watch it, or referee it with its PIN), open or export a finished one. On a wide page the tables sit
side by side."""

from __future__ import annotations

import logging

import flet as ft

from companion.games import GAMES, UnknownGame
from companion.store import StoreError
from companion.ui.hub import HUB
from companion.ui.models import AppState
from companion.ui.persist import SavedGame

LOG = logging.getLogger("companion.ui")


def _label(kind: str) -> str:
    try:
        return str(GAMES.get(kind).label)
    except UnknownGame:  # a game whose code is gone (the registry logged why) still lists by its id
        return kind


def export_text(app: AppState, game_id: str) -> str | None:
    """A stored game's log for the Export button, or None with the one sentence shown: a store that cannot
    be read says so, and so does a fault of the app (logged with its traceback); nothing changes."""
    try:
        return HUB.store.export_json(game_id)
    except (StoreError, OSError) as exc:
        app.fail(f"The game could not be exported ({exc}).")
    except Exception as exc:  # a bug: logged, said in the same sentence, nothing changed
        LOG.exception("exporting the game %s failed", game_id)
        app.fail(f"The game could not be exported ({exc}).")
    return None


@ft.component
def Home(app: AppState) -> ft.Control:
    picker = ft.use_memo(lambda: ft.FilePicker(), [])

    async def export(game_id: str, kind: str) -> None:
        text = export_text(app, game_id)
        if text is None:
            return
        await picker.save_file(dialog_title="Export the game", file_name=f"{kind}-{game_id}.json",
                               src_bytes=text.encode("utf-8"))
        app.say(f"Exported game {game_id} as {kind}-{game_id}.json (its whole log: 'companion games import' "
                "or 'companion replay' read it).")

    items: list[ft.Control] = [
        ft.Text("Table referee", size=28, weight=ft.FontWeight.BOLD),
        ft.Text("Keep the real game on the table. This screen scores, judges challenges and keeps the bank."),
        ft.FilledButton("New game", on_click=lambda e: app.open_screen("setup")),
    ]
    if HUB.resume_note:
        items.append(ft.Text(HUB.resume_note, italic=True))
    games = HUB.listing()
    playing = [g for g in games if not g.finished]
    finished = [g for g in games if g.finished]
    cards = ft.ResponsiveRow

    def card(g: SavedGame, done: bool) -> ft.Control:
        status = "Finished" if done else "In progress"
        if not done and (live := HUB.table(g.id)) is not None and live.current_player:
            status = f"In progress: {live.current_player} {live.doing()}"
        watchers = HUB.watching(g.id)
        buttons: list[ft.Control] = [
            ft.FilledButton("Open", on_click=lambda e, i=g.id: app.open_table(i)),
            ft.OutlinedButton("Export", on_click=lambda e, i=g.id, k=g.kind: ft.context.page.run_task(export, i, k)),
        ]
        return ft.Container(
            col={"xs": 12, "md": 6, "xl": 4}, padding=10, border_radius=8,
            border=ft.Border.all(1, "#BDBDBD"),
            content=ft.Semantics(identifier=f"table-{g.id}", container=True, content=ft.Column([
                ft.Text(f"{_label(g.kind)}: {', '.join(g.players)}", size=16, weight=ft.FontWeight.BOLD),
                ft.Text(status + (f" ({watchers} watching)" if watchers else ""), size=13),
                ft.Text(f"Table {g.id}", size=11, italic=True),
                ft.Row(buttons, wrap=True),
            ], spacing=4, tight=True)))

    if playing:
        items.append(ft.Text("Games in progress", size=18, weight=ft.FontWeight.BOLD))
        items.append(cards([card(g, False) for g in playing], spacing=10, run_spacing=10))
    if finished:
        items.append(ft.Text("Finished games", size=18, weight=ft.FontWeight.BOLD))
        items.append(cards([card(g, True) for g in finished[:30]], spacing=10, run_spacing=10))
    return ft.Column(items, spacing=12)
