"""Monopoly Scrabble's UI side for the app shell: setup form, screens (turn with the pending steps, Bank,
end, the board profile editor reached from the setup form), follower view."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_scrabble.bank import BankScreen
from companion.games.monopoly_scrabble.profile_editor import MonopolyScrabbleTab, ProfileEditor
from companion.games.monopoly_scrabble.setup import MonopolyScrabbleSetupForm, start
from companion.games.monopoly_scrabble.steps import MonopolyScrabbleSteps
from companion.games.monopoly_scrabble.table import rebuild
from companion.games.spec import GameUI, Screen
from companion.ui.components.board import BoardGrid
from companion.ui.components.end_game import EndScreen
from companion.ui.components.turn import TurnScreen
from companion.ui.models import AppState


@ft.component
def MonopolyScrabbleTurn(app: AppState) -> ft.Control:
    screen: ft.Control = TurnScreen(app, steps=MonopolyScrabbleSteps)  # TurnScreen (components/turn.py): not annotated yet
    return screen


@ft.component
def MonopolyScrabbleFollower(app: AppState) -> ft.Control:
    game = app.game
    return ft.Column([*(ft.Text(line) for line in game.follow_lines()), BoardGrid(app, interactive=False)],
                     spacing=10)


UI = GameUI(
    setup_form=MonopolyScrabbleSetupForm,
    start=start,
    rebuild=rebuild,
    screens=(Screen("turn", "Turn", MonopolyScrabbleTurn, wide=True), Screen("bank", "Bank", BankScreen, wide=True),
             Screen("end", "End", EndScreen, wide=True),
             Screen("profile", "", ProfileEditor, needs_game=False)),
    follower=MonopolyScrabbleFollower,
    end_screen="end",
    tab_state=MonopolyScrabbleTab,
)
