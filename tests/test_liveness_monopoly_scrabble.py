"""The liveness law (`tests/liveness_law.py`, issue #26) for Monopoly Scrabble.

Random games (the shipped profile, and a 10-space track on which tokens meet every space within a few
plays) take every optional action the rules offer (`legal_moves`): plays drawn by the move generator
from a random rack of the unseen tiles with Bank tiles bought, phonies, challenges by every other player
(plays withdrawn and plays that stand), blanks replaced from the rack and the Bank rack, passes, every
kind of Chance / Community Chest card, rent, jail fees, debts paid by selling cards, eliminations, the
bingo's Property Card, the end (played out, nobody can play, by agreement), undo. At every state: some
move other than Undo is offered until the game is over, every offered move is accepted, near-misses are
refused in one sentence and change nothing, and the state equals the fold of its log. Hand-written edge
states follow. The longer run is `benchmarks/liveness.py monopoly_scrabble`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from test_monopoly_scrabble import small_track

from companion.events import Event, GameLog
from companion.games.monopoly_scrabble.legal import CardOffer, LegalMoves, legal_moves
from companion.games.monopoly_scrabble.profile import load_profile, validate_profile
from companion.games.monopoly_scrabble.rules import (
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
from companion.rules.errors import RulesError
from tests.games.word_plays import draw, empty_run, judge, sample_plays, unseen
from tests.liveness_law import LawGame, LawReport, check_law, check_state

GAMES_IN_SUITE = 20
MAX_EVENTS = 500
NAMES = ["Car", "Dog", "Hat", "Iron"]


def new_log(rng: random.Random) -> GameLog[MonopolyScrabbleState]:
    n = rng.randint(2, 4)
    data = small_track() if rng.random() < 0.6 else load_profile().model_dump(mode="json")
    if rng.random() < 0.5:
        data["amounts"]["starting_cash"]["value"] = 100  # poor players: debts, sales and eliminations
        data["amounts"]["starting_bills"]["value"] = {"100": 1}
    log: GameLog[MonopolyScrabbleState] = GameLog(new_state)
    bank_rack = "".join(rng.sample("AEIOURSTLNDGBCMP", 7)) if rng.random() < 0.5 else None
    log.push(Start(settings=Settings(players=NAMES[:n], banker=NAMES[0], profile_data=data, bank_rack=bank_rack)))
    return log


def concrete_cards(offer: CardOffer, rng: random.Random, k: int = 3) -> list[Card]:
    out = []
    for effect in rng.sample(offer.effects, k):
        args: dict[str, Any] = {"player": offer.player, "effect": effect, "deck": offer.deck}
        if effect in ("collect", "pay_bank", "pay_pot", "pay_each", "collect_each"):
            args["amount"] = rng.choice([0, 50, 100, 200, 500, 1500, 4000])
        elif effect == "move_to":
            args["space"] = rng.randrange(offer.spaces)
            args["collect_go"] = rng.random() < 0.8
        elif effect == "move_by":
            args["steps"] = rng.choice([-3, -1, 0, 2, 5, 12])
        elif effect == "take_property":
            args["group"] = rng.choice(offer.groups)
        out.append(Card(**args))
    return out


def concrete_plays(state: MonopolyScrabbleState, offered: LegalMoves, rng: random.Random) -> list[Play]:
    """Plays of a random rack of the unseen tiles, some with tiles bought from the Bank rack."""
    offer = offered.play
    assert offer is not None and state.layout is not None and state.tileset is not None
    pool = unseen(state.board, state.tileset)
    own = draw(pool, offer.own_tiles, rng)
    for ch in own:
        pool.remove(ch)
    bank_letters = offer.bank_letters if offer.bank_letters is not None else draw(pool, state.bank_rack_count, rng)
    buy = "".join(rng.sample(bank_letters, rng.randint(0, min(offer.bank_tiles, len(bank_letters)))))
    out = []
    for p in sample_plays(state.board, state.layout, state.tileset, own + buy, rng):
        bought = p.uses & Counter(buy)
        if p.uses.total() - bought.total() > offer.own_tiles:
            continue  # a phony whose changed letter came from the Bank tiles: not this rack's play
        out.append(Play(player=offer.player, position=p.position, word=p.word,
                        bought="".join(sorted(bought.elements())),
                        rack=own if p.rack is not None and rng.random() < 0.5 else None))
    return out


def moves_of(state: MonopolyScrabbleState, rng: random.Random) -> list[Event]:
    """The rules' offered events, with the offered play and card made concrete."""
    offered = legal_moves(state, judge)
    moves: list[Event] = list(offered.events)
    if offered.play is not None:
        moves += concrete_plays(state, offered, rng)
    if offered.card is not None:
        moves += concrete_cards(offered.card, rng)
    return moves


