"""Money between named accounts: the one way money moves in the Monopoly games, and how a movement is written
(amounts in `companion.rules.money`'s `money_prefixed` style).

A game keeps `cash` (account name -> amount) and `transactions` (every movement, in order) in its state
and moves money only through `transfer`, so money is conserved by construction: the sum over all
accounts never changes. Which accounts may go below zero (a Bank that never runs out) is the game's
choice (`overdraft`). The functions work on the game's own dict and list, so a state that copies those
containers on every event (the `GameLog` fold) copies its ledger with them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from companion.rules.errors import IllegalAction
from companion.rules.money import money_prefixed

# The Bank's account in every game that keeps a ledger, and its name in sentences.
BANK = "bank"
BANK_NAME = "the Bank"


@dataclass(frozen=True)
class Transaction:
    """One movement of money: `payer` -> `payee`, `amount`, `reason`; `turn` is the game's turn index."""

    seq: int
    payer: str
    payee: str
    amount: int
    reason: str
    turn: int


def transfer(cash: dict[str, int], transactions: list[Transaction], payer: str, payee: str, amount: int,
             reason: str, turn: int, overdraft: Collection[str] = ()) -> None:
    """Move `amount` from `payer` to `payee` and record it. A zero amount records nothing; a negative one,
    an unknown account or a payer short of cash (unless listed in `overdraft`) is refused and changes nothing."""
    if amount < 0:
        raise IllegalAction(f"an amount of money cannot be negative ({money_prefixed(amount)})")
    if amount == 0:
        return
    for account in (payer, payee):
        if account not in cash:
            raise IllegalAction(f"there is no account '{account}'")
    if payer not in overdraft and cash[payer] < amount:
        # Callers check first; a transfer never makes a guarded account negative.
        raise IllegalAction(f"{payer} has {money_prefixed(cash[payer])}, not {money_prefixed(amount)}")
    cash[payer] -= amount
    cash[payee] += amount
    transactions.append(Transaction(len(transactions) + 1, payer, payee, amount, reason, turn))


def describe_transaction(t: Transaction, names: Mapping[str, str] | None = None) -> str:
    """One ledger line in words: who pays whom, how much, why ("The Bank pays Ann M200: passing GO.").
    `names` gives the display name of a game's other special accounts (Monopoly Scrabble's pot is
    "Free Parking"); the Bank is `BANK_NAME` in every game."""
    shown = {BANK: BANK_NAME, **(names or {})}

    def name(account: str) -> str:
        return shown.get(account, account)

    if t.payer == BANK:
        return f"The Bank pays {name(t.payee)} {money_prefixed(t.amount)}: {t.reason}."
    if t.payee == BANK:
        return f"{name(t.payer)} pays {money_prefixed(t.amount)} to the Bank: {t.reason}."
    return f"{name(t.payer)} pays {money_prefixed(t.amount)} to {name(t.payee)}: {t.reason}."
