"""The compiled word graph: a minimal DAWG stored as one flat array of 32-bit arcs.

Layout (in the spirit of the KWG format documented by the wolges project, simplified):
each node is a run of consecutive arcs sorted by letter code; one arc is

    bits 0-5   letter code (1..62; the list's alphabet in sorted order)
    bit  6     accepts: the letters up to and including this arc spell a word
    bit  7     last arc of its node
    bits 8-31  index of the child node's first arc (0: no child)

Arc 0 is a sentinel so that 0 can mean "no node"; the root's arcs start at `root`. The same array is
walked by the pure-Python generator and handed as a buffer to the C extension, so both see one graph.

The graph is built with the incremental construction of Daciuk et al. (sorted input, a register of
already-minimised suffix nodes), which keeps memory to the minimal automaton plus one word's path.
"""

from __future__ import annotations

import array
from collections.abc import Iterable

CODE_MASK = 0x3F
ACCEPTS = 0x40
LAST = 0x80
CHILD_SHIFT = 8
MAX_CODES = 62  # code 63 stands for a board letter the list does not know


class _Node:
    __slots__ = ("edges", "final")

    def __init__(self) -> None:
        self.edges: dict[int, _Node] = {}
        self.final = False


def _minimise(unchecked: list[tuple[_Node, int, _Node]], register: dict[tuple[object, ...], _Node],
              down_to: int) -> None:
    while len(unchecked) > down_to:
        parent, code, child = unchecked.pop()
        key = (child.final, *((c, id(n)) for c, n in child.edges.items()))
        same = register.get(key)
        if same is not None:
            parent.edges[code] = same
        else:
            register[key] = child


def build_arcs(words: Iterable[str], alphabet: str) -> tuple[array.array[int], int]:
    """Arcs and root index for `words` (upper case, sorted by code order, unique)."""
    codes = {ch: i + 1 for i, ch in enumerate(alphabet)}
    root = _Node()
    register: dict[tuple[object, ...], _Node] = {}
    unchecked: list[tuple[_Node, int, _Node]] = []
    previous: list[int] = []
    for word in words:
        encoded = [codes[ch] for ch in word]
        common = 0
        limit = min(len(encoded), len(previous))
        while common < limit and encoded[common] == previous[common]:
            common += 1
        _minimise(unchecked, register, common)
        node = unchecked[-1][2] if unchecked else root
        for code in encoded[common:]:
            child = _Node()
            node.edges[code] = child
            unchecked.append((node, code, child))
            node = child
        node.final = True
        previous = encoded
    _minimise(unchecked, register, 0)

    # Lay the nodes out breadth first; every node with edges gets a run of arcs.
    start: dict[int, int] = {}
    order: list[_Node] = []
    queue = [root]
    next_index = 1
    start[id(root)] = next_index
    next_index += len(root.edges)
    order.append(root)
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        for child in node.edges.values():
            if child.edges and id(child) not in start:
                start[id(child)] = next_index
                next_index += len(child.edges)
                order.append(child)
                queue.append(child)
    if next_index >= 1 << (32 - CHILD_SHIFT):
        raise ValueError("the word list is too large for the compiled graph format")
    arcs = array.array("I", bytes(4 * next_index))
    for node in order:
        i = start[id(node)]
        items = sorted(node.edges.items())
        for k, (code, child) in enumerate(items):
            value = code
            if child.final:
                value |= ACCEPTS
            if k == len(items) - 1:
                value |= LAST
            if child.edges:
                value |= start[id(child)] << CHILD_SHIFT
            arcs[i + k] = value
    return arcs, 1


def find_arc(arcs: array.array[int] | list[int], node: int, code: int) -> int:
    """The arc for `code` among the arcs of `node`, or 0."""
    if node == 0:
        return 0
    i = node
    while True:
        arc = arcs[i]
        c = arc & CODE_MASK
        if c == code:
            return arc
        if c > code or arc & LAST:
            return 0
        i += 1
