"""Errors the rules raise. Each carries a message meant for the people at the table."""

from __future__ import annotations

from pydantic import ValidationError


class RulesError(Exception):
    """Base for every refusal by the rules."""


class RulesDataError(RulesError):
    """A rules data file (layout, tile set, preset, profile) is missing or inconsistent."""


class IllegalPlacement(RulesError):
    """A placement that breaks the rules; the message names the rule and the squares involved."""


class IllegalAction(RulesError):
    """An action not allowed now (wrong player, exchange with too few tiles in the bag, game over...)."""


def first_validation_error(exc: ValidationError) -> str:
    """The first problem of a pydantic validation error as one sentence, with where it is ("... (at a.b)"),
    for the rules data files (profiles, decks) that are validated by a model."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    msg = str(first["msg"]).removeprefix("Value error, ")
    return f"{msg} (at {where})" if where else msg
