"""The referee's turn screen (Monopoly Builder), in the order of a turn: what the turn waits for, the
latest roll and the resources it handed out (to everyone), what the last tap did, the rent an owner may
still ask, then the step of the moment (discard, Jail, roll, buy or auction, Chance, Roll for Resources,
steal) and, once the token has moved, the trades, the building grid and End turn (on a wide page the grid on the left, the rest beside it). Every tap is one
engine event through `app.do`; the engine refuses what the rules do not allow."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_builder.dice import DicePad
from companion.games.monopoly_builder.drafts import BuilderTab
from companion.games.monopoly_builder.grid import BuildingGrid
from companion.games.monopoly_builder.profile import cell_name
from companion.games.monopoly_builder.rules import VARIANT
from companion.games.monopoly_builder.table import BuilderTable, chips_text
from companion.games.monopoly_builder.trades import (
    bank_trade_panel,
    forced_trade_panel,
    free_parking_panel,
)
from companion.games.monopoly_builder.widgets import boxed, chip_stepper, chips_row, heading
from companion.ui import theme
from companion.ui.components.layout import split, wide
from companion.ui.components.players import PlayersStrip
from companion.ui.models import AppState


def _then(app: AppState, tab: BuilderTab) -> None:
    """After a tap: the drafts of the step just recorded are done with."""
    if not app.error:
        tab.clear_turn()


def news(game: BuilderTable) -> list[ft.Control]:
    """The latest roll and who took which resources, then what the last action did (everyone sees it)."""
    out: list[ft.Control] = []
    handout = game.handout_lines()
    roll = game.roll_line()
    if roll or handout:
        out.append(boxed("handout", [roll or "Resources handed out:", *(handout or ["Nobody takes resources."])],
                         bg="#FFF8E1", bold_first=True))
    if game.turn_lines:
        out.append(boxed("turn-steps", game.turn_lines))
    return out


def rent_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    prompt = game.rent_prompt()
    if prompt is None:
        return []
    owner, sentence, amount = prompt
    return [ft.Semantics(identifier="rent", content=ft.Container(
        bgcolor="#E3F2FD", padding=8, border_radius=6, content=ft.Column([
            ft.Text(sentence, size=13),
            ft.FilledButton(f"{owner} asks for {theme.money(amount)}", on_click=lambda e: app.do("ask_rent")),
        ], spacing=4, tight=True)))]


def debt_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    st = game.bstate
    d = st.debt
    if d is None:
        return []
    p = d.debtor
    free = [x for x in st.deeds_of(p) if x not in st.mortgaged]
    items: list[ft.Control] = [ft.Text(
        f"{p} owes {theme.money(d.amount)} to {'the Bank' if d.creditor == 'bank' else d.creditor} ({d.reason}) and "
        f"has {theme.money(st.cash[p])}: mortgage deeds or trade (Bank screen) to raise it.",
        color="#B71C1C", weight=ft.FontWeight.BOLD)]
    items.append(ft.Row([ft.OutlinedButton(
        f"Mortgage {game.deed_name(x)} (+{theme.money(game.profile.number(x, 'mortgage'))})",
        on_click=lambda e, x=x: app.do("mortgage", p, x)) for x in free], wrap=True, spacing=4, run_spacing=4))
    if not free:
        items.append(ft.FilledButton(f"{p} declares bankruptcy", on_click=lambda e: app.do("bankrupt", p)))
    return items


def _dice(app: AppState, game: BuilderTable, action: str, label: str,
          legend: str = "doubles: roll again (three in a row: Jail)") -> ft.Control:
    """The two dice: tapped in (one tap) or rolled by the app, as the table chose at setup."""
    if game.settings.dice == "rolled":
        return ft.FilledButton(label, icon=ft.Icons.CASINO, on_click=lambda e: app.do(action + "_app"))
    return DicePad(f"{label}: tap the two dice as they fell.", lambda a, b: app.do(action, a, b), False, legend)


def step_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    """The step the turn waits for."""
    tab: BuilderTab = app.local(VARIANT)
    st = game.bstate
    p = game.mover
    if p is None or st.debt is not None:
        return []
    phase = st.phase
    if phase == "discard":
        extra = st.hand(p) - game.profile.counts.hand_limit.value
        chosen = sum(tab.discard.values())

        def discard() -> None:
            app.do("discard", dict(tab.discard))
            _then(app, tab)

        return [
            heading(f"{p} discards {extra} onto {st.space_name(st.positions[p])}"),
            chip_stepper("discard", st.colours, tab.discard, st.resources[p], app.touch),
            ft.FilledButton(f"Discard {chips_text(tab.discard)}" if chosen == extra else f"Choose {extra - chosen} more"
                            if chosen < extra else f"{chosen - extra} too many", on_click=lambda e: discard(),
                            disabled=chosen != extra),
        ]
    if phase == "roll":
        out: list[ft.Control] = []
        if p in st.jail:
            fee = game.profile.amounts.jail_fee.value
            out.append(ft.Text(f"{p} is in Jail (roll {st.jail[p] + 1} of 3 for doubles).", weight=ft.FontWeight.BOLD))
            row: list[ft.Control] = [ft.OutlinedButton(f"Pay {theme.money(fee)} and roll", on_click=lambda e: app.do("jail_pay"))]
            if "get_out_of_jail" in st.kept_cards[p]:
                row.append(ft.OutlinedButton("Use Get Out of Jail Free", on_click=lambda e: app.do("jail_card")))
            out.append(ft.Row(row, wrap=True))
            out.append(_dice(app, game, "roll", f"Or {p} rolls for doubles", "doubles: out of Jail and move"))
            return out
        out.append(_dice(app, game, "roll", f"{p} rolls"))
        return out
    if phase == "buy":
        deed = game.deed_here()
        assert deed is not None
        price = game.profile.number(deed, "price")
        return [
            ft.Semantics(identifier="deed", content=ft.Text(game.deed_line(deed), size=13)),
            ft.Row([ft.FilledButton(f"Buy for {theme.money(price)}", on_click=lambda e: app.do("buy")),
                    ft.OutlinedButton("Auction it", on_click=lambda e: app.do("auction"))], wrap=True),
        ]
    if phase == "auction":
        return auction_panel(app, game)
    if phase == "chance":
        return [heading(f"{p} draws a Chance card: tap the one drawn"),
                ft.Column([ft.Semantics(identifier=f"chance-{cid}", content=ft.OutlinedButton(
                    text, on_click=lambda e, cid=cid: app.do("chance", cid)))
                    for cid, text in game.drawable_cards()], spacing=4)]
    if phase == "resource_roll":
        return [heading(f"{p} rolls for resources"), ft.Text(game.chart_line(), size=12),
                _dice(app, game, "resource_roll", "Roll for Resources", "only the total counts here")]
    if phase == "steal":
        rows: list[ft.Control] = [heading(f"{p} steals 1 resource: tap whose and which")]
        for o in st.active_players:
            if o == p or not st.hand(o):
                continue
            rows.append(ft.Row([ft.Text(o, width=60, weight=ft.FontWeight.BOLD)] + [
                ft.OutlinedButton(f"{c} from {o}", on_click=lambda e, o=o, c=c: app.do("steal", o, c))
                for c in st.colours if st.resources[o][c]], wrap=True, spacing=4, run_spacing=4))
        rows.append(ft.TextButton("Steal nothing", on_click=lambda e: app.do("steal", None, None)))
        return rows
    if phase == "act":
        return act_panel(app, game)
    return []


def auction_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    tab: BuilderTab = app.local(VARIANT)
    st = game.bstate
    a = st.auction
    assert a is not None
    least = game.least_bid()
    name = game.deed_name(a.deed)

    def bid(player: str) -> None:
        text = tab.bid.replace("M", "").replace(",", "").strip()
        if text and not text.isdigit():
            app.fail("Type the bid as a number of M, like 25 (or leave it empty for the least bid).")
            return
        app.do("bid", player, int(text) if text else least)
        if not app.error:
            tab.bid = ""

    high = (f"{a.high_bidder} bids {theme.money(a.high_bid)}." if a.high_bidder else "No bid yet.")
    close = (f"Sold to {a.high_bidder} for {theme.money(a.high_bid)}" if a.high_bidder
             else "Nobody bids: it stays with the Bank")
    return [
        heading(f"Auction of {name}"),
        ft.Semantics(identifier="auction", content=ft.Text(
            f"{high} Next bid at least {theme.money(least)} (from {theme.money(game.profile.amounts.auction_start.value)}, "
            f"raises of {theme.money(game.profile.amounts.auction_raise.value)} or more), in any order.", size=13)),
        ft.TextField(label="Bid (M)", value=tab.bid, width=140, dense=True, hint_text=str(least),
                     on_change=lambda e: setattr(tab, "bid", e.control.value)),
        ft.Text(f"Empty = {theme.money(least)}. Who bids:", size=12),
        ft.Row([ft.OutlinedButton(f"{b} bids", on_click=lambda e, b=b: bid(b))
                for b in game.bidders() if b != a.high_bidder], wrap=True, spacing=4),
        ft.FilledButton(close, on_click=lambda e: app.do("close_auction")),
    ]


def act_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    """After the move: trades, building (the grid below, or on the left of a wide page), End turn."""
    st = game.bstate
    p = game.mover
    assert p is not None
    out: list[ft.Control] = []
    out += free_parking_panel(app, game)
    again = st.again and p not in st.jail
    label = f"End turn ({p} rolls again: doubles)" if again else "End turn"
    out.append(ft.Row([ft.Text(f"{p} holds", size=13), chips_row(st.resources[p], st.colours)], wrap=True))
    if p in st.jail:
        out.append(ft.Text(f"{p} is in Jail: no building this turn.", size=13, italic=True))
    else:
        where = "on the left" if wide() else "below"
        out.append(ft.Text(f"To build: tap a foundation on the grid {where}.", size=13, italic=True))
    out.append(ft.FilledButton(label, icon=ft.Icons.SKIP_NEXT, on_click=lambda e: app.do("end_turn")))
    nxt = game.next_roller()
    if nxt is not None and not app.local(VARIANT).site:  # while a floor is being paid, the build comes first
        # One tap for an ordinary turn: the next roll ends this turn (after the rent, trades and building).
        what = f"or {nxt} rolls again now" if nxt == p else f"or {nxt} rolls now (ends {p}'s turn)"
        out.append(_dice(app, game, "end_and_roll", what[:1].upper() + what[1:]))
    return out


def build_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    """The foundation picked: what the floor costs this player and the chips that pay it, one tap to build."""
    tab: BuilderTab = app.local(VARIANT)
    if not tab.site:
        return []
    st = game.bstate
    p = game.mover
    quote = game.build_quote(tab.site)
    if p is None or isinstance(quote, str):
        return []
    floor, words, _ = quote
    paying = sum(tab.pay.values())
    cost = st.floor_cost(p, floor)
    top = game.profile.counts.max_floors.value
    what = "the penthouse" if floor > top else f"floor {floor}"

    def build() -> None:
        app.do("build", tab.site, dict(tab.pay))
        _then(app, tab)
        if not app.error and game.finished:
            app.go("builder_end")  # the penthouse: straight to the score

    return [ft.Semantics(identifier="build", content=ft.Container(
        bgcolor="#EDE7F6", padding=8, border_radius=6, content=ft.Column([
            ft.Text(f"{p}: {words[:1].upper() + words[1:]}.", weight=ft.FontWeight.BOLD, size=13),
            ft.Text("Paid with (change it if the player pays other chips):", size=12),
            chip_stepper("pay", st.colours, tab.pay, st.resources[p], app.touch),
            ft.Row([ft.FilledButton(f"Build {what} on {tab.site}", on_click=lambda e: build(),
                                    disabled=paying != cost.total),
                    ft.TextButton("Cancel", on_click=lambda e: (tab.clear_turn(), app.touch()))], wrap=True),
        ], spacing=4, tight=True)))]


def pick_site(app: AppState, row: int, col: int) -> None:
    """A foundation tapped: quote the floor (or say why not) and suggest the chips that pay it."""
    game = app.game
    tab: BuilderTab = app.local(VARIANT)
    cell = cell_name(row, col)
    if game is None or game.finished:
        return
    if game.phase != "act" or game.bstate.debt is not None:
        app.fail("Build after the move, before ending the turn: " + game.waiting_for())
        return
    quote = game.build_quote(cell)
    if isinstance(quote, str):
        tab.site = ""
        app.fail(quote)
        return
    _floor, _words, suggested = quote
    tab.site = cell
    tab.pay = dict(suggested)
    app.say("")
    app.touch()


def grid_panel(app: AppState, game: BuilderTable, interactive: bool) -> list[ft.Control]:
    tab: BuilderTab = app.local(VARIANT)
    sites = tuple(tuple(row) for row in game.sites())
    tap = (lambda r, c: pick_site(app, r, c)) if interactive else None
    return [heading("Monopoly Island"), BuildingGrid(sites, tap, picked=tab.site if interactive else ""),
            ft.Text("Number = floors, P = penthouse, a brown dot = an empty foundation.", size=11, italic=True)]


@ft.component
def BuilderTurn(app: AppState):
    game: BuilderTable | None = app.game
    if game is None:
        return ft.Text("No game yet.")
    st = game.bstate
    items: list[ft.Control] = [PlayersStrip(app)]
    if game.finished:
        items.append(ft.Text("The game is over: " + game.waiting_for(), size=18, weight=ft.FontWeight.BOLD))
        items.append(ft.FilledButton("See the score", on_click=lambda e: app.go("builder_end")))
    else:
        items.append(ft.Semantics(identifier="status", content=ft.Text(
            game.waiting_for(), size=18, weight=ft.FontWeight.BOLD)))
    items += news(game)
    if not game.finished:
        items += rent_panel(app, game)
        items += debt_panel(app, game)
        items += step_panel(app, game)
        items += build_panel(app, game)
    building = (not game.finished and st.phase == "act" and st.debt is None and game.mover not in st.jail)
    # On a wide page the grid is on the left, the players, the roll, the step and the trades beside it.
    before, items = items, []
    grid = grid_panel(app, game, building)
    if not game.finished and st.phase == "act" and st.debt is None:
        items += bank_trade_panel(app, game)
        items += forced_trade_panel(app, game)
    tail: list[ft.Control] = []
    if game.can_undo():
        tail.append(ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo()))
    items.append(ft.Row(tail, wrap=True))
    return split(grid, before, items)
