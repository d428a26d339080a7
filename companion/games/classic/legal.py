"""What is legal now in a classic Scrabble game: the one source the table's buttons come from.

`legal_moves(state)` answers as a chess library's `legal_moves` does: every event the rules accept at
this moment, concretely (who passes, how many tiles may be exchanged, who may challenge the latest play,
the end of the game), plus a `PlayOffer` when the player to move may lay tiles (the plays of a rack the
referee does not see cannot be listed: the rules judge the squares when the play is recorded). Nothing
here decides anything the rules module does not: each offer is the condition its handler checks, and
the liveness law (`tests/test_liveness_classic.py`) proves every offered event is accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.events import Event
from companion.games.classic.rules import Challenge, ClassicState, EndGame, Exchange, Pass
from companion.rules.word_game import ChallengeWindow, PlayOffer, challenge_verdicts, challengers

Judge = Callable[[list[str]], bool]


@dataclass
class LegalMoves:
    """The legal moves of one state: `events` are each accepted as they are (an `end_game` with empty
    racks stands for the racks the table then types); `play` is the play of tiles, when one is legal."""

    events: list[Event] = field(default_factory=list)
    play: PlayOffer | None = None
    window: ChallengeWindow | None = None

    def challengers(self) -> list[str]:
        return challengers(self.events)

    def exchange_counts(self) -> list[int]:
        return [e.count for e in self.events if isinstance(e, Exchange)]

    def can_pass(self) -> bool:
        return any(isinstance(e, Pass) for e in self.events)

    def can_end_by_agreement(self) -> bool:
        return any(isinstance(e, EndGame) and e.agreed for e in self.events)

    def must_settle(self) -> bool:
        """The game is over and waits for the racks left (`end_game`)."""
        return any(isinstance(e, EndGame) and not e.agreed for e in self.events)


def exchange_limit(state: ClassicState, player: str) -> int:
    """How many tiles `player` may exchange now (0: no exchange). The preset's smallest bag
    (`exchange_min_bag`), and never more tiles than the bag holds (rules text 001: "only if that number
    of tiles is still available in the tile pool") nor than the rack holds."""
    assert state.rules is not None
    rack = state.rack_counts.get(player, 0)
    if state.bag_count is None:
        return rack
    if state.bag_count < state.rules.exchange_min_bag:
        return 0
    return min(rack, state.bag_count)


def legal_moves(state: ClassicState, judge: Judge | None = None) -> LegalMoves:
    """Every move the rules accept now. `judge` (the word judge) gives each challenge its verdict;
    without one a challenge is offered with either verdict (the table's judge rules when it is made)."""
    out = LegalMoves()
    if state.settings is None or state.finished:
        return out
    last = state.last_play
    if last is not None and not last.challenged:
        # The latest play is open to a challenge by anyone else until the next player acts (the end of
        # the game included: a challenge after the last play comes before the racks are settled).
        words = list(state.turns[last.turn_index].words)
        who = [p for p in state.players if p != last.player]
        for verdict in challenge_verdicts(judge, words):
            out.events += [Challenge(challenger=p, acceptable=verdict, words=words) for p in who]
        closes = (f"until {state.current_player} acts" if state.current_player is not None
                  else "until the racks left are recorded")
        out.window = ChallengeWindow(last.player, tuple(words), tuple(who), closes)
    if state.end_reason is not None:
        out.events.append(EndGame())
        return out
    player = state.current_player
    assert player is not None
    out.events.append(Pass(player=player))
    out.events += [Exchange(player=player, count=n) for n in range(1, exchange_limit(state, player) + 1)]
    if state.rack_counts.get(player, 0) > 0:
        out.play = PlayOffer(player, state.rack_counts[player])
    out.events.append(EndGame(agreed=True))
    return out
