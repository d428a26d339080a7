"""Monopoly Deal (Hasbro 01723) as a fold over an ordered log of events: the referee and bookkeeper.

The rules are the project's rules text (`rules-text/003_6715fa5a79f2cc48.txt`); the cards, set sizes and
rent ladders come from the deck (`companion.games.monopoly_deal.deck`, `assets/decks/monopoly_deal.json`),
embedded in the `start` event with the table's house rules (`HouseRules`), so a log replays the same
after the asset is edited.

What the referee knows. Hands are hidden at a real table: the app sees a card when it is PLAYED (banked,
laid, used as an action, given in payment, discarded face up). So the engine tracks every hand's COUNT
exactly and the cards it has seen; a card nobody has seen is "unseen": in the draw pile or in some hand.
An event names the card played by its stable id, and the engine accepts it from the player's hand when
the referee saw it go there (a draw that named it) or when it is still unseen and the player holds an
unseen card. Draws may name the cards drawn (a log written by hand, a player who shows them) or not.
So every one of the deck's cards is in exactly one place at every step: the unseen pool (whose size is
the draw pile count plus every hand's unseen cards), a hand (seen there), a bank, a property set (as a
card or a building), or the discard pile (`card_places()`, `problems()`).

Events (pydantic, tagged by `type`; the log format is `docs/event-format.md`), each naming cards by id:

- `start`          players in turn order, the deck, the house rules, optional dealt cards by player;
                   everyone is dealt 5.
- `draw`           start of turn: 2 cards, or 5 from an empty hand (`cards` names those the table saw).
- `bank`           a money card, an action card (as money for good) or a building into the bank: a play.
- `lay`            a property or property wild into the property area, with its colour: a play.
- `move_wild`      move a wild already laid to another of its colours, on your own turn: no play.
- `pass_go`        draw 2 more (`drawn` names the seen ones): a play.
- `rent`           a rent card for one colour (+ `doubles`: Double the Rent cards, each a play): a two-colour
                   rent charges every opponent, the any-colour rent one `target`.
- `debt_collector` one `target` owes 5M. `birthday`: every opponent owes 2M.
- `sly_deal`       take one property (`take`) not in a complete set from `target`.
- `forced_deal`    swap your `give` for the `target`'s `take` (neither from a complete set by default).
- `deal_breaker`   take the `target`'s complete set of `colour`, with its house and hotel.
- `build`          a house on a complete set of `colour` (not railroads or utilities), a hotel on one with a
                   house: a play.
- `double_rent`    a Double the Rent card joined to the rent card its player just played (before anyone
                   answers or pays): doubles every claim of that rent; a play. (A `rent` may also name its
                   `doubles`, as logs written before this event did.)
- `end_by_agreement` the table agrees to stop: most complete sets wins, then most money on the table
                   (bank + properties + buildings); still equal, a shared result.
- `just_say_no`    the player asked to answer cancels the action against them (or a Just Say No against the
                   actor); it costs no play, and chains alternate until someone accepts.
- `accept`         the player asked to answer lets the action (or the cancellation) stand.
- `pay`            the payer's chosen cards from bank and table (never the hand): at least the debt with no
                   card to spare, no change given; everything payable when short, the rest forgiven.
- `discard`        at the end of the turn, down to 7 (`cards` named; `unseen` hidden ones when the house rule
                   puts them face down under the draw pile).
- `end_turn`       the next player's turn.
- `undo`           (shared) cancels the latest event.

Money here is cards, not counted amounts: it moves card by card between banks and tables, so the card
check above is the conservation law (the shared `companion.rules.ledger` is for games whose money is
counted). No change is ever given; a short payer gives everything and the rest is forgiven.

Each claim of an action (one per target) is answered in seating order from the actor's left: the target
may say no; the actor may say no to that; and so on. `waiting()` says who must act and on what;
`allowed_events()` lists the event types that player may record; the concrete moves (which card, how, against
whom, which payments) are `companion.games.monopoly_deal.legal.legal_moves`, the one list the app's buttons
come from. `propose_payment()` is the safe default payment (money before property, complete sets kept
whenever anything else covers the debt) and `payment_reasons()` says why each of its cards was chosen. A refused event raises `IllegalAction` with one sentence and, as `GameLog.push` applies
to a copy, changes nothing.

The rules live in six modules: `events` (the stored id, the house rules, the settings and every event of
the log), `records` (the parts of the state: property sets, claims, the pending action, payments, what the
game waits for), `views` (the state's fields and everything read from them), `state` (the folded state:
the views and the handler of each event), `summary` (the summary as plain text) and this one, the public
face the rest of the code imports from (`new_state`, `new_game`, and every name of the others).
"""

from __future__ import annotations

from companion.events import GameLog
from companion.games.monopoly_deal.deck import Deck, load_deck
from companion.games.monopoly_deal.rules.events import (
    EVENT_ADAPTER,
    VARIANT,
    Accept,
    ActionEvent,
    BankCard,
    Birthday,
    Build,
    DealBreaker,
    DealEvent,
    DebtCollector,
    Discard,
    DoubleRent,
    Draw,
    EndByAgreement,
    EndTurn,
    ForcedDeal,
    HouseRules,
    JustSayNo,
    Lay,
    MoveWild,
    PassGo,
    Pay,
    Rent,
    Settings,
    SlyDeal,
    Start,
    all_events,
)
from companion.games.monopoly_deal.rules.records import (
    ACTION_WORDS,
    Claim,
    ClaimStatus,
    Payment,
    Pending,
    PendingKind,
    PropertySet,
    Waiting,
    WaitingKind,
)
from companion.games.monopoly_deal.rules.state import DealState
from companion.games.monopoly_deal.rules.summary import format_summary
from companion.rules.money import money_millions as money


def new_state() -> DealState:
    return DealState()


def new_game(players: list[str], house: HouseRules | None = None, deck: Deck | None = None,
             dealt: dict[str, list[str]] | None = None) -> GameLog[DealState]:
    """A started game with the shipped deck (or `deck`) embedded in the `start` event."""
    settings = Settings(players=players, deck=deck or load_deck(), house=house or HouseRules(), dealt=dealt or {})
    log: GameLog[DealState] = GameLog(new_state)
    log.push(Start(settings=settings))
    return log


__all__ = [
    "ACTION_WORDS",
    "EVENT_ADAPTER",
    "VARIANT",
    "Accept",
    "ActionEvent",
    "BankCard",
    "Birthday",
    "Build",
    "Claim",
    "ClaimStatus",
    "DealBreaker",
    "DealEvent",
    "DealState",
    "DebtCollector",
    "Discard",
    "DoubleRent",
    "Draw",
    "EndByAgreement",
    "EndTurn",
    "ForcedDeal",
    "HouseRules",
    "JustSayNo",
    "Lay",
    "MoveWild",
    "PassGo",
    "Pay",
    "Payment",
    "Pending",
    "PendingKind",
    "PropertySet",
    "Rent",
    "Settings",
    "SlyDeal",
    "Start",
    "Waiting",
    "WaitingKind",
    "all_events",
    "format_summary",
    "money",
    "new_game",
    "new_state",
]
