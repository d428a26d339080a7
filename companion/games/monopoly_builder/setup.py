"""Monopoly Builder's setup form: each player's token (the box's four colours: the colour of their
resources, reference card and blocks), the table settings where the rules text is silent (with the
defaults the README lists), the board profile (edited on its own screen); and the table it starts."""

from __future__ import annotations

from functools import partial

import flet as ft

from companion.games.monopoly_builder.drafts import BuilderTab
from companion.games.monopoly_builder.profile_editor import profile_actions
from companion.games.monopoly_builder.rules import VARIANT
from companion.games.monopoly_builder.table import (
    SETTING_CHOICES,
    SHELL_COLOUR,
    BuilderTable,
    box_colours,
    new_builder,
)
from companion.games.monopoly_builder.widgets import resource_hex
from companion.ui.components.choice import Choice
from companion.ui.models import AppState
from companion.ui.table import PlayerInfo

SETTING_TITLES = {"dice": "Dice", "bonus_tie": "A tie for a Builder's Bonus card",
                  "penthouse_building": "The building under the penthouse",
                  "jail_doubles_again": "Doubles that free a player from Jail",
                  "bank_trade": "The Bank's 4-for-1", "rent_window": "Until when an owner may ask for rent"}


def pick_token(app: AppState, seat: int, colour: str, box: list[str]) -> None:
    """Give the seat this box colour; the player who had it takes the seat's old colour (a swap)."""
    f = app.form
    n = app.player_count
    current = box_colours(f.colours[:n], box, app.local(VARIANT).seats)
    if colour in current:
        other = current.index(colour)
        f.colours[other] = SHELL_COLOUR[current[seat]]
    f.colours[seat] = SHELL_COLOUR[colour]
    app.touch()


def _pick_setting(app: AppState, tab: BuilderTab, key: str, value: str) -> None:
    tab.settings[key] = value
    app.touch()


@ft.component
def BuilderSetupForm(app: AppState) -> ft.Control:
    tab: BuilderTab = app.local(VARIANT)
    act = profile_actions(app)
    if tab.profile is None:
        tab.profile = act.table_profile()  # read once per tab; the editor changes this copy
    profile = tab.profile
    box = list(profile.colours.value)
    f = app.form
    n = app.player_count
    names = [f.names[i] or f"Player {i + 1}" for i in range(n)]
    colours = box_colours(f.colours[:n], box, tab.seats)

    def match_shell_colours() -> None:
        # The shell's token buttons offer colours this box does not have (blue, teal): show each player's
        # Builder colour on them too, so the two never disagree (a tap there steps to the next box colour).
        tab.seats = list(colours)
        shown = [SHELL_COLOUR[c] for c in colours]
        if f.colours[:len(shown)] != shown:
            f.colours[:len(shown)] = shown
            app.touch()

    ft.use_effect(match_shell_colours, [tuple(f.colours[:n])])
    tokens = profile.tokens.value
    items: list[ft.Control] = [ft.Text("Tokens (the colour of the player's resources, reference card and blocks)",
                                       weight=ft.FontWeight.BOLD)]
    for i, name in enumerate(names):
        options = [(c, f"{tokens.get(c, c)}") for c in box]
        items.append(ft.Row([
            ft.Container(width=14, height=14, bgcolor=resource_hex(colours[i]) if i < len(colours) else None,
                         border_radius=7),
            ft.Text(f"{name}: {tokens.get(colours[i], colours[i])} ({colours[i]})" if i < len(colours) else name),
        ]))
        items.append(Choice(options, colours[i] if i < len(colours) else "",
                            partial(pick_token, app, i, box=box)))
    items.append(ft.Text("Table settings", weight=ft.FontWeight.BOLD))
    for key, options in SETTING_CHOICES.items():
        items.append(ft.Text(SETTING_TITLES[key], size=13))
        items.append(Choice(options, tab.settings.get(key, options[0][0]),
                            partial(_pick_setting, app, tab, key)))
    placeholders = len(profile.placeholders())
    items.append(ft.Row([
        ft.Text(f"Board profile: deeds, track, floor costs, foundations ({placeholders} values still placeholders)."
                if placeholders else "Board profile: every value checked against the box.", size=13),
        ft.OutlinedButton("Edit board profile", on_click=lambda e: act.open()),
    ], wrap=True))
    return ft.Column(items, spacing=8)


def start(app: AppState, players: list[PlayerInfo]) -> BuilderTable:
    tab: BuilderTab = app.local(VARIANT)
    return new_builder(players, profile_actions(app).table_profile(), tab.settings)
