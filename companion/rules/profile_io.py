"""Board profiles as files and as edits: what every game with an editable box profile (the Monopoly games)
does with its profile, written once.

A game's profile is a frozen pydantic model whose values are `Sourced` (`companion.rules.sourced`). The
game binds its model once (`ProfileIO(Profile, "monopoly_builder", ...)`) and gets:

- `validate` (parsed JSON -> the profile, or `RulesDataError` with one sentence), `load` (a name in
  `assets/profiles/` or a JSON file) and `save` (validated again first, so a saved profile always loads);
- one edit API, the same for every game's editor: `set_values` (values named by path, such as
  `"deeds.oriental_avenue.price"` or `"groups.brown.rent"`: all applied, or none) and `set_item` (replace,
  append or remove one item of a list, such as a track space). Edits never mutate: each returns a new
  validated profile, or raises `RulesDataError` and the profile stays as it was;
- `placeholders`: the paths (as `set_values` takes them) of every value still marked placeholder, for the
  app to ask the table to check them against its box.

A path names dict keys and list items by their `id` (deeds, groups, Chance cards) or by their index
(track spaces): `"track.spaces.3.name"`. A `Sourced` value set by path takes the new value and confidence
`table` (its note is kept); a plain field of a record that has its own confidence (a track space, a
Chance card) marks that record `table`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from companion.rules.errors import RulesDataError, first_validation_error
from companion.rules.sourced import Confidence, Sourced, profile_path, read_profile_json, write_profile_json

M = TypeVar("M", bound=BaseModel)
SpaceT = TypeVar("SpaceT", bound=BaseModel)


class BoxProfile(BaseModel):
    """What every game's box profile holds besides its own data: its name, how the app labels and
    describes it, and how many players the box seats. A game's `Profile` model subclasses it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    label: str = ""
    about: str = ""
    min_players: int = Field(default=2, ge=1)
    max_players: int = Field(default=4, ge=1)

    def placeholders(self) -> list[str]:
        """Every value still marked placeholder (as `ProfileIO.set_values` paths), for the app to ask the
        table to check against its box."""
        return placeholders(self)


