"""Monopoly Deal's legal moves, concretely: the one list the app's pickers and buttons come from.

`legal_moves(state)` answers as a chess library's `legal_moves` does: the caller asks, the rules answer
with events ready to record (never Undo). Every event in it is accepted by `DealState.apply`, and from
every state that is not the end of the game it holds at least one move that moves the game on
(`tests/test_liveness_deal.py` checks both over many random games).

What it offers, by what the game waits for (`DealState.waiting()`):

- a draw: the turn's `draw` (the cards left unnamed: the referee does not see the hand);
- a play: for each card face that can be in the hand (one card id per face: identical cards are
  interchangeable, a card the table saw there first), every way to put it down: bank it (money, actions
  and buildings with a value, property wilds when the house rules allow), lay it (a property in its
  colour, a wild in each of its colours), rent for each colour the player charges rent for (and each
  target of the any-colour rent), each action on each target and card or set it can take, a house or a
  hotel on each set it fits; a wild on the table moved to each of its other colours (no play); then the
  discard down to the hand limit (a representative set, one per face that can go) or the end of the turn;
- an answer or a payment: Just Say No (when one can be in the answerer's hand), accept, and a finite
  representative set of payments: the safe default (`propose_payment`) and, for each card the payer can
  give, the smallest payment that includes it (so money, a property, a building, a card out of a complete
  set are all offered); and Double the Rent for the player whose rent is still unanswered;
- at any moment before the end: the table's end by agreement.

Nothing here changes a state: it reads the same helpers the handlers use (`takeable`, `payable`,
`complete_sets`, `rent_for`, `open_rent_to_double`, `_check_payment`).
"""

from __future__ import annotations

from companion.events import Event
from companion.games.monopoly_deal import rules
from companion.rules.errors import IllegalAction


def hand_faces(s: rules.DealState, player: str) -> dict[str, str]:
    """One card id per face (card name) that can be in `player`'s hand, a card seen there first; in
    deck order."""
    seen = s.seen_in_hand.get(player, [])
    out: dict[str, str] = {}
    for cid in sorted(s.possible_hand_cards(player), key=lambda c: c not in seen):
        out.setdefault(s.name(cid), cid)
    order = {c: i for i, c in enumerate(s.possible_hand_cards(player))}
    return dict(sorted(out.items(), key=lambda kv: order[kv[1]]))


def _opponents(s: rules.DealState, player: str) -> list[str]:
    return [p for p in s.players if p != player]


def _colours(s: rules.DealState, card_colours: list[str]) -> list[str]:
    assert s.deck is not None
    return list(s.deck.colour_ids) if card_colours == ["any"] else list(card_colours)


def card_moves(s: rules.DealState, player: str, card: str) -> list[Event]:
    """Every way `player` may put `card` down now as a play (empty when no play is left)."""
    c = s.card(card)
    out: list[Event] = []
    if c.kind in ("property", "wild"):
        for colour in _colours(s, c.colours):
            out.append(rules.Lay(player=player, card=card, colour=colour))
    elif c.kind == "rent":
        for colour in _colours(s, c.colours):
            if s.rent_for(player, colour) <= 0:
                continue
            if c.any_colour:
                out += [rules.Rent(player=player, card=card, colour=colour, target=t) for t in _opponents(s, player)]
            else:
                out.append(rules.Rent(player=player, card=card, colour=colour))
    elif c.kind == "building":
        assert s.deck is not None
        for colour in dict.fromkeys(x.colour for x in s.complete_sets(player)):
            if not s.deck.colour(colour).buildings:
                continue
            sets = [x for x in s.complete_sets(player) if x.colour == colour]
            if c.action == "house" and any(x.house is None for x in sets) or \
                    c.action == "hotel" and any(x.house is not None and x.hotel is None for x in sets):
                out.append(rules.Build(player=player, card=card, colour=colour))
    elif c.action == "pass_go":
        out.append(rules.PassGo(player=player, card=card))
    elif c.action == "its_my_birthday":
        out.append(rules.Birthday(player=player, card=card))
    elif c.action == "debt_collector":
        out += [rules.DebtCollector(player=player, card=card, target=t) for t in _opponents(s, player)]
    elif c.action == "sly_deal":
        out += [rules.SlyDeal(player=player, card=card, target=t, take=x)
                for t in _opponents(s, player) for x in s.takeable(t)]
    elif c.action == "forced_deal":
        give = [x for st in s.sets.get(player, []) for x in st.cards] if s.house.forced_deal_from_full_set \
            else s.takeable(player)
        out += [rules.ForcedDeal(player=player, card=card, target=t, take=x, give=g)
                for t in _opponents(s, player) for x in s.takeable(t) for g in give]
    elif c.action == "deal_breaker":
        out += [rules.DealBreaker(player=player, card=card, target=t, colour=colour)
                for t in _opponents(s, player) for colour in s.complete_colours(t)]
    # just_say_no and double_the_rent on your own turn: only the bank (below)
    bankable = c.value > 0 and c.kind != "property" and (c.kind != "wild" or s.house.bank_property_wilds)
    if bankable:
        out.append(rules.BankCard(player=player, card=card))
    return out


