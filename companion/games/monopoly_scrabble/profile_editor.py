"""Board profile editor (Monopoly Scrabble): what the table's own box prints. Property squares are
tapped on the grid, card values and rents typed from the cards, track spaces and amounts set one by
one. Every change goes through `companion.games.monopoly_scrabble.profile`, which refuses an inconsistent
profile with a sentence; the placeholders still unchecked are counted. The profile being edited and the
typed fields are this tab's (`MonopolyScrabbleTab`); a saved profile is `DATA/profiles/table.json`."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.games.monopoly_scrabble.profile import (
    PROFILE_IO,
    Profile,
    Space,
    set_amount,
    set_card,
    set_track_space,
    toggle_property_square,
)
from companion.games.monopoly_scrabble.rules import VARIANT
from companion.ui import theme
from companion.ui.components.board import BoardGrid
from companion.ui.components.choice import Choice
from companion.ui.models import AppState, plain
from companion.ui.profile_editing import ProfileEditorActions

SPACE_TYPES = [("property", "Property"), ("chance", "Chance"), ("community_chest", "Community Chest"),
               ("go", "GO"), ("jail", "Jail"), ("free_parking", "Free Parking"), ("go_to_jail", "Go to Jail")]


@dataclass
class MonopolyScrabbleTab:
    """One tab's Monopoly Scrabble drafts: the setup answers, the profile being edited, the card fields."""

    banker: str = ""
    profile: Profile | None = None  # the profile being edited; None = not loaded yet
    edit_group: str = "brown"
    edit_amount: str = "go_salary"
    edit_space_type: str = "property"
    card_value: str = ""
    rent: str = ""
    amount_value: str = ""
    space_index: str = ""
    space_name: str = ""
    # the card the table drew
    amount: str = ""
    space: str = ""
    actions: ProfileActions | None = None


def profile_actions(app: AppState) -> ProfileActions:
    """The tab's editor actions (one object per tab, so the board's memoized rows keep the same tap)."""
    return ProfileActions.of(app)


PROFILE_FILE = "table.json"  # the name earlier releases saved the table's profile under


class ProfileActions(ProfileEditorActions):
    """The editor's taps for one tab: each changes the tab's profile through the shared edit API."""

    variant = VARIANT
    profile_file = PROFILE_FILE
    profile_io = PROFILE_IO
    editor_screen = "profile"
    tab: MonopolyScrabbleTab

    @property
    def profile(self) -> Profile:
        """The profile on the editor screen (loaded by `open` before the screen is shown)."""
        profile = self.tab.profile
        assert profile is not None
        return profile

    def pick_group(self, group_id: str) -> None:
        self.tab.edit_group = group_id
        g = self.profile.group(group_id)
        self.tab.card_value = str(g.card_value.value or "")
        self.tab.rent = str(g.rent.value or "")
        self.app.touch()

    def toggle_square(self, row: int, col: int) -> None:
        self.edit(toggle_property_square, f"{'ABCDEFGHIJKLMNO'[col]}{row + 1}", self.tab.edit_group)

    def set_card(self) -> None:
        try:
            value = int(self.tab.card_value.replace("M", "").replace(",", "").strip())
            rent = int(self.tab.rent.replace("M", "").replace(",", "").strip())
        except ValueError:
            self.app.fail("Type the card's printed value and rent as numbers, like 2000 and 600.")
            return
        self.edit(set_card, self.tab.edit_group, card_value=value, rent=rent)

    def pick_amount(self, name: str) -> None:
        self.tab.edit_amount = name
        self.tab.amount_value = str(getattr(self.profile.amounts, name).value)
        self.app.touch()

    def pick_space_type(self, kind: str) -> None:
        self.tab.edit_space_type = kind
        self.app.touch()

    def set_amount(self) -> None:
        try:
            value = int(self.tab.amount_value.replace("M", "").replace(",", "").strip())
        except ValueError:
            self.app.fail("Type the amount as a number, like 2000.")
            return
        self.edit(set_amount, self.tab.edit_amount, value)

    def set_space(self, remove: bool = False) -> None:
        try:
            index = int(self.tab.space_index.strip())
        except ValueError:
            self.app.fail("Type the number of the track space (0 is GO).")
            return
        if remove:
            self.edit(set_track_space, index, None)
            return
        kind = self.tab.edit_space_type
        group = self.tab.edit_group if kind == "property" else None
        name = self.tab.space_name.strip() or (
            self.profile.group(group).name if group else kind.replace("_", " ").title())
        try:
            space = Space(type=kind, name=name, group=group, confidence="table")
        except ValueError as exc:
            self.app.fail(plain(exc))
            return
        self.edit(set_track_space, index, space)

