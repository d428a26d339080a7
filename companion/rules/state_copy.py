"""Copying a game's folded state (a dataclass) through its constructor, field by field.

`GameLog.push` applies every event to a copy of the state, so each game copies its state once per event and
shares what never changes (settings, profile) instead of deep-copying it. Building the copy with the
dataclass's own constructor from `dataclasses.fields` means a field added to the state later is copied
too: it is listed by `fields`, and a required one the copy forgot would make the constructor fail loudly.
An attribute set on the state outside its fields would be lost by such a copy, so it is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

State = TypeVar("State", bound="DataclassInstance")


def copy_state(state: State, copy_field: Callable[[str, Any], Any]) -> State:
    """A new `type(state)` whose every field is `copy_field(name, value)` of `state`'s (the game decides per
    field: shared, copied one level, copied deeply)."""
    listed = fields(state)
    stray = set(vars(state)) - {f.name for f in listed}
    if stray:
        raise TypeError(f"{type(state).__name__} has attributes outside its fields ({', '.join(sorted(stray))}): "
                        "declare them as fields so that copies keep them")
    values = {f.name: copy_field(f.name, getattr(state, f.name)) for f in listed}
    new = type(state)(**{f.name: values[f.name] for f in listed if f.init})
    for f in listed:
        if not f.init:
            object.__setattr__(new, f.name, values[f.name])
    return new
