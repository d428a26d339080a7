"""Board profile editor (Monopoly Builder): what the table's own box prints. Title Deeds typed from the
cards, floor costs from each reference card, foundations tapped on the grid, track spaces and the other
numbers set one by one. Every change goes through `companion.games.monopoly_builder.profile`, which
refuses a profile that cannot be played with a sentence (and nothing changes); the values still marked
placeholder are counted. The profile being edited and the typed fields are this tab's (`BuilderTab`); a
saved profile is `DATA/profiles/monopoly_builder.json` and new games use it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft

from companion.games.monopoly_builder.drafts import BuilderTab
from companion.games.monopoly_builder.grid import BuildingGrid
from companion.games.monopoly_builder.profile import (
    CHANCE_EFFECTS,
    PROFILE_IO,
    Space,
    cell_name,
    set_floor_cost,
    set_space,
    toggle_foundation,
)
from companion.games.monopoly_builder.rules import VARIANT
from companion.games.monopoly_builder.table import Site
from companion.games.monopoly_builder.widgets import heading, resource_hex
from companion.ui.board_profiles import saved_profile_file
from companion.ui.components.choice import Choice
from companion.ui.components.layout import side_by_side
from companion.ui.models import AppState, plain
from companion.ui.profile_editing import ProfileEditorActions

PROFILE_FILE = "monopoly_builder.json"
EDITOR_SCREEN = "builder_profile"
# Field widths in px: 110 holds a price; "Monopoly rent" needs 140 for its label to stay on one line
# (at 110 it wrapped in two, seen in docs/screenshots/w20 at 1280 px).
DEED_FIELD_WIDTHS = {"name": 170, "monopoly_rent": 140}
DEED_FIELDS = [("name", "Name"), ("price", "Price"), ("rent", "Rent"), ("monopoly_rent", "Monopoly rent"),
               ("mortgage", "Mortgage"), ("dice_number", "Dice number")]
SOURCES = {"rules_text": "from the rules text", "confirmed": "confirmed", "inferred": "inferred",
           "placeholder": "a placeholder: check it against the deed", "table": "typed at this table"}
PARTS = [("deeds", "Title Deeds"), ("floors", "Floor costs"), ("foundations", "Foundations"), ("track", "Track"),
         ("chance", "Chance cards"), ("values", "Other values")]
SPACE_KINDS = [("deed", "Deed"), ("collect", "Collect 2"), ("roll_for_resources", "Roll for Resources"),
               ("chance", "Chance"), ("steal", "Steal 1"), ("free_parking", "Free Parking"), ("jail", "Jail"),
               ("go_to_jail", "Go to Jail"), ("go", "GO")]


def profile_file() -> Path | None:
    return saved_profile_file(PROFILE_FILE)


def profile_actions(app: AppState) -> ProfileActions:
    """The tab's editor actions (one object per tab, so memoized cells keep the same tap)."""
    return ProfileActions.of(app)


def _number(text: str) -> int | None:
    text = text.replace("M", "").replace(",", "").strip()
    return int(text) if text.lstrip("-").isdigit() else None


