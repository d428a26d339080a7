"""Monopoly Scrabble (Winning Moves 2023) as a fold over an ordered log of events: rules and bank.

The rules are the project's rules text (`rules-text/000_b2c36b3fcfcd0666.txt`); what the box decides
(track, rents, card values, property squares, amounts) comes from a board profile
(`companion.games.monopoly_scrabble.profile`, default `assets/profiles/monopoly_scrabble.json`).

Events (pydantic, tagged by `type`; the log format is `docs/event-format.md`):

- `start`       players in turn order, banker, profile (name/path or inline), optional Bank rack letters.
- `jail_fee`    a jailed player pays the jail fee to Free Parking at the start of their turn.
- `replace_blank` before playing, swap a played blank for the same letter from the rack or bought
                from the Bank rack; the fee goes to Free Parking, the blank to the player's rack.
- `play`        a word (`position`, `word` in GCG form, `bought` = letters bought from the Bank rack).
                It is scored (first word doubled, no 50-point bonus), property squares it covers take
                their cards, a 7-tile bingo earns a card (or cash), the token moves by the score,
                collecting GO money on each pass, and the landing space acts.
- `bingo_choice` the Property Card a bingo takes.
- `card`        the effect of the Chance / Community Chest card the table drew (`collect`, `pay_bank`,
                `pay_pot`, `pay_each`, `collect_each`, `move_to`, `move_by`, `go_to_jail`,
                `take_property`, `none`).
- `sell`        a player short of cash sells a Property Card to the Bank at half its value.
- `pass`        the player cannot (or will not) play a word.
- `challenge`   a ruling on the latest play, before the next player acts: `acceptable` is the word
                judge's verdict (or the state's optional `judge` callable decides). Unacceptable: the
                whole play is withdrawn and the turn is lost; acceptable: the challenger loses their
                next turn.
- `end_game`    once the bag is empty (or a player went out, or by agreement): unplayed tiles are paid
                for and the game is settled.
- `undo`        (shared) cancels the latest event.

State (`MonopolyScrabbleState`): `cash` per account (`bank`, `pot` = Free Parking, each player), `ledger` (every
money transaction, payer -> payee), `owners` (group -> player or None for the Bank), `positions`,
`in_jail`, `rack_counts`, `bag_count`, `bank_rack_count`, `board`, `turns` (the turn record),
`eliminated`, `pending` (what the current turn waits for, first item first: `jail_fee`,
`bingo_choice`, `card`, `debt`, `end_game`), `current_player`, `allowed_events()`, `wealth()`,
`winner()`, `summary()`. `new_game(players, banker, profile)` returns a started `GameLog`. Every refused event raises `IllegalAction` / `IllegalPlacement` with the reason and, as
`GameLog.push` applies events to a copy, changes nothing.

Money is conserved: it only moves through `_transfer`, so the sum over all accounts is always the
Bank's float. Players and the pot never go below zero; the Bank may (it never runs out).

The rules live in five modules: `events` (the stored id, the account names, the settings and every event
of the log), `records` (what the state keeps: card transfers, pending steps, the turn record), `state`
(the folded state and the handler of each event), `summary` (the summary as plain text) and this one,
the public face the rest of the code imports from (`new_state`, `new_game`, and every name of the four).
"""

from __future__ import annotations

from companion.events import GameLog
from companion.games.monopoly_scrabble.profile import Profile, load_profile
from companion.games.monopoly_scrabble.rules.events import (
    BANK,
    EVENT_ADAPTER,
    POT,
    VARIANT,
    BingoChoice,
    Card,
    CardEffectKind,
    Challenge,
    EndGame,
    JailFee,
    MonopolyScrabbleEvent,
    Pass,
    Play,
    ReplaceBlank,
    Sell,
    Settings,
    Start,
)
from companion.games.monopoly_scrabble.rules.records import ACCOUNT_WORDS, CardTransfer, Step, TurnRecord
from companion.games.monopoly_scrabble.rules.state import STEP_WORDS, Judge, MonopolyScrabbleState
from companion.games.monopoly_scrabble.rules.summary import format_summary
from companion.rules.errors import IllegalAction, RulesDataError
from companion.rules.ledger import Transaction


def new_state(judge: Judge | None = None) -> MonopolyScrabbleState:
    return MonopolyScrabbleState(judge=judge)


def new_game(players: list[str], banker: str | None = None, profile: Profile | str = "monopoly_scrabble",
             judge: Judge | None = None, bank_rack: str | None = None) -> GameLog[MonopolyScrabbleState]:
    """A started game: the profile is embedded in the `start` event, so the log replays the same game
    even after the profile file is edited."""
    try:
        chosen = profile if isinstance(profile, Profile) else load_profile(profile)
    except RulesDataError as exc:
        raise IllegalAction(str(exc)) from None
    log: GameLog[MonopolyScrabbleState] = GameLog(lambda: new_state(judge))
    log.push(Start(settings=Settings(players=players, banker=banker, profile=chosen.name,
                                     profile_data=chosen.model_dump(mode="json"), bank_rack=bank_rack)))
    return log


__all__ = [
    "ACCOUNT_WORDS",
    "BANK",
    "EVENT_ADAPTER",
    "POT",
    "STEP_WORDS",
    "VARIANT",
    "BingoChoice",
    "Card",
    "CardEffectKind",
    "CardTransfer",
    "Challenge",
    "EndGame",
    "JailFee",
    "Judge",
    "MonopolyScrabbleEvent",
    "MonopolyScrabbleState",
    "Pass",
    "Play",
    "ReplaceBlank",
    "Sell",
    "Settings",
    "Start",
    "Step",
    "Transaction",
    "TurnRecord",
    "format_summary",
    "new_game",
    "new_state",
]
