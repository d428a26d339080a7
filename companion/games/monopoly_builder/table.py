"""Monopoly Builder at the table: a thin wrapper over `companion.games.monopoly_builder.rules` (no rules here).

What it owns: turning the table's taps into engine events (`roll`, `buy`, `bid`, `rent`, `build`...),
the app's own dice when the table lets it roll, the token colours of the setup screen mapped onto the
box's four resource colours, which of the offered payments for a floor to suggest (the player can change
it), and wording what the engine did (its notes, its hand-outs, its ledger) as sentences for every screen.
What may be done now is only what `legal.legal_moves` offers (`offered(kind)`); why something may not is
the rules' own sentence (`why_not`). Every decision (who gathers, where the token goes, rent, debts,
whether a floor may go there, the score) is the engine's.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.events import Event, GameLog
from companion.games.monopoly_builder.legal import legal_moves
from companion.games.monopoly_builder.profile import Profile, cell_name, load_profile
from companion.games.monopoly_builder.rules import (
    BANK,
    VARIANT,
    Auction,
    AuctionEnd,
    Bankrupt,
    BankTrade,
    Bid,
    Build,
    BuilderState,
    Bundle,
    Buy,
    ChanceDraw,
    Discard,
    EndGame,
    EndTurn,
    ForcedTrade,
    FreeParking,
    JailCard,
    JailPay,
    Mortgage,
    PlaceToken,
    Rent,
    ResourceRoll,
    Roll,
    Steal,
    Trade,
    Unmortgage,
    new_game,
    new_state,
)
from companion.rules.errors import RulesError
from companion.rules.ledger import Transaction, describe_transaction
from companion.rules.money import money_prefixed
from companion.ui.table import ChartPoint, PlayerInfo, TableBase, TableError, _plain_validation

# The shell's token colours (setup screen buttons, player chips) for each resource colour of the box: the
# box's yellow is drawn with the shell's amber. A shell colour the box does not have (blue, teal) takes the
# first box colour nobody else has.
SHELL_COLOUR = {"red": "red", "purple": "purple", "green": "green", "yellow": "amber"}
BOX_COLOUR = {shell: box for box, shell in SHELL_COLOUR.items()}

SETTING_CHOICES: dict[str, list[tuple[str, str]]] = {
    "dice": [("entered", "The table rolls, the app is told"), ("rolled", "The app rolls")],
    "bonus_tie": [("none", "A tie: nobody takes the card"), ("all", "A tie: every tied player scores it")],
    "penthouse_building": [("owner", "Penthouse building counts for its owner's group"),
                           ("apart", "Penthouse building scores 16 but joins no group")],
    "jail_doubles_again": [("no", "Doubles out of Jail: no extra roll"), ("yes", "Doubles out of Jail: roll again")],
    "bank_trade": [("trade_step", "4-for-1 with the Bank after the move"),
                   ("your_turn", "4-for-1 with the Bank any time on your turn")],
    "rent_window": [("next_player", "Rent until the next player rolls"),
                    ("next_roll", "Rent only until the next roll (after doubles too)")],
}
DEFAULT_SETTINGS = {"dice": "entered", "bonus_tie": "none", "penthouse_building": "owner", "jail_doubles_again": "no",
                    "bank_trade": "trade_step", "rent_window": "next_player"}


def app_roll() -> tuple[int, int]:
    """Two fair dice from the operating system's random source (the table chose to let the app roll)."""
    return secrets.randbelow(6) + 1, secrets.randbelow(6) + 1


def dice_text(dice: tuple[int, int]) -> str:
    a, b = dice
    return f"{a} + {b} = {a + b}" + (", doubles" if a == b else "")


