"""The liveness law (`tests/liveness_law.py`, issue #26) for classic Scrabble.

Random games over every preset and variant take every optional action the rules offer (`legal_moves`):
plays drawn by the move generator from a random rack of the unseen tiles (and phonies, so challenges
both succeed and fail), challenges by every other player, exchanges of every size the bag allows,
passes, the end by agreement, undo. At every state: some move other than Undo is offered until the game
is over, every offered move is accepted, near-misses (a play off the board's words, a challenge by the
player who played, an exchange the bag cannot cover...) are refused in one sentence and change nothing,
and the state equals the fold of its log. Hand-written edge states follow: six scoreless turns, an
empty bag, a challenge after the last play. The longer run is `benchmarks/liveness.py classic`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from companion.events import Event, GameLog
from companion.games.classic.legal import LegalMoves, legal_moves
from companion.games.classic.rules import (
    Challenge,
    ClassicState,
    EndGame,
    Exchange,
    Pass,
    Play,
    Settings,
    Start,
    finish_line_target,
    new_state,
    presets,
)
from companion.rules.errors import RulesError
from companion.rules.word_game import ChallengeWindow
from tests.games.word_plays import draw, empty_run, judge, sample_plays, unseen
from tests.liveness_law import LawGame, LawReport, check_law, check_state

GAMES_IN_SUITE = 12
MAX_EVENTS = 400


def new_log(rng: random.Random) -> GameLog[ClassicState]:
    preset = rng.choice(sorted(presets()))
    rules = presets()[preset]
    n = rng.randint(rules.min_players, rules.max_players)
    variant = rng.choice(["standard", "standard", "nine_tile", "finish_line"])
    target = finish_line_target(rng.choice(["beginner", "expert"]), n) if variant == "finish_line" else None
    names = ["Ann", "Bob", "Cleo", "Dev"][:n]
    log: GameLog[ClassicState] = GameLog(new_state)
    mode = rng.choice([None, None, "double", "single", "penalty", "void"])  # every challenge rule, not only presets'
    log.push(Start(settings=Settings(players=names, preset=preset, variant=variant,  # type: ignore[arg-type]
                                     finish_target=target, challenge_mode=mode)))  # type: ignore[arg-type]
    return log


def concrete_moves(state: ClassicState, rng: random.Random) -> list[Event]:
    """The rules' offered events, with the offered play made concrete by the move generator."""
    offered: LegalMoves = legal_moves(state, judge)
    moves = list(offered.events)
    if offered.play is not None:
        assert state.layout is not None and state.tileset is not None
        rack = draw(unseen(state.board, state.tileset), offered.play.own_tiles, rng)
        for p in sample_plays(state.board, state.layout, state.tileset, rack, rng):
            moves.append(Play(player=offered.play.player, position=p.position, word=p.word,
                              rack=p.rack if rng.random() < 0.5 else None))
    return moves


def near_misses(state: ClassicState, rng: random.Random) -> list[Event]:
    """Moves that look legal here and are not."""
    out: list[Event] = []
    players = state.players
    last = state.last_play
    current = state.current_player
    if last is not None and not last.challenged:
        out.append(Challenge(challenger=last.player, acceptable=False))  # a challenge of one's own play
    else:
        out.append(Challenge(challenger=rng.choice(players), acceptable=rng.random() < 0.5))  # nothing to challenge
    out.append(Challenge(challenger="Zed", acceptable=True) if last is not None and not last.challenged
               else Pass(player="Zed"))
    if state.end_reason is None:
        out.append(EndGame())  # the end without agreement while the bag lasts and nobody went out
    if current is None:
        out.append(Pass(player=rng.choice(players)))  # the game is over: settle it
        return out
    others = [p for p in players if p != current]
    out.append(Pass(player=rng.choice(others)))  # out of turn
    out.append(Play(player=rng.choice(others), position="8H", word="AT"))
    assert state.rules is not None
    bag = state.bag_count or 0
    if bag < state.rules.exchange_min_bag:
        out.append(Exchange(player=current, count=1))  # the bag is too small for an exchange
    out.append(Exchange(player=current, count=min(state.rack_counts[current], bag) + 1))  # more than the bag/rack
    out.append(_play_off_the_words(state, current, rng))
    over = state.rack_counts[current] + 1
    run = empty_run(state.board, over, rng)
    if run is not None and not state.board.is_empty():  # one tile more than the rack holds, all new
        out.append(Play(player=current, position=run, word="SEVERALS"[:over].ljust(over, "S")))
    rng.shuffle(out)
    return out