class ProfileActions(ProfileEditorActions):
    """The editor's taps for one tab: each changes the tab's profile through the shared edit API."""

    variant = VARIANT
    profile_file = PROFILE_FILE
    profile_io = PROFILE_IO
    editor_screen = EDITOR_SCREEN
    tab: BuilderTab

    def on_open(self) -> None:
        if not self.tab.edit_deed:  # the Title Deeds part opens on the first deed
            self.pick_deed(self.tab.profile.deeds[0].id, touch=False)

    def pick_part(self, part: str) -> None:
        self.tab.editor_part = part
        self.app.touch()

    # ----- deeds
    def pick_deed(self, deed_id: str, touch: bool = True) -> None:
        d = self.tab.profile.deed(deed_id)
        self.tab.edit_deed = deed_id
        self.tab.deed_fields = {k: "" if getattr(d, k).value is None else str(getattr(d, k).value)
                                for k, _ in DEED_FIELDS}
        self.tab.deed_fields["resource"] = d.resource.value or ""
        self.tab.deed_fields["group"] = d.group.value
        if touch:
            self.app.touch()

    def pick_deed_resource(self, colour: str) -> None:
        self.tab.deed_fields["resource"] = colour
        self.app.touch()

    def pick_deed_group(self, group: str) -> None:
        self.tab.deed_fields["group"] = group
        self.app.touch()

    def set_deed(self) -> None:
        """Every field of the deed at once: all of them are applied, or none (the first problem is said)."""
        deed = self.tab.edit_deed
        current = self.tab.profile.deed(deed)
        changes: dict[str, Any] = {}
        for key, label in DEED_FIELDS:
            text = self.tab.deed_fields.get(key, "").strip()
            if key == "name":
                value: Any = text
                if not text:
                    self.app.fail("Type the deed's name as printed. Nothing was changed.")
                    return
            else:
                value = _number(text)
                if value is None:
                    self.app.fail(f"Type the {label.lower()} printed on the deed as a number, like 100. "
                                  "Nothing was changed.")
                    return
            if getattr(current, key).value != value:
                changes[f"deeds.{deed}.{key}"] = value
        for key in ("resource", "group"):
            value = self.tab.deed_fields.get(key, "")
            if value and value != getattr(current, key).value:
                changes[f"deeds.{deed}.{key}"] = value
        if not changes:
            self.app.say("The deed already says that.")
            return
        if self.set_values(changes, said=f"{self.tab.deed_fields['name']} changed."):
            self.pick_deed(deed, touch=False)

    # ----- floor costs
    def pick_card(self, colour: str) -> None:
        self.tab.edit_colour = colour
        self._load_floor()

    def pick_floor(self, floor: str) -> None:
        self.tab.edit_floor = int(floor)
        self._load_floor()

    def _load_floor(self) -> None:
        cost = self.tab.profile.floor_cost(self.tab.edit_colour, self.tab.edit_floor)
        self.tab.floor_fields = {c: str(cost.colours.get(c, 0)) for c in self.tab.profile.colours.value}
        self.tab.floor_fields["any"] = str(cost.any)
        self.app.touch()

    def set_floor(self) -> None:
        values: dict[str, int] = {}
        for key in [*self.tab.profile.colours.value, "any"]:
            n = _number(self.tab.floor_fields.get(key, "0") or "0")
            if n is None or n < 0:
                self.app.fail(f"Type how many {key} resources the floor costs, as a number (0 for none). "
                              "Nothing was changed.")
                return
            values[key] = n
        anyn = values.pop("any")
        self.edit(set_floor_cost, self.tab.edit_colour, self.tab.edit_floor, colours=values, any_colour=anyn,
                   said=f"The {self.tab.edit_colour} card's floor {self.tab.edit_floor} changed.")

    # ----- foundations
    def toggle(self, row: int, col: int) -> None:
        self.edit(toggle_foundation, cell_name(row, col), said=f"Foundation {cell_name(row, col)} changed.")

    def grow(self, rows: int, cols: int) -> None:
        """Add a row or a column of cells to the grid (as non-foundations), to mark more foundations."""
        r, c = self.tab.profile.grid_size
        target = cell_name(r - 1 + rows, c - 1 + cols)
        # Toggling a cell outside the grid grows it; toggling it again leaves it a plain cell.
        self.edit(lambda p: toggle_foundation(toggle_foundation(p, target), target), said="The grid grew.")

    # ----- track
    def pick_space(self, index: str) -> None:
        self.tab.edit_space = index
        spaces = self.tab.profile.track.spaces
        if index.isdigit() and int(index) < len(spaces):
            s = spaces[int(index)]
            self.tab.space_kind = s.kind
            self.tab.space_name = s.name
            self.tab.space_deed = s.deed or ""
            self.tab.space_resource = s.resource or ""
            self.tab.space_chart = chart_text(s.chart)
        self.app.touch()

    def pick_space_kind(self, kind: str) -> None:
        self.tab.space_kind = kind
        self.app.touch()

    def set_space(self, remove: bool = False) -> None:
        index = _number(self.tab.edit_space)
        if index is None:
            self.app.fail("Type the number of the track space (0 is GO). Nothing was changed.")
            return
        if remove:
            self.edit(set_space, index, None, said=f"Space {index} removed.")
            return
        kind = self.tab.space_kind
        spaces = self.tab.profile.track.spaces
        old = spaces[index] if 0 <= index < len(spaces) else None
        deed = self.tab.space_deed or None
        resource = self.tab.space_resource or None
        name = self.tab.space_name.strip()
        if kind == "deed" and deed:
            name = name or self.tab.profile.deed_name(deed)
        chart = None
        if kind == "roll_for_resources":
            text = self.tab.space_chart.strip()
            if not text:  # no chart typed: keep the space's own, else copy another Roll for Resources space's
                known = old.chart if old is not None and old.chart else next((x.chart for x in spaces if x.chart), None)
                text = chart_text(known)
            try:
                chart = parse_chart(text)
            except ValueError as exc:
                self.app.fail(str(exc) + " Nothing was changed.")
                return
        try:
            space = Space(kind=kind, name=name or dict(SPACE_KINDS).get(kind, kind),
                          deed=deed if kind == "deed" else None,
                          resource=resource if kind == "collect" else None,
                          chart=chart if kind == "roll_for_resources" else None, confidence="table")
        except ValueError as exc:
            self.app.fail(plain(exc))
            return
        self.edit(set_space, index, space, said=f"Space {index} is now {space.name}.")

    def pick_space_deed(self, deed: str) -> None:
        self.tab.space_deed = deed
        self.app.touch()

    def pick_space_resource(self, colour: str) -> None:
        self.tab.space_resource = colour
        self.app.touch()

    # ----- Chance cards
    def pick_card_id(self, card_id: str, touch: bool = True) -> None:
        c = self.tab.profile.chance_card(card_id)
        self.tab.edit_card = card_id
        self.tab.card_fields = {"text": c.text, "count": str(c.count),
                                "amount": "" if c.amount is None else str(c.amount), "effect": c.effect}
        if touch:
            self.app.touch()

    def pick_card_effect(self, effect: str) -> None:
        self.tab.card_fields["effect"] = effect
        self.app.touch()

    def set_card(self) -> None:
        """The card's text, effect, count and amount at once (all applied, or none)."""
        card_id = self.tab.edit_card
        current = self.tab.profile.chance_card(card_id)
        f = self.tab.card_fields
        count = _number(f.get("count", ""))
        amount_text = f.get("amount", "").strip()
        amount = _number(amount_text) if amount_text else None
        if count is None or (amount_text and amount is None):
            self.app.fail("Type how many of the card there are and its amount (if any) as numbers. Nothing was changed.")
            return
        wanted = {"text": f.get("text", "").strip(), "effect": f.get("effect", current.effect), "count": count,
                  "amount": amount}
        changes = {f"chance.cards.{card_id}.{k}": v for k, v in wanted.items() if getattr(current, k) != v}
        if not changes:
            self.app.say("The card already says that.")
            return
        self.set_values(changes, said="Chance card changed.")

    # ----- other values
    def value_paths(self) -> list[tuple[str, str]]:
        p = self.tab.profile
        out = [(f"amounts.{n}", n.replace("_", " ")) for n in type(p.amounts).model_fields if n != "starting_bills"]
        out += [(f"counts.{n}", n.replace("_", " ")) for n in type(p.counts).model_fields]
        out += [(f"groups.{g.id}.points", f"{g.name} monopoly points") for g in p.groups]
        out += [("bonus_points.billionaire", "Billionaire Builder points"),
                ("bonus_points.community", "Community Builder points")]
        return out

    def current_value(self, path: str) -> str:
        node: Any = self.tab.profile.model_dump(mode="json")
        for part in path.split("."):
            if isinstance(node, list):
                node = next((x for x in node if x.get("id") == part), {})
            else:
                node = node.get(part, {})
        return str(node.get("value", "")) if isinstance(node, dict) else str(node)

    def pick_value(self, path: str) -> None:
        self.tab.edit_value = path
        self.tab.value_text = self.current_value(path)
        self.app.touch()

    def set_other(self) -> None:
        n = _number(self.tab.value_text)
        if n is None:
            self.app.fail("Type the value as a number, like 200. Nothing was changed.")
            return
        self.set_values({self.tab.edit_value: n}, said=f"{self.tab.edit_value} is now {n}.")

    # ----- keep
    def after_reset(self) -> None:
        self.pick_deed(self.tab.profile.deeds[0].id, touch=False)