def box_colours(shell_colours: list[str], box: list[str], previous: list[str] | None = None) -> list[str]:
    """The box colour each seated player plays, from the colours picked on the setup screen (in seat
    order): red, purple and green as picked, amber as yellow. A colour the box does not have (blue,
    teal), or one an earlier seat has, becomes a free box colour: the first after the seat's `previous`
    box colour in box order (so the setup screen's Token button steps through the box's colours), else
    the first free one."""
    wanted = [BOX_COLOUR.get(c, "") for c in shell_colours]
    out: list[str] = []
    for w in wanted:
        out.append(w if w in box and w not in out else "")
    for i, c in enumerate(out):
        if c:
            continue
        free = [x for x in box if x not in out]
        if not free:
            break
        before = previous[i] if previous is not None and i < len(previous) and previous[i] in box else None
        if before is not None:
            start = box.index(before)
            order = box[start + 1:] + box[:start + 1]
            free = [x for x in order if x in free]
        out[i] = free[0]
    return out


def chips_text(chips: Mapping[str, int]) -> str:
    """'2 red, 1 green' (colours with none left out); 'none' when empty."""
    return ", ".join(f"{n} {c}" for c, n in chips.items() if n) or "none"


@dataclass(frozen=True)
class Site:
    """What one cell of the foundations grid shows (plain data: the grid component draws it)."""

    row: int
    col: int
    kind: str  # "none" (no foundation), "empty" or "building"
    owner: str = ""
    colour: str = ""  # the owner's shell colour
    height: int = 0
    penthouse: bool = False

    @property
    def cell(self) -> str:
        return cell_name(self.row, self.col)

    @property
    def label(self) -> str:
        if self.kind == "none":
            return f"{self.cell} no foundation"
        if self.kind == "empty":
            return f"{self.cell} empty foundation"
        return f"{self.cell} {self.owner} {self.height} floors" + (" with the penthouse" if self.penthouse else "")


# The events after which a player's points may have changed: the end chart takes a point after each.
CHART_EVENTS = frozenset({"build", "end_turn", "end_game", "start", "trade", "buy", "auction_end", "bankrupt",
                          "mortgage", "unmortgage"})


