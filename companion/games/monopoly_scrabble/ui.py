"""Monopoly Scrabble's UI side for the app shell: setup form, screens (turn with the pending steps, Bank,
end, the board profile editor reached from the setup form), follower view."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_scrabble.bank import BankScreen
from companion.games.monopoly_scrabble.profile_editor import MonopolyTab, ProfileEditor
from companion.games.monopoly_scrabble.setup import MonopolySetupForm, start
from companion.games.monopoly_scrabble.steps import MonopolySteps
from companion.games.monopoly_scrabble.table import rebuild
from companion.games.spec import GameUI, Screen
from companion.ui.components.board import BoardGrid
from companion.ui.components.end_game import EndScreen
from companion.ui.components.turn import TurnScreen
from companion.ui.models import AppState


@ft.component
def MonopolyTurn(app: AppState) -> ft.Control:
    screen: ft.Control = TurnScreen(app, steps=MonopolySteps)  # TurnScreen (components/turn.py): not annotated yet
    return screen


@ft.component
def MonopolyFollower(app: AppState) -> ft.Control:
    game = app.game
    return ft.Column([*(ft.Text(line) for line in game.follow_lines()), BoardGrid(app, interactive=False)],
                     spacing=10)


UI = GameUI(
    setup_form=MonopolySetupForm,
    start=start,
    rebuild=rebuild,
    screens=(Screen("turn", "Turn", MonopolyTurn, wide=True), Screen("bank", "Bank", BankScreen, wide=True),
             Screen("end", "End", EndScreen, wide=True),
             Screen("profile", "", ProfileEditor, needs_game=False)),
    follower=MonopolyFollower,
    end_screen="end",
    tab_state=MonopolyTab,
)
