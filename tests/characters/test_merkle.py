"""The roll log's Merkle tree (characters/systems/merkle.py): RFC 9162's hashing, checked against
Certificate Transparency's published test roots, its proofs against its own checks for every
size and index up to 40, tampered proofs and rewritten logs refused, and the stand-alone script's
checks (scripts/verify_rolls.py, the standard library only) equal to Dossier's."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from characters.systems import merkle

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_rolls.py"
#: The eight leaves of Certificate Transparency's Merkle tree tests and the root of each prefix.
CT_LEAVES = [
    "",
    "00",
    "10",
    "2021",
    "3031",
    "40414243",
    "5051525354555657",
    "606162636465666768696a6b6c6d6e6f",
]
CT_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def _script():
    spec = importlib.util.spec_from_file_location("verify_rolls", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _leaves(n: int) -> list[bytes]:
    return [merkle.leaf_hash(f"roll {i}".encode()) for i in range(n)]


def test_the_roots_are_certificate_transparencys():
    log = merkle.Log()
    leaves = []
    for data, expected in zip(CT_LEAVES, CT_ROOTS, strict=True):
        log.append(bytes.fromhex(data))
        leaves.append(merkle.leaf_hash(bytes.fromhex(data)))
        assert log.root().hex() == merkle.root(leaves).hex() == expected
    assert merkle.Log().root() == merkle.EMPTY_ROOT == merkle.root([])


@pytest.mark.parametrize("check", ["ours", "script"])
def test_every_inclusion_and_consistency_proof_checks(check):
    inclusion = merkle.verify_inclusion if check == "ours" else _script().verify_inclusion
    consistency = merkle.verify_consistency if check == "ours" else _script().verify_consistency
    leaves = _leaves(40)
    for n in range(1, 41):
        top = merkle.root(leaves[:n])
        for i in range(n):
            assert inclusion(leaves[i], i, n, merkle.inclusion_proof(i, leaves[:n]), top), (i, n)
        for m in range(1, n + 1):
            proof = merkle.consistency_proof(m, leaves[:n])
            assert consistency(m, n, merkle.root(leaves[:m]), top, proof), (m, n)


@pytest.mark.parametrize("check", ["ours", "script"])
def test_a_rewritten_deleted_or_reordered_log_fails_its_proofs(check):
    inclusion = merkle.verify_inclusion if check == "ours" else _script().verify_inclusion
    consistency = merkle.verify_consistency if check == "ours" else _script().verify_consistency
    leaves = _leaves(21)
    kept_root = merkle.root(leaves[:13])  # the head a reader kept at 13 rolls
    rewritten = [*leaves[:5], merkle.leaf_hash(b"another roll"), *leaves[6:]]
    deleted = leaves[:5] + leaves[6:]
    reordered = [*leaves[:5], leaves[6], leaves[5], *leaves[7:]]
    for log in (rewritten, deleted, reordered):
        n = len(log)
        assert not consistency(13, n, kept_root, merkle.root(log), merkle.consistency_proof(13, log))
    top = merkle.root(leaves)
    proof = merkle.inclusion_proof(5, leaves)
    assert inclusion(leaves[5], 5, 21, proof, top)
    assert not inclusion(leaves[6], 5, 21, proof, top)  # another leaf
    assert not inclusion(leaves[5], 6, 21, proof, top)  # another place
    assert not inclusion(leaves[5], 5, 40, proof, top)  # another size (another shape of tree)
    assert not inclusion(leaves[5], 5, 21, proof[:-1], top)  # a hash short
    assert not inclusion(leaves[5], 5, 21, [*proof, proof[0]], top)  # a hash too many


def test_proofs_grow_as_log_n():
    for n in (10, 1000, 100_000):
        leaves = _leaves(n) if n <= 1000 else [merkle.leaf_hash(i.to_bytes(4, "big")) for i in range(n)]
        depth = (n - 1).bit_length()
        assert len(merkle.inclusion_proof(0, leaves)) == depth
        assert len(merkle.consistency_proof(n // 2, leaves)) <= 2 * depth