class BuilderTable(TableBase):
    """The game on the table: the engine's log, the seats, and one method per tap of the screens."""

    history_title = "Points over the game"

    def __init__(self, players: list[PlayerInfo], log: GameLog[BuilderState], game_id: str | None = None) -> None:
        super().__init__(VARIANT, players, log, game_id=game_id)

    # ----- what may be done now: only what the rules offer
    def legal(self) -> list[Event]:
        """The rules' offered moves now (`legal.legal_moves`), asked once per change of the game."""
        moves: list[Event] = self.view("legal", lambda _old: legal_moves(self.bstate))
        return moves

    def offered(self, kind: type[Any]) -> list[Any]:
        """The offered moves of one event class (what one picker or button draws)."""
        return [m for m in self.legal() if isinstance(m, kind)]

    def why_not(self, event: Event) -> str:
        """The rules' sentence for refusing `event` now (tried on a copy: nothing changes), or ''."""
        trial = copy.deepcopy(self.bstate)
        try:
            trial.apply(event)
        except RulesError as exc:
            text = str(exc)
            return text[:1].upper() + text[1:] + "."
        return ""

    # ----- views
    @property
    def bstate(self) -> BuilderState:
        state: BuilderState = self.log.state
        return state

    @property
    def profile(self) -> Profile:
        profile = self.bstate.profile
        assert profile is not None
        return profile

    @property
    def settings(self) -> Any:
        return self.bstate.settings

    @property
    def mover(self) -> str | None:
        return self.bstate.mover

    @property
    def phase(self) -> str:
        return self.bstate.phase

    def box_colour(self, player: str) -> str:
        return self.bstate.colour_of(player)

    def token_name(self, player: str) -> str:
        return self.profile.tokens.value.get(self.box_colour(player), self.box_colour(player))

    def waiting_for(self) -> str:
        text = self.bstate.waiting_for()
        return text[:1].upper() + text[1:] + "."

    def deed_name(self, deed: str) -> str:
        return self.profile.deed_name(deed)

    def chip_lines(self, player: str) -> list[str]:
        st = self.bstate
        held = st.resources[player]
        count = sum(held.values())
        lines = [money_prefixed(st.cash[player]), f"{count} chip{'' if count == 1 else 's'} " + " ".join(
            f"{n}{c[:1].upper()}" for c, n in held.items() if n)]
        if player in st.bankrupt:
            lines.append("bankrupt")
        elif player in st.jail:
            lines.append("in Jail")
        return lines

    def hand(self, player: str) -> dict[str, int]:
        return dict(self.bstate.resources[player])

    def handout_lines(self) -> list[str]:
        """Who took which chips on the latest roll (or space, or card), and why: shown to everyone."""
        st = self.bstate
        if not st.last_handout:
            return []
        by_player: dict[str, list[str]] = {}
        for h in st.last_handout:
            by_player.setdefault(h.player, []).append(f"{h.count} {h.colour} ({h.reason})")
        return [f"{p} takes {', '.join(parts)}." for p, parts in by_player.items()]

    def roll_line(self) -> str:
        st = self.bstate
        if st.last_roll is None:
            return ""
        return f"Last roll: {dice_text(st.last_roll)}."

    def rent_prompts(self) -> list[tuple[Rent, str]]:
        """Each rent an owner may still ask (the offered `rent` moves), with the sentence that explains it."""
        out = []
        payers = {(r.owner, r.deed): r.payer for r, _amount in self.bstate.rents_due()}
        for move in self.offered(Rent):
            assert move.deed is not None and move.amount is not None
            payer = payers.get((move.player, move.deed), "")
            sentence = (f"{payer} landed on {move.player}'s {self.deed_name(move.deed)}: {move.player} may ask "
                        f"for {money_prefixed(move.amount)} rent until the next player rolls, or it is lost.")
            out.append((move, sentence))
        return out

    def rent_prompt(self) -> tuple[str, str, int] | None:
        """(owner, sentence, amount) of the oldest rent an owner may still ask, or None."""
        prompts = self.rent_prompts()
        if not prompts:
            return None
        move, sentence = prompts[0]
        assert move.amount is not None
        return move.player, sentence, move.amount

    def token_lines(self) -> list[str]:
        """Where every token is (the referee's screen and the followers')."""
        st = self.bstate
        return ["Tokens: " + ", ".join(f"{p} on {st.space_name(st.positions[p])}" + (" (in Jail)" if p in st.jail else "")
                                       + (" (bankrupt)" if p in st.bankrupt else "") for p in self.players) + "."]

    def token_corrections(self) -> dict[str, list[tuple[int, str]]]:
        """Player -> the spaces their token may be put on now (the offered `token` moves), as (index, name)."""
        out: dict[str, list[tuple[int, str]]] = {}
        for move in self.offered(PlaceToken):
            out.setdefault(move.player, []).append((move.space, f"{move.space} {self.bstate.space_name(move.space)}"))
        return out

    def deed_here(self) -> str | None:
        p = self.mover
        if p is None:
            return None
        return self.profile.track.spaces[self.bstate.positions[p]].deed

    def deed_line(self, deed: str) -> str:
        pr = self.profile
        group = pr.group(pr.deed(deed).group.value).name
        return (f"{pr.deed_name(deed)} ({group}): price {money_prefixed(pr.number(deed, 'price'))}, rent "
                f"{money_prefixed(pr.number(deed, 'rent'))} ({money_prefixed(pr.number(deed, 'monopoly_rent'))} with the monopoly), gives 2 "
                f"{pr.deed_resource(deed)} on a roll of {pr.number(deed, 'dice_number')}.")

    def least_bid(self) -> int:
        return self.bstate.least_bid()

    def bidders(self) -> list[str]:
        """Who may bid now (an offered bid: still in play, with the cash for the least bid)."""
        return list(dict.fromkeys(m.player for m in self.offered(Bid)))

    def kept_cards(self, player: str) -> list[str]:
        return list(self.bstate.kept_cards.get(player, []))

    def drawable_cards(self) -> list[tuple[str, str]]:
        """(card id, text) of the Chance cards that may be drawn now (the offered `chance` moves)."""
        offered = {m.card for m in self.offered(ChanceDraw)}
        return [(c.id, c.text) for c in self.profile.chance.cards if c.id in offered]

    def chart_line(self) -> str:
        p = self.mover
        if p is None:
            return ""
        space = self.profile.track.spaces[self.bstate.positions[p]]
        if not space.chart:
            return ""
        return "Chart: " + ", ".join(f"{t} {c}" for t, c in sorted(space.chart.items(), key=lambda kv: int(kv[0]))) + "."

    def sites(self) -> list[list[Site]]:
        """The foundations grid row by row, with what stands on each foundation."""
        st = self.bstate
        rows: list[list[Site]] = []
        for r, line in enumerate(self.profile.foundations.value):
            row: list[Site] = []
            for c, ch in enumerate(line):
                cell = cell_name(r, c)
                b = st.buildings.get(cell)
                if ch != "#":
                    row.append(Site(r, c, "none"))
                elif b is None:
                    row.append(Site(r, c, "empty"))
                else:
                    row.append(Site(r, c, "building", b.owner, self.colour(b.owner), b.height, b.penthouse))
            rows.append(row)
        return rows

    def build_payments(self, cell: str) -> list[dict[str, int]]:
        """The payments offered for the next floor on `cell` (the offered `build` moves there)."""
        return [dict(m.paid) for m in self.offered(Build) if m.cell == cell]

    def build_quote(self, cell: str) -> tuple[int, str, dict[str, int]] | str:
        """What building on `cell` means for the player whose turn it is: (floor, cost in words, a
        suggested payment among those offered) or the rules' sentence saying why not. The suggestion pays
        the named colours first, then the 'any colour' part from the colours the player holds most of."""
        st = self.bstate
        p = st.mover
        if p is None:
            return "The game is over."
        b = st.buildings.get(cell)
        floor = 1 if b is None else b.floors + 1
        top = self.profile.counts.max_floors.value
        cost = st.floor_cost(p, min(floor, top + 1))
        suggested = suggest_payment(cost.colours, cost.any, st.resources[p], st.colours)
        offered = self.build_payments(cell)
        if not offered:
            return self.why_not(Build(player=p, cell=cell, paid=suggested)) or "No floor can be built there now."
        what = "the penthouse" if floor > top else f"floor {floor}"
        words = f"{what} on {cell} costs {cost.describe()}"
        return floor, words, suggested if suggested in offered else offered[0]

    def scores(self) -> dict[str, Any]:
        return self.bstate.scores()

    def score_lines(self, player: str) -> list[str]:
        """One player's score in words: buildings by height, monopolies, the two Builder's Bonus cards
        (who holds each and why), as the engine counts them."""
        st = self.bstate
        scores = st.scores()
        s = scores[player]
        pr = self.profile
        points = pr.building_points.value
        top = pr.counts.max_floors.value
        heights = ", ".join(f"{h} floor{'s' if h > 1 else ''}" + (" (penthouse)" if h > top else "") + f" {points[h - 1]}"
                            for h in s.buildings) or "none"
        monos = ", ".join(f"{pr.group(g).name} {pr.group(g).points.value}" for g in s.monopolies) or "none"
        most_cash = max(st.cash[p] for p in self.players)
        rich = [p for p in self.players if scores[p].billionaire]
        if s.billionaire:
            shared = " (shared: a tie)" if len(rich) > 1 else ""
            bill = f"Billionaire Builder: the most cash, {money_prefixed(s.cash)}{shared}: {s.billionaire}"
        elif st.cash[player] == most_cash:
            bill = f"Billionaire Builder: nobody (a tie for the most cash, {money_prefixed(most_cash)}): 0"
        else:
            bill = f"Billionaire Builder: not {player} ({money_prefixed(s.cash)}; the most is {money_prefixed(most_cash)}): 0"
        size = s.community_size
        group = ("no buildings" if size == 0 else "1 building" if size == 1 else f"{size} buildings side by side")
        largest = max(scores[p].community_size for p in self.players)
        if largest == 0:
            comm = "Community Builder: nobody (no buildings): 0"
        elif s.community:
            comm = f"Community Builder: {group}, the most: {s.community}"
        elif size and size == largest:
            comm = f"Community Builder: nobody ({group}, a tie for the most): 0"
        else:
            comm = f"Community Builder: not {player} ({group}; the most is {largest}): 0"
        return [f"Buildings: {heights} = {s.building_points}", f"Monopolies: {monos} = {s.monopoly_points}",
                bill, comm]

    def result_line(self) -> str:
        """Who won and why (the money when it broke a tie on points): the engine's sentence."""
        return self.bstate.result_line() + "."

    def ranking(self) -> list[str]:
        scores = self.bstate.scores()
        return sorted(self.players, key=lambda p: (-scores[p].total, -scores[p].cash))

    def history(self) -> list[ChartPoint]:
        """Each player's points after every event in force that can change them, folded again through the
        engine; repeated values are dropped."""
        return self.replayed_history(new_state, lambda state: {p: s.total for p, s in state.scores().items()},
                                     after=lambda event: getattr(event, "type", "") in CHART_EVENTS)

    def ledger_lines(self, last: int = 20) -> list[str]:
        return [describe_transaction(t) for t in self.bstate.ledger[-last:]]

    def follow_lines(self) -> list[str]:
        st = self.bstate
        lines = self.token_lines()
        owned = [f"{self.deed_name(d)}: {o}" + (" (mortgaged)" if d in st.mortgaged else "")
                 for d, o in st.owners.items() if o]
        if owned:
            lines.append("Deeds: " + ", ".join(owned) + ".")
        lying = [f"{st.space_name(i)}: {chips_text(c)}" for i, c in sorted(st.space_resources.items())]
        if lying:
            lines.append("Resources on spaces: " + "; ".join(lying) + ".")
        lines.append("Bank resources: " + chips_text(st.resources[BANK]) + ".")
        return lines

    # ----- changing the game
    def narrate(self, before: BuilderState, after: BuilderState) -> list[str]:
        return changes(before, after)

    def _mover(self) -> str:
        p = self.bstate.mover
        if p is None:
            raise TableError("The game is over.")
        return p

    def roll(self, a: int, b: int) -> None:
        self.push(Roll(player=self._mover(), dice=(a, b)))

    def resource_roll(self, a: int, b: int) -> None:
        self.push(ResourceRoll(player=self._mover(), dice=(a, b)))

    def jail_pay(self) -> None:
        self.push(JailPay(player=self._mover()))

    def jail_card(self) -> None:
        self.push(JailCard(player=self._mover()))

    def discard(self, chips: dict[str, int]) -> None:
        self.push(Discard(player=self._mover(), resources={c: n for c, n in chips.items() if n}))

    def buy(self) -> None:
        self.push(Buy(player=self._mover()))

    def auction(self) -> None:
        self.push(Auction(player=self._mover()))

    def bid(self, player: str, amount: int) -> None:
        self.push(Bid(player=player, amount=amount))

    def close_auction(self) -> None:
        self.push(AuctionEnd())

    def ask_rent(self, deed: str | None = None) -> None:
        """The owner asks the rent offered on `deed` (None: the oldest offered); the event names both."""
        moves = [m for m in self.offered(Rent) if deed is None or m.deed == deed]
        if not moves:
            raise TableError("No rent can be asked now: rent is asked before the next player rolls, or it is lost.")
        self.push(moves[0])

    def correct_token(self, player: str, space: int) -> None:
        """The table says where a token really is: an event like any other (undo takes it back)."""
        self.push(PlaceToken(player=player, space=space))

    def chance(self, card: str) -> None:
        self.push(ChanceDraw(player=self._mover(), card=card))

    def steal(self, target: str | None, colour: str | None) -> None:
        self.push(Steal(player=self._mover(), target=target, resource=colour))

    def free_parking(self, give: dict[str, int], take: str) -> None:
        self.push(FreeParking(player=self._mover(), give={c: n for c, n in give.items() if n}, take=take))

    def bank_trade(self, give: str, take: str) -> None:
        self.push(BankTrade(player=self._mover(), give=give, take=take))

    def forced_trade(self, target: str, give: str, take: str) -> None:
        self.push(ForcedTrade(player=self._mover(), target=target, give=give, take=take))

    def trade(self, player: str, partner: str, give: dict[str, Any], get: dict[str, Any]) -> str:
        """`give`/`get`: {"cash": M, "resources": {colour: n}, "deeds": [...], "cards": [...]}."""
        event = _event(lambda: Trade(player=player, partner=partner, give=Bundle(**_clean(give)),
                                     get=Bundle(**_clean(get))))
        self.push(event)
        return f"{player} and {partner} trade: {bundle_text(self, event.give)} for {bundle_text(self, event.get)}."

    def build(self, cell: str, paid: dict[str, int]) -> None:
        self.push(Build(player=self._mover(), cell=cell, paid={c: n for c, n in paid.items() if n}))

    def mortgage(self, player: str, deed: str) -> None:
        self.push(Mortgage(player=player, deed=deed))

    def unmortgage(self, player: str, deed: str) -> None:
        self.push(Unmortgage(player=player, deed=deed))

    def bankrupt(self, player: str) -> None:
        self.push(Bankrupt(player=player))

    def end_turn(self) -> None:
        player = self._mover()
        self.push(EndTurn(player=player))
        if not self.turn_lines:
            self.turn_lines = [f"{player} ends the turn."]

    def next_roller(self) -> str | None:
        """Who rolls next if the turn ends now, when the rules offer that roll now (not a discard first)
        and it is not a Jail turn (whose choices the screen shows): one tap for End turn and roll."""
        nxt = self.bstate.turn_passes_to()
        rolls = any(isinstance(m, Roll) and m.player == nxt for m in self.offered(Roll))
        return nxt if rolls and nxt is not None and nxt not in self.bstate.jail else None

    def end_and_roll(self, a: int, b: int) -> None:
        """The next player's roll, one event: the rules end the turn as they apply it (undo takes back both)."""
        with self.lock:
            nxt = self.next_roller()
            if nxt is None:
                raise TableError("End the turn first: " + self.waiting_for())
            self.push(Roll(player=nxt, dice=(a, b)))

    def rolled_by_app(self, entered: Callable[[BuilderTable, int, int], None]) -> str:
        """The table lets the app roll: two dice for `entered` (`roll`, `resource_roll`, `end_and_roll`),
        recorded as if tapped in, and what the app rolled, in words."""
        dice = app_roll()
        entered(self, *dice)
        purpose = " for resources" if entered is BuilderTable.resource_roll else ""
        return f"The app rolled {dice_text(dice)}{purpose}."

    def end_game(self) -> None:
        self.push(EndGame())

    def table_settings(self) -> dict[str, Any]:
        return {**super().table_settings(), "box_colours": {p: self.box_colour(p) for p in self.players}}


