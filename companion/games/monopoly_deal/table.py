"""Monopoly Deal at the table: the taps of the screens as engine events, and the game worded for them.

Plain Python, no Flet and no rule: the engine (`rules.py`) decides everything. What this module owns:

- one method per tap (`draw`, `bank`, `lay`, `rent`, `pay`, `just_say_no`...), each pushing one event of
  the engine through `TableBase.push` (a refusal becomes `TableError` with the engine's sentence);
- the hidden hand: the referee never sees hands, so a card is picked by its FACE (`Face`: "1M", "Pass Go",
  "Boardwalk") from the faces that can still be in the player's hand (`faces`), and the table turns the
  face into a card id the engine accepts (`card_for`); identical cards are interchangeable;
- views for the screens: each player's board (`board`: bank, sets as "2/3" with buildings, hand count),
  the Just Say No chain as sentences (`chain_lines`), what a payer may give and the engine's proposal,
  and the money history for the end chart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.events import Event, GameLog
from companion.games.monopoly_deal.deck import Card
from companion.games.monopoly_deal.legal import hand_faces, legal_moves
from companion.games.monopoly_deal.rules import (
    ACTION_WORDS,
    VARIANT,
    Accept,
    BankCard,
    Birthday,
    Build,
    DealBreaker,
    DealState,
    DebtCollector,
    Discard,
    DoubleRent,
    Draw,
    EndByAgreement,
    EndTurn,
    ForcedDeal,
    HouseRules,
    JustSayNo,
    Lay,
    MoveWild,
    PassGo,
    Pay,
    Rent,
    SlyDeal,
    Start,
    new_game,
    new_state,
)
from companion.rules.money import money_millions
from companion.ui.table import ChartPoint, PlayerInfo, TableBase, TableError, stored_seats

E = TypeVar("E", bound=Event)
# The events that put a card from the hand down as a play (what the card picker offers faces for).
PLAYS = (BankCard, Lay, PassGo, Rent, DebtCollector, Birthday, SlyDeal, ForcedDeal, DealBreaker, Build)

# The order the card picker lists the kinds in: what an ordinary turn uses most comes first.
KIND_ORDER = ("money", "property", "wild", "rent", "action", "building")
KIND_TITLES = {"money": "Money: tap to bank", "property": "Properties: tap to lay", "wild": "Property wild cards",
               "rent": "Rent cards", "action": "Action cards", "building": "Houses and hotels"}


@dataclass(frozen=True)
class Face:
    """What a card looks like to the players: interchangeable cards (the six 1M, the ten Pass Go) share
    one face. `key` is the card name; `kind`, `value`, `colours` and `action` as on the card."""

    key: str
    kind: str
    value: int
    colours: tuple[str, ...]
    action: str | None

    @staticmethod
    def of(card: Card) -> Face:
        return Face(card.name, card.kind, card.value, tuple(card.colours), card.action)

    @property
    def any_colour(self) -> bool:
        return self.colours == ("any",)


@dataclass(frozen=True)
class SetView:
    """One property set as the table shows it: colour, "2/3", complete, buildings, what it charges."""

    colour: str
    name: str
    cards: tuple[str, ...]
    have: int
    need: int
    complete: bool
    house: bool
    hotel: bool
    rent: int

    @property
    def count(self) -> str:
        return f"{self.have}/{self.need}"


@dataclass(frozen=True)
class BoardView:
    """One player's side of the table."""

    player: str
    hand: int
    bank_total: int
    bank: tuple[str, ...]
    sets: tuple[SetView, ...]
    complete: int


