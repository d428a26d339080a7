"""New game: which game (from the registry), the players with names and token colours, the game's own
setup form (`GameUI.setup_form`), the referee PIN."""

from __future__ import annotations

import flet as ft

from companion.ui import theme
from companion.ui.components.choice import Choice
from companion.ui.components.layout import side_by_side
from companion.ui.models import AppState, game_ui, setup_games
from companion.ui.table import TOKEN_COLOURS


@ft.component
def Setup(app: AppState) -> ft.Control:
    f = app.form
    _, redraw = ft.use_state(0)

    def set_name(i: int, value: str) -> None:
        f.names[i] = value

    def next_colour(i: int) -> None:
        used = {f.colours[j] for j in range(app.player_count) if j != i}
        k = TOKEN_COLOURS.index(f.colours[i])
        for step in range(1, len(TOKEN_COLOURS) + 1):
            cand = TOKEN_COLOURS[(k + step) % len(TOKEN_COLOURS)]
            if cand not in used:
                f.colours[i] = cand
                break
        redraw(lambda x: x + 1)

    kind = app.setup_kind()
    rows: list[ft.Control] = [
        ft.Text("New game", size=24, weight=ft.FontWeight.BOLD),
        Choice([(spec.id, spec.label) for spec in setup_games()], kind, app.choose_game),
    ]
    if not kind:
        rows.append(ft.Text("No game could be loaded: see the app's log."))
        return ft.Column(rows, spacing=10)
    ui = game_ui(kind)
    rows.append(ft.Text("Players"))
    counts = range(ui.min_players, min(ui.max_players, len(f.names)) + 1)
    if len(counts) > 1:
        rows.append(Choice([(str(n), f"{n} players") for n in counts], str(app.player_count),
                           lambda v: app.choose_player_count(int(v))))
    for i in range(app.player_count):
        rows.append(ft.Row([
            ft.TextField(label=f"Player {i + 1} name", value=f.names[i], width=190, dense=True,
                         on_change=lambda e, i=i: set_name(i, e.control.value)),
            ft.Button(f"Token {f.colours[i]}", bgcolor=theme.token(f.colours[i]), color="#FFFFFF",
                      on_click=lambda e, i=i: next_colour(i)),
        ], wrap=True))
    # On a wide page the players are on the left, the game's own settings and the PIN on the right.
    players, rows = rows, []
    rows.append(ui.setup_form(app))
    rows.append(ft.TextField(label="Referee PIN (optional)", password=True, width=200, dense=True,
                             keyboard_type=ft.KeyboardType.NUMBER, value=f.pin,
                             on_change=lambda e: setattr(f, "pin", e.control.value)))
    rows.append(ft.Text("With a PIN, other phones can only watch until someone types it.", size=12, italic=True))
    rows.append(ft.FilledButton("Start game", on_click=lambda e: app.start_game()))
    rows.append(ft.TextButton("Back", on_click=lambda e: app.open_screen("home")))
    return side_by_side(players, rows)