def chart_text(chart: dict[str, str] | None) -> str:
    """A Roll for Resources chart as the editor shows it: '2 red, 3 red, ..., 12 green'."""
    if not chart:
        return ""
    return ", ".join(f"{t} {c}" for t, c in sorted(chart.items(), key=lambda kv: int(kv[0])))


def parse_chart(text: str) -> dict[str, str]:
    """'2 red, 3 red, ...' as a chart; ValueError with a sentence when a pair is not 'total colour'."""
    chart: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        bits = part.split()
        if len(bits) != 2 or not bits[0].isdigit():
            raise ValueError(f"'{part}' is not a dice total and a colour, like '9 yellow'.")
        chart[str(int(bits[0]))] = bits[1].lower()
    return chart


def _field(label: str, store: dict[str, str], key: str, width: int = 110) -> ft.Control:
    return ft.TextField(label=label, value=store.get(key, ""), width=width, dense=True,
                        on_change=lambda e: store.__setitem__(key, e.control.value))


def _deeds_part(act: ProfileActions) -> list[ft.Control]:
    tab, profile = act.tab, act.tab.profile
    d = profile.deed(tab.edit_deed)
    f = tab.deed_fields
    return [
        Choice([(x.id, x.name.value) for x in profile.deeds], tab.edit_deed, act.pick_deed),
        ft.Semantics(identifier="deed-values", content=ft.Text(
            f"{d.name.value} ({profile.group(d.group.value).name}): price {d.price.value}, rent {d.rent.value}, "
            f"monopoly rent {d.monopoly_rent.value}, mortgage {d.mortgage.value}, dice number {d.dice_number.value}, "
            f"resource {d.resource.value} ({SOURCES.get(d.price.confidence, d.price.confidence)}).", size=13)),
        ft.Row([_field(label, f, key, DEED_FIELD_WIDTHS.get(key, 110)) for key, label in DEED_FIELDS], wrap=True),
        ft.Text("Resource it gives:", size=13),
        Choice([(c, c) for c in profile.colours.value], f.get("resource", ""), act.pick_deed_resource),
        ft.Text("Colour group:", size=13),
        Choice([(g.id, g.name) for g in profile.groups], f.get("group", ""), act.pick_deed_group),
        ft.FilledButton("Set deed", on_click=lambda e: act.set_deed()),
    ]


