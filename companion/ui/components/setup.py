"""New game: which game, rules, players with names and token colours, Banker, word list."""

from __future__ import annotations

import flet as ft

from companion.games.classic.rules import presets
from companion.ui import theme
from companion.ui.components.choice import Choice
from companion.ui.models import AppState
from companion.ui.table import TOKEN_COLOURS


@ft.component
def Setup(app: AppState):
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

    def pick(attr: str, value: str) -> None:
        setattr(f, attr, value)
        redraw(lambda x: x + 1)

    rows: list[ft.Control] = [
        ft.Text("New game", size=24, weight=ft.FontWeight.BOLD),
        Choice([("monopoly", "Monopoly Scrabble"), ("classic", "Classic Scrabble")], app.kind, app.set_kind),
    ]
    if app.kind == "classic":
        rows.append(ft.Text("Rules"))
        rows.append(Choice([(k, p.label.split(" (")[0]) for k, p in presets().items()], f.preset,
                           lambda v: pick("preset", v)))
        rows.append(Choice([("standard", "Standard"), ("nine_tile", "9-tile"), ("finish_line", "Finish Line")],
                           f.variant, lambda v: pick("variant", v)))
        if f.variant == "finish_line":
            rows.append(Choice([("beginner", "Beginner"), ("intermediate", "Intermediate"), ("expert", "Expert")],
                               f.finish_level, lambda v: pick("finish_level", v)))
        rows.append(ft.Text("Tiles (letter values)"))
        rows.append(Choice([("en", "English"), ("ro", "Romanian")], f.tileset, lambda v: pick("tileset", v)))
    rows.append(ft.Text("Players"))
    rows.append(Choice([("2", "2 players"), ("3", "3 players"), ("4", "4 players")], str(app.player_count),
                       lambda v: app.set_player_count(int(v))))
    for i in range(app.player_count):
        rows.append(ft.Row([
            ft.TextField(label=f"Player {i + 1} name", value=f.names[i], width=190, dense=True,
                         on_change=lambda e, i=i: set_name(i, e.control.value)),
            ft.Button(f"Token {f.colours[i]}", bgcolor=theme.token(f.colours[i]), color="#FFFFFF",
                      on_click=lambda e, i=i: next_colour(i)),
        ], wrap=True))
    if app.kind == "monopoly":
        names = [f.names[i] or f"Player {i + 1}" for i in range(app.player_count)]
        banker = f.banker if f.banker in names else names[0]
        rows.append(ft.Text("Banker (may also play)"))
        rows.append(Choice([(n, n) for n in names], banker, lambda v: pick("banker", v)))
        rows.append(ft.Row([
            ft.Text("Board profile: track, Property Cards, property squares.", size=13),
            ft.OutlinedButton("Edit board profile", on_click=lambda e: app.open_profile()),
        ], wrap=True))
    from companion.ui.adapters import JUDGE

    lexicons = JUDGE.available()
    chosen = f.lexicon or JUDGE.default_name()
    rows.append(ft.Text("Word list (challenges are judged by it and the ruling names it)"))
    rows.append(Choice([(n, n) for n in lexicons], chosen, lambda v: pick("lexicon", v)))
    rows.append(ft.Text("ENABLE is public domain. A list you own (NWL, CSW...) appears here once copied as NAME.txt into ~/.local/share/table-referee/lexicons/.",
                        size=12, italic=True))
    rows.append(ft.TextField(label="Referee PIN (optional)", password=True, width=200, dense=True,
                             keyboard_type=ft.KeyboardType.NUMBER, value=f.pin,
                             on_change=lambda e: setattr(f, "pin", e.control.value)))
    rows.append(ft.Text("With a PIN, other phones can only watch until someone types it.", size=12, italic=True))
    rows.append(ft.FilledButton("Start game", on_click=lambda e: app.start_game()))
    rows.append(ft.TextButton("Back", on_click=lambda e: app.go("home")))
    return ft.Column(rows, spacing=10)
