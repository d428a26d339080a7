"""The word list a word game judges challenges with (a setup field shared by the word-board games)."""

from __future__ import annotations

import flet as ft

from companion.ui.adapters import JUDGE
from companion.ui.components.choice import Choice
from companion.ui.models import AppState


@ft.component
def LexiconChoice(app: AppState) -> ft.Control:
    f = app.form
    _, redraw = ft.use_state(0)

    def pick(value: str) -> None:
        f.lexicon = value
        redraw(lambda x: x + 1)

    chosen = f.lexicon or JUDGE.default_name()
    return ft.Column([
        ft.Text("Word list (challenges are judged by it and the ruling names it)"),
        Choice([(n, n) for n in JUDGE.available()], chosen, pick),
        ft.Text("ENABLE is public domain. A list you own (NWL, CSW...) appears here once copied as NAME.txt into "
                "~/.local/share/table-referee/lexicons/.", size=12, italic=True),
    ], spacing=10)