def near_misses(state: MonopolyScrabbleState, rng: random.Random) -> list[Event]:
    """Moves that look legal here and are not."""
    out: list[Event] = []
    players = state.players
    last = state.last_play
    if last is not None and not last.challenged:
        out.append(Challenge(challenger=last.player, acceptable=False))  # one's own play
        for gone in state.eliminated:
            out.append(Challenge(challenger=gone, acceptable=False))
    else:
        out.append(Challenge(challenger=rng.choice(players), acceptable=True))  # nothing to challenge
    steps = state.pending
    step = steps[0] if steps else None
    owner_of_step = step.player if step else state.current_player
    others = [p for p in state.active_players if p != owner_of_step] or players
    other = rng.choice(others)
    if step is None or step.kind != "jail_fee":
        out.append(JailFee(player=owner_of_step or other))  # no jail fee is due
    if step is None or step.kind != "debt":
        owned = [g for g, o in state.owners.items() if o is not None]
        if owned:
            out.append(Sell(player=state.owners[owned[0]] or other, group=owned[0]))  # no debt to pay
    if step is None or step.kind != "card":
        out.append(Card(player=owner_of_step or other, effect="none"))  # no card was drawn
    if step is not None:
        out.append(Pass(player=step.player))  # the step comes first
        if step.kind == "jail_fee":
            out.append(JailFee(player=other))
        elif step.kind == "debt":
            assert state.profile is not None
            not_owned = [g for g in state.profile.group_ids if state.owners[g] != step.player]
            if not_owned:
                out.append(Sell(player=step.player, group=rng.choice(not_owned)))
        elif step.kind == "card":
            out.append(Card(player=step.player, effect="none",
                            deck="community_chest" if step.deck == "chance" else "chance"))
            out.append(Card(player=other, effect="none"))
        elif step.kind == "bingo_choice":
            out.append(BingoChoice(player=other, group=step.options[0]))
        return out
    current = state.current_player
    if current is None:
        out.append(Pass(player=rng.choice(players)))
        return out
    out.append(Pass(player=other))  # out of turn
    out.append(Play(player=other, position="8H", word="AT"))
    out.append(_play_off_the_words(state, current, rng))
    out.append(ReplaceBlank(player=current, square=_square_without_blank(state), source="rack"))
    if state.bag_count > 0:
        out.append(EndGame(reason="no_plays"))  # the bag is not empty
    out.append(EndGame(reason="played_out"))  # nobody went out
    assert state.profile is not None
    run = "8D" if state.board.is_empty() else empty_run(state.board, 7, rng)
    if run is not None and (state.bank_rack_count < 7 or state.cash[current] < 700):
        # Seven Bank tiles: more than the Bank rack holds now, or more than the player can pay.
        out.append(Play(player=current, position=run, word="SEVERAL", bought="SEVERAL"))
    rng.shuffle(out)
    return out


def _square_without_blank(state: MonopolyScrabbleState) -> str:
    for r, row in enumerate(state.board.rows()):
        for c, ch in enumerate(row):
            if not ch.islower():
                return f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}"
    return "H8"


