"""Classic Scrabble's setup form: rules preset, 9-tile / Finish Line, letter values, word list; and the
table it starts."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.games.classic.rules import VARIANT, presets
from companion.games.classic.table import ClassicTable, new_classic
from companion.ui.components.choice import Choice
from companion.ui.components.lexicon import LexiconChoice
from companion.ui.models import AppState
from companion.ui.table import PlayerInfo


@dataclass
class ClassicSetup:
    """This tab's answers on the setup form."""

    preset: str = "box"
    variant: str = "standard"
    finish_level: str = "intermediate"
    tileset: str = "en"


@ft.component
def ClassicSetupForm(app: AppState) -> ft.Control:
    answers: ClassicSetup = app.local(VARIANT)

    def pick(attr: str, value: str) -> None:
        setattr(answers, attr, value)
        app.touch()

    rows: list[ft.Control] = [
        ft.Text("Rules"),
        Choice([(k, p.label.split(" (")[0]) for k, p in presets().items()], answers.preset,
               lambda v: pick("preset", v)),
        Choice([("standard", "Standard"), ("nine_tile", "9-tile"), ("finish_line", "Finish Line")],
               answers.variant, lambda v: pick("variant", v)),
    ]
    if answers.variant == "finish_line":
        rows.append(Choice([("beginner", "Beginner"), ("intermediate", "Intermediate"), ("expert", "Expert")],
                           answers.finish_level, lambda v: pick("finish_level", v)))
    rows.append(ft.Text("Tiles (letter values)"))
    rows.append(Choice([("en", "English"), ("ro", "Romanian")], answers.tileset, lambda v: pick("tileset", v)))
    rows.append(LexiconChoice(app))
    return ft.Column(rows, spacing=10)


def start(app: AppState, players: list[PlayerInfo]) -> ClassicTable:
    answers: ClassicSetup = app.local(VARIANT)
    return new_classic(players, preset=answers.preset, variant=answers.variant, finish_level=answers.finish_level,
                       lexicon=app.lexicon_name(), tileset=answers.tileset)
