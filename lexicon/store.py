"""Lexicons by name or path, and the compiled cache that makes them load fast.

A lexicon is a word list with a name shown on every ruling: "ENABLE" ships in `assets/lexicon/`
(listed in `assets/lexicon/lexicons.json`); a user's own list is a text file, named by the user or by
its file name. Lists a user drops into `<data folder>/lexicons/*.txt` are found by name too.

The compiled graph is cached in `<cache folder>/lexicon/<hash of source>-v<format>.lex`: the hash is
of the source bytes, so an edited list rebuilds and an unchanged one loads in a few milliseconds (the
arcs are read straight into an array). The shipped ENABLE is compiled on first use (about two seconds)
instead of committing a binary that a fresh checkout rebuilds this quickly. When the cache folder
cannot be written the graph is simply built in memory.
"""

from __future__ import annotations

import array
import hashlib
import json
import os
import struct
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from lexicon.graph import CODE_MASK, MAX_CODES, build_arcs, find_arc
from lexicon.wordlist import MAX_WORD_LENGTH, read_word_list

ASSETS = Path(__file__).resolve().parents[1] / "assets" / "lexicon"
FORMAT_VERSION = 1
_MAGIC = b"TRLEX\x00\x01\x00"
UNKNOWN_CODE = 63


class LexiconError(Exception):
    """A lexicon that cannot be found or read: the message is one sentence for the user."""


