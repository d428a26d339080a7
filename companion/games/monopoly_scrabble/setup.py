"""Monopoly Scrabble's setup form: the Banker, the board profile (edited on its own screen), the word
list; and the table it starts."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_scrabble.profile_editor import MonopolyScrabbleTab, profile_actions
from companion.games.monopoly_scrabble.rules import VARIANT
from companion.games.monopoly_scrabble.table import MonopolyScrabbleTable, new_monopoly_scrabble
from companion.ui.components.choice import Choice
from companion.ui.components.lexicon import LexiconChoice
from companion.ui.models import AppState
from companion.ui.table import PlayerInfo


@ft.component
def MonopolyScrabbleSetupForm(app: AppState) -> ft.Control:
    tab: MonopolyScrabbleTab = app.local(VARIANT)
    f = app.form
    names = [f.names[i] or f"Player {i + 1}" for i in range(app.player_count)]
    banker = tab.banker if tab.banker in names else names[0]

    def pick_banker(name: str) -> None:
        tab.banker = name
        app.touch()

    return ft.Column([
        ft.Text("Banker (may also play)"),
        Choice([(n, n) for n in names], banker, pick_banker),
        ft.Row([
            ft.Text("Board profile: track, Property Cards, property squares.", size=13),
            ft.OutlinedButton("Edit board profile", on_click=lambda e: profile_actions(app).open()),
        ], wrap=True),
        LexiconChoice(app),
    ], spacing=10)


def start(app: AppState, players: list[PlayerInfo]) -> MonopolyScrabbleTable:
    tab: MonopolyScrabbleTab = app.local(VARIANT)
    banker = tab.banker if tab.banker in [p.name for p in players] else players[0].name
    return new_monopoly_scrabble(players, banker, profile_actions(app).table_profile(), lexicon=app.lexicon_name())
