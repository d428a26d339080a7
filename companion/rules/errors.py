"""Errors the rules raise. Each carries a message meant for the people at the table."""

from __future__ import annotations


class RulesError(Exception):
    """Base for every refusal by the rules."""


class RulesDataError(RulesError):
    """A rules data file (layout, tile set, preset, profile) is missing or inconsistent."""


class IllegalPlacement(RulesError):
    """A placement that breaks the rules; the message names the rule and the squares involved."""


class IllegalAction(RulesError):
    """An action not allowed now (wrong player, exchange with too few tiles in the bag, game over...)."""
