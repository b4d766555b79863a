"""An append-only Merkle tree with RFC 9162's hashing, inclusion and consistency proofs (issue 48:
the roll log as a transparency log; the first part, not wired to the rolls yet).

Pure (no Django). RFC 9162 (Certificate Transparency 2.0), section 2.1:

- a leaf's hash is ``SHA-256(0x00 || leaf bytes)``, an inner node's ``SHA-256(0x01 || left ||
  right)``; the tree of n leaves splits at k, the largest power of two below n (2.1.1);
- an inclusion proof of leaf m in a tree of n leaves is the audit path (2.1.3.1), checked by the
  algorithm of 2.1.3.2;
- a consistency proof between sizes m and n (2.1.4.1), checked by the algorithm of 2.1.4.2: the
  tree of n leaves is the tree of m leaves with leaves appended, nothing removed or rewritten.

``Log`` appends in amortised constant time (a frontier of the perfect subtrees on the right edge)
and gives the root at once; the proofs are computed from the leaf hashes. scripts/verify_rolls.py
repeats the two checks with the standard library only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


EMPTY_ROOT = hashlib.sha256(b"").digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH of the leaf hashes ``leaves`` (RFC 9162 2.1.1)."""
    n = len(leaves)
    if n == 0:
        return EMPTY_ROOT
    if n == 1:
        return leaves[0]
    k = _split(n)
    return node_hash(root(leaves[:k]), root(leaves[k:]))


def inclusion_proof(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(index, D[n]) (RFC 9162 2.1.3.1), from the leaf up."""
    n = len(leaves)
    if not 0 <= index < n:
        raise ValueError(f"no leaf {index} in a tree of {n}")
    if n == 1:
        return []
    k = _split(n)
    if index < k:
        return [*inclusion_proof(index, leaves[:k]), root(leaves[k:])]
    return [*inclusion_proof(index - k, leaves[k:]), root(leaves[:k])]


def consistency_proof(m: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) (RFC 9162 2.1.4.1): the tree of the first m leaves is a prefix of this one."""
    n = len(leaves)
    if not 0 < m <= n:
        raise ValueError(f"no consistency proof from {m} to {n}")
    return _subproof(m, leaves, True)


def _subproof(m: int, leaves: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [root(leaves)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, leaves[:k], whole), root(leaves[k:])]
    return [*_subproof(m - k, leaves[k:], False), root(leaves[:k])]


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], expected: bytes) -> bool:
    """RFC 9162 2.1.3.2: ``leaf`` (a leaf hash) is leaf ``index`` of the tree of ``size`` leaves
    whose root is ``expected``."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 2.1.4.2: the tree of ``second`` leaves (root ``second_root``) extends the tree of
    ``first`` leaves (root ``first_root``) by appending only."""
    if first == second:
        return not proof and first_root == second_root
    if not 0 < first < second or not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:  # a power of two: the first tree is a node of the second
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_root and sr == second_root and sn == 0


class Log:
    """An append-only log: its leaf hashes and the frontier of perfect subtrees (size, hash) along
    its right edge, so an append costs amortised O(1) hashes and the root O(log n)."""

    def __init__(self) -> None:
        self.leaves: list[bytes] = []
        self._frontier: list[tuple[int, bytes]] = []

    def append(self, data: bytes) -> int:
        """Append a leaf (its bytes); returns its index."""
        h = leaf_hash(data)
        self.leaves.append(h)
        size = 1
        while self._frontier and self._frontier[-1][0] == size:
            left = self._frontier.pop()[1]
            h, size = node_hash(left, h), size * 2
        self._frontier.append((size, h))
        return len(self.leaves) - 1

    def root(self) -> bytes:
        if not self._frontier:
            return EMPTY_ROOT
        h = self._frontier[-1][1]
        for _, left in reversed(self._frontier[:-1]):
            h = node_hash(left, h)
        return h


# -- a stored tree: the log keeps its frontier and the hashes of its perfect subtrees -------------
# A log stored in a database appends with its frontier alone (``push``: the new leaf and the
# perfect subtrees it completes, so an append never reads the tree), and builds any proof from
# O(log² n) perfect subtrees (``(level, index)``: the subtree of the 2**level leaves from
# index * 2**level), fetched at once: ``needed`` names them, the proof functions take them.

