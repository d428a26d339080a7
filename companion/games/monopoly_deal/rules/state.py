"""Monopoly Deal's folded state: the views on its fields (`views.DealView`), copying (through the
constructor) and the handler of each event (the package docstring describes the rules).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.events import Event, PlayerEvent
from companion.games.monopoly_deal.deck import Card, with_counts
from companion.games.monopoly_deal.rules.events import (
    Accept,
    BankCard,
    Birthday,
    Build,
    DealBreaker,
    DebtCollector,
    Discard,
    DoubleRent,
    Draw,
    EndByAgreement,
    EndTurn,
    ForcedDeal,
    JustSayNo,
    Lay,
    MoveWild,
    PassGo,
    Pay,
    Rent,
    SlyDeal,
    Start,
)
from companion.games.monopoly_deal.rules.records import (
    ACTION_WORDS,
    Claim,
    Payment,
    Pending,
    PendingKind,
    PropertySet,
)
from companion.games.monopoly_deal.rules.views import DealView
from companion.rules.errors import IllegalAction
from companion.rules.money import money_millions as money
from companion.rules.state_copy import copy_state
from companion.rules.turns import expect_player, expect_turn, not_your_turn


@dataclass
class DealState(DealView):
    """The folded state of a Monopoly Deal game: the views (`DealView`) and the handler of each event."""

    def __deepcopy__(self, memo: dict[int, Any]) -> DealState:
        """A copy for `GameLog.push` (which applies each event to a copy): the story, the payments and the
        turn history only ever grow by values nobody changes afterwards, so their lists are copied and
        their items shared; the settings and the deck are frozen; the rest is copied deeply. (The whole
        deep copy was most of the cost of recording an event late in a game.) Made through the constructor,
        field by field (`copy_state`), so a field added later is copied too."""
        def copy_field(name: str, value: Any) -> Any:
            if name in ("settings", "deck"):
                return value
            if name in ("story", "payments", "history"):
                return list(value)
            if name in ("seen_in_hand", "banks"):
                return {p: list(cards) for p, cards in value.items()}
            if name == "sets":
                return {p: [PropertySet(s.colour, list(s.cards), s.house, s.hotel) for s in sets]
                        for p, sets in value.items()}
            return copy.deepcopy(value, memo)

        return copy_state(self, copy_field)

    # ----- folding
    def _start(self, event: Start) -> None:
        s = event.settings
        deck = s.deck
        counts: dict[Any, int] = {}
        if s.house.forced_deal_count is not None:
            counts["forced_deal"] = s.house.forced_deal_count
        if s.house.hotel_count is not None:
            counts["hotel"] = s.house.hotel_count
        if counts:
            deck = with_counts(deck, counts)
        n = len(s.players)
        if not deck.min_players <= n <= deck.max_players:
            raise IllegalAction(f"Monopoly Deal is for {deck.min_players} to {deck.max_players} players, not {n}")
        deal = deck.rules.deal
        if deal * n > len(deck.cards):
            raise IllegalAction(f"the deck has {len(deck.cards)} cards: too few to deal {deal} to {n} players")
        for p, cards in s.dealt.items():
            if p not in s.players:
                raise IllegalAction(f"cards are dealt to {p}, who is not playing")
            if len(cards) > deal:
                raise IllegalAction(f"{p} is dealt {len(cards)} cards; the deal is {deal}")
            for c in cards:
                if c not in deck.card_index():
                    raise IllegalAction(f"there is no card '{c}' in this game's deck")
        dealt = [c for cards in s.dealt.values() for c in cards]
        if len(set(dealt)) != len(dealt):
            raise IllegalAction("the same card is dealt twice")
        self.settings = s
        self.deck = deck
        self.hands = {p: deal for p in s.players}
        self.seen_in_hand = {p: list(s.dealt.get(p, [])) for p in s.players}
        self.banks = {p: [] for p in s.players}
        self.sets = {p: [] for p in s.players}
        self.draw_count = len(deck.cards) - deal * n
        self.story.append(f"{n} players, {deal} cards each; {s.players[0]} starts")

    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        return {Draw: self._draw_event, BankCard: self._bank, Lay: self._lay, MoveWild: self._move_wild,
                PassGo: self._pass_go, Rent: self._rent, DebtCollector: self._debt_collector,
                Birthday: self._birthday, SlyDeal: self._sly_deal, ForcedDeal: self._forced_deal,
                DealBreaker: self._deal_breaker, Build: self._build, JustSayNo: self._just_say_no,
                Accept: self._accept, Pay: self._pay, Discard: self._discard, EndTurn: self._end_turn,
                DoubleRent: self._double_rent, EndByAgreement: self._end_by_agreement}

    def _handle(self, event: Event) -> None:
        if isinstance(event, PlayerEvent):
            expect_player(event.player, self.players)
        super()._handle(event)
        self._advance()

    # ----- checks shared by the handlers
    def _my_turn(self, event: PlayerEvent, action: str) -> None:
        """`action` (a verb: 'bank a card') is the turn player's, after the draw, with no action being answered."""
        w = self.waiting()
        first = w.sentence if w.kind in ("answer", "pay") else None
        expect_turn(event.player, action, players=self.players, current=self.turn_player, first=first)
        if w.kind == "draw":
            raise IllegalAction(f"{event.player} draws first")

    def _use_plays(self, event: PlayerEvent, action: str, n: int = 1) -> None:
        self._my_turn(event, action)
        limit = self.limits.plays_per_turn
        if self.plays + n > limit:
            if n > 1:
                raise IllegalAction(f"to {action} takes {n} plays and {event.player} has {self.plays_left} left: "
                                    f"it would be play {self.plays + n} of {limit}")
            raise IllegalAction(f"{event.player} has used all {limit} plays this turn: end the turn")
        self.plays += n

    def _from_hand(self, player: str, card_id: str) -> Card:
        """Take a card out of `player`'s hand (seen there, or unseen while the hand holds unseen cards)."""
        card = self.card(card_id)
        seen = self.seen_in_hand[player]
        if card_id in seen:
            seen.remove(card_id)
        else:
            where = self.card_places()[card_id]
            if where != "unseen":
                raise IllegalAction(f"{card.name} ({card_id}) cannot be in {player}'s hand: it is {_where(where, self._colour_names())}")
            if self.unseen_in_hand(player) <= 0:
                raise IllegalAction(f"{player} has no card in hand" if self.hands[player] == 0 else
                                    f"{player}'s cards in hand are all known and {card.name} is not one of them")
        self.hands[player] -= 1
        return card

    def _opponent(self, actor: str, target: str) -> None:
        if target == actor:
            raise IllegalAction(f"{actor} cannot target themself")
        expect_player(target, self.players)

    def _play_action_card(self, event: PlayerEvent, card_id: str, action: str) -> None:
        """`card_id` played from the hand as an action (`action`: 'play Sly Deal'): a play used, the card to
        the discard pile."""
        self._use_plays(event, action)
        self._from_hand(event.player, card_id)
        self.discard.append(card_id)

    def _action_card(self, card_id: str, action: str, label: str) -> None:
        card = self.card(card_id)
        if card.action != action:
            raise IllegalAction(f"{card.name} ({card_id}) is not a {label} card")

    def _colour(self, colour: str) -> None:
        if colour not in self._deck().colour_ids:
            raise IllegalAction(f"there is no colour '{colour}': the colours are {', '.join(self._deck().colour_ids)}")

    # ----- moving cards between places
    def _place(self, player: str, card_id: str, colour: str) -> None:
        """Lay a property card in `player`'s area: into the first incomplete set of its colour, else a new set."""
        size = self.colour_size(colour)
        for s in self.sets[player]:
            if s.colour == colour and len(s.cards) < size:
                s.cards.append(card_id)
                return
        self.sets[player].append(PropertySet(colour, [card_id]))

    def _remove_from_table(self, player: str, card_id: str) -> PropertySet:
        s = self.set_of(player, card_id)
        if s is None:
            raise IllegalAction(f"{self.name(card_id)} is not on {player}'s table")
        if card_id in s.cards:
            s.cards.remove(card_id)
        elif s.house == card_id:
            s.house = None
        else:
            s.hotel = None
        return s

    def _tidy(self, player: str) -> None:
        """After cards leave or join an area: incomplete sets of one colour merge; a building whose set is no
        longer complete follows the house rule; empty sets without buildings go."""
        for colour in self._deck().colour_ids:
            size = self.colour_size(colour)
            part = [s for s in self.sets[player] if s.colour == colour and len(s.cards) < size]
            if len(part) < 2:
                continue
            pool = [c for s in part for c in s.cards]
            for s in part:
                s.cards, pool = pool[:size], pool[size:]
            homeless = [s for s in part if not s.cards and s.buildings()]
            bare = [s for s in part if s.cards and not s.buildings()]
            for empty, target in zip(homeless, bare):
                target.house, target.hotel, empty.house, empty.hotel = empty.house, empty.hotel, None, None
        rule = self.house.broken_set_buildings
        for s in list(self.sets[player]):
            if s.buildings() and not self.is_complete(s) and rule != "stay":
                for b in s.buildings():
                    (self.banks[player] if rule == "bank" else self.discard).append(b)
                    self.story.append(f"{self.name(b)} off {player}'s broken {self.colour_name(s.colour)} set "
                                      f"to {'their bank' if rule == 'bank' else 'the discard pile'}")
                s.house = s.hotel = None
            if not s.cards and not s.buildings():
                self.sets[player].remove(s)

    def _draw(self, player: str, n: int, named: list[str]) -> int:
        """`player` draws `n` (fewer when the piles run out); `named` are the drawn cards the table saw."""
        if len(named) != len(set(named)):
            raise IllegalAction("the same card is named twice in the draw")
        if n > self.draw_count and self.house.reshuffle_discards and self.discard:
            self.story.append(f"the draw pile runs out: the {len(self.discard)} discarded cards are shuffled "
                              "into a new draw pile")
            self.draw_count += len(self.discard)
            self.discard.clear()
        k = min(n, self.draw_count)
        if len(named) > k:
            raise IllegalAction(f"{player} draws {k} cards, not {len(named)}")
        places = self.card_places()
        for c in named:
            self.card(c)
            if places[c] != "unseen":
                raise IllegalAction(f"{self.name(c)} ({c}) cannot be drawn: it is {_where(places[c], self._colour_names())}")
        self.hands[player] += k
        self.draw_count -= k
        self.seen_in_hand[player] += named
        return k

    # ----- turn events
    def _draw_event(self, event: Draw) -> None:
        if event.player != self.turn_player:
            raise IllegalAction(not_your_turn(event.player, self.turn_player, "draw"))
        if self.pending is not None:
            raise IllegalAction(f"first: {self.waiting().sentence}")
        if self.drawn:
            raise IllegalAction(f"{event.player} has already drawn this turn")
        n = self._draw_size(event.player)
        k = self._draw(event.player, n, event.cards)
        self.drawn = True
        self.story.append(f"{event.player} draws {k}" + (" (empty hand)" if n > self.limits.draw else ""))

    def _bank(self, event: BankCard) -> None:
        card = self.card(event.card)
        if card.kind == "property":
            raise IllegalAction(f"{card.name} is a property: property cards cannot go in the bank")
        if card.value <= 0:
            raise IllegalAction(f"{card.name} has no money value and cannot go in the bank")
        if card.kind == "wild" and not self.house.bank_property_wilds:
            raise IllegalAction(f"{card.name} is a property wild: this table does not bank property wilds")
        self._use_plays(event, "bank a card")
        self._from_hand(event.player, event.card)
        self.banks[event.player].append(event.card)
        self.story.append(f"{event.player} banks {card.name}" +
                          ("" if card.kind == "money" else f" ({money(card.value)})"))

    def _lay(self, event: Lay) -> None:
        card = self.card(event.card)
        if card.kind not in ("property", "wild"):
            raise IllegalAction(f"{card.name} is not a property card: it cannot be laid in the property area")
        colour = event.colour or (card.colours[0] if card.kind == "property" else None)
        if colour is None:
            raise IllegalAction(f"say which colour the {card.name} is laid as")
        self._colour(colour)
        if not card.can_be(colour):
            raise IllegalAction(f"{card.name} cannot be laid as {self.colour_name(colour)}: it is "
                                f"{self.colours_said(card)}")
        self._use_plays(event, "lay a property")
        self._from_hand(event.player, event.card)
        self._place(event.player, event.card, colour)
        self.story.append(f"{event.player} lays {card.name}" +
                          (f" as {self.colour_name(colour)}" if card.kind == "wild" else ""))

    def _move_wild(self, event: MoveWild) -> None:
        self._my_turn(event, "move a wild")
        card = self.card(event.card)
        if card.kind != "wild":
            raise IllegalAction(f"{card.name} is not a wild card: only wilds change colour")
        s = self.set_of(event.player, event.card)
        if s is None or event.card not in s.cards:
            raise IllegalAction(f"{card.name} is not in {event.player}'s property area")
        self._colour(event.colour)
        if not card.can_be(event.colour):
            raise IllegalAction(f"{card.name} cannot be {self.colour_name(event.colour)}: it is "
                                f"{self.colours_said(card)}")
        if s.colour == event.colour:
            raise IllegalAction(f"{card.name} is already {self.colour_name(event.colour)}")
        s.cards.remove(event.card)
        self._place(event.player, event.card, event.colour)
        self._tidy(event.player)
        self.story.append(f"{event.player} moves {card.name} to {self.colour_name(event.colour)} (no play used)")

    def _pass_go(self, event: PassGo) -> None:
        self._action_card(event.card, "pass_go", "Pass Go")
        self._play_action_card(event, event.card, "play Pass Go")
        k = self._draw(event.player, self.limits.pass_go_draw, event.drawn)
        self.story.append(f"{event.player} plays Pass Go and draws {k}")

    def _build(self, event: Build) -> None:
        card = self.card(event.card)
        if card.kind != "building":
            raise IllegalAction(f"{card.name} is not a house or a hotel")
        self._colour(event.colour)
        colour = self._deck().colour(event.colour)
        if not colour.buildings:
            raise IllegalAction(f"houses and hotels never go on {colour.name} sets")
        sets = [s for s in self.complete_sets(event.player) if s.colour == event.colour]
        if not sets:
            raise IllegalAction(f"a {card.name.lower()} goes only on a complete set: {event.player} has no "
                                f"complete {colour.name} set")
        if card.action == "house":
            free = [s for s in sets if s.house is None]
            if not free:
                raise IllegalAction(f"{event.player}'s {colour.name} set already has a house: one house per set")
        else:
            free = [s for s in sets if s.house is not None and s.hotel is None]
            if not free:
                has_hotel = any(s.hotel for s in sets)
                raise IllegalAction(f"{event.player}'s {colour.name} set already has a hotel: one hotel per set"
                                    if has_hotel else f"a hotel needs a house first on the {colour.name} set")
        self._use_plays(event, f"build a {card.name.lower()}")
        self._from_hand(event.player, event.card)
        if card.action == "house":
            free[0].house = event.card
        else:
            free[0].hotel = event.card
        self.story.append(f"{event.player} puts a {card.name.lower()} on {colour.name}")

    # ----- actions against other players
    def _open(self, kind: PendingKind, actor: str, cards: list[str], targets: list[str], amount: int,
              **extra: Any) -> None:
        self.pending = Pending(kind, actor, cards, [Claim(t, amount) for t in targets], **extra)

    def _opponents(self, actor: str) -> list[str]:
        """Everyone else, in seating order from `actor`'s left."""
        i = self.players.index(actor)
        return self.players[i + 1:] + self.players[:i]

    def _rent(self, event: Rent) -> None:
        card = self.card(event.card)
        if card.kind != "rent":
            raise IllegalAction(f"{card.name} is not a rent card")
        self._colour(event.colour)
        if not card.any_colour and event.colour not in card.colours:
            raise IllegalAction(f"{card.name} charges {self.colours_said(card)}, not "
                                f"{self.colour_name(event.colour)}")
        if card.any_colour:
            if event.target is None:
                raise IllegalAction("the any-colour rent charges one player: say who")
            self._opponent(event.player, event.target)
        elif event.target is not None:
            raise IllegalAction(f"{card.name} charges every opponent: no target is named")
        for d in event.doubles:
            self._action_card(d, "double_the_rent", "Double the Rent")
        if len(set(event.doubles)) != len(event.doubles):
            raise IllegalAction("the same Double the Rent card is named twice")
        if len(event.doubles) > 1 and not self.house.stack_double_rent:
            raise IllegalAction("this table plays one Double the Rent per rent card")
        if event.doubles and card.any_colour and not self.house.double_with_any_rent:
            raise IllegalAction("this table plays Double the Rent with two-colour rent cards only")
        base = self.rent_for(event.player, event.colour)
        if base == 0:
            multi = any(s.colour == event.colour for s in self.sets[event.player])
            raise IllegalAction(f"{event.player} has no {self.colour_name(event.colour)} property to charge rent for" +
                                (": a multicolour wild alone earns no rent" if multi else ""))
        what = "charge rent with Double the Rent" if event.doubles else "charge rent"
        self._use_plays(event, what, 1 + len(event.doubles))
        for c in [event.card, *event.doubles]:
            self._from_hand(event.player, c)
            self.discard.append(c)
        amount = base * 2 ** len(event.doubles)
        targets = [event.target] if event.target else self._opponents(event.player)
        self._open("rent", event.player, [event.card, *event.doubles], targets, amount, colour=event.colour)
        who = event.target or "every opponent"
        self.story.append(f"{event.player} charges {who} {money(amount)} rent for {self.colour_name(event.colour)}"
                          + (f" (doubled x{2 ** len(event.doubles)})" if event.doubles else ""))

    def _double_rent(self, event: DoubleRent) -> None:
        self._action_card(event.card, "double_the_rent", "Double the Rent")
        p = self.pending
        if p is None or p.kind != "rent" or p.actor != event.player:
            raise IllegalAction(f"Double the Rent goes with a rent card {event.player} has just played: play "
                                "the rent card first")
        if self.double_limit(p.cards[0]) == 0:
            raise IllegalAction("this table plays Double the Rent with two-colour rent cards only")
        if self.open_rent_to_double(event.player) is None:
            if len(p.cards) - 1 >= self.double_limit(p.cards[0]):
                raise IllegalAction("this table plays one Double the Rent per rent card")
            raise IllegalAction(f"the rent has been answered or paid: Double the Rent comes before "
                                f"{p.claim.target} answers")
        if self.plays + 1 > self.limits.plays_per_turn:
            raise IllegalAction(f"{event.player} has used all {self.limits.plays_per_turn} plays this turn: "
                                "Double the Rent would be one more")
        self._from_hand(event.player, event.card)
        self.plays += 1
        self.discard.append(event.card)
        p.cards.append(event.card)
        for i, c in enumerate(p.claims):
            c.amount *= 2
            if i < p.index:  # settled with nothing: the payment record owes the doubled amount
                for k in range(len(self.payments) - 1, -1, -1):
                    old = self.payments[k]
                    if old.payer == c.target and old.payee == p.actor and not old.cards:
                        self.payments[k] = Payment(old.payer, old.payee, c.amount, (), 0, old.reason)
                        break
        self.story.append(f"{event.player} doubles the rent with Double the Rent: {p.claim.target} owes "
                          f"{money(p.claim.amount)}")

    def _end_by_agreement(self, event: EndByAgreement) -> None:
        """The table stops: most complete sets, then most money on the table; equal leaders share it."""
        def standing(p: str) -> tuple[int, int]:
            return len(self.complete_colours(p)), self.bank_total(p) + self.table_value(p)

        best = max(standing(p) for p in self.players)
        leaders = [p for p in self.players if standing(p) == best]
        self.pending = None
        self.finished = True
        self.agreed = True
        how = f"{best[0]} complete set{'s' if best[0] != 1 else ''} and {money(best[1])} on the table"
        if len(leaders) == 1:
            self.winner_name = leaders[0]
            self.story.append(f"the table ends the game by agreement: {leaders[0]} wins with {how}")
        else:
            self.tied = leaders
            self.story.append(f"the table ends the game by agreement: {' and '.join(leaders)} share it with {how} "
                              "each")

    def _debt_collector(self, event: DebtCollector) -> None:
        self._action_card(event.card, "debt_collector", "Debt Collector")
        self._opponent(event.player, event.target)
        self._play_action_card(event, event.card, "play Debt Collector")
        self._open("debt_collector", event.player, [event.card], [event.target], self.limits.debt_collector)
        self.story.append(f"{event.player} plays Debt Collector: {event.target} owes "
                          f"{money(self.limits.debt_collector)}")

    def _birthday(self, event: Birthday) -> None:
        self._action_card(event.card, "its_my_birthday", "It's My Birthday")
        self._play_action_card(event, event.card, "play It's My Birthday")
        self._open("birthday", event.player, [event.card], self._opponents(event.player), self.limits.birthday)
        self.story.append(f"{event.player}'s birthday: everyone owes {money(self.limits.birthday)}")

    def _check_take(self, owner: str, card_id: str, verb: str) -> PropertySet:
        card = self.card(card_id)
        s = self.set_of(owner, card_id)
        if s is None or card_id not in s.cards:
            raise IllegalAction(f"{card.name} is not a property in {owner}'s area")
        if self.is_complete(s):
            raise IllegalAction(f"{card.name} is part of {owner}'s complete {self.colour_name(s.colour)} set: "
                                f"{verb} cannot take from a complete set (a Deal Breaker takes whole sets)")
        return s

    def _sly_deal(self, event: SlyDeal) -> None:
        self._action_card(event.card, "sly_deal", "Sly Deal")
        self._opponent(event.player, event.target)
        self._check_take(event.target, event.take, "a Sly Deal")
        self._play_action_card(event, event.card, "play Sly Deal")
        self._open("sly_deal", event.player, [event.card], [event.target], 0, take=event.take)
        self.story.append(f"{event.player} plays Sly Deal on {event.target}'s {self.name(event.take)}")

    def _forced_deal(self, event: ForcedDeal) -> None:
        self._action_card(event.card, "forced_deal", "Forced Deal")
        self._opponent(event.player, event.target)
        self._check_take(event.target, event.take, "a Forced Deal")
        mine = self.set_of(event.player, event.give)
        if mine is None or event.give not in mine.cards:
            raise IllegalAction(f"{self.name(event.give)} is not a property in {event.player}'s area")
        if self.is_complete(mine) and not self.house.forced_deal_from_full_set:
            raise IllegalAction(f"{self.name(event.give)} is part of {event.player}'s complete "
                                f"{self.colour_name(mine.colour)} set: "
                                "this table does not give cards out of complete sets in a Forced Deal")
        self._play_action_card(event, event.card, "play Forced Deal")
        self._open("forced_deal", event.player, [event.card], [event.target], 0, take=event.take, give=event.give)
        self.story.append(f"{event.player} plays Forced Deal: {self.name(event.give)} for {event.target}'s "
                          f"{self.name(event.take)}")

    def _deal_breaker(self, event: DealBreaker) -> None:
        self._action_card(event.card, "deal_breaker", "Deal Breaker")
        self._opponent(event.player, event.target)
        self._colour(event.colour)
        if not any(s.colour == event.colour for s in self.complete_sets(event.target)):
            raise IllegalAction(f"{event.target} has no complete {self.colour_name(event.colour)} set: a Deal Breaker takes "
                                "complete sets only")
        self._play_action_card(event, event.card, "play Deal Breaker")
        self._open("deal_breaker", event.player, [event.card], [event.target], 0, colour=event.colour)
        self.story.append(f"{event.player} plays Deal Breaker on {event.target}'s {self.colour_name(event.colour)} set")

    # ----- answers and payments
    def _need_answer(self, event: PlayerEvent) -> Pending:
        p = self.pending
        if p is None or p.claim.status != "answer":
            raise IllegalAction(f"no action waits for an answer: {self.waiting().sentence}")
        if event.player != p.responder:
            raise IllegalAction(f"{p.responder} answers now, not {event.player}")
        return p

    def _just_say_no(self, event: JustSayNo) -> None:
        p = self._need_answer(event)
        self._action_card(event.card, "just_say_no", "Just Say No")
        self._from_hand(event.player, event.card)
        self.discard.append(event.card)
        p.claim.chain.append(event.card)
        against = "the " + ACTION_WORDS[p.kind] if len(p.claim.chain) % 2 else "the Just Say No"
        self.story.append(f"{event.player} says Just Say No to {against} (no play used)")

    def _accept(self, event: Accept) -> None:
        p = self._need_answer(event)
        p.claim.accepted = True
        self._resolve(p)

    def _resolve(self, p: Pending) -> None:
        """The open claim's answer is settled: the action stands (even chain) or is cancelled (odd)."""
        c = p.claim
        if len(c.chain) % 2:
            c.status = "cancelled"
            self.story.append(f"{ACTION_WORDS[p.kind]} against {c.target} is cancelled")
            return
        if c.amount > 0:
            c.status = "pay"
            return
        actor, target = p.actor, c.target
        if p.kind == "sly_deal" and p.take:
            self._move_property(target, actor, p.take)
        elif p.kind == "forced_deal" and p.take and p.give:
            self._move_property(target, actor, p.take)
            self._move_property(actor, target, p.give)
        elif p.kind == "deal_breaker" and p.colour:
            s = next(s for s in self.complete_sets(target) if s.colour == p.colour)
            self.sets[target].remove(s)
            self.sets[actor].append(s)
            self.story.append(f"{actor} takes {target}'s complete {self.colour_name(p.colour)} set"
                              + (" with its buildings" if s.buildings() else ""))
        c.status = "done"
        self._tidy(actor)
        self._tidy(target)

    def _move_property(self, giver: str, receiver: str, card_id: str) -> None:
        s = self._remove_from_table(giver, card_id)
        self._place(receiver, card_id, s.colour)
        self.story.append(f"{self.name(card_id)} goes from {giver} to {receiver}")

    def _pay(self, event: Pay) -> None:
        p = self.pending
        if p is None or p.claim.status not in ("pay", "answer") or p.claim.amount == 0:
            raise IllegalAction(f"nobody owes anything now: {self.waiting().sentence}")
        c = p.claim
        if event.player != c.target:
            raise IllegalAction(f"{c.target} pays now, not {event.player}")
        if c.status == "answer":
            if p.responder != c.target:
                raise IllegalAction(f"{p.actor} answers the Just Say No first")
            c.status = "pay"  # paying is accepting
        self._settle(p, event.cards)

    def _check_payment(self, payer: str, cards: list[str], owed: int) -> int:
        if len(set(cards)) != len(cards):
            raise IllegalAction("the same card is named twice in the payment")
        payable = self.payable(payer)
        for cid in cards:
            card = self.card(cid)
            if cid not in payable:
                where = self.card_places()[cid]
                if where in (f"bank:{payer}",) or where.startswith((f"set:{payer}:", f"building:{payer}:")):
                    raise IllegalAction(f"{card.name} has no money value: it cannot pay a debt")
                raise IllegalAction(f"{payer} pays from their bank and table only, and {card.name} is "
                                    f"{_where(where, self._colour_names())}")
            s = self.set_of(payer, cid)
            if s is not None and s.house == cid and s.hotel is not None and s.hotel not in cards:
                raise IllegalAction(f"the house on {payer}'s {self.colour_name(s.colour)} set carries a hotel: "
                                    "pay the hotel with it")
        value = sum(self.card(cid).value for cid in cards)
        if value < owed:
            missing = [cid for cid in payable if cid not in cards]
            if missing and sum(self.card(c).value for c in payable) < owed:
                raise IllegalAction(f"{payer} owes {money(owed)} and gives {money(value)}: a short payer gives "
                                    f"everything on the table, so add {self.name(missing[0])}")
            if missing:
                raise IllegalAction(f"{payer} owes {money(owed)} and gives {money(value)}: add cards worth "
                                    f"{money(owed - value)} more from the bank or the table")
        else:
            for cid in cards:
                s = self.set_of(payer, cid)
                if s is not None and s.hotel == cid and s.house in cards:
                    continue  # the hotel carries its house: it cannot be left behind on its own
                if value - self.card(cid).value >= owed:
                    raise IllegalAction(f"{money(value - self.card(cid).value)} already covers {money(owed)} "
                                        f"without {self.name(cid)}: no change is given, so keep it")
        return value

    def _settle(self, p: Pending, cards: list[str]) -> None:
        c = p.claim
        payer, payee = c.target, p.actor
        value = self._check_payment(payer, cards, c.amount)
        for cid in cards:
            card = self.card(cid)
            if cid in self.banks[payer]:
                self.banks[payer].remove(cid)
                self.banks[payee].append(cid)
            elif card.kind == "building":
                self._remove_from_table(payer, cid)
                self._receive_building(payee, cid)
            else:
                self._move_property(payer, payee, cid)
        c.paid = list(cards)
        c.status = "done"
        self._tidy(payer)
        self._tidy(payee)
        reason = ACTION_WORDS[p.kind] + (f" for {self.colour_name(p.colour)}" if p.colour else "")
        self.payments.append(Payment(payer, payee, c.amount, tuple(cards), value, reason))
        short = f", {money(c.amount - value)} forgiven" if value < c.amount else ""
        over = f" (no change on {money(value - c.amount)})" if value > c.amount else ""
        self.story.append(f"{payer} pays {payee} {money(value)} for {money(c.amount)}{over}{short}")

    def _receive_building(self, player: str, card_id: str) -> None:
        card = self.card(card_id)
        if self.house.received_building == "property":
            for s in self.complete_sets(player):
                if not self._deck().colour(s.colour).buildings:
                    continue
                if card.action == "house" and s.house is None:
                    s.house = card_id
                    return
                if card.action == "hotel" and s.house is not None and s.hotel is None:
                    s.hotel = card_id
                    return
        self.banks[player].append(card_id)

    def _advance(self) -> None:
        """Settle what needs nobody's decision (an answer from a player who cannot hold a Just Say No, a
        payer with nothing to pay), move to the next claim, close a finished action, and check the win."""
        p = self.pending
        while p is not None:
            c = p.claim
            if c.status == "answer" and c.amount > 0 and not c.chain and not self.payable(c.target):
                c.status = "pay"
            if c.status == "answer" and not self.may_say_no(p.responder):
                self._resolve(p)
                continue
            if c.status == "pay" and not self.payable(c.target):
                self._settle(p, [])
                continue
            if c.status in ("done", "cancelled"):
                p.index += 1
                if p.index == len(p.claims):
                    self.pending = p = None
                continue
            break
        if self.pending is None and self.settings is not None and not self.finished:
            player = self.turn_player
            if player is not None and len(self.complete_colours(player)) >= self.limits.sets_to_win:
                self.winner_name = player
                self.finished = True
                self.story.append(f"{player} wins with complete sets of {self.colours_listed(self.complete_colours(player))}")

    def _discard(self, event: Discard) -> None:
        self._my_turn(event, "discard")
        limit = self.limits.hand_limit
        n = len(event.cards) + event.unseen
        if n == 0:
            raise IllegalAction("name the cards discarded")
        if self.hands[event.player] - n < limit:
            raise IllegalAction(f"{event.player} holds {self.hands[event.player]} cards and discards down to "
                                f"{limit}: {max(0, self.hands[event.player] - limit)} cards, not {n}")
        to_bottom = self.house.excess_cards_to == "draw_pile_bottom"
        if event.unseen and not to_bottom:
            raise IllegalAction("discards go face up to the discard pile: name each card")
        if len(set(event.cards)) != len(event.cards):
            raise IllegalAction("the same card is named twice")
        for cid in event.cards:
            self._from_hand(event.player, cid)
            if to_bottom:
                self.draw_count += 1
            else:
                self.discard.append(cid)
        if event.unseen:
            if self.unseen_in_hand(event.player) < event.unseen:
                raise IllegalAction(f"{event.player} holds only {self.unseen_in_hand(event.player)} unseen cards")
            self.hands[event.player] -= event.unseen
            self.draw_count += event.unseen
        where = "under the draw pile" if to_bottom else "to the discard pile"
        self.story.append(f"{event.player} discards {n} {where}")

    def _end_turn(self, event: EndTurn) -> None:
        self._my_turn(event, "end the turn")
        limit = self.limits.hand_limit
        if self.hands[event.player] > limit:
            extra = self.hands[event.player] - limit
            raise IllegalAction(f"{event.player} holds {self.hands[event.player]} cards: discard {extra} "
                                f"to end the turn with {limit}")
        self.history.append({
            "turn": self.turn_number, "player": event.player,
            "bank": {p: self.bank_total(p) for p in self.players},
            "sets": {p: len(self.complete_colours(p)) for p in self.players}})
        self.turn_index = (self.turn_index + 1) % len(self.players)
        self.turn_number += 1
        self.plays = 0
        self.drawn = False
        self.story.append(f"{event.player} ends the turn; {self.turn_player} to play")


def _where(place: str, names: dict[str, str] | None = None) -> str:
    kind, _, rest = place.partition(":")
    owner, _, colour = rest.partition(":")
    colour = (names or {}).get(colour, colour)
    return {"hand": f"in {owner}'s hand", "bank": f"in {owner}'s bank", "set": f"in {owner}'s {colour} set",
            "building": f"on {owner}'s {colour} set", "discard": "in the discard pile",
            "unseen": "not seen yet"}.get(kind, place)
