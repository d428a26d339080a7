"""Trades (Monopoly Builder): 4-for-1 with the Bank on the player's turn, 2-for-1 at Free Parking once on
landing, a FORCED TRADE! card, and any deal between two players (cash, resources, deeds, kept cards).
Each panel's choices are drawn from the moves the rules offer now (`BuilderTable.offered`), builds a draft
in the tab (`BuilderTab`) and records it in one tap. A deal between players is free-form (any cash, chips,
deeds and cards both agree): its pickers list what each player holds and the rules judge the whole deal,
refusing one they do not allow with a sentence, and nothing changes."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.games.monopoly_builder.drafts import BuilderTab, TradeSide
from companion.games.monopoly_builder.rules import VARIANT, BankTrade, ForcedTrade, FreeParking, Trade
from companion.games.monopoly_builder.table import CARD_NAMES, BuilderTable, chips_text
from companion.games.monopoly_builder.widgets import chip_stepper, chips_row, heading
from companion.ui.components.choice import Choice
from companion.ui.models import AppState


def _pick(app: AppState, tab: BuilderTab, draft_field: str) -> Callable[[str], None]:
    """A `Choice`'s pick: kept in the tab's draft (`draft_field` of `BuilderTab`), then the screen redrawn."""
    def pick(value: str) -> None:
        setattr(tab, draft_field, value)
        app.touch()
    return pick


def _after(app: AppState, tab: BuilderTab) -> None:
    if not app.error:
        tab.clear_turn()
        tab.clear_trade()


def bank_trade_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    tab: BuilderTab = app.local(VARIANT)
    p = game.mover
    offered = game.offered(BankTrade)
    if p is None or not offered:
        return []
    rate = game.profile.counts.bank_trade_rate.value
    can_give = list(dict.fromkeys(m.give for m in offered))
    give = tab.give if tab.give in can_give else can_give[0]
    takes = [m.take for m in offered if m.give == give]
    take = tab.take if tab.take in takes else takes[0]

    def record() -> None:
        app.do(BuilderTable.bank_trade, give, take)
        _after(app, tab)

    return [
        heading(f"Trade {rate} for 1 with the Bank"),
        ft.Row([ft.Text("Give", size=13), Choice([(c, f"{rate} {c}") for c in can_give], give,
                                                  _pick(app, tab, "give"))], wrap=True),
        ft.Row([ft.Text("Take", size=13), Choice([(c, f"1 {c}") for c in takes], take,
                                                  _pick(app, tab, "take"))], wrap=True),
        ft.OutlinedButton(f"Trade {rate} {give} for 1 {take}", on_click=lambda e: record()),
    ]


def free_parking_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    tab: BuilderTab = app.local(VARIANT)
    st = game.bstate
    p = game.mover
    offered = game.offered(FreeParking)
    if p is None or not offered:
        return []
    need = game.profile.counts.free_parking_give.value
    given = {c: n for c, n in tab.parking.items() if n}
    takes = [m.take for m in offered if m.give == given] or list(dict.fromkeys(m.take for m in offered))
    take = tab.take if tab.take in takes else takes[0]
    ok = any(m.give == given and m.take == take for m in offered)

    def record() -> None:
        app.do(BuilderTable.free_parking, dict(tab.parking), take)
        _after(app, tab)

    return [
        heading(f"Free Parking: any {need} resources for 1 of another colour"),
        chip_stepper("parking", st.colours, tab.parking, st.resources[p], app.touch),
        ft.Row([ft.Text("Take", size=13), Choice([(c, f"1 {c}") for c in takes], take,
                                                  _pick(app, tab, "take"))], wrap=True),
        ft.OutlinedButton(f"Trade {chips_text(given)} for 1 {take}" if ok
                          else f"Choose {need} resources to give", on_click=lambda e: record(), disabled=not ok),
    ]


def forced_trade_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    tab: BuilderTab = app.local(VARIANT)
    p = game.mover
    offered = game.offered(ForcedTrade)
    if p is None or not offered:
        return []
    others = list(dict.fromkeys(m.target for m in offered))
    target = tab.forced_target if tab.forced_target in others else others[0]
    mine = list(dict.fromkeys(m.give for m in offered if m.target == target))
    theirs = list(dict.fromkeys(m.take for m in offered if m.target == target))
    give = tab.give if tab.give in mine else mine[0]
    take = tab.take if tab.take in theirs else theirs[0]

    def record() -> None:
        app.do(BuilderTable.forced_trade, target, give, take)
        _after(app, tab)

    return [
        heading("FORCED TRADE! card"),
        Choice([(o, o) for o in others], target, _pick(app, tab, "forced_target")),
        ft.Row([ft.Text(f"{p} gives", size=13), Choice([(c, c) for c in mine], give,
                                                       _pick(app, tab, "give"))], wrap=True),
        ft.Row([ft.Text(f"{target} gives", size=13), Choice([(c, c) for c in theirs], take,
                                                             _pick(app, tab, "take"))],
               wrap=True),
        ft.OutlinedButton(f"Force {target} to swap 1 {take} for 1 {give}", on_click=lambda e: record()),
    ]


def _side(app: AppState, game: BuilderTable, who: str, side: TradeSide, ident: str) -> list[ft.Control]:
    st = game.bstate
    deeds = game.bstate.deeds_of(who)

    def toggle(items: list[str], key: str) -> None:
        if key in items:
            items.remove(key)
        else:
            items.append(key)
        app.touch()

    out: list[ft.Control] = [
        ft.Text(f"{who} gives:", weight=ft.FontWeight.BOLD, size=13),
        ft.TextField(label=f"{who} pays (M)", value=side.cash, width=150, dense=True,
                     on_change=lambda e: setattr(side, "cash", e.control.value)),
        chip_stepper(ident, st.colours, side.chips, st.resources[who], app.touch),
    ]
    if deeds:
        out.append(ft.Row([(ft.FilledButton if d in side.deeds else ft.OutlinedButton)(
            game.deed_name(d) + (" (mortgaged)" if d in st.mortgaged else ""),
            on_click=lambda e, d=d: toggle(side.deeds, d)) for d in deeds], wrap=True, spacing=4, run_spacing=4))
    cards = game.kept_cards(who)
    if cards:
        out.append(ft.Row([(ft.FilledButton if c in side.cards else ft.OutlinedButton)(
            CARD_NAMES.get(c, c), on_click=lambda e, c=c: toggle(side.cards, c)) for c in sorted(set(cards))],
            wrap=True, spacing=4))
    return out


def player_trade_panel(app: AppState, game: BuilderTable) -> list[ft.Control]:
    """A deal between two players: both sides, then one tap once both agree."""
    tab: BuilderTab = app.local(VARIANT)
    # The players a deal may be between: those in the rules' offered trades (still in play).
    players = list(dict.fromkeys(p for m in game.offered(Trade) for p in (m.player, m.partner)))
    if len(players) < 2:
        return []
    trader = tab.trader if tab.trader in players else (game.current_player or players[0])
    partners = [p for p in players if p != trader]
    partner = tab.partner if tab.partner in partners else partners[0]

    def pick_trader(v: str) -> None:
        tab.trader = v
        tab.clear_trade()
        app.touch()

    def pick_partner(v: str) -> None:
        tab.partner = v
        tab.trade_get = TradeSide()
        app.touch()

    def record() -> None:
        if not (tab.trade_give.cash_ok() and tab.trade_get.cash_ok()):
            app.fail("Type the cash as a number of M, like 50 (or leave it empty).")
            return
        app.do(BuilderTable.trade, trader, partner, tab.trade_give.as_dict(), tab.trade_get.as_dict())
        _after(app, tab)

    return [
        heading("Trade between players"),
        ft.Text("Both players agree first; then one tap records the whole deal.", size=12, italic=True),
        ft.Row([ft.Text("Between", size=13), Choice([(p, p) for p in players], trader, pick_trader)], wrap=True),
        ft.Row([ft.Text("and", size=13), Choice([(p, p) for p in partners], partner, pick_partner)], wrap=True),
        *_side(app, game, trader, tab.trade_give, "trade-give"),
        *_side(app, game, partner, tab.trade_get, "trade-get"),
        ft.FilledButton("Record the trade", on_click=lambda e: record()),
    ]


def hands_panel(game: BuilderTable) -> list[ft.Control]:
    """Every player's resources, drawn as chips."""
    st = game.bstate
    out: list[ft.Control] = []
    for p in game.players:
        out.append(ft.Row([ft.Text(p, width=70, weight=ft.FontWeight.BOLD, size=13),
                           ft.Container(content=chips_row(st.resources[p], st.colours), expand=True)]))
    return out