class DealTable(TableBase):
    """The game on the table: its log and the taps that change it."""

    def __init__(self, players: list[PlayerInfo], log: GameLog[DealState], game_id: str | None = None) -> None:
        super().__init__(VARIANT, players, log, game_id=game_id)

    @property
    def st(self) -> DealState:
        state: DealState = self.log.state
        return state

    # ----- words
    def colour_name(self, colour: str) -> str:
        if colour == "any":
            return "any colour"
        return self.st.deck.colour(colour).name if self.st.deck else colour

    def card_name(self, card_id: str) -> str:
        return self.st.name(card_id)

    def doing(self) -> str:
        """The player acting now may only answer an action or pay a debt: not "to play"."""
        kind = self.st.waiting().kind
        return {"answer": "to answer", "pay": "to pay"}.get(kind, "to play")

    def chip_lines(self, player: str) -> list[str]:
        st = self.st
        sets = len(st.complete_colours(player))
        return [f"Bank {money_millions(st.bank_total(player))}", f"Hand {st.hands.get(player, 0)}",
                f"Sets {sets} of {st.limits.sets_to_win}"]

    def status(self) -> str:
        """What the game waits for, as one sentence with a capital and a full stop."""
        w = self.st.waiting()
        if w.kind == "over":
            winners = self.st.winner()
            if len(winners) > 1:
                return f"{' and '.join(winners)} share the game."
            return f"{winners[0]} wins!" if winners else "The game is over."
        if w.kind == "play":
            return f"{w.player}'s turn: {self.st.plays_left} of {self.st.limits.plays_per_turn} plays left."
        if w.kind == "answer" and w.amount > 0 and w.player == w.target and not len(w.chain) % 2:
            no = " or says Just Say No" if w.may_say_no else ""
            return f"{w.player} pays {w.actor} {money_millions(w.amount)}{no}."
        text = w.sentence
        return text[:1].upper() + text[1:] + "."

    def latest(self) -> str:
        """What just happened, as a sentence (the engine's story)."""
        lines = self.recent(1)
        return lines[0] if lines else ""

    def recent(self, n: int = 4) -> list[str]:
        """The last `n` things that happened, latest first, as sentences."""
        return [s[:1].upper() + s[1:] + "." for s in reversed(self.st.story[-n:])]

    # ----- boards
    def board(self, player: str) -> BoardView:
        st = self.st
        sets = []
        for s in st.sets.get(player, []):
            size = st.colour_size(s.colour)
            sets.append(SetView(s.colour, self.colour_name(s.colour), tuple(s.cards), len(s.cards), size,
                                st.is_complete(s), s.house is not None, s.hotel is not None, st.set_rent(s)))
        return BoardView(player, st.hands.get(player, 0), st.bank_total(player), tuple(st.banks.get(player, [])),
                         tuple(sets), len(st.complete_colours(player)))

    # ----- the hidden hand: faces that can be in a hand, and a card id for a face
    def card_for(self, player: str, face: str, skip: tuple[str, ...] = ()) -> str:
        """A card id of `face` that can be in `player`'s hand (one the table saw there first)."""
        st = self.st
        seen = st.seen_in_hand.get(player, [])
        possible = [c for c in st.possible_hand_cards(player) if c not in skip]
        for cid in sorted(possible, key=lambda c: c not in seen):
            if st.name(cid) == face:
                return cid
        raise TableError(f"No {face} can be in {player}'s hand: pick a card from the list.")

    def cards_for(self, player: str, faces: list[str]) -> list[str]:
        out: list[str] = []
        for face in faces:
            out.append(self.card_for(player, face, tuple(out)))
        return out

    # ----- what the screens offer: only the rules' legal moves (`legal.legal_moves`), never a rule here
    def legal(self) -> list[Event]:
        """The rules' legal moves now, made once per change of the game and shared by every tab."""
        return self.view("legal_moves", lambda _old: legal_moves(self.st))

    def offered(self, kind: type[E]) -> list[E]:
        """The legal moves of one event class."""
        return [m for m in self.legal() if isinstance(m, kind)]

    def offers(self, player: str, face: str) -> list[Event]:
        """Every way `player` may put a card of `face` down now (a wild already on the table excluded)."""
        return [m for m in self.legal() if isinstance(m, PLAYS) and m.player == player
                and self.st.name(m.card) == face]

    def faces(self, player: str) -> list[Face]:
        """The faces `player` may play now (each with at least one legal way), money first."""
        seen: dict[str, Face] = {}
        for m in self.legal():
            if isinstance(m, PLAYS) and m.player == player:
                face = Face.of(self.st.card(m.card))
                seen.setdefault(face.key, face)
        return sorted(seen.values(), key=lambda f: KIND_ORDER.index(f.kind) if f.kind in KIND_ORDER else 99)

    def hand_faces(self, player: str) -> list[Face]:
        """The faces that can be in `player`'s hand (for the discard picker), money first."""
        out = [Face.of(self.st.card(cid)) for cid in hand_faces(self.st, player).values()]
        return sorted(out, key=lambda f: KIND_ORDER.index(f.kind) if f.kind in KIND_ORDER else 99)

    def wild_moves(self, player: str) -> dict[str, list[str]]:
        """`player`'s wilds on the table that may move now, each with the colours it may move to."""
        out: dict[str, list[str]] = {}
        for m in self.offered(MoveWild):
            if m.player == player:
                out.setdefault(m.card, []).append(m.colour)
        return out

    def wild_colour(self, card_id: str) -> str:
        """The colour a wild on the table lies in now."""
        return self.card_colour(card_id) or ""

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.players if p != player]

    # ----- answers and payments
    def chain_lines(self) -> list[str]:
        """The open action and its Just Say No chain, one sentence each, for everyone to read."""
        p = self.st.pending
        if p is None:
            return []
        c = p.claim
        lines = [self._action_sentence()]
        for i, _ in enumerate(c.chain):
            who = c.target if i % 2 == 0 else p.actor
            lines.append(f"{who} says Just Say No!")
        if c.chain:
            words = ACTION_WORDS[p.kind]
            if len(c.chain) % 2:
                lines.append(f"The {words} is cancelled, unless {p.actor} answers with a Just Say No.")
            else:
                lines.append(f"The {words} stands again, unless {c.target} answers with another.")
        return lines

    def _action_sentence(self) -> str:
        """The open action against the open claim's target, in words."""
        p = self.st.pending
        assert p is not None
        c = p.claim
        actor, target = p.actor, c.target
        if p.kind == "rent":
            doubled = "" if len(p.cards) == 1 else " (doubled)" if len(p.cards) == 2 else \
                f" (x{2 ** (len(p.cards) - 1)})"
            return f"{actor} charges {target} {money_millions(c.amount)} rent for {self.colour_name(p.colour or '')}{doubled}."
        if p.kind == "debt_collector":
            return f"{actor} plays Debt Collector: {target} owes {money_millions(c.amount)}."
        if p.kind == "birthday":
            return f"It's {actor}'s birthday: {target} owes {money_millions(c.amount)}."
        if p.kind == "sly_deal" and p.take:
            return f"{actor} plays Sly Deal on {target}: takes {self.card_name(p.take)}."
        if p.kind == "forced_deal" and p.take and p.give:
            return (f"{actor} plays Forced Deal on {target}: {self.card_name(p.give)} for "
                    f"{self.card_name(p.take)}.")
        if p.kind == "deal_breaker" and p.colour:
            return f"{actor} plays Deal Breaker on {target}: takes the complete {self.colour_name(p.colour)} set."
        return f"{actor} plays {ACTION_WORDS[p.kind]} against {target}."

    def payment_lines(self) -> list[str]:
        """Every payment so far, latest first: who paid whom, what for, with what, change and forgiven."""
        out = []
        for pay in reversed(self.st.payments):
            reason = pay.reason
            found = re.fullmatch(r"(.+) \((.+)\)", reason)  # "rent (dark_blue)" or "rent (Dark Blue)"
            if found:
                word, colour = found.groups()
                known = self.st.deck is not None and colour in self.st.deck.colour_ids
                reason = f"{word} for {self.colour_name(colour) if known else colour}"
            cards = ", ".join(self.card_name(c) for c in pay.cards) or "nothing"
            extra = (f"; {money_millions(pay.value - pay.owed)} over, no change" if pay.value > pay.owed else "") + \
                (f"; {money_millions(pay.forgiven)} forgiven" if pay.forgiven else "")
            out.append(f"{pay.payer} paid {pay.payee} {money_millions(pay.value)} of {money_millions(pay.owed)} ({reason}): "
                       f"{cards}{extra}.")
        return out

    def payment_note(self, payer: str, amount: int, chosen: list[str]) -> str:
        """What the payment screen says of the cards chosen so far (the rules judge it when recorded)."""
        payable = self.payable(payer)
        total = sum(self.card_value(c) for c in chosen)
        everything = sum(self.card_value(c) for c in payable)
        spare = next((c for c in chosen if total - self.card_value(c) >= amount), None)
        paying = f"Paying {money_millions(total)} for {money_millions(amount)}"
        if spare is not None:
            left = total - self.card_value(spare)
            return (f"Too much: {money_millions(left)} already covers {money_millions(amount)} without "
                    f"{self.card_name(spare)}, and no change is given. Tap a card to take it out.")
        if total >= amount:
            over = total - amount
            return f"{paying}. " + (f"No change is given: {money_millions(over)} over." if over else
                                    "Exact: no change is due.")
        if set(chosen) == set(payable):
            return (f"{payer} has only {money_millions(everything)} in bank and properties: everything goes and "
                    f"{money_millions(amount - total)} is forgiven.")
        if everything < amount:
            return f"{paying}: not enough. {payer} is short, and a short payer gives everything."
        return f"{paying}: not enough. Tap cards worth {money_millions(amount - total)} more."

    def payable(self, payer: str) -> list[str]:
        return list(self.st.payable(payer))

    def proposal(self, payer: str, amount: int) -> list[str]:
        return list(self.st.propose_payment(payer, amount))

    def card_value(self, card_id: str) -> int:
        return self.st.card(card_id).value

    def card_colour(self, card_id: str) -> str | None:
        """The colour a table card lies in (its set), for drawing it; None for bank cards."""
        for p in self.players:
            s = self.st.set_of(p, card_id)
            if s is not None:
                return s.colour
        return None

    # ----- the taps (each one event; the engine refuses an illegal one with a sentence)
    def _turn_player(self) -> str:
        player = self.st.turn_player
        if player is None or self.finished:
            raise TableError("The game is over.")
        return player

    def draw(self) -> str:
        player = self._turn_player()
        before = self.st.hands.get(player, 0)
        self.push(Draw(player=player))
        return f"{player} draws {self.st.hands[player] - before}."

    def bank(self, face: str) -> str:
        player = self._turn_player()
        card = self.card_for(player, face)
        self.push(BankCard(player=player, card=card))
        return f"{player} banks {face}."

    def lay(self, face: str, colour: str | None = None) -> str:
        player = self._turn_player()
        card = self.card_for(player, face)
        self.push(Lay(player=player, card=card, colour=colour))
        where = self.colour_name(colour or self.st.card(card).colours[0])
        return f"{player} lays {face} ({where})."

    def move_wild(self, card: str, colour: str) -> str:
        player = self._turn_player()
        self.push(MoveWild(player=player, card=card, colour=colour))
        return f"{player} moves {self.card_name(card)} to {self.colour_name(colour)}."

    def pass_go(self, face: str) -> str:
        player = self._turn_player()
        self.push(PassGo(player=player, card=self.card_for(player, face)))
        return f"{player} plays Pass Go and draws 2."

    def rent(self, face: str, colour: str, target: str | None, doubles: int = 0) -> str:
        player = self._turn_player()
        card = self.card_for(player, face)
        extra = self.cards_for(player, ["Double The Rent"] * doubles) if doubles else []
        self.push(Rent(player=player, card=card, colour=colour, target=target, doubles=extra))
        return self.latest()

    def debt_collector(self, face: str, target: str) -> str:
        player = self._turn_player()
        self.push(DebtCollector(player=player, card=self.card_for(player, face), target=target))
        return self.latest()

    def birthday(self, face: str) -> str:
        player = self._turn_player()
        self.push(Birthday(player=player, card=self.card_for(player, face)))
        return self.latest()

    def sly_deal(self, face: str, target: str, take: str) -> str:
        player = self._turn_player()
        self.push(SlyDeal(player=player, card=self.card_for(player, face), target=target, take=take))
        return self.latest()

    def forced_deal(self, face: str, target: str, take: str, give: str) -> str:
        player = self._turn_player()
        self.push(ForcedDeal(player=player, card=self.card_for(player, face), target=target, take=take, give=give))
        return self.latest()

    def deal_breaker(self, face: str, target: str, colour: str) -> str:
        player = self._turn_player()
        self.push(DealBreaker(player=player, card=self.card_for(player, face), target=target, colour=colour))
        return self.latest()

    def build(self, face: str, colour: str) -> str:
        player = self._turn_player()
        self.push(Build(player=player, card=self.card_for(player, face), colour=colour))
        return f"{player} puts a {face.lower()} on {self.colour_name(colour)}."

    def double_rent(self, player: str) -> str:
        """A Double the Rent card joined to the rent `player` has just played (its own tap and play)."""
        self.push(DoubleRent(player=player, card=self.card_for(player, "Double The Rent")))
        return self.latest()

    def end_by_agreement(self) -> str:
        self.push(EndByAgreement())
        return self.latest()

    def just_say_no(self, player: str) -> str:
        self.push(JustSayNo(player=player, card=self.card_for(player, "Just Say No!")))
        return f"{player} says Just Say No!"

    def accept(self, player: str) -> str:
        self.push(Accept(player=player))
        return self.latest()

    def pay(self, player: str, cards: list[str]) -> str:
        before = len(self.st.payments)
        self.push(Pay(player=player, cards=list(cards)))
        # The first new payment is this one (a next payer with nothing to give settles right after it).
        last = self.st.payments[before] if len(self.st.payments) > before else None
        if last is None or last.payer != player:
            return self.latest()
        words = f"{player} pays {last.payee} {money_millions(last.value)}"
        if last.value > last.owed:
            words += f": no change on {money_millions(last.value - last.owed)}"
        if last.forgiven:
            words += f": all {player} had; {money_millions(last.forgiven)} forgiven"
        return words + "."

    def discard(self, faces: list[str], face_down: bool = False) -> str:
        """Discard the cards of `faces` (one tap, one event; the end of the turn is the next tap); the rules
        say whether it is allowed. `face_down`: the discard the rules offer of hidden cards under the draw
        pile (the house rule that sends them there)."""
        player = self._turn_player()
        if face_down:
            offered = [m for m in self.offered(Discard) if m.unseen and m.player == player]
            if not offered:
                raise TableError("This table discards face up: tap the cards that go.")
            self.push(offered[0])
            return f"{player} discards {offered[0].unseen} face down under the draw pile."
        cards = self.cards_for(player, faces)
        self.push(Discard(player=player, cards=cards))
        return f"{player} discards {len(cards)}."

    def end_turn(self) -> str:
        player = self._turn_player()
        self.push(EndTurn(player=player))
        return f"{player} ends the turn; {self.st.turn_player} to play."

    # ----- the end
    def history(self) -> list[ChartPoint]:
        """Each player's money on the table (bank + properties + buildings, M) at the deal, after every turn,
        and at the end, for the end chart: the log folded again, one snapshot per end of turn."""
        return self.replayed_history(new_state, _money_on_table, after=lambda event: isinstance(event, (Start, EndTurn)),
                                     repeats=True, final_point_when=lambda state: state.finished)


def _money_on_table(state: DealState) -> ChartPoint:
    return {p: state.bank_total(p) + state.table_value(p) for p in state.players}


def new_deal(players: list[PlayerInfo], house: HouseRules | None = None) -> DealTable:
    """A new game: the shipped deck, five cards dealt to each, the house rules from the setup form."""
    try:
        log = new_game([p.name for p in players], house=house or HouseRules())
    except ValueError as exc:
        raise TableError(str(exc)) from None
    return DealTable(players, log)


def rebuild(game_id: str, table: dict[str, Any], events: list[Any]) -> DealTable:
    """The table again from the store (the start event carries the deck and the house rules)."""
    log: GameLog[DealState] = GameLog(new_state, events)
    return DealTable(stored_seats(table, log.state.players), log, game_id=game_id)
