"""Monopoly Scrabble at the table: a thin wrapper over `companion.games.monopoly_scrabble.rules` (no rules here).

What it owns: turning the table's taps into engine events (`play`, `card`, `sell`, `jail_fee`...),
previewing a play on a copy of the engine state (so the referee sees score, token move, rent and
captured cards before confirming), and wording the engine's ledger, card transfers and pending steps
as sentences for the screen. Every decision (score, movement, rent, debts, challenges, the end) is
the engine's.
"""

from __future__ import annotations

import copy
from typing import Any

from companion.events import Event, GameLog
from companion.games.monopoly_scrabble.legal import LegalMoves, legal_moves
from companion.games.monopoly_scrabble.rules import (
    BANK,
    POT,
    VARIANT,
    BingoChoice,
    Card,
    Challenge,
    EndGame,
    MonopolyScrabbleState,
    Play,
    ReplaceBlank,
    Sell,
    new_game,
    new_state,
)
from companion.rules.errors import RulesError
from companion.rules.ledger import describe_transaction
from companion.rules.money import money_prefixed
from companion.rules.notation import parse_play
from companion.rules.scoring import score_play
from companion.ui.table import ChartPoint, PlayerInfo, TableError, _plain_validation, stored_seats
from companion.ui.word_table import PlayCheck, WordEngine, WordTable

STAGES = {"jail_fee": "jail", "bingo_choice": "bingo", "card": "card", "debt": "debt", "end_game": "end_game",
          "move": "move"}


END_REASONS = {"agreed": "by agreement", "no_plays": "nobody can play", "played_out": "a player went out",
               "last_player_standing": "one player is left", "settled": "settled"}


# The game's special account besides the Bank, as sentences name it.
ACCOUNT_NAMES = {POT: "Free Parking"}


class MonopolyScrabbleEngine(WordEngine[MonopolyScrabbleState]):
    """The engine's game log with the interface `MonopolyScrabbleTable` expects."""

    variant = VARIANT
    challenge_event = Challenge

    @classmethod
    def start(cls, players: list[str], banker: str | None, profile: Any = "monopoly_scrabble") -> MonopolyScrabbleEngine:
        """A new game's engine (`profile`: a profile name or a `Profile` the table edited)."""
        return cls(new_game(players, banker, profile))

    def scores(self) -> dict[str, int]:
        """Points scored per player (in this game they move the token; wealth decides)."""
        out = {p: 0 for p in self.players}
        for t in self.state.turns:
            if t.kind == "play":
                out[t.player] += t.score
        return out

    def turn_stage(self) -> str:
        """'word' while the rules offer the turn's own moves (a word, a pass), else the step waited for."""
        if self.legal().can_pass():
            return "word"
        pending = self.state.pending
        return STAGES.get(pending[0].kind, pending[0].kind) if pending else "over"

    def trial(self, event: Event) -> MonopolyScrabbleState:
        """The state this event would give, on a copy (nothing changes)."""
        state = copy.deepcopy(self.state)
        state.apply(event)
        return state

    def legal(self) -> LegalMoves:
        """What the rules allow now (`companion.games.monopoly_scrabble.legal`): every button comes from here."""
        return legal_moves(self.state)

    def check(self, position: str, word: str, bought: str = "") -> PlayCheck:
        st = self.state
        offer = self.legal().play
        if offer is None:
            why = "the game is over: no more plays" if st.finished or st.current_player is None else st.next_step()
            return PlayCheck(False, position, word, error=f"No word now: {why}.")
        assert st.layout is not None and st.tileset is not None
        try:
            tiles = parse_play(position, word, st.board)
            scored = score_play(st.board, tiles, st.layout, st.tileset)
            after = self.trial(Play(player=offer.player, position=position, word=word, bought=bought.upper()))
        except (RulesError, ValueError) as exc:
            return PlayCheck(False, position, word, error=_plain_validation(exc))
        record = next(t for t in reversed(after.turns) if t.kind == "play")
        bonus = record.score - scored.total
        return PlayCheck(True, position.upper(), word, [(w.text, w.score) for w in scored.words], record.score,
                         bonus, bonus_label="first word doubled",
                         new_squares=[(t.square.row, t.square.col) for t in tiles],
                         effects=changes(st, after))

    def play(self, position: str, word: str, bought: str = "") -> None:
        self.log.push(Play(player=self.to_act("The game is over: no more plays."), position=position, word=word,
                           bought=bought.upper()))

    def last_play_words(self) -> tuple[str, list[str]] | None:
        """The play open to a challenge (who made it, its words), or None when the rules offer none."""
        window = self.legal().window
        return (window.player, list(window.words)) if window is not None else None

    def end_game(self, tiles_left: dict[str, int], agreed: bool) -> None:
        """The end the rules offer: played out when a player went out, else by agreement when the table
        says so, else as nobody can play (the rules refuse it while the bag holds tiles)."""
        offered = self.legal().end_reasons()
        reason = "played_out" if "played_out" in offered else ("agreed" if agreed else "no_plays")
        self.log.push(EndGame(reason=reason, tiles_left=tiles_left or None))

    @property
    def end_reason(self) -> str | None:
        """Why the game may end now by the rules, not by agreement: a player went out, or the bag is empty
        (the game then ends as nobody can play, rules text 000); None while only an agreement ends it."""
        offered = self.legal().end_reasons()
        for reason in ("played_out", "no_plays"):
            if reason in offered:
                return reason
        return self.state.end_reason



