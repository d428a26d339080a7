"""The Material icons font the phones download, cut down to the icons this app can show.

flet-web ships Flutter's whole `MaterialIcons-Regular.otf`: 8,623 glyphs, 1.3 MB (0.5 MB gzipped), a tenth
of what a phone downloads to join, for the 14 icons this app names and the few dozen Flutter's own
controls draw (a dropdown's arrow, a date picker's chevrons, a text field's clear button...). This module
finds those and keeps only them (`fontTools.subset`, once, when the client is prepared: `client.py`).

How an icon reaches a glyph in Flet 1.0.5: `ft.Icons.ADD` is an int, `(1 << 16) | i` where `i` is the icon's
index in the alphabetical list of Flutter's `Icons` names (`flet/controls/material/icons.json`); the
client looks `i` up in its Dart table `materialIcons` (a list of Flutter's `Icons.<name>` constants,
each an `IconData(codepoint, fontFamily: "MaterialIcons")`) and draws that codepoint from this font.
The table is read here from the client itself (`main.dart.js`, the JavaScript build of the same Dart
program as `main.dart.wasm`): the one array of as many IconData constants as `icons.json` has names.
Every other MaterialIcons constant the compiled program refers to is an icon Flutter's or Flet's own
widgets can draw, and is kept too (46 in flet-web 1.0.5).

The app's icons are found by scanning its source for `Icons.<NAME>` (`app_icon_names`): adding an icon to
the code changes the prepared client's key, so the next start prepares a font with it
(`tests/test_serving.py` checks that every icon named in the code has its glyph in the served font).
When anything here does not hold (a flet-web whose compiled client is laid out otherwise, no fontTools),
`subset_icon_font` returns None and the whole font is served, as before: slower, never a missing icon.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)

FONT = "assets/fonts/MaterialIcons-Regular.otf"
# Where the app's code lives (everything that can name an icon it shows).
APP_SOURCE = Path(__file__).resolve().parents[1]
# `ft.Icons.X` and `Icons.X` in the app's source.
ICON_USE = re.compile(r"\bIcons\.([A-Z][A-Z0-9_]*)\b")
# How dart2js writes a const IconData of the Material font (`B.boG=new A.a(57415,"MaterialIcons",null,!1)`;
# large codepoints as `61e3`). The class and constant names are minified: only the shape is relied on.
ICON_CONSTANT = re.compile(r'\n([\w$]+\.[\w$]+)=new \w+\.\w+\(([0-9.e]+),"MaterialIcons",null,!\d\)')
CONSTANT_LIST = re.compile(r"\[([\w$]+\.[\w$]+(?:,[\w$]+\.[\w$]+){999,})\]")
QUALIFIED_NAME = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*\.[\w$]+(?![\w$])")
# Icons an app may name in a way the scan cannot see (none today: a computed `ft.Icons[name]` or
# `getattr(ft.Icons, ...)` would go here, and `tests/test_serving.py` fails on such a use).
EXTRA_ICONS: frozenset[str] = frozenset()


def app_icon_names(source: Path = APP_SOURCE) -> frozenset[str]:
    """Every `Icons.<NAME>` the app's Python source names, plus `EXTRA_ICONS`."""
    names: set[str] = set(EXTRA_ICONS)
    for path in sorted(source.rglob("*.py")):
        names.update(ICON_USE.findall(path.read_text(encoding="utf-8")))
    return frozenset(names)


def flet_icon_indexes() -> dict[str, int]:
    """Flet's Material icon names -> their index in the client's table (the low 16 bits of the enum value)."""
    from importlib import resources

    table = json.loads(resources.files("flet.controls.material").joinpath("icons.json").read_text("utf-8"))
    return {str(name): int(value) & 0xFFFF for name, value in table.items()}


def client_icon_codepoints(main_js: str, table_size: int) -> tuple[list[int], set[int]] | None:
    """From the compiled client: the codepoint of each entry of Flet's icon table, in order, and the
    codepoints the rest of the program refers to (Flutter's and Flet's own widgets). None when the
    program does not have the expected shape."""
    constants = {m.group(1): int(float(m.group(2))) for m in ICON_CONSTANT.finditer(main_js)}
    tables = [m for m in CONSTANT_LIST.finditer(main_js) if m.group(1).count(",") + 1 == table_size]
    if len(tables) != 1:
        return None
    entries = tables[0].group(1).split(",")
    if not all(e in constants for e in entries):
        return None
    rest = main_js[:tables[0].start()] + main_js[tables[0].end():]
    # Each constant is defined once (`\nB.x=new ...`); any further mention outside the table is a use.
    mentions = Counter(QUALIFIED_NAME.findall(rest))
    widget_icons = {cp for name, cp in constants.items() if mentions[name] > 1}
    return [constants[e] for e in entries], widget_icons


def keep_codepoints(web_dir: Path, names: Iterable[str]) -> set[int] | None:
    """The codepoints to keep: the named icons' and the client's own widgets'. None if the client's
    icon table cannot be read."""
    indexes = flet_icon_indexes()
    try:
        found = client_icon_codepoints((web_dir / "main.dart.js").read_text(encoding="utf-8"), len(indexes))
    except OSError:
        found = None
    if found is None:
        log.warning("the web client's icon table was not found: serving the whole icon font")
        return None
    table, widget_icons = found
    # A name that is no Flet icon (a word in a comment) has no glyph to keep; code naming one fails anyway.
    return {table[indexes[n]] for n in names if n in indexes} | widget_icons | {0x20}


def subset_icon_font(web_dir: Path, names: Iterable[str]) -> bytes | None:
    """The icon font with only the glyphs of `names` and of the client's own widgets, or None (serve the
    whole font) when that cannot be made safely."""
    codepoints = keep_codepoints(web_dir, names)
    if codepoints is None:
        return None
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
    except ImportError:
        log.warning("fontTools is not installed: serving the whole icon font")
        return None
    font = TTFont(web_dir / FONT)
    missing = codepoints - set(font.getBestCmap())
    if missing:
        log.warning("icon codepoints not in the font (%s): serving the whole icon font",
                    ", ".join(f"U+{c:04X}" for c in sorted(missing)))
        return None
    options = subset.Options()
    options.glyph_names = True  # 'add_baseline'...: a reader of the served font sees which icons it holds
    options.notdef_outline = True
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
