"""Thin adapters to the word judge (`lexicon`) and the board reader (`vision`).

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

from lexicon import LexiconError, available_lexicons, judge_words, load_lexicon

REPO = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------------------- word judge


@dataclass(frozen=True)
class Verdict:
    acceptable: bool
    lexicon: str
    words: tuple[str, ...]
    bad_words: tuple[str, ...] = ()


class WordJudge:
    """Judges whole plays with the project's word judge (`lexicon`): one verdict, the lexicon named.

    A game names its word list (ENABLE unless the table chose another; `COMPANION_LEXICON` sets the
    default). Each list is loaded once, on first use or at start-up (`warm()`).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: dict[str, Any] = {}

    def default_name(self) -> str:
        return os.environ.get("COMPANION_LEXICON") or "ENABLE"

    def _lex(self, name: str | None = None) -> Any:
        key = name or self.default_name()
        with self._lock:
            if key not in self._loaded:
                try:
                    self._loaded[key] = load_lexicon(key)
                except LexiconError as exc:
                    raise ValueError(f"The word list {key} could not be loaded ({exc}).") from None
            return self._loaded[key]

    def warm(self) -> None:
        self._lex()

    def word_list(self, name: str | None = None) -> Any:
        """The loaded word list (`lexicon.Lexicon`) by name, for the move generator."""
        return self._lex(name)

    def available(self) -> list[str]:
        names = list(available_lexicons())
        return names if self.default_name() in names else [self.default_name(), *names]

    def judge(self, words: list[str], lexicon: str | None = None) -> Verdict:
        ruling = judge_words(words, self._lex(lexicon))
        return Verdict(ruling.acceptable, ruling.lexicon, tuple(w.word for w in ruling.words),
                       tuple(w.word for w in ruling.words if not w.ok))


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
    # Why the reader doubts this reading (vision.confidence): the app asks the referee instead of scoring.
    doubts: list[str] = field(default_factory=list)


class ReaderUnavailable(RuntimeError):
    pass


def read_board(image: bytes, previous_rows: list[str] | None = None, tileset: str = "en",
               mirrored: bool = False) -> BoardRead:
    """Photo bytes -> BoardRead, through the project's reader (`vision.read.read_board`).

    `COMPANION_READER=module:function` points at another reader (the browser tests use a stand-in that
    misreads one square on purpose, to exercise the correction screen deterministically).
    """
    override = os.environ.get("COMPANION_READER")
    if override:
        mod_name, _, attr = override.partition(":")
        fn = getattr(importlib.import_module(mod_name), attr)
        return _to_board_read(_call_reader(fn, image, previous_rows, tileset, mirrored))
    try:  # lazy: OpenCV and the board reader add ~460 ms to every import of a word game's table
        from vision.errors import VisionError
        from vision.read import read_board as vision_read
    except ImportError as exc:  # pragma: no cover - vision is part of the repo
        raise ReaderUnavailable(f"the board reader could not start ({exc}): enter the play by hand") from None
    if mirrored:
        image = _unmirror(image)
    try:
        reading = vision_read(image, previous=previous_rows, tiles=tileset)
    except VisionError as exc:
        raise ValueError(_sentence(str(exc))) from None
    read = _to_board_read(reading)
    # Read knowing the game's board (`previous_rows`): known tiles the photo did not show clearly keep
    # their letters ("kept"); a known tile the photo clearly shows otherwise is "changed", and the table's
    # check of the rows then warns about that square.
    read.extra["changed"] = [c.model_dump() for c in getattr(reading, "changed", [])]
    read.extra["kept"] = [d.model_dump() for d in getattr(reading, "disagreements", [])]
    read.extra["new_tiles"] = [t.model_dump() for t in getattr(reading, "new_tiles", None) or []]
    read.extra["score"] = getattr(reading, "score", None)
    notes = list(getattr(reading, "warnings", []) or [])
    notes += [f"{c.square} read as {c.now} but the board holds {c.was}" for c in getattr(reading, "changed", [])]
    read.note = " ".join(_sentence(n) for n in notes)
    return read


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")) if text else text


def _unmirror(image: bytes) -> bytes:
    """A front camera on the web returns a mirror image: flip it back."""
    import cv2  # lazy: ~300 ms on every import of a word game's table, for a photo not every game takes
    import numpy as np

    img = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("The photo could not be opened: use a JPEG or PNG picture of the board.")
    return bytes(cv2.imencode(".png", cv2.flip(img, 1))[1])


def _call_reader(fn: Any, image: bytes, previous_rows: list[str] | None, tileset: str, mirrored: bool) -> Any:
    import cv2  # lazy: as in _unmirror
    import numpy as np

    img = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR) if image else None
    if img is None:
        raise ValueError("The photo could not be opened: use a JPEG or PNG picture of the board.")
    if mirrored:
        img = cv2.flip(img, 1)
    return fn(img)


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
    doubts = [_sentence(str(d)) for d in (get("doubts") or [])]
    return BoardRead(rows=rows, confidence=conf, note=str(get("note", "") or ""), doubts=doubts)
