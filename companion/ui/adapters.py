"""Thin adapters to the engines built beside the UI (word judge, board reader, game store).

Each adapter tries the project's own package first and falls back to a small stand-in, so the UI
works while those packages are still being written. Nothing here knows a game rule.
"""

from __future__ import annotations

import importlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------------------- word judge


@dataclass(frozen=True)
class Verdict:
    acceptable: bool
    lexicon: str
    words: tuple[str, ...]
    bad_words: tuple[str, ...] = ()


_LEXICON_CANDIDATES = (
    "assets/lexicon/enable.txt",
    "lexicon/data/enable.txt",
    "lexicon/enable.txt",
    "../shared/data/lexicon/enable.txt",
)


class WordJudge:
    """Judges whole plays. Uses `lexicon` when it offers a loader, else reads ENABLE as a word set."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._words: frozenset[str] | None = None
        self._engine: Any = None
        self.name = "ENABLE"

    def _load(self) -> None:
        if self._words is not None or self._engine is not None:
            return
        try:
            mod = importlib.import_module("lexicon")
            for attr in ("load_default", "default_lexicon", "load_lexicon", "load"):
                fn = getattr(mod, attr, None)
                if callable(fn):
                    engine = fn()
                    if hasattr(engine, "__contains__") or hasattr(engine, "is_word"):
                        self._engine = engine
                        self.name = str(getattr(engine, "name", "ENABLE"))
                        return
        except Exception:  # the lexicon package may be half-written; fall back
            self._engine = None
        path_env = os.environ.get("COMPANION_LEXICON")
        paths = [Path(path_env)] if path_env else [REPO / p for p in _LEXICON_CANDIDATES]
        for path in paths:
            if path.is_file():
                self._words = frozenset(w.strip().upper() for w in path.read_text(encoding="utf-8").split())
                self.name = "ENABLE" if "enable" in path.name.lower() else path.stem
                return
        raise FileNotFoundError("no word list found: set COMPANION_LEXICON to a word list file")

    def is_word(self, word: str) -> bool:
        with self._lock:
            self._load()
        w = word.upper()
        if self._engine is not None:
            fn = getattr(self._engine, "is_word", None)
            return bool(fn(w) if fn else w in self._engine)
        assert self._words is not None
        return w in self._words

    def judge(self, words: list[str]) -> Verdict:
        bad = tuple(w for w in words if not self.is_word(w))
        return Verdict(not bad, self.name, tuple(words), bad)


JUDGE = WordJudge()

# ----------------------------------------------------------------------------- board reader


@dataclass
class BoardRead:
    """What the reader saw: 15 rows ('.' empty, A-Z tile, '?' blank), a confidence per square."""

    rows: list[str]
    confidence: list[list[float]]
    note: str = ""
    warped_png: bytes | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class ReaderUnavailable(RuntimeError):
    pass


def read_board(image: bytes, previous_rows: list[str] | None = None, tileset: str = "en",
               mirrored: bool = False) -> BoardRead:
    """Photo bytes -> BoardRead, through the project's `vision` package.

    `COMPANION_READER=module:function` points at another reader (tests use it while `vision` is built).
    """
    override = os.environ.get("COMPANION_READER")
    if override:
        mod_name, _, attr = override.partition(":")
        fn = getattr(importlib.import_module(mod_name), attr)
        return _to_board_read(_call_reader(fn, image, previous_rows, tileset, mirrored))
    try:
        vision = importlib.import_module("vision")
    except Exception as exc:  # pragma: no cover - vision is part of the repo
        raise ReaderUnavailable(f"the board reader could not start ({exc})") from None
    for attr in ("read_image_bytes", "read_bytes", "read_photo", "read_board", "read"):
        fn = getattr(vision, attr, None)
        if callable(fn):
            break
    else:
        raise ReaderUnavailable("the board reader is not installed yet: enter the play by hand")
    result = _call_reader(fn, image, previous_rows, tileset, mirrored)
    return _to_board_read(result)


def _call_reader(fn: Any, image: bytes, previous_rows: list[str] | None, tileset: str, mirrored: bool) -> Any:
    import numpy as np

    try:
        import cv2
        img = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR)
    except Exception:
        img = None
    if img is None:
        raise ValueError("The photo could not be opened: use a JPEG or PNG picture of the board.")
    if mirrored:  # a front camera on the web returns a mirror image
        img = cv2.flip(img, 1)
        image = bytes(cv2.imencode(".png", img)[1])
    attempts: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((img,), {"tileset": tileset}),
        ((img,), {}),
        ((image,), {}),
    ]
    last: Exception | None = None
    for args, kwargs in attempts:
        try:
            return fn(*args, **kwargs)
        except TypeError as exc:
            last = exc
    raise ReaderUnavailable(f"the board reader refused the photo ({last})")


def _to_board_read(result: Any) -> BoardRead:
    def get(name: str, default: Any = None) -> Any:
        if isinstance(result, dict):
            return result.get(name, default)
        return getattr(result, name, default)

    rows = get("rows") or get("grid")
    if rows is None:
        raise ReaderUnavailable("the board reader gave no grid")
    rows = ["".join(r) if not isinstance(r, str) else r for r in rows]
    conf = get("confidence") or get("confidences")
    if conf is None:
        conf = [[1.0] * len(rows) for _ in rows]
    conf = [[float(x) for x in row] for row in conf]
    return BoardRead(rows=rows, confidence=conf, note=str(get("note", "") or ""))


# ----------------------------------------------------------------------------- game store


class MemoryStore:
    """Games kept in memory until `companion.store` lands: id -> (variant, events JSON)."""

    def __init__(self, data_dir: str | None = None) -> None:
        self.data_dir = data_dir
        self._games: dict[str, tuple[str, str]] = {}

    def save(self, game_id: str, variant: str, events_json: str) -> None:
        self._games[game_id] = (variant, events_json)
        if self.data_dir:
            try:
                path = Path(self.data_dir)
                path.mkdir(parents=True, exist_ok=True)
                (path / f"{game_id}.json").write_text(events_json, encoding="utf-8")
            except OSError:
                pass

    def load(self, game_id: str) -> tuple[str, str] | None:
        return self._games.get(game_id)
