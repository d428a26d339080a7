"""Rules data that says where each value comes from: what the board profiles of the Monopoly games share.

A board profile (`assets/profiles/*.json`) holds what the box on the table decides. Sources rarely give all
of it, so every value carries a `confidence`: `rules_text` (the project's rules text says so), `confirmed`
(other sources agree), `inferred` (worked out from them), `placeholder` (made up so a game runs out of the
box: check it against the box) or `table` (entered by the table in the app's profile editor).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from companion.rules.board import ASSETS
from companion.rules.errors import RulesDataError

Confidence = Literal["rules_text", "confirmed", "inferred", "placeholder", "table"]

T = TypeVar("T")


class Sourced(BaseModel, Generic[T]):
    """A value and where it comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    value: T
    confidence: Confidence
    note: str = ""


def read_profile_json(path: Path) -> object:
    """The parsed JSON of a profile file, or `RulesDataError` saying why it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesDataError(f"no board profile at {path}: give a profile name or a JSON file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(f"board profile {path} is not valid JSON: {exc}") from None


def profile_path(name_or_path: str | Path) -> Path:
    """A profile's file: a bare name is `assets/profiles/NAME.json`; anything with a suffix is a path."""
    path = Path(name_or_path)
    return ASSETS / "profiles" / f"{name_or_path}.json" if not path.suffix else path


def write_profile_json(data: object, path: str | Path) -> Path:
    """Write a profile's JSON data (validated by the caller first, so a saved profile always loads)."""
    target = Path(path)
    target.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return target
