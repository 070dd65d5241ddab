"""A minimized DAWG (directed acyclic word graph) built from a sorted word list.

Built incrementally from sorted input (Daciuk et al., 2000): after each word,
the states of the previous word's suffix that can no longer change are merged
with an equivalent registered state.  In memory a node is an int:
``children[node]`` maps letter codes to child nodes and ``lengths[node]`` is
a bit set of the word lengths still reachable below it (bit 0: a word ends
at the node), which lets the search drop a branch that cannot fill its slot.
"""

from __future__ import annotations

import struct
from array import array

from engine.alphabet import BLANK, LETTER_MASK

MAGIC = b"DAWG1\n"


class DawgTooLarge(ValueError):
    """The graph would pass the number of nodes the caller allows (``Dawg.build(max_nodes=...)``)."""


class Dawg:
    __slots__ = ("children", "lengths", "root")

    def __init__(self, children: list[dict[int, int]], lengths: list[int], root: int = 0):
        self.children = children
        self.lengths = lengths
        self.root = root

    @property
    def node_count(self) -> int:
        return len(self.children)

    @property
    def edge_count(self) -> int:
        return sum(len(c) for c in self.children)

    def walk(self, codes, node: int | None = None) -> int | None:
        """The node reached by spelling ``codes`` from ``node`` (root by default), or None."""
        children = self.children
        node = self.root if node is None else node
        for c in codes:
            node = children[node].get(c)
            if node is None:
                return None
        return node

    def contains(self, codes) -> bool:
        node = self.walk(codes)
        return node is not None and self.lengths[node] & 1 == 1

    # -- building ---------------------------------------------------------

    @classmethod
    def build(cls, words: list[str], max_nodes: int | None = None) -> Dawg:
        """From words keyed one character per tile (``LetterSet.key``; A..Z for French), sorted.
        ``DawgTooLarge`` if the graph has more than
        ``max_nodes`` nodes, as soon as it is sure to: the states already merged all stay, so
        memory and time stop there, not at the end of the list."""
        children: list[dict[int, int]] = [{}]
        final = [False]
        free: list[int] = []
        register: dict[tuple, int] = {}
        path: list[tuple[int, int, int]] = []  # (parent, letter, child) of the last word

        def minimize(down_to: int) -> None:
            while len(path) > down_to:
                parent, letter, child = path.pop()
                sig = (final[child], *children[child].items())
                same = register.get(sig)
                if same is None:
                    register[sig] = child
                else:
                    children[parent][letter] = same
                    children[child] = {}
                    final[child] = False
                    free.append(child)

        previous = ""
        for word in words:
            common = 0
            limit = min(len(word), len(previous))
            while common < limit and word[common] == previous[common]:
                common += 1
            minimize(common)
            node = path[-1][2] if path else 0
            for ch in word[common:]:
                if free:
                    new = free.pop()
                else:
                    new = len(children)
                    children.append({})
                    final.append(False)
                letter = ord(ch) - 64
                children[node][letter] = new
                path.append((node, letter, new))
                node = new
            final[node] = True
            previous = word
            if max_nodes is not None and len(children) - len(free) - len(path) > max_nodes:
                raise DawgTooLarge(max_nodes)
        minimize(0)
        dawg = cls._compact(children, final)
        if max_nodes is not None and dawg.node_count > max_nodes:
            raise DawgTooLarge(max_nodes)
        return dawg

    @classmethod
    def _compact(cls, children: list[dict[int, int]], final: list[bool]) -> Dawg:
        """Renumber the live nodes in topological order (root 0, every parent before its
        children: reverse post-order) and compute ``lengths``."""
        post: list[int] = []
        seen = {0}
        stack = [(0, iter(children[0].values()))]
        while stack:
            node, it = stack[-1]
            for child in it:
                if child not in seen:
                    seen.add(child)
                    stack.append((child, iter(children[child].values())))
                    break
            else:
                stack.pop()
                post.append(node)
        order = post[::-1]
        index = {old: new for new, old in enumerate(order)}
        new_children = [{k: index[v] for k, v in children[old].items()} for old in order]
        new_final = [final[old] for old in order]
        return cls(new_children, _lengths(new_children, new_final))

    # -- cache file -------------------------------------------------------

    def to_bytes(self) -> bytes:
        counts = array("B", (len(c) for c in self.children))
        letters = array("B")
        targets = array("I")
        for c in self.children:
            letters.extend(c.keys())
            targets.extend(c.values())
        finals = array("B", (n & 1 for n in self.lengths))
        head = MAGIC + struct.pack("<II", len(self.children), len(letters))
        return head + counts.tobytes() + finals.tobytes() + letters.tobytes() + targets.tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> Dawg:
        """Read ``to_bytes`` back; ValueError for anything that is not a well-formed graph."""
        head = len(MAGIC) + 8
        if not data.startswith(MAGIC) or len(data) < head:
            raise ValueError("not a DAWG cache file")
        n, e = struct.unpack_from("<II", data, len(MAGIC))
        targets = array("I")
        if n == 0 or len(data) != head + 2 * n + e + targets.itemsize * e:
            raise ValueError("DAWG cache file of the wrong size")
        counts = data[head : head + n]
        finals = data[head + n : head + 2 * n]
        letters = data[head + 2 * n : head + 2 * n + e]
        targets.frombytes(data[head + 2 * n + e :])
        if sum(counts) != e:
            raise ValueError("DAWG cache file with inconsistent edge counts")
        children = []
        start = 0
        for node, count in enumerate(counts):
            end = start + count
            edges = dict(zip(letters[start:end], targets[start:end]))
            _check_node(node, edges, count, n)
            children.append(edges)
            start = end
        return cls(children, _lengths(children, finals))


def _check_node(node: int, edges: dict[int, int], count: int, node_count: int) -> None:
    """Distinct tile codes, and children numbered after their parent: the order
    ``_lengths`` relies on, which also rules out cycles."""
    if len(edges) != count:
        raise ValueError("DAWG cache file with a repeated letter")
    for letter, child in edges.items():
        if not 1 <= letter <= LETTER_MASK or letter == BLANK or not node < child < node_count:
            raise ValueError("DAWG cache file with a bad edge")


def _lengths(children: list[dict[int, int]], final) -> list[int]:
    """Bit k of ``lengths[node]``: some word ends k letters below ``node``.

    Nodes are numbered in topological order (every parent before its
    children), so a reverse sweep sees every child before its parents.
    """
    lengths = [0] * len(children)
    for node in range(len(children) - 1, -1, -1):
        bits = 1 if final[node] else 0
        for child in children[node].values():
            bits |= lengths[child] << 1
        lengths[node] = bits
    return lengths