def _play_off_the_words(state: ClassicState, player: str, rng: random.Random) -> Event:
    """A play on empty squares touching no tile (or, on an empty board, off the centre star)."""
    if state.board.is_empty():
        return Play(player=player, position=rng.choice(["1A", "A1", "15M"]), word="CAT")
    for _ in range(200):
        row, col = rng.randrange(15), rng.randrange(13)
        squares = [(row, col + i) for i in range(3)]
        near = {(r + dr, c + dc) for r, c in squares for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
        rows = state.board.rows()
        if all(not (0 <= r < 15 and 0 <= c < 15) or rows[r][c] == "." for r, c in near):
            return Play(player=player, position=f"{row + 1}{'ABCDEFGHIJKLMNO'[col]}", word="CAT")
    return Play(player=player, position="8H", word="Q" * 16)  # off the board


def summary(state: ClassicState) -> Any:
    last = state.last_play
    return (state.board.rows(), sorted(state.scores.items()), sorted(state.rack_counts.items()), state.bag_count,
            state.to_move, sorted(state.skip_next), state.scoreless_run, state.went_out, state.target_reached,
            state.finished, state.end_reason, (last.player, last.challenged, last.turn_index) if last else None,
            [(t.player, t.kind, t.score, t.total, t.notation) for t in state.turns])


def choose(moves: Sequence[Event], rng: random.Random) -> Event:
    """Plays most often, challenges and exchanges now and then, the end by agreement rarely."""
    weights = []
    exchanges = sum(isinstance(m, Exchange) for m in moves) or 1
    for m in moves:
        if isinstance(m, Play):
            weights.append(4.0)
        elif isinstance(m, Challenge):
            weights.append(0.5 if m.acceptable else 8.0)  # a phony is challenged most of the time
        elif isinstance(m, Exchange):
            weights.append(0.7 / exchanges)
        elif isinstance(m, Pass):
            weights.append(0.5)
        elif isinstance(m, EndGame):
            weights.append(0.01 if m.agreed else 5.0)
        else:
            weights.append(1.0)
    return rng.choices(list(moves), weights)[0]


def event_kind(event: Event) -> str:
    """The tally's name of an event: its type, with a challenge's verdict and an end's kind."""
    if isinstance(event, Challenge):
        return "challenge (play stands)" if event.acceptable else "challenge (play withdrawn)"
    if isinstance(event, EndGame):
        return "end by agreement" if event.agreed else "end (racks settled)"
    return event.type


def law_game(taken: Counter[str] | None = None) -> LawGame[ClassicState]:
    """The law's view of classic Scrabble; `taken` tallies the events the walk chose, by kind."""
    rng = random.Random(0)

    def fresh(seed_rng: random.Random) -> GameLog[ClassicState]:
        rng.seed(seed_rng.random())
        return new_log(seed_rng)

    def pick(moves: Sequence[Event], walk_rng: random.Random) -> Event:
        move = choose(moves, walk_rng)
        if taken is not None:
            taken[event_kind(move)] += 1
        return move

    return LawGame(name="classic", new_log=fresh, legal_moves=lambda s: concrete_moves(s, rng),
                   near_misses=near_misses, finished=lambda s: s.finished, summary=summary, choose=pick)


def run_law(seeds: range, max_events: int = MAX_EVENTS,
            taken: Counter[str] | None = None) -> LawReport:
    return check_law(law_game(taken), seeds, max_events, fold_every=5)


def test_liveness_law_classic_random_games() -> None:
    taken: Counter[str] = Counter()
    report = run_law(range(GAMES_IN_SUITE), taken=taken)
    print(f"classic: {report.games} games, {report.events} events, {report.finished} finished, "
          f"{report.offered_checked} offered moves applied, {report.near_misses_refused} near-misses refused, "
          f"longest {report.longest}; taken: {dict(taken)}")
    assert not report.failures, report.failures[0]
    assert report.finished == report.games, "every random game reaches its end"
    assert report.near_misses_refused > report.games * 20
    for kind in ("play", "pass", "exchange", "challenge (play stands)", "challenge (play withdrawn)"):
        assert taken[kind] > 0, f"the random games never took a {kind}"


# ---------------------------------------------------------------- hand-written edge states


def _started(preset: str = "box", players: list[str] | None = None, variant: str = "standard") -> GameLog[ClassicState]:
    log: GameLog[ClassicState] = GameLog(new_state)
    log.push(Start(settings=Settings(players=players or ["Ann", "Bob"], preset=preset,
                                     variant=variant)))  # type: ignore[arg-type]
    return log


def _check(log: GameLog[ClassicState], seed: int = 0) -> list[Event]:
    report = LawReport()
    moves = check_state(law_game(), log, random.Random(seed), report)
    assert not report.failures, report.failures
    return moves


def test_six_scoreless_turns_end_the_tournament_game_and_only_the_settling_is_offered() -> None:
    """Rules text 001: "Both players make two consecutive exchanges each" (the box: two passes each,
    text 004); the NASPA preset ends after six scoreless turns with two players."""
    log = _started("naspa")
    log.push(Play(player="Ann", position="8G", word="CAT"))
    for i in range(6):
        player = ["Bob", "Ann"][i % 2]
        offered = legal_moves(log.state)
        assert Pass(player=player) in offered.events and offered.play is not None
        log.push(Pass(player=player) if i % 3 else Exchange(player=player, count=7))
    state = log.state
    assert state.end_reason == "scoreless_turns" and state.current_player is None
    offered = legal_moves(state)
    assert offered.events == [EndGame()] and offered.play is None
    _check(log)
    log.push(EndGame(racks={"Ann": "QI", "Bob": "E"}))
    assert log.state.finished and legal_moves(log.state).events == []


def _empty_bag_game() -> GameLog[ClassicState]:
    """A game whose bag is empty: the tiles left are all on the two racks."""
    log = _started()
    log.push(Play(player="Ann", position="8G", word="CAT"))
    # Exchanges do not change the bag; bring it to zero by playing out the count the referee tracks.
    state = log.state
    assert state.bag_count is not None
    state.bag_count = 0  # an edge state: the walk reaches it too, this reaches it at once
    return log


def test_with_an_empty_bag_no_exchange_is_offered_and_one_is_refused() -> None:
    log = _empty_bag_game()
    offered = legal_moves(log.state)
    assert offered.exchange_counts() == [] and offered.can_pass() and offered.play is not None
    with pytest.raises(RulesError, match="needs at least 7 tiles in the bag"):
        log.push(Exchange(player="Bob", count=1))
    _check(log)


def test_an_exchange_is_never_larger_than_the_bag_nine_tile_racks() -> None:
    """Rules text 001: "A player can exchange as many tiles as they want from their rack, but only if that
    number of tiles is still available in the tile pool." With 9-tile racks and 8 tiles in the bag the
    old rules took an exchange of 9."""
    log = _started(variant="nine_tile")
    log.state.bag_count = 8
    assert legal_moves(log.state).exchange_counts() == list(range(1, 9))
    with pytest.raises(RulesError, match="the bag holds only 8 tiles: exchange at most 8"):
        log.push(Exchange(player="Ann", count=9))
    log.push(Exchange(player="Ann", count=8))


def test_a_challenge_after_the_last_play_is_offered_before_the_settling() -> None:
    log = _started()
    log.push(Play(player="Ann", position="8G", word="CAT"))
    state = log.state
    state.bag_count = 0
    state.rack_counts["Bob"] = 2
    log.push(Play(player="Bob", position="H8", word=".BS"))
    assert log.state.went_out == "Bob" and log.state.end_reason == "played_out"
    offered = legal_moves(log.state)
    assert offered.challengers() == ["Ann"] and offered.must_settle() and offered.play is None
    assert offered.window is not None and offered.window.closes == "until the racks left are recorded"
    moves = _check(log)
    assert Challenge(challenger="Ann", acceptable=True, words=["ABS"]) in moves
    with pytest.raises(RulesError, match="Bob cannot challenge their own play"):
        log.push(Challenge(challenger="Bob", acceptable=False))
    log.push(Challenge(challenger="Ann", acceptable=False, words=["ABS"]))
    assert log.state.end_reason is None and log.state.current_player == "Ann"
    assert legal_moves(log.state).play is not None


def test_every_other_player_may_challenge_and_only_until_the_next_player_acts() -> None:
    """Rules text 004: "Plays can be challenged before the next turn"."""
    log = _started(players=["Ann", "Bob", "Cleo"])
    log.push(Play(player="Ann", position="8G", word="CAT"))
    assert legal_moves(log.state).challengers() == ["Bob", "Cleo"]
    assert legal_moves(log.state).window == ChallengeWindow("Ann", ("CAT",), ("Bob", "Cleo"), "until Bob acts")
    log.push(Pass(player="Bob"))
    assert legal_moves(log.state).challengers() == []
    with pytest.raises(RulesError, match="a challenge must come before the next turn"):
        log.push(Challenge(challenger="Cleo", acceptable=False))


def test_the_end_by_agreement_is_offered_on_every_turn_and_accepted() -> None:
    log = _started()
    assert legal_moves(log.state).can_end_by_agreement()
    log.push(EndGame(agreed=True))
    assert log.state.finished


# ---------------------------------------------------------------- the table asks, never decides


def test_the_tables_buttons_are_the_rules_offers() -> None:
    """The turn screen's challenge, exchange and end-by-agreement buttons come from `legal_moves`."""
    from companion.games.classic.table import new_classic
    from companion.ui.table import PlayerInfo, TableError

    table = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue"), PlayerInfo("Cleo", "green")])
    assert table.challengers() == [] and table.exchange_counts() == list(range(1, 8))
    assert table.can_end_by_agreement()
    table.play("8G", "CAT")
    assert table.challengers() == ["Bob", "Cleo"] and table.last_play_words() == ("Ann", ["CAT"])
    assert table.challenge_closes() == "until Bob acts"
    with pytest.raises(TableError, match="Ann cannot challenge their own play"):
        table.challenge("Ann")
    table.engine.state.bag_count = 6
    assert table.exchange_counts() == []  # the bag holds fewer than seven: no exchange button
    table.pass_turn()
    assert table.challengers() == [] and table.last_play_words() is None
    assert table.check("1A", "CAT").error == "The new tiles must touch a tile already on the board."
    # The check is the rules' own: a play of more tiles than the rack holds is refused before it is confirmed.
    table.engine.state.rack_counts["Cleo"] = 1
    assert table.check("8E", "SC...").error == "Cleo has only 1 tile, not 2."