def _event(make: Any) -> Any:
    """An event built from the table's fields; a field the model refuses becomes the table's sentence."""
    try:
        return make()
    except ValueError as exc:
        raise TableError(_plain_validation(exc)) from None


def _clean(side: dict[str, Any]) -> dict[str, Any]:
    return {"cash": int(side.get("cash", 0) or 0),
            "resources": {c: n for c, n in dict(side.get("resources", {})).items() if n},
            "deeds": list(side.get("deeds", [])), "cards": list(side.get("cards", []))}


CARD_NAMES = {"get_out_of_jail": "Get Out of Jail Free", "forced_trade": "FORCED TRADE!"}


def bundle_text(table: BuilderTable, bundle: Bundle) -> str:
    parts = [money_prefixed(bundle.cash)] if bundle.cash else []
    if any(bundle.resources.values()):
        parts.append(chips_text(bundle.resources))
    parts += [table.deed_name(d) for d in bundle.deeds]
    parts += [CARD_NAMES.get(c, c) for c in bundle.cards]
    return " + ".join(parts) or "nothing"


def suggest_payment(named: Mapping[str, int], any_count: int, hand: Mapping[str, int],
                    colours: list[str]) -> dict[str, int]:
    """The chips to pay a floor with: the named colours, then `any_count` more from the colours the hand
    has most of after that (ties in box order). The engine still checks it; short chips stay short."""
    paid = {c: named.get(c, 0) for c in colours}
    left = {c: hand.get(c, 0) - paid[c] for c in colours}
    for _ in range(any_count):
        best = max(colours, key=lambda c: (left[c], -colours.index(c)))
        paid[best] += 1
        left[best] -= 1
    return {c: n for c, n in paid.items() if n}