class BoxAmounts(BaseModel):
    """The sums of money every box profile names first: the cash each player starts with and the bills it is
    paid in. A game's `Amounts` model subclasses it with its own sums; none of them may be negative."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    starting_cash: Sourced[int]
    starting_bills: Sourced[dict[str, int]]

    @model_validator(mode="after")
    def _check_box_amounts(self) -> Self:
        for name in type(self).model_fields:
            value = getattr(self, name).value
            if isinstance(value, int) and value < 0:
                raise ValueError(f"the amount {name} is negative ({value})")
        total = sum(int(denomination) * count for denomination, count in self.starting_bills.value.items())
        if total != self.starting_cash.value:
            raise ValueError(f"the starting bills add up to M{total}, not the starting cash M{self.starting_cash.value}")
        return self


class TrackOf(BaseModel, Generic[SpaceT]):
    """The spaces around a board in order from GO (each game's own `Space` model), with how sure the
    order itself is. A game's `Track` subclasses `TrackOf[Space]`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    confidence: Confidence
    note: str = ""
    spaces: list[SpaceT]


class HasId(Protocol):
    @property
    def id(self) -> str: ...


I = TypeVar("I", bound=HasId)


def by_id(items: Iterable[I], item_id: str, refusal: str) -> I:
    """The item of `items` whose `id` is `item_id`, else `RulesDataError(refusal)`."""
    for item in items:
        if item.id == item_id:
            return item
    raise RulesDataError(refusal)


@dataclass(frozen=True)
class ProfileIO(Generic[M]):
    """The file and edit operations of one game's profile model.

    `model`: the profile's pydantic model. `default`: the shipped profile's name in `assets/profiles/`.
    `refused`: how the sentence about a profile that cannot be played begins ("the board profile cannot
    be played"). `check`: a check beyond the model's own validators (raises `RulesDataError` with a
    sentence), e.g. that the premium layout a profile names can be loaded."""

    model: type[M]
    default: str
    refused: str
    check: Callable[[M], None] | None = None

    def validate(self, data: object) -> M:
        """A profile from parsed JSON, or `RulesDataError` saying in one sentence what is wrong."""
        try:
            profile = self.model.model_validate(data)
        except ValidationError as exc:
            raise RulesDataError(f"{self.refused}: {first_validation_error(exc)}") from None
        if self.check is not None:
            self.check(profile)
        return profile

    def load(self, name_or_path: str | Path | None = None) -> M:
        """A profile by name from `assets/profiles/` (the shipped one when None), or from a JSON file path."""
        return self.validate(read_profile_json(profile_path(self.default if name_or_path is None else name_or_path)))

    def save(self, profile: M, path: str | Path) -> Path:
        """Write the profile as JSON (validated again first, so a saved profile always loads)."""
        data = profile.model_dump(mode="json")
        self.validate(data)
        return write_profile_json(data, path)

    def set_values(self, profile: M, changes: Mapping[str, object]) -> M:
        """Set values by path (`{"amounts.go_salary": 300}`), as read from the box: all of them, validated
        together, or none (`RulesDataError` names the first problem)."""
        data = profile.model_dump(mode="json")
        for path, value in changes.items():
            _assign(data, path, value)
        return self.validate(data)

    def set_value(self, profile: M, path: str, value: object) -> M:
        """One value by path: `set_value(p, "deeds.oriental_avenue.price", 100)`."""
        return self.set_values(profile, {path: value})

    def set_item(self, profile: M, path: str, index: int, item: BaseModel | None) -> M:
        """Replace item `index` of the list at `path` (`"track.spaces"`); `index == len(list)` appends;
        `item=None` removes it."""
        data = profile.model_dump(mode="json")
        container, key = _locate(data, path)
        items = container[key]
        if not isinstance(items, list):
            raise RulesDataError(f"the profile's '{path}' is not a list")
        if not 0 <= index <= len(items) or (index == len(items) and item is None):
            parent, _, leaf = path.replace("_", " ").rpartition(".")
            raise RulesDataError(f"{_singular(path)} {index} is out of range: the {parent or 'profile'} has {leaf} "
                                 f"0-{len(items) - 1}")
        if item is None:
            items.pop(index)
        elif index == len(items):
            items.append(item.model_dump(mode="json"))
        else:
            items[index] = item.model_dump(mode="json")
        return self.validate(data)

    def set_track_space(self, profile: M, index: int, space: BaseModel | None) -> M:
        """Replace track space `index` (the game's `Space`); `index == len(track)` appends; `space=None`
        removes it."""
        return self.set_item(profile, "track.spaces", index, space)


def placeholders(profile: BaseModel) -> list[str]:
    """The path of every value (or record) still marked placeholder, in the profile's order."""
    out: list[str] = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            if node.get("confidence") == "placeholder":
                out.append(path)
                if "value" in node:
                    return
            for key, child in node.items():
                walk(child, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for i, child in enumerate(node):
                key = child.get("id", str(i)) if isinstance(child, dict) else str(i)
                walk(child, f"{path}.{key}")

    walk(profile.model_dump(mode="json"), "")
    return out


def _singular(path: str) -> str:
    """How a refusal names one item of the list at `path`: "track.spaces" -> "track space"."""
    words = path.replace("_", " ").split(".")
    return " ".join([*words[:-1], words[-1].removesuffix("s")])


def _assign(data: dict[str, Any], path: str, value: object) -> None:
    container, key = _locate(data, path)
    target = container[key]
    if isinstance(target, dict) and "value" in target and "confidence" in target:
        target["value"] = value
        target["confidence"] = "table"
    else:
        container[key] = value
        # A plain field of a record with its own confidence (a track space, a Chance card): the record is now
        # the table's.
        if isinstance(container, dict) and "confidence" in container and not isinstance(container["confidence"], dict):
            container["confidence"] = "table"


def _locate(data: dict[str, Any], path: str) -> tuple[Any, str | int]:
    """The container and key that `path` ("deeds.oriental_avenue.price") names in the dumped profile.
    A list item is addressed by its `id` (deeds, groups, Chance cards) or its index (track spaces)."""
    parts = path.split(".")
    node: Any = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(node, dict):
            if part not in node:
                raise RulesDataError(f"the profile has no value '{path}' ('{part}' is not one of: "
                                     f"{', '.join(map(str, node))})")
            if last:
                return node, part
            node = node[part]
        elif isinstance(node, list):
            index = next((j for j, item in enumerate(node) if isinstance(item, dict) and item.get("id") == part), None)
            if index is None and part.isdigit() and int(part) < len(node):
                index = int(part)
            if index is None:
                raise RulesDataError(f"the profile has no value '{path}' (no item '{part}')")
            if last:
                return node, index
            node = node[index]
        else:
            break
    raise RulesDataError(f"the profile has no value '{path}'")


__all__ = ["BoxAmounts", "BoxProfile", "ProfileIO", "TrackOf", "by_id", "placeholders"]