def changes(before: MonopolyScrabbleState, after: MonopolyScrabbleState) -> list[str]:
    """What happened between two states, in the engine's order: turns, money, cards, token, next step."""
    assert after.profile is not None
    lines: list[str] = []
    # A challenge rewrites the play's record in place (withdrawn), so compare the common part too.
    for old, new in zip(before.turns, after.turns):
        if new.kind == "withdrawn" and old.kind != "withdrawn":
            lines.append(f"{new.player}'s {new.notation} is withdrawn ({new.note}).")
    for t in after.turns[len(before.turns):]:
        if t.kind == "play":
            lines.append(f"{t.player} plays {t.notation}: {t.score} points.")
        elif t.kind == "pass":
            lines.append(f"{t.player} passes.")
        elif t.kind == "end":
            why = t.note.removeprefix("game ends: ")
            lines.append("The game ends: " + END_REASONS.get(why, why.replace("_", " ")) + ".")
        elif t.kind == "eliminated":
            lines.append(f"{t.player} is out of the game: {t.note}.")
        elif t.note:
            lines.append(f"{t.player}: {t.note.replace('_', ' ')}.")
    for p in after.players:
        a, b = before.positions.get(p), after.positions.get(p)
        if a is not None and b is not None and a != b:
            lines.append(f"{p}'s token moves from {after.space_name(a)} to {after.space_name(b)} (space {b}).")
    lines += [describe_transaction(t, ACCOUNT_NAMES) for t in after.ledger[len(before.ledger):]]
    if after.bag_count < before.bag_count:
        # The Banker refills the Bank rack first, then the player draws (rules text order).
        drawn = before.bag_count - after.bag_count
        lines.append(f"Refill: {drawn} tiles from the bag, the Bank rack first (back to {after.bank_rack_count}), "
                     f"then the player's rack; {after.bag_count} left in the bag.")
    names = {g.id: g.name for g in after.profile.groups}
    for c in after.card_transfers[len(before.card_transfers):]:
        name = names.get(c.group, c.group)
        if c.taker == BANK:
            lines.append(f"The {name} card goes back to the Bank ({c.reason}).")
        else:
            lines.append(f"{c.taker} takes the {name} card" + (f" from {c.giver}" if c.giver != BANK else "")
                         + f" ({c.reason}).")
    if after.finished:
        lines.append("The game is over.")
    elif after.pending:
        step = after.pending[0]
        if step.kind == "bingo_choice":  # the cards are the buttons under this line: no need to list them
            lines.append(f"Next: {step.player} chooses a Property Card for the bingo.")
        else:
            lines.append("Next: " + after.describe_step(step) + ".")
    return lines


