"""Monopoly Builder (Hasbro 2021) as a fold over an ordered log of events: bank, deeds, resources, buildings, score.

The rules are the project's rules text (`rules-text/002_d7cd30fbe0693f21.txt`); what the box decides (deeds,
track, floor costs, Chance cards, foundations) comes from a board profile
(`companion.games.monopoly_builder.profile`, default `assets/profiles/monopoly_builder.json`), EMBEDDED in the
`start` event with the table settings, so a log replays the same after the profile file is edited.

A turn: `discard` (only with more than 6 resources, counted from the hand as it is now) -> `roll` (dice
in the event: everyone gathers, the token moves, picking up chips on the spaces it passes, and the space
acts) -> what the space asks (`buy` or `auction` + `bid`s + `auction_end`, `chance`, `resource_roll`,
`steal`) -> trades and building (`bank_trade` in this Trade step, `free_parking`, `forced_trade`, `build`)
-> `end_turn` (after doubles the same player's next `roll`, or the `discard` before it, is their next turn).
At any time: `trade` between players, `mortgage`, `unmortgage`, `rent` (the owner asks, until the next
player rolls), `token` (a correction: the token is really on that space), `end_game`. A player who owes
more than their cash has a `debt`: they mortgage or trade until it is paid (it is paid automatically as
soon as their cash covers it) or declare `bankrupt`. Building the penthouse ends the game. Event fields
and examples: `docs/event-format.md`.

What a moment asks (the discard owed, the open rents and their owners, whether the roll is another turn
after doubles) is derived from the state as it is after every event, never remembered from an earlier
moment: `phase` is the stored `stage` with the discard derived from the hand. Which moves are legal now,
concretely, is `legal.legal_moves(state)`: the app draws its buttons from it.

State (`BuilderState`): `cash` per account (`bank`, each player) and `ledger` (every transaction, through
`companion.rules.ledger`), `owners`, `mortgaged`, `resources` (holder -> colour -> chips; holders are
`bank` and the players), `space_resources` (track index -> colour -> chips), `buildings` (foundation ->
owner and floors), `blocks` (each player's unbuilt blocks), `penthouse_by`, `positions`, `jail` (player
-> failed rolls), `kept_cards`, `deck`, `bankrupt`, `stage` (the step events left the turn in), `rents`
(the rent windows open), `auction`, `debt`, `last_roll`, `last_handout`, `notes`. Helpers:
`current_player`, `phase`, `discard_owed()`, `rolls_again()`, `allowed_events()`, `waiting_for()`,
`rent_for(deed)`, `rents_due()`, `least_bid()`, `bank_trade_now(player)`, `floor_cost(player, floor)`,
`next_floor(cell, player)`, `scores()`, `winner()`, `result_line()`, `summary()`.

Money, chips and blocks are conserved: money moves only through `companion.rules.ledger.transfer` (the sum
over accounts is always the Bank's float); chips only through `_move_chips` between holders and spaces
(the sum is always chips_per_colour per colour); a block leaves its owner's supply only to become a floor.
Every refused event raises `IllegalAction` with one sentence and, as `GameLog.push` applies events to a
copy, changes nothing.

The rules live in six modules: `events` (the stored id, the seats and table settings, every event of the
log), `records` (what the state keeps: buildings, rents due, the auction, a debt, a handout, a score),
`views` (the state's fields and everything read from them), `state` (the folded state: the views and the
handler of each event), `summary` (the summary as plain text) and this one, the public face the rest of
the code imports from (`new_state`, `new_game`, and every name of the others).
"""

from __future__ import annotations

from typing import Any

from companion.events import GameLog
from companion.games.monopoly_builder.profile import Profile, load_profile
from companion.games.monopoly_builder.rules.events import (
    BANK,
    EVENT_ADAPTER,
    VARIANT,
    Auction,
    AuctionEnd,
    Bankrupt,
    BankTrade,
    Bid,
    Build,
    BuilderEvent,
    Bundle,
    Buy,
    ChanceDraw,
    Die,
    Discard,
    EndGame,
    EndTurn,
    ForcedTrade,
    FreeParking,
    JailCard,
    JailPay,
    Mortgage,
    PlaceToken,
    Rent,
    ResourceRoll,
    Roll,
    Seat,
    Settings,
    Start,
    Steal,
    Trade,
    Unmortgage,
)
from companion.games.monopoly_builder.rules.records import (
    AuctionState,
    Building,
    Debt,
    Handout,
    Phase,
    RentDue,
    Score,
)
from companion.games.monopoly_builder.rules.state import BuilderState
from companion.games.monopoly_builder.rules.summary import format_summary
from companion.rules.errors import IllegalAction, RulesDataError


def new_state() -> BuilderState:
    return BuilderState()


def new_game(players: list[tuple[str, str]], profile: Profile | str = "monopoly_builder",
             **table: Any) -> GameLog[BuilderState]:
    """A started game for `players` = [(name, colour)] in turn order; `table` = table settings (`dice`,
    `bonus_tie`, `penthouse_building`, `jail_doubles_again`). The profile is embedded in the `start` event."""
    try:
        chosen = profile if isinstance(profile, Profile) else load_profile(profile)
    except RulesDataError as exc:
        raise IllegalAction(str(exc)) from None
    log: GameLog[BuilderState] = GameLog(new_state)
    seats = [Seat(name=n, colour=c) for n, c in players]
    table.setdefault("bank_trade", "trade_step")  # a new game follows the text's turn order
    log.push(Start(settings=Settings(players=seats, profile=chosen.model_dump(mode="json"), **table)))
    return log


__all__ = [
    "BANK",
    "EVENT_ADAPTER",
    "VARIANT",
    "Auction",
    "AuctionEnd",
    "AuctionState",
    "BankTrade",
    "Bankrupt",
    "Bid",
    "Build",
    "BuilderEvent",
    "BuilderState",
    "Building",
    "Bundle",
    "Buy",
    "ChanceDraw",
    "Debt",
    "Die",
    "Discard",
    "EndGame",
    "EndTurn",
    "ForcedTrade",
    "FreeParking",
    "Handout",
    "JailCard",
    "JailPay",
    "Mortgage",
    "Phase",
    "PlaceToken",
    "Rent",
    "RentDue",
    "ResourceRoll",
    "Roll",
    "Score",
    "Seat",
    "Settings",
    "Start",
    "Steal",
    "Trade",
    "Unmortgage",
    "format_summary",
    "new_game",
    "new_state",
]