def cache_dir() -> Path:
    """`$COMPANION_CACHE_DIR`, else `$XDG_CACHE_HOME/table-referee`, else `~/.cache/table-referee`."""
    explicit = os.environ.get("COMPANION_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "table-referee"


def user_lexicon_dir() -> Path:
    """Where a user's own lists are found by name: `$XDG_DATA_HOME/table-referee/lexicons`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-referee" / "lexicons"


@dataclass
class Lexicon:
    """A named word list compiled to a word graph (see `lexicon.graph` for the layout)."""

    name: str
    alphabet: str
    arcs: array.array[int]
    root: int
    word_count: int
    summary: str
    source: Path | None = None
    checked: bool | None = field(default=None, compare=False)  # arcs verified safe for the C search

    def __post_init__(self) -> None:
        self.codes = {ch: i + 1 for i, ch in enumerate(self.alphabet)}

    def encode(self, word: str) -> list[int] | None:
        """Letter codes of `word` (any case), or None when it has a letter the list never uses."""
        codes = self.codes
        out = []
        for ch in word.upper():
            code = codes.get(ch)
            if code is None:
                return None
            out.append(code)
        return out

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        encoded = self.encode(word)
        if encoded is None:
            return False
        arcs = self.arcs
        node = self.root
        arc = 0
        for code in encoded:
            arc = find_arc(arcs, node, code)
            if not arc:
                return False
            node = arc >> 8
        return bool(arc & 0x40)

    def words(self) -> list[str]:
        """Every word, in code order (for tests and export; walks the whole graph)."""
        out: list[str] = []
        alphabet = self.alphabet
        arcs = self.arcs

        def walk(node: int, prefix: str) -> None:
            i = node
            while True:
                arc = arcs[i]
                word = prefix + alphabet[(arc & CODE_MASK) - 1]
                if arc & 0x40:
                    out.append(word)
                if arc >> 8:
                    walk(arc >> 8, word)
                if arc & 0x80:
                    return
                i += 1

        if self.word_count:
            walk(self.root, "")
        return out

    @property
    def nbytes(self) -> int:
        return self.arcs.itemsize * len(self.arcs)


def compile_lexicon(name: str, source: Path, max_length: int = MAX_WORD_LENGTH) -> Lexicon:
    """Build the graph for a word list file (no cache)."""
    report = read_word_list(source, max_length)
    alphabet = "".join(sorted({ch for w in report.words for ch in w}))
    if len(alphabet) > MAX_CODES:
        raise LexiconError(f"the word list {source} uses {len(alphabet)} different letters; at most {MAX_CODES} are supported")
    arcs, root = build_arcs(report.words, alphabet)
    return Lexicon(name, alphabet, arcs, root, len(report.words), report.summary(), source)


def _write_cache(path: Path, lex: Lexicon) -> None:
    header = json.dumps({"alphabet": lex.alphabet, "root": lex.root, "words": lex.word_count,
                         "summary": lex.summary}).encode("utf-8")
    pad = (-(len(_MAGIC) + 4 + len(header))) % 4
    arcs = lex.arcs
    if sys.byteorder != "little":
        arcs = array.array("I", arcs)
        arcs.byteswap()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".lex-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(_MAGIC + struct.pack("<I", len(header) + pad) + header + b" " * pad + arcs.tobytes())
        os.replace(tmp, path)  # atomic: a reader never sees half a file
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_cache(path: Path, name: str, source: Path) -> Lexicon | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + 4:
        return None
    (hlen,) = struct.unpack_from("<I", data, len(_MAGIC))
    start = len(_MAGIC) + 4
    try:
        header = json.loads(data[start:start + hlen])
        arcs = array.array("I")
        arcs.frombytes(data[start + hlen:])
    except (ValueError, UnicodeDecodeError):
        return None  # damaged cache: rebuild rather than fail
    if sys.byteorder != "little":
        arcs.byteswap()
    return Lexicon(name, header["alphabet"], arcs, int(header["root"]), int(header["words"]),
                   str(header["summary"]), source)


_LOADED: dict[tuple[str, str], Lexicon] = {}


def load_word_list(source: Path, name: str | None = None, max_length: int = MAX_WORD_LENGTH,
                   use_cache: bool = True) -> Lexicon:
    """A word list file as a `Lexicon`, from the compiled cache when the source is unchanged."""
    source = Path(source)
    try:
        raw = source.read_bytes()
    except FileNotFoundError:
        raise LexiconError(f"no word list at {source}: give a lexicon name ({', '.join(available_lexicons())}) "
                           "or the path of a text file with one word per line") from None
    except IsADirectoryError:
        raise LexiconError(f"{source} is a folder: give a text file with one word per line") from None
    except OSError as exc:
        raise LexiconError(f"cannot read the word list {source}: {exc.strerror}") from None
    label = name or source.stem.upper()
    hasher = hashlib.sha256(raw)  # the content, not the mtime: an edited list always rebuilds
    hasher.update(f"|max={max_length}".encode())
    digest = hasher.hexdigest()[:24]
    key = (label, digest)
    if key in _LOADED:
        return _LOADED[key]
    path = cache_dir() / "lexicon" / f"{digest}-v{FORMAT_VERSION}.lex"
    lex = _read_cache(path, label, source) if use_cache else None
    if lex is None:
        lex = compile_lexicon(label, source, max_length)
        if use_cache:
            try:
                _write_cache(path, lex)
            except OSError:
                pass  # a read-only home still works, just without the fast start
    _LOADED[key] = lex
    return lex


def _catalog() -> dict[str, dict[str, str]]:
    data = json.loads((ASSETS / "lexicons.json").read_text(encoding="utf-8"))
    catalog: dict[str, dict[str, str]] = data["lexicons"]
    return catalog


def default_lexicon_name() -> str:
    return str(json.loads((ASSETS / "lexicons.json").read_text(encoding="utf-8"))["default"])


def available_lexicons() -> list[str]:
    """Names that `load_lexicon` accepts: the shipped lists, then the user's own folder."""
    names = list(_catalog())
    folder = user_lexicon_dir()
    if folder.is_dir():
        names += sorted(p.stem.upper() for p in folder.glob("*.txt") if p.stem.upper() not in names)
    return names


def load_lexicon(spec: str | Path | None = None, name: str | None = None) -> Lexicon:
    """A lexicon by name (`ENABLE`, or a list in the user's folder) or by the path of a word list file.

    `name` overrides the name shown on rulings (a path otherwise shows its file name in upper case).
    """
    if spec is None:
        spec = default_lexicon_name()
    text = str(spec)
    catalog = _catalog()
    upper = text.upper()
    if upper in catalog:
        return load_word_list(ASSETS / catalog[upper]["file"], name or upper)
    user = user_lexicon_dir() / f"{text}.txt"
    if "/" not in text and "\\" not in text and not user.exists():
        # Names are matched without regard to case in the user's folder too.
        folder = user_lexicon_dir()
        if folder.is_dir():
            for p in folder.glob("*.txt"):
                if p.stem.upper() == upper:
                    user = p
    if "/" not in text and "\\" not in text and user.exists() and not Path(text).exists():
        return load_word_list(user, name or user.stem.upper())
    return load_word_list(Path(text), name)
