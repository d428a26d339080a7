"""Legal classic Scrabble games made by play, for the tests whose claim needs a game but not a recorded one
(crash safety, the store's fuzzing, concurrent writers, the move generator's checks), so they run in any
clone with no `../shared` beside it.

Two or more players draw from the shuffled English bag and play one of the few highest-scoring moves the
move generator finds with the shipped word list (ENABLE); with no move a player exchanges (7 or more in the
bag) or passes. The game ends when a player goes out with the bag empty (then `EndGame` with the racks),
after six scoreless turns in a row, or after `max_turns`. Every game is folded through the classic rules
before it is returned: the rules, not this file, say it is legal. Seeded: the same seed, the same game.
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
    events: list[Event] = [Start(settings=Settings(players=list(players), preset="box"))]
    board = Board.from_rows(EMPTY)
    scoreless = 0
    for turn in range(max_turns):
        player = players[turn % len(players)]
        rack = racks[player]
        moves = generate_moves(board, "".join(rack), enable())
        if moves:
            move = moves[rng.randrange(min(pick, len(moves)))]
            used = ["?" if ch.islower() else ch for ch in move.word if ch != "."]
            events.append(Play(player=player, position=move.position.notation, word=move.word, rack="".join(rack)))
            _take(rack, used)
            board.push(move.tiles())
            rack.extend(bag.pop() for _ in range(min(len(used), len(bag))))
            scoreless = 0
            if not rack and not bag:
                events.append(EndGame(racks={p: "".join(r) for p, r in racks.items() if p != player}))
                break
        elif len(bag) >= 7:
            returned = rack[:]
            events.append(Exchange(player=player, count=len(returned), tiles="".join(returned)))
            rack.clear()
            rack.extend(bag.pop() for _ in range(7))
            bag.extend(returned)
            rng.shuffle(bag)
            scoreless += 1
        else:
            events.append(Pass(player=player))
            scoreless += 1
        if scoreless >= 6:
            break
    GameLog(new_state, events)  # raises if the rules refuse any event: the game is legal
    return tuple(events)


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