class MonopolyScrabbleTable(WordTable):
    """The word-board table plus the bank's one-tap actions (each an engine event)."""

    engine: MonopolyScrabbleEngine
    rack_prompt = "How many tiles are left on each rack (M100 each; leave empty for none):"
    history_title = "Wealth over the turns"

    @property
    def mstate(self) -> MonopolyScrabbleState:
        return self.engine.state

    def _push(self, event: Event) -> None:
        self._do(self.engine.log.push, event)

    def narrate(self, before: MonopolyScrabbleState, after: MonopolyScrabbleState) -> list[str]:
        return changes(before, after)

    def challenge(self, challenger: str) -> Any:
        last = self.last_play_words()
        verdict = super().challenge(challenger)
        if last is not None:
            player = last[0]
            self.notice = (f"{challenger} loses their next turn: the play stands." if verdict.acceptable else
                           f"{player}'s play is withdrawn: tiles back, and money, cards and token as before. "
                           f"{player} loses the turn.")
        return verdict

    def history(self) -> list[ChartPoint]:
        """Wealth (cash + printed card values) of each player after every event in force, folded again
        through the engine; repeated values are dropped."""
        return self.replayed_history(lambda: new_state(None), lambda state: {
            p: state.cash[p] + state.property_value(p) for p in state.players})

    def chip_lines(self, player: str) -> list[str]:
        return [*super().chip_lines(player), money_prefixed(self.mstate.cash.get(player, 0))]

    # ----- end of game (the shared end screen)
    def rack_field(self, player: str) -> tuple[str, str]:
        return f"{player} tiles left", str(self.mstate.rack_counts.get(player, ""))

    def rack_note(self) -> str:
        tracked = self.mstate.rack_counts
        return ("The Bank's count: " + ", ".join(f"{p} {n}" for p, n in tracked.items())
                + ". Change a number only if a rack holds something else.")

    def final_columns(self) -> list[tuple[str, dict[str, str]]]:
        return [*super().final_columns(), ("Wealth", {p: money_prefixed(w) for p, w in self.wealth().items()})]

    def ranking(self) -> list[str]:
        wealth = self.wealth()
        return sorted(self.players, key=lambda p: -wealth[p])

    # ----- views
    def cash(self) -> dict[str, int]:
        return {p: self.mstate.cash[p] for p in self.players}

    def wealth(self) -> dict[str, int]:
        w = self.mstate.wealth()
        return {p: w.get(p, self.mstate.cash[p]) for p in self.players}

    def property_squares(self) -> dict[tuple[int, int], str]:
        return {(sq.row, sq.col): g for sq, g in self.mstate.square_groups.items()}

    def group_names(self) -> dict[str, str]:
        assert self.mstate.profile is not None
        return {g.id: g.name for g in self.mstate.profile.groups}

    def step_player(self) -> str | None:
        pending = self.mstate.pending
        return pending[0].player if pending else self.current_player

    def ledger_lines(self, last: int = 30) -> list[str]:
        return [describe_transaction(t, ACCOUNT_NAMES) for t in self.mstate.ledger[-last:]]

    def follow_lines(self) -> list[str]:
        st = self.mstate
        names = self.group_names()
        lines = [(f"Free Parking: {money_prefixed(st.cash[POT])}. Bag: {st.bag_count} tiles. "
                  f"Bank rack: {st.bank_rack_count} tiles.")]
        lines.append("Tokens: " + ", ".join(f"{p} on {st.space_name(st.positions[p])}"
                                            + (" (in Jail)" if p in st.in_jail else "") for p in self.players) + ".")
        owned = [f"{names[g]}: {o}" for g, o in st.owners.items() if o]
        if owned:
            lines.append("Property Cards: " + ", ".join(owned) + ".")
        lines.append("Next: " + st.next_step() + ".")
        return lines

    # ----- actions
    def _engine_check(self, position: str, word: str, bought: str) -> PlayCheck:
        return self.engine.check(position, word, bought)

    def _engine_play(self, position: str, word: str, bought: str) -> None:
        self._do(self.engine.play, position, word, bought)

    def pay_jail(self) -> None:
        fee = self.legal().jail_fee()
        if fee is None:
            raise self._not_now()
        self._push(fee)

    def card(self, effect: str, amount: int = 0, group: str | None = None, space: int | None = None,
             steps: int | None = None) -> None:
        offer = self.legal().card
        if offer is None:
            raise self._not_now()
        self._push(Card(player=offer.player, effect=effect, amount=amount or None,
                        group=group, space=space, steps=steps))

    def bingo_choice(self, group: str) -> None:
        choices = self.legal().bingo_choices()
        if not choices:
            raise self._not_now()
        self._push(BingoChoice(player=choices[0].player, group=group))

    def blank_swap(self, square: str, from_bank: bool = False) -> None:
        player = self.current_player
        if player is None:
            raise TableError("The game is over.")
        if not square.strip():
            raise TableError("Type the square of the blank, like H8.")
        self._push(ReplaceBlank(player=player, square=square.strip().upper(), source="bank" if from_bank else "rack"))

    # ----- what the buttons offer: the rules' legal moves, asked, never decided here
    def challengers(self) -> list[str]:
        return self.legal().challengers()

    def can_end_by_agreement(self) -> bool:
        return self.legal().can_end_by_agreement()

    def challenge_closes(self) -> str:
        """Until when the latest play may be challenged, in words ("until Bob acts"), or "" when it may not."""
        window = self.legal().window
        return window.closes if window is not None else ""

    def legal(self) -> LegalMoves:
        return self.engine.legal()

    def sell(self, player: str, group: str) -> None:
        self._push(Sell(player=player, group=group))

    def end_game(self, racks: dict[str, str], agreed: bool = False) -> None:
        left: dict[str, int] = {}
        for p, text in racks.items():
            text = text.strip()
            if not text:
                continue
            if not text.isdigit():
                raise TableError(f"Type how many tiles {p} has left, as a number.")
            left[p] = int(text)
        self._do(self.engine.end_game, left, agreed)

    def _not_now(self) -> TableError:
        return TableError("That is not what the turn waits for now: " + self.mstate.next_step() + ".")