def _floors_part(act: ProfileActions) -> list[ft.Control]:
    tab, profile = act.tab, act.tab.profile
    top = profile.counts.max_floors.value
    if not tab.floor_fields:
        cost = profile.floor_cost(tab.edit_colour, tab.edit_floor)
        tab.floor_fields = {c: str(cost.colours.get(c, 0)) for c in profile.colours.value}
        tab.floor_fields["any"] = str(cost.any)
    card = profile.reference_cards[tab.edit_colour].value
    lines = [f"{'Penthouse' if i > top else f'Floor {i}'}: {c.describe()}" for i, c in enumerate(card, 1)]
    return [
        ft.Text("Reference card of the player:", size=13),
        Choice([(c, f"{profile.tokens.value.get(c, c)} ({c})") for c in profile.colours.value], tab.edit_colour,
               act.pick_card),
        ft.Semantics(identifier="floor-costs", content=ft.Column([ft.Text(x, size=13) for x in lines], spacing=0)),
        Choice([(str(i), "Penthouse" if i > top else f"Floor {i}") for i in range(1, top + 2)], str(tab.edit_floor),
               act.pick_floor),
        ft.Row([_field(c, tab.floor_fields, c, 80) for c in profile.colours.value]
               + [_field("Any colour", tab.floor_fields, "any", 100)], wrap=True),
        ft.FilledButton("Set floor cost", on_click=lambda e: act.set_floor()),
    ]


def _foundations_part(act: ProfileActions) -> list[ft.Control]:
    profile = act.tab.profile
    cells = tuple(tuple(Site(r, c, "empty" if ch == "#" else "none") for c, ch in enumerate(line))
                  for r, line in enumerate(profile.foundations.value))
    rows, cols = profile.grid_size
    return [
        ft.Text(f"{len(profile.foundation_cells())} foundations on a {rows} x {cols} grid. Tap a cell to make it "
                "a foundation (brown dot) or not.", size=13),
        BuildingGrid(cells, act.toggle, editing=True),
        ft.Row([ft.TextButton("Add a row", on_click=lambda e: act.grow(1, 0)),
                ft.TextButton("Add a column", on_click=lambda e: act.grow(0, 1))], wrap=True),
    ]


def _track_part(act: ProfileActions) -> list[ft.Control]:
    tab, profile = act.tab, act.tab.profile
    listing = ", ".join(f"{i} {s.name}" for i, s in enumerate(profile.track.spaces))
    items: list[ft.Control] = [
        ft.Semantics(identifier="track", content=ft.Text(listing, size=12)),
        ft.TextField(label="Space number", value=tab.edit_space, width=130, dense=True,
                     on_change=lambda e: act.pick_space(e.control.value.strip())),
        Choice(SPACE_KINDS, tab.space_kind, act.pick_space_kind),
        ft.TextField(label="Space name", value=tab.space_name, width=200, dense=True,
                     on_change=lambda e: setattr(tab, "space_name", e.control.value)),
    ]
    if tab.space_kind == "deed":
        items.append(Choice([(d.id, d.name.value) for d in profile.deeds], tab.space_deed,
                            act.pick_space_deed))
    if tab.space_kind == "collect":
        items.append(Choice([(c, c) for c in profile.colours.value], tab.space_resource,
                            act.pick_space_resource))
    if tab.space_kind == "roll_for_resources":
        items.append(ft.TextField(label="Chart (total colour, ...)", value=tab.space_chart, dense=True,
                                  multiline=True, hint_text="2 red, 3 red, ..., 12 green",
                                  on_change=lambda e: setattr(tab, "space_chart", e.control.value)))
    items.append(ft.Row([ft.FilledButton("Set space", on_click=lambda e: act.set_space()),
                         ft.TextButton("Remove space", on_click=lambda e: act.set_space(remove=True))], wrap=True))
    items.append(ft.Text("A number one past the last space adds a space at the end.", size=12, italic=True))
    return items


