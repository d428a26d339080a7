"""The shell's tools, on every screen's navigation row: look up a word (no game needed) and, when the
table's game can answer it, "can anyone still play?". Their screens are shell screens: `SCREENS` are
drawn in the page column, `FULL_SCREENS` fill the screen (the lookup's ruling, like a challenge's)."""

from __future__ import annotations

import flet as ft

from companion.ui.components.lookup import LookupRuling, LookupScreen, open_lookup
from companion.ui.components.rack_check import RackCheckScreen, open_rack_check, supports_rack_check
from companion.ui.models import AppState

SCREENS = {"lookup": LookupScreen, "rack": RackCheckScreen}
FULL_SCREENS = {"lookup-ruling": LookupRuling}


def tool_buttons(app: AppState) -> list[ft.Control]:
    # No icons: both fit on one row at phone width (360 px).
    buttons: list[ft.Control] = [ft.TextButton("Look up a word", on_click=lambda e: open_lookup(app))]
    if supports_rack_check(app.game):
        buttons.append(ft.TextButton("Can anyone still play?", on_click=lambda e: open_rack_check(app)))
    return buttons
