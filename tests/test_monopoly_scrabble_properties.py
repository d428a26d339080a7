"""Property-based proof of the bank: random legal games (hypothesis) never create or lose money, never
leave a player or the pot below zero, and undoing every event returns to the start."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_monopoly_scrabble import small_track

from companion.events import Event, GameLog
from companion.games.monopoly_scrabble.rules import (
    BANK,
    POT,
    BingoChoice,
    Card,
    Challenge,
    EndGame,
    JailFee,
    MonopolyScrabbleState,
    Pass,
    Play,
    ReplaceBlank,
    Sell,
    Settings,
    Start,
    new_state,
)
from companion.rules.board import Direction, Square
from companion.rules.errors import RulesError

LETTERS = "EEEEAAIIOONRTLSUDGBCMPFHVWYKJXQZ"


def _word_for(state: MonopolyScrabbleState, squares: list[Square], rng: random.Random) -> str:
    out = []
    for sq in squares:
        if state.board.get(sq) is not None:
            out.append(".")
        else:
            ch = rng.choice(LETTERS)
            out.append(ch.lower() if rng.random() < 0.05 else ch)
    return "".join(out)


def random_play(state: MonopolyScrabbleState, player: str, rng: random.Random) -> Play | None:
    """A placement the rules core accepts (words are not judged here: the table challenges)."""
    board = state.board
    own_max = state.rack_counts[player]
    if own_max < 1:
        return None
    for _ in range(20):
        direction = rng.choice([Direction.ACROSS, Direction.DOWN])
        new = rng.randint(1, min(own_max, 7 if rng.random() < 0.1 else 3))
        if board.is_empty():
            new = max(new, 2)
            start = Square(7, 7).step(direction, -rng.randint(0, new - 1))
        else:
            tiles = list(board.tiles())
            anchor = rng.choice(tiles).square
            start = anchor.step(direction, -rng.randint(0, new))
        squares: list[Square] = []
        sq, placed = start, 0
        while board.contains(sq) and (placed < new or board.get(sq) is not None):
            if board.get(sq) is None:
                placed += 1
            squares.append(sq)
            sq = sq.step(direction)
        if placed == 0:
            continue
        # Extend backwards over tiles already there so the word starts at the run's start.
        while board.contains(squares[0].step(direction, -1)) and board.get(squares[0].step(direction, -1)):
            squares.insert(0, squares[0].step(direction, -1))
        word = _word_for(state, squares, rng)
        position = f"{squares[0].row + 1}{'ABCDEFGHIJKLMNO'[squares[0].col]}" if direction is Direction.ACROSS \
            else f"{'ABCDEFGHIJKLMNO'[squares[0].col]}{squares[0].row + 1}"
        letters = [c.upper() if c.isupper() else "?" for c in word if c != "."]
        bought = ""
        if len(letters) >= 2 and rng.random() < 0.3 and state.bank_rack_count >= 1:
            bought = letters[-1]
        return Play(player=player, position=position, word=word, bought=bought)
    return None


def random_card(state: MonopolyScrabbleState, player: str, rng: random.Random) -> Card:
    assert state.profile is not None
    kind = rng.choice(["collect", "pay_bank", "pay_pot", "pay_each", "collect_each", "move_to", "move_by",
                       "go_to_jail", "take_property", "none"])
    amount = rng.choice([50, 100, 200, 500, 1500, 4000])
    args: dict[str, Any] = {"player": player, "effect": kind}
    if kind in ("collect", "pay_bank", "pay_pot", "pay_each", "collect_each"):
        args["amount"] = amount
    elif kind == "move_to":
        args["space"] = rng.randrange(len(state.profile.track.spaces))
    elif kind == "move_by":
        args["steps"] = rng.choice([-3, -1, 2, 5])
    elif kind == "take_property":
        args["group"] = rng.choice(state.profile.group_ids)
    return Card(**args)


def next_event(state: MonopolyScrabbleState, rng: random.Random) -> Event | None:
    steps = state.pending
    if steps:
        head = steps[0]
        if head.kind == "jail_fee":
            return JailFee(player=head.player)
        if head.kind == "bingo_choice":
            return BingoChoice(player=head.player, group=rng.choice(head.options))
        if head.kind == "card":
            return random_card(state, head.player, rng)
        if head.kind == "debt":
            return Sell(player=head.player, group=rng.choice(state.cards_of(head.player)))
        if head.kind == "end_game":
            return EndGame(reason="played_out")
        raise AssertionError(head)
    player = state.current_player
    assert player is not None
    last = state.last_play
    roll = rng.random()
    if last is not None and not last.challenged and roll < 0.1:
        challenger = rng.choice([p for p in state.active_players if p != last.player])
        return Challenge(challenger=challenger, acceptable=rng.random() < 0.5)
    if roll < 0.15:
        blanks = [t.square for t in state.board.tiles() if t.tile.blank]
        if blanks:
            return ReplaceBlank(player=player, square=rng.choice(blanks).name,
                                source=rng.choice(["rack", "bank"]))
    if state.bag_count == 0 and roll < 0.3:
        return EndGame(reason="no_plays")
    if roll < 0.2:
        return Pass(player=player)
    return random_play(state, player, rng) or Pass(player=player)


def check_money(state: MonopolyScrabbleState) -> None:
    assert state.profile is not None
    assert sum(state.cash.values()) == state.profile.amounts.bank_float.value
    assert all(v >= 0 for k, v in state.cash.items() if k != BANK), state.cash
    assert state.cash[POT] >= 0
    # The ledger explains every balance: replaying it from the float gives the same cash.
    replay = {k: 0 for k in state.cash}
    replay[BANK] = state.profile.amounts.bank_float.value
    for t in state.ledger:
        assert t.amount > 0
        replay[t.payer] -= t.amount
        replay[t.payee] += t.amount
    assert replay == state.cash


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), small=st.booleans(), players=st.integers(2, 4))
def test_random_legal_games_conserve_money_and_undo_to_the_start(rng: random.Random, small: bool,
                                                                  players: int) -> None:
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    log: GameLog[MonopolyScrabbleState] = GameLog(new_state)
    log.push(Start(settings=Settings(players=names, profile_data=small_track() if small else None)))
    start = log.state
    pushed = 0
    for _ in range(70):
        state = log.state
        if state.finished:
            break
        event = next_event(state, rng)
        if event is None:
            break
        try:
            log.push(event)
        except RulesError:
            assert log.state is state  # refused: nothing changed
            continue
        pushed += 1
        check_money(log.state)
    assert pushed > 0
    final = log.state
    if final.finished:
        assert final.winner()
    for _ in range(pushed):
        log.undo()
    back = log.state
    assert back.cash == start.cash and back.board == start.board and back.positions == start.positions
    assert back.owners == start.owners and back.ledger == start.ledger and back.bag_count == start.bag_count
    assert log.replay().cash == start.cash
