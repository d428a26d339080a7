"""What is legal now in a Monopoly Scrabble game: the one source the table's buttons come from.

`legal_moves(state)` answers as a chess library's `legal_moves` does: every event the rules accept at
this moment, concretely: the step the turn waits for (the jail fee, the bingo's Property Card, a sale to
pay a debt, the settling of the game), who may challenge the latest play, a pass, a blank replaced from
the rack or the Bank rack, the end of the game (once the bag is empty, or by agreement). Two moves are
offered by their shape because their content is the table's to say: a play of tiles (`PlayOffer`: the
referee does not see the rack; the rules judge the squares when it is recorded) and the Chance /
Community Chest card drawn (`CardOffer`: the effects a card may have; the card on the table says which).

Nothing here decides anything the rules module does not: each offer is the condition its handler
checks, and the liveness law (`tests/test_liveness_monopoly_scrabble.py`) proves every offered event is
accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import get_args

from companion.events import Event
from companion.games.monopoly_scrabble.rules import (
    BingoChoice,
    CardEffectKind,
    Challenge,
    EndGame,
    JailFee,
    MonopolyScrabbleState,
    Pass,
    ReplaceBlank,
    Sell,
)
from companion.rules.word_game import ChallengeWindow, PlayOffer, challenge_verdicts, challengers

Judge = Callable[[list[str]], bool]
CARD_EFFECTS: tuple[str, ...] = get_args(CardEffectKind)


@dataclass(frozen=True)
class CardOffer:
    """The card `player` drew from `deck` is recorded now: any of `effects` (an amount for the money
    effects, a track space 0..`spaces`-1 for `move_to`, steps for `move_by`, one of `groups` for
    `take_property`), as the card on the table says."""

    player: str
    deck: str
    effects: tuple[str, ...]
    groups: tuple[str, ...]
    spaces: int


@dataclass
class LegalMoves:
    """The legal moves of one state: `events` are each accepted as they are; `play` and `card` are the
    play of tiles and the card, when legal (their content is the table's)."""

    events: list[Event] = field(default_factory=list)
    play: PlayOffer | None = None
    card: CardOffer | None = None
    window: ChallengeWindow | None = None

    def challengers(self) -> list[str]:
        return challengers(self.events)

    def can_pass(self) -> bool:
        return any(isinstance(e, Pass) for e in self.events)

    def end_reasons(self) -> list[str]:
        return [e.reason for e in self.events if isinstance(e, EndGame)]

    def can_end_by_agreement(self) -> bool:
        return "agreed" in self.end_reasons()

    def blank_swaps(self) -> list[ReplaceBlank]:
        return [e for e in self.events if isinstance(e, ReplaceBlank)]

    def sales(self) -> list[Sell]:
        return [e for e in self.events if isinstance(e, Sell)]

    def bingo_choices(self) -> list[BingoChoice]:
        return [e for e in self.events if isinstance(e, BingoChoice)]

    def jail_fee(self) -> JailFee | None:
        return next((e for e in self.events if isinstance(e, JailFee)), None)


def bank_tiles_affordable(state: MonopolyScrabbleState, player: str) -> int:
    """How many Bank rack tiles `player` can buy for a word now: what the rack holds and the cash pays."""
    assert state.profile is not None
    price = state.profile.amounts.bank_tile_price.value
    can_pay = state.cash[player] // price if price else state.bank_rack_count
    return max(0, min(state.bank_rack_count, can_pay))


def blank_swaps(state: MonopolyScrabbleState, player: str) -> list[ReplaceBlank]:
    """Each played blank may be replaced by its letter from the player's rack (the fee paid to Free
    Parking) or bought from the Bank rack (the tile's price too, when the Bank rack may hold it)."""
    assert state.profile is not None
    amounts = state.profile.amounts
    fee, price = amounts.blank_replacement_fee.value, amounts.bank_tile_price.value
    cash = state.cash[player]
    out: list[ReplaceBlank] = []
    for placed in state.board.tiles():
        if not placed.tile.blank:
            continue
        square = str(placed.square)
        if cash >= fee:
            out.append(ReplaceBlank(player=player, square=square, source="rack"))
        if cash >= fee + price and state.bank_rack_count >= 1 and (
                state.bank_rack is None or placed.tile.letter in state.bank_rack):
            out.append(ReplaceBlank(player=player, square=square, source="bank"))
    return out


def legal_moves(state: MonopolyScrabbleState, judge: Judge | None = None) -> LegalMoves:
    """Every move the rules accept now. `judge` (the word judge) gives each challenge its verdict;
    without one, the state's own judge, else a challenge is offered with either verdict."""
    out = LegalMoves()
    if state.settings is None or state.finished or state.profile is None:
        return out
    last = state.last_play
    if last is not None and not last.challenged:
        # "You must challenge it before the next player begins their turn": the window stays open through
        # the rest of the player's turn (token, cards, debts) and closes when the next player acts.
        words = list(last.words)
        who = [p for p in state.active_players if p != last.player]
        for verdict in challenge_verdicts(judge or state.judge, words):
            out.events += [Challenge(challenger=p, acceptable=verdict, words=words) for p in who]
        current = state.current_player
        closes = ("until the next player begins their turn" if current == last.player
                  else f"until {current} acts" if current is not None else "until the game is settled")
        out.window = ChallengeWindow(last.player, tuple(words), tuple(who), closes)
    steps = state.pending
    if steps:
        step = steps[0]
        if step.kind == "jail_fee":
            out.events.append(JailFee(player=step.player))
        elif step.kind == "bingo_choice":
            out.events += [BingoChoice(player=step.player, group=g) for g in step.options
                           if state.owners.get(g) in (None, step.player)]
        elif step.kind == "card":
            out.card = CardOffer(step.player, step.deck or "chance", CARD_EFFECTS, tuple(state.profile.group_ids),
                                 len(state.profile.track.spaces))
        elif step.kind == "debt":
            out.events += [Sell(player=step.player, group=g) for g in state.cards_of(step.player)]
        elif step.kind == "end_game":
            out.events.append(EndGame(reason="played_out"))
        return out
    player = state.current_player
    if player is None or state.acted or state.ending:
        return out
    out.events.append(Pass(player=player))
    own = state.rack_counts.get(player, 0)
    bank = bank_tiles_affordable(state, player)
    if own + bank > 0:
        out.play = PlayOffer(player, own, bank, state.bank_rack)
    out.events += blank_swaps(state, player)
    if state.bag_count == 0:
        out.events.append(EndGame(reason="no_plays"))
    out.events.append(EndGame(reason="agreed"))
    return out
