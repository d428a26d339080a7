"""Classic Scrabble's UI side for the app shell: setup form, screens (turn, scoresheet, end), follower view."""

from __future__ import annotations

import flet as ft

from companion.games.classic.scoresheet import Scoresheet
from companion.games.classic.setup import ClassicSetup, ClassicSetupForm, start
from companion.games.classic.table import rebuild
from companion.games.spec import GameUI, Screen
from companion.ui.components.board import BoardGrid
from companion.ui.components.end_game import EndScreen
from companion.ui.components.turn import TurnScreen
from companion.ui.models import AppState


@ft.component
def ClassicTurn(app: AppState) -> ft.Control:
    screen: ft.Control = TurnScreen(app, exchange=True)  # TurnScreen (components/turn.py) is not annotated yet
    return screen


@ft.component
def ClassicFollower(app: AppState) -> ft.Control:
    return BoardGrid(app, interactive=False)


UI = GameUI(
    setup_form=ClassicSetupForm,
    start=start,
    rebuild=rebuild,
    screens=(Screen("turn", "Turn", ClassicTurn, wide=True), Screen("sheet", "Scoresheet", Scoresheet, wide=True),
             Screen("end", "End", EndScreen, wide=True)),
    follower=ClassicFollower,
    end_screen="end",
    tab_state=ClassicSetup,
)
