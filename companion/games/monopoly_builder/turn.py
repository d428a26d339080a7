"""The referee's turn screen (Monopoly Builder), in the order of a turn: what the turn waits for, where
the tokens are (with a correction: "the token is really on X"), the latest roll and the resources it
handed out (to everyone), what the last tap did, each rent an owner may still ask, then the step of the
moment (discard, Jail, roll, buy or auction, Chance, Roll for Resources, steal) and, once the token has
moved, the trades, the building grid and End turn (or, after doubles, the next roll) (on a wide page the
grid on the left, the rest beside it). Every button and picker is drawn from the moves the rules offer
now (`BuilderTable.offered`, from `legal.legal_moves`); every tap is one engine event through `app.do`."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.games.monopoly_builder.dice import DicePad
from companion.games.monopoly_builder.drafts import BuilderTab
from companion.games.monopoly_builder.grid import BuildingGrid
from companion.games.monopoly_builder.profile import cell_name
from companion.games.monopoly_builder.rules import (
    VARIANT,
    Auction,
    AuctionEnd,
    Bankrupt,
    Build,
    Buy,
    Discard,
    EndTurn,
    JailCard,
    JailPay,
    Mortgage,
    ResourceRoll,
    Roll,
    Steal,
)
from companion.games.monopoly_builder.table import BuilderTable, chips_text
from companion.games.monopoly_builder.trades import (
    bank_trade_panel,
    forced_trade_panel,
    free_parking_panel,
)
from companion.games.monopoly_builder.widgets import boxed, chip_stepper, chips_row, heading
from companion.ui import theme
from companion.ui.components.choice import Choice
from companion.ui.components.game_screen import game_screen
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
    """Each rent an owner may still ask (the offered rent moves), one tap each."""
    out: list[ft.Control] = []
    for move, sentence in game.rent_prompts():
        assert move.amount is not None
        out.append(ft.Semantics(identifier=f"rent-{move.deed}", content=ft.Container(
            bgcolor="#E3F2FD", padding=8, border_radius=6, content=ft.Column([
                ft.Text(sentence, size=13),
                ft.FilledButton(f"{move.player} asks for {theme.money_prefixed(move.amount)}",
                                on_click=lambda e, d=move.deed: app.do(BuilderTable.ask_rent, d)),
            ], spacing=4, tight=True))))
    return out


def token_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    """Where the tokens are, and the correction of one the app has on the wrong space: a player, then the
    space their token is really on, one tap (an event: undo takes it back). Offered only where the rules
    offer it (not in Jail, not during an auction, not while the mover's landing is being played)."""
    tab: BuilderTab = app.local(VARIANT)
    lines: list[ft.Control] = [ft.Semantics(identifier="tokens", content=ft.Text(" ".join(game.token_lines()), size=13))]
    corrections = game.token_corrections()
    if not corrections:
        return lines

    def toggle() -> None:
        tab.token_open = not tab.token_open
        app.touch()

    lines.append(ft.TextButton("A token is elsewhere on the board?" if not tab.token_open else "Close the token correction",
                               icon=ft.Icons.PLACE, on_click=lambda e: toggle()))
    if not tab.token_open:
        return lines
    who = tab.token_player if tab.token_player in corrections else next(iter(corrections))

    def pick_player(v: str) -> None:
        tab.token_player = v
        app.touch()

    def record(space: int) -> None:
        app.do(BuilderTable.correct_token, who, space)
        if not app.error:
            tab.token_open = False

    lines += [
        Choice([(p, p) for p in corrections], who, pick_player),
        ft.Text(f"{who}'s token is really on:", size=13),
        ft.Row([ft.OutlinedButton(name, on_click=lambda e, i=i: record(i)) for i, name in corrections[who]],
               wrap=True, spacing=4, run_spacing=4),
    ]
    return lines


def debt_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    st = game.bstate
    d = st.debt
    if d is None:
        return []
    p = d.debtor
    free = [m.deed for m in game.offered(Mortgage) if m.player == p]
    items: list[ft.Control] = [ft.Text(
        f"{p} owes {theme.money_prefixed(d.amount)} to {'the Bank' if d.creditor == 'bank' else d.creditor} ({d.reason}) and "
        f"has {theme.money_prefixed(st.cash[p])}: mortgage deeds or trade (Bank screen) to raise it.",
        color="#B71C1C", weight=ft.FontWeight.BOLD)]
    items.append(ft.Row([ft.OutlinedButton(
        f"Mortgage {game.deed_name(x)} (+{theme.money_prefixed(game.profile.number(x, 'mortgage'))})",
        on_click=lambda e, x=x: app.do(BuilderTable.mortgage, p, x)) for x in free], wrap=True, spacing=4, run_spacing=4))
    if game.offered(Bankrupt):
        items.append(ft.FilledButton(f"{p} declares bankruptcy", on_click=lambda e: app.do(BuilderTable.bankrupt, p)))
    return items


def _dice(app: AppState, game: BuilderTable, entered: Callable[[BuilderTable, int, int], None], label: str,
          legend: str = "doubles: roll again (three in a row: Jail)") -> ft.Control:
    """The two dice for `entered`: tapped in (one tap) or rolled by the app, as the table chose at setup."""
    if game.settings.dice == "rolled":
        return ft.FilledButton(label, icon=ft.Icons.CASINO, on_click=lambda e: app.do(BuilderTable.rolled_by_app,
                                                                                       entered))
    return DicePad(f"{label}: tap the two dice as they fell.", lambda a, b: app.do(entered, a, b), False, legend)


def discard_panel(app: AppState, game: BuilderTable, p: str) -> list[ft.Control]:
    """The discard the rules offer (how many, from the hand now): the button records only an offered one."""
    tab: BuilderTab = app.local(VARIANT)
    st = game.bstate
    offered = [m.resources for m in game.offered(Discard)]
    extra = st.discard_owed()
    chosen = sum(tab.discard.values())
    picked = {c: n for c, n in tab.discard.items() if n}

    def discard() -> None:
        app.do(BuilderTable.discard, dict(tab.discard))
        _then(app, tab)

    return [
        heading(f"{p} discards {extra} onto {st.space_name(st.positions[p])}"),
        chip_stepper("discard", st.colours, tab.discard, st.resources[p], app.touch),
        ft.FilledButton(f"Discard {chips_text(tab.discard)}" if picked in offered else f"Choose {extra - chosen} more"
                        if chosen < extra else f"{chosen - extra} too many", on_click=lambda e: discard(),
                        disabled=picked not in offered),
    ]


def step_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    """The step the turn waits for, its buttons drawn from the moves the rules offer now."""
    st = game.bstate
    p = game.mover
    if p is None or st.debt is not None:
        return []
    phase = st.phase
    if phase == "discard":
        return discard_panel(app, game, p)
    if phase == "roll":
        out: list[ft.Control] = []
        if p in st.jail:
            fee = game.profile.amounts.jail_fee.value
            out.append(ft.Text(f"{p} is in Jail (roll {st.jail[p] + 1} of 3 for doubles).", weight=ft.FontWeight.BOLD))
            row: list[ft.Control] = []
            if game.offered(JailPay):
                row.append(ft.OutlinedButton(f"Pay {theme.money_prefixed(fee)} and roll", on_click=lambda e: app.do(BuilderTable.jail_pay)))
            if game.offered(JailCard):
                row.append(ft.OutlinedButton("Use Get Out of Jail Free", on_click=lambda e: app.do(BuilderTable.jail_card)))
            out.append(ft.Row(row, wrap=True))
            if game.offered(Roll):
                out.append(_dice(app, game, BuilderTable.roll, f"Or {p} rolls for doubles",
                                 "doubles: out of Jail and move"))
            return out
        if game.offered(Roll):
            out.append(_dice(app, game, BuilderTable.roll, f"{p} rolls"))
        return out
    if phase == "buy":
        deed = game.deed_here()
        assert deed is not None
        price = game.profile.number(deed, "price")
        row = []
        if game.offered(Buy):
            row.append(ft.FilledButton(f"Buy for {theme.money_prefixed(price)}", on_click=lambda e: app.do(BuilderTable.buy)))
        if game.offered(Auction):
            row.append(ft.OutlinedButton("Auction it", on_click=lambda e: app.do(BuilderTable.auction)))
        why = [] if game.offered(Buy) else [ft.Text(game.why_not(Buy(player=p)), size=12, italic=True)]
        return [ft.Semantics(identifier="deed", content=ft.Text(game.deed_line(deed), size=13)), *why,
                ft.Row(row, wrap=True)]
    if phase == "auction":
        return auction_panel(app, game)
    if phase == "chance":
        return [heading(f"{p} draws a Chance card: tap the one drawn"),
                ft.Column([ft.Semantics(identifier=f"chance-{cid}", content=ft.OutlinedButton(
                    text, on_click=lambda e, cid=cid: app.do(BuilderTable.chance, cid)))
                    for cid, text in game.drawable_cards()], spacing=4)]
    if phase == "resource_roll":
        if not game.offered(ResourceRoll):
            return []
        return [heading(f"{p} rolls for resources"), ft.Text(game.chart_line(), size=12),
                _dice(app, game, BuilderTable.resource_roll, "Roll for Resources", "only the total counts here")]
    if phase == "steal":
        rows: list[ft.Control] = [heading(f"{p} steals 1 resource: tap whose and which")]
        by_target: dict[str, list[str]] = {}
        nothing = False
        for m in game.offered(Steal):
            if m.target is None:
                nothing = True
            else:
                assert m.resource is not None
                by_target.setdefault(m.target, []).append(m.resource)
        for o, colours in by_target.items():
            rows.append(ft.Row([ft.Text(o, width=60, weight=ft.FontWeight.BOLD)] + [
                ft.OutlinedButton(f"{c} from {o}", on_click=lambda e, o=o, c=c: app.do(BuilderTable.steal, o, c))
                for c in colours], wrap=True, spacing=4, run_spacing=4))
        if nothing:
            rows.append(ft.TextButton("Steal nothing", on_click=lambda e: app.do(BuilderTable.steal, None, None)))
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
        app.do(BuilderTable.bid, player, int(text) if text else least)
        if not app.error:
            tab.bid = ""

    high = (f"{a.high_bidder} bids {theme.money_prefixed(a.high_bid)}." if a.high_bidder else "No bid yet.")
    close = (f"Sold to {a.high_bidder} for {theme.money_prefixed(a.high_bid)}" if a.high_bidder
             else "Nobody bids: it stays with the Bank")
    return [
        heading(f"Auction of {name}"),
        ft.Semantics(identifier="auction", content=ft.Text(
            f"{high} Next bid at least {theme.money_prefixed(least)} (from {theme.money_prefixed(game.profile.amounts.auction_start.value)}, "
            f"raises of {theme.money_prefixed(game.profile.amounts.auction_raise.value)} or more), in any order.", size=13)),
        ft.TextField(label="Bid (M)", value=tab.bid, width=140, dense=True, hint_text=str(least),
                     on_change=lambda e: setattr(tab, "bid", e.control.value)),
        ft.Text(f"Empty = {theme.money_prefixed(least)}. Who bids:", size=12),
        ft.Row([ft.OutlinedButton(f"{b} bids", on_click=lambda e, b=b: bid(b))
                for b in game.bidders() if b != a.high_bidder], wrap=True, spacing=4),
        *([ft.FilledButton(close, on_click=lambda e: app.do(BuilderTable.close_auction))] if game.offered(AuctionEnd) else []),
    ]


def act_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    """After the move: trades, building (the grid below, or on the left of a wide page), then End turn; after
    doubles the next roll instead (or the discard the rules ask before it), with no End turn to record."""
    st = game.bstate
    p = game.mover
    assert p is not None
    out: list[ft.Control] = []
    out += free_parking_panel(app, game)
    out.append(ft.Row([ft.Text(f"{p} holds", size=13), chips_row(st.resources[p], st.colours)], wrap=True))
    if game.offered(Build):
        where = "on the left" if wide() else "below"
        out.append(ft.Text(f"To build: tap a foundation on the grid {where}.", size=13, italic=True))
    elif p in st.jail:
        out.append(ft.Text(f"{p} is in Jail: no building this turn.", size=13, italic=True))
    if game.offered(EndTurn):
        out.append(ft.FilledButton("End turn", icon=ft.Icons.SKIP_NEXT, on_click=lambda e: app.do(BuilderTable.end_turn)))
    if game.offered(Discard):  # doubles, with more than the hand limit: the discard begins the next turn
        out += discard_panel(app, game, p)
    elif st.rolls_again() and game.offered(Roll) and not app.local(VARIANT).site:  # doubles: the next roll is the next turn
        out.append(_dice(app, game, BuilderTable.roll, f"{p} rolls again (doubles)"))
    nxt = game.next_roller()
    if nxt is not None and not app.local(VARIANT).site:  # while a floor is being paid, the build comes first
        # One tap for an ordinary turn: the next roll ends this turn (after the rent, trades and building).
        what = f"or {nxt} rolls again now" if nxt == p else f"or {nxt} rolls now (ends {p}'s turn)"
        out.append(_dice(app, game, BuilderTable.end_and_roll, what[:1].upper() + what[1:]))
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
    offered = game.build_payments(tab.site)
    paying = {c: n for c, n in tab.pay.items() if n}
    top = game.profile.counts.max_floors.value
    what = "the penthouse" if floor > top else f"floor {floor}"

    def build() -> None:
        app.do(BuilderTable.build, tab.site, dict(tab.pay))
        _then(app, tab)
        if not app.error and game.finished:
            app.go("builder_end")  # the penthouse: straight to the score

    def cancel() -> None:
        tab.clear_turn()
        app.touch()

    return [ft.Semantics(identifier="build", content=ft.Container(
        bgcolor="#EDE7F6", padding=8, border_radius=6, content=ft.Column([
            ft.Text(f"{p}: {words[:1].upper() + words[1:]}.", weight=ft.FontWeight.BOLD, size=13),
            ft.Text("Paid with (change it if the player pays other chips):", size=12),
            chip_stepper("pay", st.colours, tab.pay, st.resources[p], app.touch),
            ft.Row([ft.FilledButton(f"Build {what} on {tab.site}", on_click=lambda e: build(),
                                    disabled=paying not in offered),
                    ft.TextButton("Cancel", on_click=lambda e: cancel())], wrap=True),
        ], spacing=4, tight=True)))]


def pick_site(app: AppState, row: int, col: int) -> None:
    """A foundation tapped: quote the floor (or say why not) and suggest the chips that pay it."""
    game = app.game
    tab: BuilderTab = app.local(VARIANT)
    cell = cell_name(row, col)
    if game is None or game.finished:
        return
    if not game.offered(Build):
        app.fail("No floor can be built now: " + game.waiting_for())
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
@game_screen
def BuilderTurn(app: AppState, game: BuilderTable) -> ft.Control:
    items: list[ft.Control] = [PlayersStrip(app)]
    if game.finished:
        items.append(ft.Text("The game is over: " + game.waiting_for(), size=18, weight=ft.FontWeight.BOLD))
        items.append(ft.FilledButton("See the score", on_click=lambda e: app.open_screen("builder_end")))
    else:
        items.append(ft.Semantics(identifier="status", content=ft.Text(
            game.waiting_for(), size=18, weight=ft.FontWeight.BOLD)))
    items += news(game)
    if not game.finished:
        items += token_panel(app, game)
        items += rent_panel(app, game)
        items += debt_panel(app, game)
        items += step_panel(app, game)
        items += build_panel(app, game)
    building = bool(game.offered(Build))
    # On a wide page the grid is on the left, the players, the roll, the step and the trades beside it.
    before, items = items, []
    grid = grid_panel(app, game, building)
    if not game.finished:
        items += bank_trade_panel(app, game)
        items += forced_trade_panel(app, game)
    tail: list[ft.Control] = []
    if game.can_undo():
        tail.append(ft.TextButton("Undo last action", icon=ft.Icons.UNDO, on_click=lambda e: app.undo()))
    items.append(ft.Row(tail, wrap=True))
    return split(grid, before, items)
