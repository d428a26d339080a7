"""Whose turn it is: the one guard every game's rules use before an event that belongs to a turn.

A refused event is told in one of these sentences, the same in every game:

- `Zed is not playing in this game: the players are Ann, Bob and Cy` (a name not at the table);
- `Bob has been eliminated and takes no more part in play` (a player out of the game; the game says
  how: eliminated, bankrupt);
- `the game is over: record the racks left to finish it` (the game says what the table does now);
- `first: Bob pays Ann 2M` (the game waits for something else before any turn goes on);
- `it is Ann's turn, not Bob's: Bob cannot pass now` (out of turn; the game says what was refused).

Pure: no I/O, no state of its own; each game passes what it knows (its players, who is to move, who is
out, what comes first).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from companion.rules.errors import IllegalAction


def listed(names: Sequence[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy': names as a sentence lists them."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def not_playing(player: str, players: Sequence[str]) -> str:
    """The sentence for a name that is not at the table."""
    return f"{player} is not playing in this game: the players are {listed(players)}"


def out_of_play(player: str, how: str) -> str:
    """The sentence for a player who is out of the game (`how`: 'has been eliminated', 'is bankrupt')."""
    return f"{player} {how} and takes no more part in play"


def game_over(then: str = "") -> str:
    """The sentence for an event once the game is over; `then` is what the table does now, if anything."""
    return f"the game is over: {then}" if then else "the game is over"


def not_your_turn(player: str, current: str | None, action: str) -> str:
    """The sentence for an event out of turn (`action` as a verb: 'pass', 'trade with the Bank')."""
    return f"it is {current}'s turn, not {player}'s: {player} cannot {action} now"


def expect_player(player: str, players: Sequence[str], out: Collection[str] = (), how: str = "") -> None:
    """Refuse a name that is not at the table, or (with `out`) one no longer in play."""
    if player not in players:
        raise IllegalAction(not_playing(player, players))
    if player in out:
        raise IllegalAction(out_of_play(player, how or "is out of the game"))


def expect_turn(player: str, action: str, *, players: Sequence[str], current: str | None,
                out: Collection[str] = (), how: str = "", over: str | None = None,
                first: str | None = None) -> None:
    """Refuse `action` by `player` unless it is theirs to do now. The checks, in order: `player` is at the
    table and not `out` (`how` says how they left: 'has been eliminated'); the game is not over (`over`,
    when not None, is what the table does now, '' for nothing); nothing comes first (`first`: what the game
    waits for before any turn goes on); and `player` is `current`, the player to move."""
    expect_player(player, players, out, how)
    if over is not None:
        raise IllegalAction(game_over(over))
    if first is not None:
        raise IllegalAction(f"first: {first}")
    if player != current:
        raise IllegalAction(not_your_turn(player, current, action))
