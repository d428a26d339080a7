"""Typed faces of the Flet helpers that ship without annotations, so the UI code stays under
`mypy --strict` without an ignore at every use. (Flet's optional packages, `flet_camera`, `flet_charts` and
`flet_web`, carry annotations but no `py.typed` marker: pyproject's mypy section reads them as they are.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

import flet as ft

P = ParamSpec("P")
R = TypeVar("R")


def memo(component: Callable[P, R]) -> Callable[P, R]:
    """`ft.memo`: the component is redrawn only when its props change (compared one by one, shallowly)."""
    memoized: Callable[P, R] = ft.memo(component)  # type: ignore[no-untyped-call]  # Flet 1.0.5's memo is unannotated
    return memoized
