"""Monopoly Deal's state as data: its fields and everything read from them without changing them: the cards
and colours, where every card is (`card_places`, `problems`), property areas and rents, payments
(`propose_payment`, `payment_reasons`), what the game waits for (`waiting`, `allowed_events`), `summary()`.
`state.DealState` adds the handlers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.events import RulesState
from companion.games.monopoly_deal.deck import ANY, Card, Deck, TurnRules
from companion.games.monopoly_deal.rules.events import (
    VARIANT,
    HouseRules,
    Settings,
)
from companion.games.monopoly_deal.rules.records import (
    ACTION_WORDS,
    Payment,
    Pending,
    PropertySet,
    Waiting,
)
from companion.rules.errors import IllegalAction
from companion.rules.money import money_millions as money


@dataclass
class DealView(RulesState):
    GAME_LABEL = "Monopoly Deal"

    settings: Settings | None = None
    deck: Deck | None = None
    hands: dict[str, int] = field(default_factory=dict)
    seen_in_hand: dict[str, list[str]] = field(default_factory=dict)
    banks: dict[str, list[str]] = field(default_factory=dict)
    sets: dict[str, list[PropertySet]] = field(default_factory=dict)
    draw_count: int = 0
    discard: list[str] = field(default_factory=list)
    turn_index: int = 0
    turn_number: int = 1
    drawn: bool = False
    plays: int = 0
    pending: Pending | None = None
    payments: list[Payment] = field(default_factory=list)
    story: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    winner_name: str | None = None
    tied: list[str] = field(default_factory=list)  # a game ended by agreement with equal leaders
    agreed: bool = False
    finished: bool = False

    # ----- basics
    @property
    def players(self) -> list[str]:
        return list(self.settings.players) if self.settings else []

    @property
    def house(self) -> HouseRules:
        return self.settings.house if self.settings else HouseRules()

    def _deck(self) -> Deck:
        if self.deck is None:
            raise IllegalAction("the game has not started")
        return self.deck

    def card(self, card_id: str) -> Card:
        found = self._deck().card_index().get(card_id)
        if found is None:
            raise IllegalAction(f"there is no card '{card_id}' in this game's deck")
        return found

    def name(self, card_id: str) -> str:
        return self.card(card_id).name

    def colour_name(self, colour: str) -> str:
        """A colour as people say it ("Dark Blue"); unknown ids as they are."""
        if colour == ANY:
            return "any colour"
        known = {c.id: c.name for c in self._deck().colours}
        return known.get(colour, colour)

    def _colour_names(self) -> dict[str, str]:
        return {c.id: c.name for c in self._deck().colours}

    def colours_listed(self, colours: list[str]) -> str:
        """Colours as people list them: "Dark Blue, Red and Yellow"."""
        names = [self.colour_name(c) for c in colours]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "none"

    def colours_said(self, card: Card) -> str:
        return " or ".join(self.colour_name(c) for c in card.colours)

    @property
    def turn_player(self) -> str | None:
        return self.players[self.turn_index] if self.settings else None

    @property
    def current_player(self) -> str | None:
        """Who must act now: the player answering or paying during an action, else the turn's player."""
        return self.waiting().player

    def winner(self) -> list[str]:
        return [self.winner_name] if self.winner_name else list(self.tied)

    @property
    def limits(self) -> TurnRules:
        return self._deck().rules

    @property
    def plays_left(self) -> int:
        return max(0, self.limits.plays_per_turn - self.plays) if self.settings else 0

    # ----- what the referee knows about cards
    def card_places(self) -> dict[str, str]:
        """Every card id -> where it is: `hand:P` (seen there), `bank:P`, `set:P:colour`, `building:P:colour`,
        `discard`, or `unseen` (in the draw pile or in a hand, nobody knows which)."""
        places: dict[str, str] = {}

        def put(card_id: str, where: str) -> None:
            # A card found twice is reported by problems(); the first place wins here.
            places.setdefault(card_id, where)

        for p in self.players:
            for c in self.seen_in_hand.get(p, []):
                put(c, f"hand:{p}")
            for c in self.banks.get(p, []):
                put(c, f"bank:{p}")
            for s in self.sets.get(p, []):
                for c in s.cards:
                    put(c, f"set:{p}:{s.colour}")
                for b in s.buildings():
                    put(b, f"building:{p}:{s.colour}")
        for c in self.discard:
            put(c, "discard")
        for c in self._deck().card_index() if self.deck else ():
            places.setdefault(c, "unseen")
        return places

    def unseen(self) -> list[str]:
        """Cards nobody has seen since the deal (draw pile and hands), in deck order."""
        return [c for c, where in self.card_places().items() if where == "unseen"]

    def unseen_in_hand(self, player: str) -> int:
        return self.hands.get(player, 0) - len(self.seen_in_hand.get(player, []))

    def possible_hand_cards(self, player: str) -> list[str]:
        """The cards that can be in `player`'s hand now (for the card pickers): those seen going there,
        and every unseen card when the hand holds unseen ones; in deck order."""
        seen = set(self.seen_in_hand.get(player, []))
        unseen = set(self.unseen()) if self.unseen_in_hand(player) > 0 else set()
        return [c for c in self._deck().card_index() if c in seen or c in unseen]

    def problems(self) -> list[str]:
        """Why the card bookkeeping is inconsistent (empty when every card is in exactly one place)."""
        if self.deck is None:
            return []
        out: list[str] = []
        listed: list[str] = []
        for p in self.players:
            listed += self.seen_in_hand.get(p, []) + self.banks.get(p, [])
            for s in self.sets.get(p, []):
                listed += s.cards + s.buildings()
                size = self._deck().colour(s.colour).set_size
                if len(s.cards) > size:
                    out.append(f"{p}'s {s.colour} set has {len(s.cards)} cards, more than {size}")
            if self.unseen_in_hand(p) < 0:
                out.append(f"{p}'s hand count {self.hands[p]} is below the cards seen there")
        listed += self.discard
        twice = [c for c, n in Counter(listed).items() if n > 1]
        out += [f"{c} is in two places" for c in twice]
        known = self._deck().card_index()
        out += [f"{c} is not in the deck" for c in listed if c not in known]
        pool = len(known) - len(set(listed))
        hidden = self.draw_count + sum(self.unseen_in_hand(p) for p in self.players)
        if pool != hidden:
            out.append(f"{pool} cards are unseen but the draw pile and hands hold {hidden} unseen cards")
        if self.draw_count < 0:
            out.append("the draw pile count is negative")
        return out

    def check(self) -> None:
        """Raise AssertionError when a card is lost, doubled or created (a test and debugging aid)."""
        found = self.problems()
        if found:
            raise AssertionError("; ".join(found))

    # ----- property areas
    def colour_size(self, colour: str) -> int:
        return self._deck().colour(colour).set_size

    def is_complete(self, s: PropertySet) -> bool:
        """A set is complete with its set size in cards, unless they are all multicolour wilds (which alone
        make no set)."""
        return len(s.cards) >= self.colour_size(s.colour) and not self._only_multi(s)

    def _only_multi(self, s: PropertySet) -> bool:
        return all(self.card(c).any_colour for c in s.cards)

    def set_rent(self, s: PropertySet) -> int:
        """What the set charges: the ladder for its card count (0 when empty or only multicolour wilds), plus
        the house and hotel while it is complete."""
        if not s.cards or self._only_multi(s):
            return 0
        colour = self._deck().colour(s.colour)
        rent = colour.rent[min(len(s.cards), colour.set_size) - 1]
        if self.is_complete(s):
            rent += (self.limits.house_rent if s.house else 0) + (self.limits.hotel_rent if s.hotel else 0)
        return rent

    def rent_for(self, player: str, colour: str) -> int:
        """The rent `player` charges for `colour`: the best of their sets of that colour."""
        return max((self.set_rent(s) for s in self.sets.get(player, []) if s.colour == colour), default=0)

    def complete_sets(self, player: str) -> list[PropertySet]:
        return [s for s in self.sets.get(player, []) if self.is_complete(s)]

    def complete_colours(self, player: str) -> list[str]:
        """The different colours `player` has a complete set of (three wins)."""
        return sorted({s.colour for s in self.complete_sets(player)})

    def set_of(self, player: str, card_id: str) -> PropertySet | None:
        """The set of `player` holding `card_id` as a card or a building."""
        for s in self.sets.get(player, []):
            if card_id in s.cards or card_id in s.buildings():
                return s
        return None

    def bank_total(self, player: str) -> int:
        return sum(self.card(c).value for c in self.banks.get(player, []))

    def table_value(self, player: str) -> int:
        return sum(self.card(c).value for s in self.sets.get(player, []) for c in s.cards + s.buildings())

    def takeable(self, player: str) -> list[str]:
        """`player`'s property cards outside complete sets (what a Sly Deal or Forced Deal may take)."""
        return [c for s in self.sets.get(player, []) if not self.is_complete(s) for c in s.cards]

    # ----- payments
    def payable(self, player: str) -> list[str]:
        """What `player` can pay with: bank cards, then table cards with a money value (never the hand)."""
        table = [c for s in self.sets.get(player, []) for c in s.cards + s.buildings() if self.card(c).value > 0]
        return [c for c in self.banks.get(player, []) if self.card(c).value > 0] + table

    def payment_cost(self, payer: str, cards: list[str]) -> tuple[int, int, int, int, int]:
        """What giving `cards` costs `payer`, compared in this order (the safe default keeps what wins the
        game): complete sets broken, property value given, building value given, value given, cards."""
        broken = {id(s) for s in self.complete_sets(payer) for c in cards if c in s.cards}
        props = sum(self.card(c).value for c in cards
                    if self.card(c).kind in ("property", "wild") and c not in self.banks.get(payer, []))
        buildings = sum(self.card(c).value for c in cards
                        if self.card(c).kind == "building" and c not in self.banks.get(payer, []))
        return len(broken), props, buildings, sum(self.card(c).value for c in cards), len(cards)

    def propose_payment(self, payer: str, amount: int) -> list[str]:
        """The safe default payment for a debt of `amount` (`payment_cost` order): complete sets are kept
        whenever anything else covers the debt, then properties (money before property, even when the money
        overpays: no change is given, but a property is a step to a win), then buildings; then the least
        value and the fewest cards. Everything payable when that is not enough (the rest is forgiven)."""
        cards = self.payable(payer)
        if amount <= 0:
            return []
        if sum(self.card(c).value for c in cards) <= amount:
            return cards
        # A knapsack over groups: each bank card alone, each set with every choice of its cards (breaking a
        # complete set costs once whatever leaves it; a house cannot go while its hotel stays). For each total
        # the best (sets broken, property value, building value, cards) is kept; the parts add up, so this
        # is exact. The total itself is compared after the building value (`payment_cost`).
        Cost = tuple[int, int, int, int]
        groups: list[list[tuple[list[str], Cost]]] = []
        for c in self.banks.get(payer, []):
            if self.card(c).value > 0:
                groups.append([([], (0, 0, 0, 0)), ([c], (0, 0, 0, 1))])
        for s in self.sets.get(payer, []):
            items = [c for c in s.cards + s.buildings() if self.card(c).value > 0]
            if not items:
                continue
            complete = self.is_complete(s)
            options: list[tuple[list[str], Cost]] = []
            for mask in range(1 << len(items)):
                chosen = [items[i] for i in range(len(items)) if mask >> i & 1]
                if s.house in chosen and s.hotel is not None and s.hotel not in chosen:
                    continue
                props = sum(self.card(c).value for c in chosen if self.card(c).kind in ("property", "wild"))
                built = sum(self.card(c).value for c in chosen if self.card(c).kind == "building")
                broken = 1 if complete and any(c in s.cards for c in chosen) else 0
                options.append((chosen, (broken, props, built, len(chosen))))
            groups.append(options)
        cap = amount + max(self.card(c).value for c in cards)  # a minimal payment never passes this
        best: dict[int, tuple[Cost, list[str]]] = {0: ((0, 0, 0, 0), [])}
        for options in groups:
            nxt: dict[int, tuple[Cost, list[str]]] = {}
            for total, (key, chosen) in best.items():
                for extra, cost in options:
                    value = total + sum(self.card(c).value for c in extra)
                    if value > cap:
                        continue
                    new_key = (key[0] + cost[0], key[1] + cost[1], key[2] + cost[2], key[3] + cost[3])
                    old = nxt.get(value)
                    if old is None or new_key < old[0]:
                        nxt[value] = (new_key, chosen + extra)
            best = nxt
        value = min((v for v in best if v >= amount),
                    key=lambda v: (best[v][0][0], best[v][0][1], best[v][0][2], v, best[v][0][3]))
        return best[value][1]

    def payment_reasons(self, payer: str, amount: int, cards: list[str]) -> list[str]:
        """Why each card of a payment (the default one) is in it, one sentence each, then what it keeps:
        the words the payment screen shows under the preselected cards."""
        out: list[str] = []
        payable = self.payable(payer)
        everything = sum(self.card(c).value for c in payable)
        bank = [c for c in payable if c in self.banks.get(payer, [])]
        bank_total = sum(self.card(c).value for c in bank)
        if everything <= amount and set(cards) == set(payable):
            return [(f"{payer} has {money(everything)} in bank and on the table, not {money(amount)}: a short "
                     f"payer gives everything and {money(amount - everything)} is forgiven.")]
        value = sum(self.card(c).value for c in cards)
        for cid in cards:
            card = self.card(cid)
            s = self.set_of(payer, cid)
            label = card.name if card.kind == "money" else f"{card.name} ({money(card.value)})"
            if cid in self.banks.get(payer, []):
                why = "money from the bank goes first, so the properties stay"
                if value > amount and len(cards) == 1:
                    why += f" (no change is given: {money(value - amount)} over, but no property is lost)"
            elif card.kind == "building":
                why = "a building goes before a property: the set itself stays"
            elif s is not None and self.is_complete(s):
                why = (f"nothing else covers {money(amount)}, so the complete {self.colour_name(s.colour)} set "
                       "is broken")
            else:
                why = (f"the bank holds only {money(bank_total)}: a property outside a complete set makes up the rest"
                       if bank_total < amount else "the cheapest way to cover the debt without a complete set")
            out.append(f"{label}: {why}.")
        kept = [s for s in self.complete_sets(payer) if not any(c in s.cards for c in cards)]
        if kept:
            out.append(f"Kept: the complete {self.colours_listed([s.colour for s in kept])} "
                       f"set{'s' if len(kept) > 1 else ''}.")
        return out

    # ----- what the game waits for
    def may_say_no(self, player: str) -> bool:
        """Whether a Just Say No can still be in `player`'s hand."""
        jsn = set(self._deck().ids_of(action="just_say_no"))
        return self.hands.get(player, 0) > 0 and any(c in jsn for c in self.possible_hand_cards(player))

    def waiting(self) -> Waiting:
        """What the game waits for now, from whom (see `Waiting`)."""
        if self.settings is None:
            return Waiting("over", None, sentence="the game has not started")
        if self.finished:
            if self.winner_name:
                return Waiting("over", None, sentence=f"{self.winner_name} has won")
            return Waiting("over", None, sentence=f"{' and '.join(self.tied)} share the game" if self.tied
                           else "the game is over")
        p = self.pending
        if p is not None:
            c = p.claim
            if c.status == "pay":
                return Waiting("pay", c.target, p.kind, p.actor, c.target, c.amount, tuple(c.chain),
                               sentence=f"{c.target} pays {p.actor} {money(c.amount)}")
            who = p.responder
            words = ACTION_WORDS[p.kind]
            if len(c.chain) % 2 == 0:
                sentence = f"{who}: accept {p.actor}'s {words} or Just Say No"
            else:
                sentence = f"{who}: accept {c.target}'s Just Say No or answer with another"
            return Waiting("answer", who, p.kind, p.actor, c.target, c.amount, tuple(c.chain),
                           may_say_no=self.may_say_no(who), sentence=sentence)
        player = self.turn_player
        if not self.drawn:
            n = self._draw_size(player or "")
            return Waiting("draw", player, sentence=f"{player} draws {n}")
        return Waiting("play", player, sentence=f"{player} plays ({self.plays_left} plays left)")

    def allowed_events(self) -> list[str]:
        """The event types `current_player` may record now."""
        w = self.waiting()
        if w.kind == "draw":
            return ["draw"]
        if w.kind == "pay":
            return ["pay"]
        if w.kind == "answer":
            out = (["just_say_no"] if w.may_say_no else []) + ["accept"]
            if w.amount > 0 and w.player == w.target:
                out.append("pay")
            return out
        if w.kind != "play" or w.player is None:
            return []
        p = w.player
        out = []
        if self.plays_left > 0 and self.hands[p] > 0:
            out += ["bank", "lay", "pass_go", "rent", "debt_collector", "birthday", "sly_deal", "forced_deal",
                    "deal_breaker", "build"]
        if any(self.card(c).kind == "wild" for s in self.sets[p] for c in s.cards):
            out.append("move_wild")
        out.append("discard" if self.hands[p] > self.limits.hand_limit else "end_turn")
        return out

    def _draw_size(self, player: str) -> int:
        r = self.limits
        return int(r.draw_if_hand_empty if self.hands.get(player, 0) == 0 else r.draw)

    def double_limit(self, rent_card: str) -> int:
        """How many Double the Rent cards the house rules let one rent card carry."""
        if self.card(rent_card).any_colour and not self.house.double_with_any_rent:
            return 0
        return 2 if self.house.stack_double_rent else 1

    def open_rent_to_double(self, player: str) -> Pending | None:
        """The rent `player` has just played when a Double the Rent may still join it: nobody has answered
        or paid it yet (a payer with nothing on the table, settled at once, has paid nothing) and the
        house rules allow one more double on it. None otherwise."""
        p = self.pending
        if p is None or p.kind != "rent" or p.actor != player:
            return None
        if len(p.cards) - 1 >= self.double_limit(p.cards[0]):
            return None
        if p.claim.chain or p.claim.accepted or p.claim.status not in ("answer", "pay"):
            return None
        if any(c.chain or c.paid or c.status != "done" for c in p.claims[:p.index]):
            return None
        return p

    # ----- reporting
    def summary(self) -> dict[str, Any]:
        """What `companion replay --json` prints."""
        if self.settings is None:
            return {"variant": VARIANT, "started": False}
        players = {}
        for p in self.players:
            players[p] = {
                "hand": self.hands[p],
                "bank": list(self.banks[p]),
                "bank_total": self.bank_total(p),
                "sets": [{"colour": s.colour, "cards": list(s.cards), "complete": self.is_complete(s),
                          "house": s.house, "hotel": s.hotel, "rent": self.set_rent(s)} for s in self.sets[p]],
                "complete_colours": self.complete_colours(p),
            }
        w = self.waiting()
        return {
            "variant": VARIANT,
            "players": players,
            "turn": self.turn_number,
            "turn_player": self.turn_player,
            "plays_used": self.plays,
            "draw_pile": self.draw_count,
            "discard_pile": list(self.discard),
            "waiting_for": {"kind": w.kind, "player": w.player, "sentence": w.sentence},
            "finished": self.finished,
            "winner": self.winner_name,
        }