@ft.component
def ProfileEditor(app: AppState) -> ft.Control:
    act = profile_actions(app)
    f = act.tab
    profile = f.profile
    if profile is None:
        return ft.Text("No board profile loaded.")
    group = profile.group(f.edit_group)
    squares = {(sq.row, sq.col): g for sq, g in profile.property_squares().items()}
    placeholders = profile.placeholders()
    amounts = [n for n in type(profile.amounts).model_fields if n != "starting_bills"]
    items: list[ft.Control] = [
        ft.Text("Board profile", size=22, weight=ft.FontWeight.BOLD),
        ft.Text(profile.label or profile.name, italic=True, size=13),
        ft.Text(f"{len(placeholders)} values are still placeholders: check them against your box." if placeholders
                else "Every value has been checked.", size=13),
        ft.Text("Property Card", weight=ft.FontWeight.BOLD),
        Choice([(g.id, g.name) for g in profile.groups], f.edit_group, act.pick_group),
        ft.Container(bgcolor=theme.group(group.id), height=6, border_radius=3),
        ft.Semantics(identifier="card-values", content=ft.Text(
            f"{group.name}: value {theme.money_prefixed(group.card_value.value or 0)}, rent {theme.money_prefixed(group.rent.value or 0)}, "
            f"squares {', '.join(group.squares.value) or 'none'}.")),
        ft.Row([
            ft.TextField(label="Card value", value=f.card_value, width=120, dense=True,
                         on_change=lambda e: setattr(f, "card_value", e.control.value)),
            ft.TextField(label="Rent", value=f.rent, width=100, dense=True,
                         on_change=lambda e: setattr(f, "rent", e.control.value)),
            ft.OutlinedButton("Set card", on_click=lambda e: act.set_card()),
        ], wrap=True),
        ft.Text(f"Tap a square to make it (or stop it being) a {group.name} property square:", size=13),
        BoardGrid(app, layout=profile.load_layout(), properties=squares, on_tap=act.toggle_square),
        ft.Text("Track space", weight=ft.FontWeight.BOLD),
        ft.Text(", ".join(f"{i} {s.name}" for i, s in enumerate(profile.track.spaces)), size=12),
        Choice(SPACE_TYPES, f.edit_space_type, act.pick_space_type),
        ft.Row([
            ft.TextField(label="Space number", value=f.space_index, width=130, dense=True,
                         on_change=lambda e: setattr(f, "space_index", e.control.value)),
            ft.TextField(label="Space name", value=f.space_name, width=170, dense=True,
                         on_change=lambda e: setattr(f, "space_name", e.control.value)),
        ], wrap=True),
        ft.Row([
            ft.OutlinedButton("Set space", on_click=lambda e: act.set_space()),
            ft.TextButton("Remove space", on_click=lambda e: act.set_space(remove=True)),
        ], wrap=True),
        ft.Text("(A property space belongs to the Property Card chosen above.)", size=12, italic=True),
        ft.Text("Amounts", weight=ft.FontWeight.BOLD),
        ft.Text(", ".join(f"{n.replace('_', ' ')} {getattr(profile.amounts, n).value}" for n in amounts), size=12),
        Choice([(n, n.replace("_", " ")) for n in amounts], f.edit_amount, act.pick_amount),
        ft.Row([
            ft.TextField(label="Amount", value=f.amount_value, width=120, dense=True,
                         on_change=lambda e: setattr(f, "amount_value", e.control.value)),
            ft.OutlinedButton("Set amount", on_click=lambda e: act.set_amount()),
        ], wrap=True),
        ft.Row([
            ft.FilledButton("Save profile", on_click=lambda e: act.save()),
            ft.TextButton("Box defaults", on_click=lambda e: act.reset()),
            ft.TextButton("Back to the new game", on_click=lambda e: app.open_screen("setup")),
        ], wrap=True),
    ]
    return ft.Column(items, spacing=8)