def discards(s: rules.DealState, player: str) -> list[rules.Discard]:
    """A representative set of legal discards down to the hand limit: for each face that can be in the
    hand, one discard that includes it (filled up with other cards that can be there together); with the
    house rule that puts them under the draw pile unseen, also the discard of hidden cards."""
    need = s.hands[player] - s.limits.hand_limit
    if need <= 0:
        return []
    seen = list(s.seen_in_hand.get(player, []))
    unseen_budget = s.unseen_in_hand(player)
    pool = seen + [c for c in s.possible_hand_cards(player) if c not in seen]
    out: list[rules.Discard] = []
    if s.house.excess_cards_to == "draw_pile_bottom" and unseen_budget >= need:
        out.append(rules.Discard(player=player, unseen=need))
    done: set[frozenset[str]] = set()
    for first in hand_faces(s, player).values():
        chosen: list[str] = []
        unseen_used = 0
        for cid in [first, *pool]:
            if cid in chosen or len(chosen) == need:
                continue
            if cid not in seen:
                if unseen_used == unseen_budget:
                    continue
                unseen_used += 1
            chosen.append(cid)
        key = frozenset(chosen)
        if len(chosen) == need and key not in done:
            done.add(key)
            out.append(rules.Discard(player=player, cards=chosen))
    return out


def payments(s: rules.DealState, payer: str, amount: int) -> list[rules.Pay]:
    """A finite representative set of legal payments of `amount`: the safe default first, then for each
    card the payer can give, the smallest payment that holds it (money, a property, a building, a card
    out of a complete set...). A short payer has one: everything."""
    payable = s.payable(payer)
    default = s.propose_payment(payer, amount)
    out: list[list[str]] = [default]
    if sum(s.card(c).value for c in payable) > amount:
        for forced in payable:
            chosen = [forced]
            st = s.set_of(payer, forced)
            if st is not None and st.house == forced and st.hotel is not None:
                chosen.append(st.hotel)  # a house goes with the hotel it carries
            rest = [c for c in payable if c not in chosen]
            for cid in rest:
                if sum(s.card(c).value for c in chosen) >= amount:
                    break
                holder = s.set_of(payer, cid)
                if holder is not None and holder.house == cid and holder.hotel is not None:
                    continue
                chosen.append(cid)
            # Drop what is spare (no change is given), latest first, keeping the card this option is about.
            for cid in reversed(list(chosen)):
                if cid == forced:
                    continue
                without = [c for c in chosen if c != cid]
                if sum(s.card(c).value for c in without) >= amount:
                    chosen = without
            if chosen not in out:
                out.append(chosen)
    legal: list[rules.Pay] = []
    for cards in out:
        try:
            s._check_payment(payer, cards, amount)
        except IllegalAction:
            continue  # e.g. a card that cannot be given without one already covering the debt
        legal.append(rules.Pay(player=payer, cards=cards))
    return legal


def legal_moves(s: rules.DealState) -> list[Event]:
    """Every move the rules accept now (a representative set of payments and discards), as events."""
    if s.settings is None or s.finished:
        return []
    w = s.waiting()
    out: list[Event] = []
    if w.kind == "draw" and w.player is not None:
        out.append(rules.Draw(player=w.player))
    elif w.kind in ("answer", "pay") and w.player is not None and s.pending is not None:
        p = s.pending
        who = w.player
        if w.kind == "answer":
            jsn = [c for c in hand_faces(s, who).values() if s.card(c).action == "just_say_no"]
            if jsn and s.hands.get(who, 0) > 0:
                out.append(rules.JustSayNo(player=who, card=jsn[0]))
            out.append(rules.Accept(player=who))
        if w.amount > 0 and who == w.target and (w.kind == "pay" or len(w.chain) % 2 == 0):
            out += payments(s, who, w.amount)
        if s.open_rent_to_double(p.actor) is not None and s.plays_left > 0:
            dtr = [c for c in hand_faces(s, p.actor).values() if s.card(c).action == "double_the_rent"]
            if dtr:
                out.append(rules.DoubleRent(player=p.actor, card=dtr[0]))
    elif w.kind == "play" and w.player is not None:
        player = w.player
        if s.plays_left > 0 and s.hands.get(player, 0) > 0:
            for card in hand_faces(s, player).values():
                out += card_moves(s, player, card)
        for st in s.sets.get(player, []):
            for cid in st.cards:
                if s.card(cid).kind == "wild":
                    out += [rules.MoveWild(player=player, card=cid, colour=c)
                            for c in _colours(s, s.card(cid).colours) if c != st.colour]
        if s.hands.get(player, 0) > s.limits.hand_limit:
            out += discards(s, player)
        else:
            out.append(rules.EndTurn(player=player))
    out.append(rules.EndByAgreement())
    return out


__all__ = ["card_moves", "discards", "hand_faces", "legal_moves", "payments"]
