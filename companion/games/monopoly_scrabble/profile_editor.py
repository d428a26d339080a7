"""Board profile editor (Monopoly Scrabble): what the table's own box prints. Property squares are
tapped on the grid, card values and rents typed from the cards, track spaces and amounts set one by
one. Every change goes through `companion.games.monopoly_scrabble.profile`, which refuses an inconsistent
profile with a sentence; the placeholders still unchecked are counted."""

from __future__ import annotations

import flet as ft

from companion.ui import theme
from companion.ui.components.board import BoardGrid
from companion.ui.components.choice import Choice
from companion.ui.models import AppState

SPACE_TYPES = [("property", "Property"), ("chance", "Chance"), ("community_chest", "Community Chest"),
               ("go", "GO"), ("jail", "Jail"), ("free_parking", "Free Parking"), ("go_to_jail", "Go to Jail")]


@ft.component
def ProfileEditor(app: AppState):
    profile = app.profile
    if profile is None:
        return ft.Text("No board profile loaded.")
    f = app.form
    group = profile.group(app.edit_group)
    squares = {(sq.row, sq.col): g for sq, g in profile.property_squares().items()}
    placeholders = profile.placeholders()
    amounts = [n for n in type(profile.amounts).model_fields if n != "starting_bills"]
    items: list[ft.Control] = [
        ft.Text("Board profile", size=22, weight=ft.FontWeight.BOLD),
        ft.Text(profile.label or profile.name, italic=True, size=13),
        ft.Text(f"{len(placeholders)} values are still placeholders: check them against your box." if placeholders
                else "Every value has been checked.", size=13),
        ft.Text("Property Card", weight=ft.FontWeight.BOLD),
        Choice([(g.id, g.name) for g in profile.groups], app.edit_group, app.pick_group),
        ft.Container(bgcolor=theme.group(group.id), height=6, border_radius=3),
        ft.Semantics(identifier="card-values", content=ft.Text(
            f"{group.name}: value {theme.money(group.card_value.value or 0)}, rent {theme.money(group.rent.value or 0)}, "
            f"squares {', '.join(group.squares.value) or 'none'}.")),
        ft.Row([
            ft.TextField(label="Card value", value=f.card_value, width=120, dense=True,
                         on_change=lambda e: setattr(f, "card_value", e.control.value)),
            ft.TextField(label="Rent", value=f.rent, width=100, dense=True,
                         on_change=lambda e: setattr(f, "rent", e.control.value)),
            ft.OutlinedButton("Set card", on_click=lambda e: app.set_card()),
        ], wrap=True),
        ft.Text(f"Tap a square to make it (or stop it being) a {group.name} property square:", size=13),
        BoardGrid(app, layout=profile.load_layout(), properties=squares, on_tap=app.toggle_square),
        ft.Text("Track space", weight=ft.FontWeight.BOLD),
        ft.Text(", ".join(f"{i} {s.name}" for i, s in enumerate(profile.track.spaces)), size=12),
        Choice(SPACE_TYPES, app.edit_space_type, lambda v: setattr(app, "edit_space_type", v)),
        ft.Row([
            ft.TextField(label="Space number", value=f.space_index, width=130, dense=True,
                         on_change=lambda e: setattr(f, "space_index", e.control.value)),
            ft.TextField(label="Space name", value=f.space_name, width=170, dense=True,
                         on_change=lambda e: setattr(f, "space_name", e.control.value)),
        ], wrap=True),
        ft.Row([
            ft.OutlinedButton("Set space", on_click=lambda e: app.set_space()),
            ft.TextButton("Remove space", on_click=lambda e: app.set_space(remove=True)),
        ], wrap=True),
        ft.Text("(A property space belongs to the Property Card chosen above.)", size=12, italic=True),
        ft.Text("Amounts", weight=ft.FontWeight.BOLD),
        ft.Text(", ".join(f"{n.replace('_', ' ')} {getattr(profile.amounts, n).value}" for n in amounts), size=12),
        Choice([(n, n.replace("_", " ")) for n in amounts], app.edit_amount, app.pick_amount),
        ft.Row([
            ft.TextField(label="Amount", value=f.amount_value, width=120, dense=True,
                         on_change=lambda e: setattr(f, "amount_value", e.control.value)),
            ft.OutlinedButton("Set amount", on_click=lambda e: app.set_amount()),
        ], wrap=True),
        ft.Row([
            ft.FilledButton("Save profile", on_click=lambda e: app.save_profile()),
            ft.TextButton("Box defaults", on_click=lambda e: app.reset_profile()),
            ft.TextButton("Back to the new game", on_click=lambda e: app.go("setup")),
        ], wrap=True),
    ]
    return ft.Column(items, spacing=8)