def changes(before: BuilderState, after: BuilderState) -> list[str]:
    """What one action did, in the engine's order: its notes, then the money that moved that no note has
    already told (a purchase, a rent, a mortgage is said once: 'Ann buys Oriental Avenue for M100')."""
    notes = after.notes[len(before.notes):]
    lines = [n[:1].upper() + n[1:] + "." for n in notes]
    lines += [describe_transaction(t) for t in after.ledger[len(before.ledger):] if not _told(t, notes)]
    return lines


def _told(t: Transaction, notes: list[str]) -> bool:
    """A note of the same action names this payment: its amount and the players in it."""
    players = [a for a in (t.payer, t.payee) if a != BANK]
    return any(money_prefixed(t.amount) in n and all(p in n for p in players) for n in notes)


def new_builder(players: list[PlayerInfo], profile: Profile | str = "monopoly_builder",
                settings: Mapping[str, str] | None = None) -> BuilderTable:
    """A new game for the seated players (their setup colours mapped onto the box's) with the table
    settings chosen (`SETTING_CHOICES` keys; missing ones take the defaults)."""
    chosen = {**DEFAULT_SETTINGS, **(settings or {})}
    names = [p.name.strip() for p in players]
    try:
        prof = profile if isinstance(profile, Profile) else load_profile(profile)
        colours = box_colours([p.colour for p in players], list(prof.colours.value))
        log = new_game(list(zip(names, colours)), prof, dice=chosen["dice"], bonus_tie=chosen["bonus_tie"],
                       penthouse_building=chosen["penthouse_building"],
                       jail_doubles_again=chosen["jail_doubles_again"] == "yes", bank_trade=chosen["bank_trade"],
                       rent_window=chosen["rent_window"])
    except (RulesError, ValueError) as exc:
        raise TableError(_plain_validation(exc)) from None
    seats = [PlayerInfo(n, SHELL_COLOUR.get(c, "grey")) for n, c in zip(names, colours)]
    return BuilderTable(seats, log)


def rebuild(game_id: str, table: dict[str, Any], events: list[Any]) -> BuilderTable:
    """The table from stored events (the seats and colours are in the `start` event)."""
    log: GameLog[BuilderState] = GameLog(new_state, events)
    st = log.state
    seats = [PlayerInfo(p, SHELL_COLOUR.get(st.colour_of(p), "grey")) for p in st.players]
    return BuilderTable(seats, log, game_id=game_id)


__all__ = ["BuilderTable", "Site", "app_roll", "box_colours", "changes", "chips_text", "dice_text", "new_builder",
           "rebuild", "suggest_payment"]