def _play_off_the_words(state: MonopolyScrabbleState, player: str, rng: random.Random) -> Event:
    if state.board.is_empty():
        return Play(player=player, position=rng.choice(["1A", "A1", "15M"]), word="CAT")
    rows = state.board.rows()
    for _ in range(200):
        row, col = rng.randrange(15), rng.randrange(13)
        squares = [(row, col + i) for i in range(3)]
        near = {(r + dr, c + dc) for r, c in squares for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
        if all(not (0 <= r < 15 and 0 <= c < 15) or rows[r][c] == "." for r, c in near):
            return Play(player=player, position=f"{row + 1}{'ABCDEFGHIJKLMNO'[col]}", word="CAT")
    return Play(player=player, position="8H", word="Q" * 16)


def summary(state: MonopolyScrabbleState) -> Any:
    last = state.last_play
    return (state.summary(), state.board.rows(), sorted(state.rack_counts.items()), state.bank_rack,
            sorted(state.skip_next), sorted(state.in_jail), state.acted, state.passes, state.went_out,
            [(s.kind, s.player, s.amount, s.creditor, s.deck, s.options) for s in state.queue],
            (last.player, last.challenged, last.turn_index) if last else None,
            [(t.player, t.kind, t.score, t.notation, t.moved_to) for t in state.turns],
            [(t.payer, t.payee, t.amount) for t in state.ledger], list(state.card_transfers))


def event_kind(event: Event) -> str:
    """The tally's name of an event: its type, with a challenge's verdict, a card's effect, an end's reason."""
    if isinstance(event, Challenge):
        return "challenge (play stands)" if event.acceptable else "challenge (play withdrawn)"
    if isinstance(event, EndGame):
        return f"end ({event.reason})"
    if isinstance(event, Card):
        return f"card {event.effect}"
    if isinstance(event, ReplaceBlank):
        return f"replace_blank ({event.source})"
    if isinstance(event, Play) and event.bought:
        return "play with Bank tiles"
    return event.type


WEIGHTS = {JailFee: 5.0, BingoChoice: 5.0, Sell: 5.0, Card: 5.0, Play: 4.0, Pass: 0.4, ReplaceBlank: 0.6}


def choose(moves: Sequence[Event], rng: random.Random) -> Event:
    """Plays and the turn's steps most often, a phony challenged most of the time, the end by agreement
    rarely (each kind of move still happens)."""
    weights = []
    for m in moves:
        if isinstance(m, Challenge):
            weights.append(0.4 if m.acceptable else 8.0)
        elif isinstance(m, EndGame):
            weights.append({"agreed": 0.005, "no_plays": 0.3}.get(m.reason, 5.0))
        else:
            weights.append(WEIGHTS.get(type(m), 1.0))
    return rng.choices(list(moves), weights)[0]


def law_game(taken: Counter[str] | None = None) -> LawGame[MonopolyScrabbleState]:
    """The law's view of Monopoly Scrabble; `taken` tallies the events the walk chose, by kind, and how
    the games ended (with the players eliminated)."""
    rng = random.Random(0)

    def finished(state: MonopolyScrabbleState) -> bool:
        if state.finished and taken is not None:
            taken[f"game ended: {state.end_reason}"] += 1
            taken["players eliminated"] += len(state.eliminated)
        return state.finished

    def fresh(seed_rng: random.Random) -> GameLog[MonopolyScrabbleState]:
        rng.seed(seed_rng.random())
        return new_log(seed_rng)

    def pick(moves: Sequence[Event], walk_rng: random.Random) -> Event:
        move = choose(moves, walk_rng)
        if taken is not None:
            taken[event_kind(move)] += 1
        return move

    return LawGame(name="monopoly_scrabble", new_log=fresh, legal_moves=lambda s: moves_of(s, rng),
                   near_misses=near_misses, finished=finished, summary=summary, choose=pick)


def run_law(seeds: range, max_events: int = MAX_EVENTS, taken: Counter[str] | None = None) -> LawReport:
    return check_law(law_game(taken), seeds, max_events, fold_every=5)


def test_liveness_law_monopoly_scrabble_random_games() -> None:
    taken: Counter[str] = Counter()
    report = run_law(range(GAMES_IN_SUITE), taken=taken)
    print(f"monopoly_scrabble: {report.games} games, {report.events} events, {report.finished} finished, "
          f"{report.offered_checked} offered moves applied, {report.near_misses_refused} near-misses refused, "
          f"longest {report.longest}; taken: {dict(sorted(taken.items()))}")
    assert not report.failures, report.failures[0]
    assert report.finished == report.games, "every random game reaches its end"
    for kind in ("play", "play with Bank tiles", "pass", "challenge (play stands)", "challenge (play withdrawn)",
                 "card", "jail_fee", "sell", "bingo_choice", "replace_blank", "players eliminated"):
        assert sum(n for k, n in taken.items() if k.startswith(kind)) > 0, f"the random games never took a {kind}"


# ---------------------------------------------------------------- hand-written edge states


def _game(players: list[str] | None = None, data: dict[str, Any] | None = None) -> GameLog[MonopolyScrabbleState]:
    log: GameLog[MonopolyScrabbleState] = GameLog(new_state)
    log.push(Start(settings=Settings(players=players or ["Car", "Dog"], profile_data=data or small_track())))
    return log


def _check(log: GameLog[MonopolyScrabbleState], seed: int = 0) -> list[Event]:
    report = LawReport()
    moves = check_state(law_game(), log, random.Random(seed), report)
    assert not report.failures, report.failures
    return moves


def test_a_challenge_after_the_last_play_comes_before_the_settling() -> None:
    log = _game()
    log.push(Play(player="Car", position="8G", word="CAT"))
    state = log.state
    state.bag_count, state.bank_rack_count = 0, 0
    state.rack_counts["Dog"] = 2
    log.push(Play(player="Dog", position="H8", word=".BS"))
    assert log.state.went_out == "Dog"
    while log.state.pending and log.state.pending[0].kind != "end_game":
        log.push(legal_moves(log.state, judge).events[-1] if log.state.pending[0].kind != "card"
                 else Card(player="Dog", effect="none"))
    offered = legal_moves(log.state)
    assert offered.challengers() == ["Car"] and offered.end_reasons() == ["played_out"] and offered.play is None
    _check(log)
    log.push(Challenge(challenger="Car", acceptable=False))
    assert log.state.went_out is None and log.state.current_player == "Car"


def test_with_an_empty_bag_the_game_may_end_as_nobody_can_play() -> None:
    """Rules text 000: "Monopoly Scrabble can end once all of the tiles have been drawn from the tile bag"."""
    log = _game()
    assert legal_moves(log.state).end_reasons() == ["agreed"]
    log.state.bag_count = 0
    offered = legal_moves(log.state)
    assert offered.end_reasons() == ["no_plays", "agreed"] and offered.can_pass()
    _check(log)


def test_the_challenge_window_closes_when_the_next_player_acts_not_before() -> None:
    """Rules text 000: "You must challenge it before the next player begins their turn"."""
    log = _game(["Car", "Dog", "Hat"])
    log.push(Play(player="Car", position="8G", word="CAT"))
    while log.state.pending:  # the rest of Car's turn: the window stays open
        assert legal_moves(log.state).challengers() == ["Dog", "Hat"]
        window = legal_moves(log.state).window
        assert window is not None and window.closes == "until the next player begins their turn"
        step = log.state.pending[0]
        log.push(Card(player=step.player, effect="none") if step.kind == "card"
                 else legal_moves(log.state).events[-1])
    assert log.state.current_player == "Dog" and legal_moves(log.state).challengers() == ["Dog", "Hat"]
    assert legal_moves(log.state).window.closes == "until Dog acts"  # type: ignore[union-attr]
    log.push(Pass(player="Dog"))
    assert legal_moves(log.state).challengers() == []
    with pytest.raises(RulesError, match="a challenge must come before the next player acts"):
        log.push(Challenge(challenger="Hat", acceptable=False))


def test_an_eliminated_player_is_not_offered_a_challenge() -> None:
    log = _game(["Car", "Dog", "Hat"])
    log.state.eliminated.append("Hat")
    log.push(Play(player="Car", position="8G", word="CAT"))
    assert legal_moves(log.state).challengers() == ["Dog"]
    with pytest.raises(RulesError, match="^Hat has been eliminated and takes no more part in play$"):
        log.push(Challenge(challenger="Hat", acceptable=False))


def test_bank_tiles_offered_are_what_the_rack_holds_and_the_cash_pays() -> None:
    """Rules text 000: "you will pay M100 for each tile you buy"."""
    log = _game()
    state = log.state
    assert legal_moves(state).play is not None
    assert legal_moves(state).play.bank_tiles == 7  # type: ignore[union-attr]
    state.cash["Car"] = 250
    assert legal_moves(state).play.bank_tiles == 2  # type: ignore[union-attr]
    with pytest.raises(RulesError, match="3 Bank tiles cost M300"):
        log.push(Play(player="Car", position="8G", word="CAT", bought="CAT"))


def test_a_blank_swap_is_offered_for_each_played_blank_the_player_can_pay_for() -> None:
    """Rules text 000: replacing a blank costs M500 to Free Parking (and M100 more for a Bank tile)."""
    log = _game()
    log.push(Play(player="Car", position="8G", word="CaT"))
    while log.state.pending:
        step = log.state.pending[0]
        log.push(Card(player=step.player, effect="none") if step.kind == "card"
                 else legal_moves(log.state).events[-1])
    state = log.state
    player = state.current_player
    assert player == "Dog"
    swaps = legal_moves(state).blank_swaps()
    assert [(s.square, s.source) for s in swaps] == [("H8", "rack"), ("H8", "bank")]
    state.cash["Dog"] = 550
    assert [(s.square, s.source) for s in legal_moves(state).blank_swaps()] == [("H8", "rack")]
    _check(log)


# ---------------------------------------------------------------- the table asks, never decides


def test_the_tables_buttons_are_the_rules_offers() -> None:
    """Challengers, the word stage, the steps' buttons and the blank swaps come from `legal_moves`."""
    from companion.games.monopoly_scrabble.table import new_monopoly_scrabble
    from companion.ui.table import PlayerInfo, TableError

    table = new_monopoly_scrabble([PlayerInfo("Car", "red"), PlayerInfo("Dog", "blue"), PlayerInfo("Hat", "green")],
                         banker="Car", profile=validate_profile(small_track()))
    table.mstate.eliminated.append("Hat")
    assert table.turn_stage() == "word" and table.can_end_by_agreement()
    table.play("8G", "CaT")  # C3 + a0 + T1 = 4, x2 on the star: 8 spaces, Go to Jail on the small track
    assert table.challengers() == ["Dog"]  # Hat is out of the game: no button for Hat
    assert "Car" in table.mstate.in_jail and table.mstate.current_player == "Dog" and table.turn_stage() == "word"
    with pytest.raises(TableError, match="not what the turn waits for"):
        table.card("none")
    swaps = table.legal().blank_swaps()
    assert [(s.square, s.source) for s in swaps] == [("H8", "rack"), ("H8", "bank")]


def test_with_the_bag_empty_the_end_screen_ends_the_game_as_nobody_can_play() -> None:
    """Rules text 000: once the bag is empty the game ends when nobody can play: not an agreement. The old
    table called it one until every player had passed."""
    from companion.games.monopoly_scrabble.table import new_monopoly_scrabble
    from companion.ui.table import PlayerInfo

    table = new_monopoly_scrabble([PlayerInfo("Car", "red"), PlayerInfo("Dog", "blue")], banker="Car",
                         profile=validate_profile(small_track()))
    assert table.end_reason is None  # the bag is full: only an agreement ends the game now
    table.mstate.bag_count = 0
    assert table.end_reason == "no_plays"
    table.end_game({}, agreed=table.end_reason is None)  # what the end screen does
    assert table.finished and table.mstate.end_reason == "no_plays"