def new_monopoly_scrabble(players: list[PlayerInfo], banker: str, profile: Any = "monopoly_scrabble",
                 lexicon: str = "ENABLE") -> MonopolyScrabbleTable:
    """A new game; `profile` is a profile name or a `Profile` the table edited."""
    names = [p.name.strip() for p in players]
    try:
        engine = MonopolyScrabbleEngine.start(names, banker, profile)
    except (RulesError, ValueError) as exc:
        raise TableError(_plain_validation(exc)) from None
    return MonopolyScrabbleTable(VARIANT, [PlayerInfo(n, p.colour) for n, p in zip(names, players)], engine,
                         banker=banker, lexicon=lexicon)


def rebuild(game_id: str, table: dict[str, Any], events: list[Any]) -> MonopolyScrabbleTable:
    """The table from stored events and the details saved beside them (`table_settings()`)."""
    engine = MonopolyScrabbleEngine(GameLog(lambda: new_state(None), events))
    return MonopolyScrabbleTable(VARIANT, stored_seats(table, engine.players), engine, banker=table.get("banker"),
                         lexicon=table.get("lexicon", "ENABLE"), game_id=game_id)


__all__ = ["MonopolyScrabbleEngine", "MonopolyScrabbleTable", "changes", "new_monopoly_scrabble", "rebuild"]
