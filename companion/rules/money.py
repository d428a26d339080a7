"""How the games write an amount of money: one formatter per currency style, each with its own name.

Two styles are printed on the boxes: the Monopoly board games (Monopoly Scrabble, Monopoly Builder) write
the currency sign before a full amount ("M1,500"); Monopoly Deal's cards are valued in millions and
write the sign after ("5M"). A screen or a rule that prints money picks the style of its game by name,
so "find usages" tells which game writes which.
"""

from __future__ import annotations

CURRENCY = "M"  # the sign on the banknotes and the cards of every Monopoly box the project referees


def money_prefixed(amount: int) -> str:
    """An amount as the Monopoly board games print it: the sign first, thousands separated ("M1,500")."""
    return f"{CURRENCY}{amount:,}"


def money_millions(amount: int) -> str:
    """An amount of Monopoly Deal's millions as its cards print it: the number, then the sign ("5M")."""
    return f"{amount}{CURRENCY}"


__all__ = ["CURRENCY", "money_millions", "money_prefixed"]
