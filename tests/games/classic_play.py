"""Legal classic Scrabble games made by play, for the tests whose claim needs a game but not a recorded one
(crash safety, the store's fuzzing, concurrent writers, the move generator's checks), so they run in any
clone with no `../shared` beside it.

Two or more players draw from the shuffled English bag and play one of the few highest-scoring moves the
move generator finds with the shipped word list (ENABLE); with no move a player exchanges (7 or more in the
bag) or passes. Each event is folded through the classic rules as it is made (the rules, not this file,
say it is legal); when the rules say the game is over (a player went out, or the scoreless turns ran out),
`EndGame` settles the racks; else it stops after `max_turns`. Seeded: the same seed, the same game.
"""

from __future__ import annotations

import random
from functools import lru_cache

from companion.events import Event, GameLog
from companion.games.classic.rules import EndGame, Exchange, Pass, Play, Settings, Start, new_state
from companion.rules import Board, parse_play
from companion.rules.tiles import load_tileset
from lexicon.movegen import generate_moves
from lexicon.store import Lexicon, load_lexicon

EMPTY = ["." * 15] * 15


@lru_cache(maxsize=1)
def enable() -> Lexicon:
    return load_lexicon()


def _bag(rng: random.Random) -> list[str]:
    tiles = load_tileset("en")
    assert tiles.counts is not None
    bag = [letter for letter, n in tiles.counts.items() for _ in range(n)]
    rng.shuffle(bag)
    return bag


def _take(rack: list[str], letters: list[str]) -> None:
    for letter in letters:
        rack.remove(letter)


@lru_cache(maxsize=64)
def _game(seed: int, players: tuple[str, ...], pick: int, max_turns: int) -> tuple[Event, ...]:
    rng = random.Random(seed)
    bag = _bag(rng)
    racks: dict[str, list[str]] = {p: [bag.pop() for _ in range(7)] for p in players}
    # Each event is folded as it is made: the rules, not this file, say it is legal and when the game is over.
    log = GameLog(new_state, [Start(settings=Settings(players=list(players), preset="box"))])
    board = Board.from_rows(EMPTY)
    for turn in range(max_turns + 1):
        if log.state.end_reason is not None:  # played out, or too many scoreless turns: settle the racks
            log.push(EndGame(racks={p: "".join(r) for p, r in racks.items() if r}))
            break
        if turn == max_turns:
            break
        player = players[turn % len(players)]
        rack = racks[player]
        moves = generate_moves(board, "".join(rack), enable())
        if moves:
            move = moves[rng.randrange(min(pick, len(moves)))]
            used = ["?" if ch.islower() else ch for ch in move.word if ch != "."]
            log.push(Play(player=player, position=move.position.notation, word=move.word, rack="".join(rack)))
            _take(rack, used)
            board.push(move.tiles())
            rack.extend(bag.pop() for _ in range(min(len(used), len(bag))))
        elif len(bag) >= 7:
            returned = rack[:]
            log.push(Exchange(player=player, count=len(returned), tiles="".join(returned)))
            rack.clear()
            rack.extend(bag.pop() for _ in range(7))
            bag.extend(returned)
            rng.shuffle(bag)
        else:
            log.push(Pass(player=player))
    return tuple(log.events)


def self_play(seed: int, players: tuple[str, ...] = ("Ann", "Bob"), pick: int = 3, max_turns: int = 80) -> list[Event]:
    """The event log of one legal classic game (a new list each call; the events are shared, immutable)."""
    return list(_game(seed, players, pick, max_turns))


def positions(seed: int, count: int, pick: int = 3) -> list[tuple[list[str], str]]:
    """Up to `count` (board rows, rack) positions met in a played game: the board before a play and the
    rack that made it, for tests of the move generator on boards with words, blanks and hooks."""
    out: list[tuple[list[str], str]] = []
    board = Board.from_rows(EMPTY)
    for event in self_play(seed, pick=pick):
        if isinstance(event, Play) and len(out) < count:
            assert event.rack is not None
            out.append((board.rows(), event.rack))
        if isinstance(event, Play):
            board.push(parse_play(event.position, event.word, board))
    return out