Node = tuple[int, int]  # (level, index): the perfect subtree of leaves [index << level, (index + 1) << level)


def push(frontier: list[bytes], size: int, leaf: bytes) -> tuple[list[bytes], list[tuple[int, int, bytes]]]:
    """Append the leaf hash ``leaf`` to a tree of ``size`` leaves whose frontier (the roots of its
    perfect subtrees along the right edge, largest first: one per bit of ``size``) is ``frontier``.
    Returns the new frontier and the nodes the append completed, ``(level, index, hash)``, the
    leaf itself first (level 0)."""
    made = [(0, size, leaf)]
    stack, h, index, level = list(frontier), leaf, size, 0
    while index & 1:
        h = node_hash(stack.pop(), h)
        index, level = index >> 1, level + 1
        made.append((level, index, h))
    stack.append(h)
    return stack, made


def frontier_root(frontier: Sequence[bytes]) -> bytes:
    """The root of the tree whose frontier is ``frontier`` (RFC 9162 2.1.1)."""
    if not frontier:
        return EMPTY_ROOT
    h = frontier[-1]
    for left in reversed(frontier[:-1]):
        h = node_hash(left, h)
    return h


def _chunks(start: int, end: int) -> list[Node]:
    """The perfect subtrees whose hashes fold (right to left) into MTH(D[start:end]), for a range
    the RFC's recursion reaches (``start`` a multiple of a power of two at least ``end - start``)."""
    out = []
    while start < end:
        level = (end - start).bit_length() - 1
        while start & ((1 << level) - 1):
            level -= 1
        out.append((level, start >> level))
        start += 1 << level
    return out


class _Tree:
    """Subtree roots of a tree of ``size`` leaves read off ``get`` (perfect subtrees by (level,
    index)); with ``get`` None it only records which subtrees a proof needs."""

    def __init__(self, get: Callable[[Node], bytes] | None) -> None:
        self.get = get
        self.asked: set[Node] = set()

    def root(self, start: int, end: int) -> bytes:
        chunks = _chunks(start, end)
        if self.get is None:
            self.asked.update(chunks)
            return b""
        h = self.get(chunks[-1])
        for node in reversed(chunks[:-1]):
            h = node_hash(self.get(node), h)
        return h

    def path(self, index: int, start: int, end: int) -> list[bytes]:
        if end - start == 1:
            return []
        k = _split(end - start)
        if index < start + k:
            return [*self.path(index, start, start + k), self.root(start + k, end)]
        return [*self.path(index, start + k, end), self.root(start, start + k)]

    def subproof(self, m: int, start: int, end: int, whole: bool) -> list[bytes]:
        if m == end - start:
            return [] if whole else [self.root(start, end)]
        k = _split(end - start)
        if m <= k:
            return [*self.subproof(m, start, start + k, whole), self.root(start + k, end)]
        return [*self.subproof(m - k, start + k, end, False), self.root(start, start + k)]


def needed(size: int, *, inclusion: Sequence[int] = (), consistency: Sequence[int] = ()) -> set[Node]:
    """The perfect subtrees the inclusion proofs of leaves ``inclusion`` and the consistency proofs
    from sizes ``consistency`` need in a tree of ``size`` leaves (fetch them, then call
    ``inclusion_proof_of`` / ``consistency_proof_of``)."""
    tree = _Tree(None)
    for index in inclusion:
        tree.path(index, 0, size)
    for m in consistency:
        if 0 < m < size:
            tree.subproof(m, 0, size, True)
    return tree.asked


def inclusion_proof_of(index: int, size: int, nodes: Mapping[Node, bytes]) -> list[bytes]:
    """PATH(index, D[size]) from perfect subtrees: ``nodes`` maps (level, index) to its hash."""
    if not 0 <= index < size:
        raise ValueError(f"no leaf {index} in a tree of {size}")
    return _Tree(nodes.__getitem__).path(index, 0, size)


def consistency_proof_of(m: int, size: int, nodes: Mapping[Node, bytes]) -> list[bytes]:
    """PROOF(m, D[size]) from perfect subtrees: ``nodes`` maps (level, index) to its hash."""
    if not 0 < m <= size:
        raise ValueError(f"no consistency proof from {m} to {size}")
    return _Tree(nodes.__getitem__).subproof(m, 0, size, True)
