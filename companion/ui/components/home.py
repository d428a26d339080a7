"""First screen: start a game, or follow the one already on the table."""

from __future__ import annotations

import flet as ft

from companion.ui.models import AppState


@ft.component
def Home(app: AppState):
    game = app.game
    items: list[ft.Control] = [
        ft.Text("Table referee", size=28, weight=ft.FontWeight.BOLD),
        ft.Text("Keep the real game on the table. This screen scores, judges challenges and keeps the bank."),
        ft.FilledButton("New game", on_click=lambda e: app.new_game()),
    ]
    from companion.ui.hub import HUB

    if HUB.resume_note:
        items.append(ft.Text(HUB.resume_note, italic=True))
    if game is not None:
        items += [
            ft.Text(f"A game is on: {', '.join(game.players)}.", size=16),
            ft.OutlinedButton("Watch the game", on_click=lambda e: app.follow()),
            *([ft.TextField(label="Referee PIN", password=True, width=160, dense=True,
                            keyboard_type=ft.KeyboardType.NUMBER,
                            on_change=lambda e: setattr(app.form, "pin_try", e.control.value))]
              if HUB.store.has_pin(game) else []),
            ft.OutlinedButton("Referee this game", on_click=lambda e: app.take_over()),
        ]
    return ft.Column(items, spacing=12)