def _chance_part(act: ProfileActions) -> list[ft.Control]:
    tab, profile = act.tab, act.tab.profile
    if not tab.edit_card:
        act.pick_card_id(profile.chance.cards[0].id, touch=False)
    card = profile.chance_card(tab.edit_card)
    f = tab.card_fields
    total = sum(c.count for c in profile.chance.cards)
    return [
        ft.Text(f"{total} cards in the deck. Tap a card to check it against yours:", size=13),
        Choice([(c.id, c.text[:28] + ("..." if len(c.text) > 28 else "")) for c in profile.chance.cards],
               tab.edit_card, act.pick_card_id),
        ft.Semantics(identifier="card-values", content=ft.Text(
            f"{card.text}: {card.effect.replace('_', ' ')}, {card.count} in the deck"
            + (f", amount {card.amount}" if card.amount is not None else "")
            + f" ({SOURCES.get(card.confidence, card.confidence)}).", size=13)),
        ft.TextField(label="Card text", value=f.get("text", ""), dense=True, multiline=True,
                     on_change=lambda e: f.__setitem__("text", e.control.value)),
        ft.Row([_field("How many", f, "count", 110), _field("Amount (M)", f, "amount", 120)], wrap=True),
        ft.Text("What it does:", size=13),
        Choice([(x, x.replace("_", " ")) for x in CHANCE_EFFECTS], f.get("effect", card.effect), act.pick_card_effect),
        ft.FilledButton("Set card", on_click=lambda e: act.set_card()),
    ]


def _values_part(act: ProfileActions) -> list[ft.Control]:
    tab = act.tab
    paths = act.value_paths()
    if tab.edit_value not in dict(paths):
        tab.edit_value = paths[0][0]
    if not tab.value_text:
        tab.value_text = act.current_value(tab.edit_value)
    return [
        Choice(paths, tab.edit_value, act.pick_value),
        ft.Text(f"{dict(paths)[tab.edit_value]}: now {act.current_value(tab.edit_value)}", size=13),
        ft.Row([ft.TextField(label="Value", value=tab.value_text, width=120, dense=True,
                             on_change=lambda e: setattr(tab, "value_text", e.control.value)),
                ft.FilledButton("Set value", on_click=lambda e: act.set_other())], wrap=True),
    ]


@ft.component
def ProfileEditor(app: AppState) -> ft.Control:
    act = profile_actions(app)
    tab = act.tab
    if tab.profile is None:
        tab.profile = act.table_profile()
    profile = tab.profile
    if not tab.edit_deed:
        act.pick_deed(profile.deeds[0].id, touch=False)
    placeholders = profile.placeholders()
    part = {"deeds": _deeds_part, "floors": _floors_part, "foundations": _foundations_part, "track": _track_part,
            "chance": _chance_part, "values": _values_part}[tab.editor_part](act)
    colours = ft.Row([ft.Container(width=14, height=14, bgcolor=resource_hex(c), border_radius=7)
                      for c in profile.colours.value], spacing=4)
    # On a wide page which box and which part on the left, the part being edited beside it.
    return side_by_side([
        ft.Text("Board profile", size=22, weight=ft.FontWeight.BOLD),
        ft.Row([colours, ft.Text(profile.label or profile.name, italic=True, size=12, expand=True)]),
        ft.Semantics(identifier="placeholders", content=ft.Text(
            f"{len(placeholders)} values are still placeholders: check them against your box." if placeholders
            else "Every value has been checked.", size=13)),
        Choice(PARTS, tab.editor_part, act.pick_part),
    ], [
        heading(dict(PARTS)[tab.editor_part]),
        *part,
        ft.Row([
            ft.FilledButton("Save profile", on_click=lambda e: act.save()),
            ft.TextButton("Box defaults", on_click=lambda e: act.reset()),
            ft.TextButton("Back to the new game", on_click=lambda e: app.open_screen("setup")),
        ], wrap=True),
    ], spacing=8)
