#!/usr/bin/env python3
"""Recompute a Dossier campaign's dice from their seeds and check its roll log: Python's standard
library, and the ``cryptography`` package for the log's signed tree heads (Ed25519).

    python3 dossier-verify-rolls.py proofs.json          # GET /api/v1/campaigns/<id>/fair-dice/
    python3 dossier-verify-rolls.py campaign-export.json  # the GM's campaign archive
    python3 dossier-verify-rolls.py --save-heads heads.json proofs.json       # keep the heads
    python3 dossier-verify-rolls.py --head heads.json proofs-later.json       # check against them
      (fetch the later document with ?since=<audience>:<size> of each kept head: the API then
      adds the consistency proof from that size)

(Each campaign's fair-dice page offers this file as dossier-verify-rolls.py; in Dossier's source it
is scripts/verify_rolls.py.)

Prints one line per roll (verified, pending, sealed, by hand, not verifiable, FAILED and why) and a
summary; exits 1 if any roll failed. The scheme (docs/fair-dice.md, "dossier-dice/1"):

  commitment      = sha256(seed bytes), hex; shown before any roll under the seed
  client digest   = sha256("\\n".join(sorted(players' seeds)))
  message         = "dossier-dice/1|<lane>|<counter>|<client digest>"
  open lanes      : "open" and "open:<scope>": roll key = HMAC-SHA256(server seed, message)
  other lanes     : roll key = HMAC-SHA256(secret key, HMAC-SHA256(server seed, message)), where
                    the secret key is the seed's, or for "secret:<scope>" the scope's own
                    (the document's "scopes", by label)
  block j         = HMAC-SHA256(roll key, j as 4 bytes big-endian), read as eight 32-bit words
  below(n)        = next word w with w < 2^32 - 2^32 mod n, then w mod n
  randint(a, b)   = a + below(b - a + 1)

This file repeats the derivation on purpose instead of importing Dossier's: it is the independent
check (tests/campaigns/test_verify_script.py holds the two equal).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sys

VERSION = "dossier-dice/1"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_open(lane: str) -> bool:
    return lane == "open" or lane.startswith("open:")


HIDDEN_LANE = re.compile(r"hidden:(?:campaign|mission-([1-9][0-9]{0,8}))")


def lane_scope(lane: str):
    for prefix in ("open:", "secret:"):
        if lane.startswith(prefix):
            return lane[len(prefix) :]
    return None


def declared(lane, scopes: dict, missions=None) -> bool:
    """A lane the document declares: "open", "secret", "open:<scope>" and "secret:<scope>" for a
    scope the document lists, "hidden:campaign", "hidden:mission-<n>" (n at most the document's
    "missions" when it gives them). Any other lane fails."""
    if not isinstance(lane, str):
        return False
    if lane in ("open", "secret"):
        return True
    label = lane_scope(lane)
    if label is not None:
        return label in scopes
    found = HIDDEN_LANE.fullmatch(lane)
    if found is None:
        return False
    return found.group(1) is None or not isinstance(missions, int) or int(found.group(1)) <= missions


def undeclared_reason(lane) -> str:
    if isinstance(lane, str) and lane_scope(lane) is not None:
        return "its dice scope is not in the document: its lane is not one the document declares"
    return "its lane is not one the document declares"


def keys_for(lane: str, seed: dict, scopes: dict):
    """What holds the secret key a lane needs: the seed, or for "secret:<scope>" that scope; None
    for a lane the document does not declare."""
    if not declared(lane, scopes):
        return None
    if lane.startswith("secret:"):
        return scopes.get(lane[len("secret:") :])
    return seed


def counter_gaps(document: dict) -> dict:
    """Rolls (by index) whose counter leaves counters of their lane unused: a lane's counters run
    0 to n-1 with no gap. A secret lane's sealed rolls carry no counter (its counters must stay
    below its shown rolls plus the document's sealed rolls); a hidden lane is checked only in a
    document holding every roll ("complete": the GM's, an archive)."""
    rolls = document.get("rolls") or []
    complete = document.get("complete") is True
    sealed = sum(1 for entry in rolls if isinstance(entry, dict) and entry.get("sealed"))
    lanes, shown = {}, []
    for index, entry in enumerate(rolls):
        proof = entry.get("proof") if isinstance(entry, dict) else None
        if entry.get("sealed") or not isinstance(proof, dict) or not proof.get("verifiable"):
            continue
        lane, counter = proof.get("lane"), proof.get("counter")
        if not isinstance(lane, str) or isinstance(counter, bool) or not isinstance(counter, int):
            continue
        lanes.setdefault((proof.get("seed"), lane), set()).add(counter)
        shown.append((index, proof.get("seed"), lane, counter))
    problems = {}
    last = {}
    for index, seed, lane, counter in shown:
        before = last.get((seed, lane))
        last[(seed, lane)] = counter if before is None else max(before, counter)
        if before is not None and counter < before:  # the log is in the order the rolls were made
            problems[index] = (
                f"it takes counter {counter} of lane {lane} under seed {seed} but comes after counter "
                f"{before}: the log's order was changed"
            )
            continue
        counters = lanes[(seed, lane)]
        if is_open(lane) or complete:
            bound = len(counters)
        elif lane == "secret" or lane.startswith("secret:"):
            bound = len(counters) + sealed
        else:
            continue
        if counter >= bound:
            missing = [c for c in range(counter) if c not in counters][:5]
            problems[index] = (
                f"counter {counter} of lane {lane} under seed {seed} leaves counters unused "
                f"({', '.join(map(str, missing))}{'...' if len(missing) == 5 else ''} not in the document): "
                "a counter was skipped or a roll removed"
            )
    return problems


def roll_key(server_seed: str, secret_key: str | None, lane: str, counter: int, client_seeds: list) -> bytes:
    digest = sha256_hex("\n".join(sorted(client_seeds)).encode("utf-8"))
    message = f"{VERSION}|{lane}|{counter}|{digest}".encode()
    key = hmac.new(bytes.fromhex(server_seed), message, hashlib.sha256).digest()
    if is_open(lane):
        return key
    return hmac.new(bytes.fromhex(secret_key or ""), key, hashlib.sha256).digest()


class Stream:
    def __init__(self, key: bytes) -> None:
        self.key, self.block, self.words = key, 0, []

    def below(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            if not self.words:
                block = hmac.new(self.key, self.block.to_bytes(4, "big"), hashlib.sha256).digest()
                self.block += 1
                self.words = [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]
            word = self.words.pop(0)
            if word < limit:
                return word % n

    def randint(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)


def dice(stream: Stream, kind: str, count: int, modifier: int) -> tuple[list, list, int]:
    """Faces, kept faces and total, as Dossier's dice roller reads them."""
    if kind == "d6":
        faces = [stream.randint(1, 6) for _ in range(count)]
        return faces, faces, sum(faces) + modifier
    if kind == "d10":
        faces = [stream.randint(0, 9) or 10 for _ in range(count)]
        return faces, faces, sum(faces) + modifier
    if kind == "percent":
        faces = [stream.randint(0, 9) for _ in range(2)]
        return faces, faces, (faces[0] * 10 + faces[1] or 100) + modifier
    if kind == "d1000":
        faces = [stream.randint(0, 9) for _ in range(3)]
        return faces, faces, (faces[0] * 100 + faces[1] * 10 + faces[2] or 1000) + modifier
    if kind == "fudge":
        faces = [(-1, 0, 1)[stream.below(3)] for _ in range(count)]
        return faces, faces, sum(faces) + modifier
    if kind in ("3d6_bonus", "3d6_penalty"):
        faces = [stream.randint(1, 6) for _ in range(3 + count)]
        kept = sorted(faces, reverse=kind == "3d6_bonus")[:3]
        return faces, kept, sum(kept) + modifier
    if kind == "d6_wild":  # the last die is a Wild Die: rolled again while it shows 6, at most 50 faces
        faces = [stream.randint(1, 6) for _ in range(count - 1)]
        chain = [stream.randint(1, 6)]
        while chain[-1] == 6 and len(chain) < 50:
            chain.append(stream.randint(1, 6))
        faces += chain
        return faces, faces, sum(faces) + modifier
    raise ValueError(f"unknown dice kind {kind!r}")


def from_archive(document: dict) -> dict:
    """A campaign archive as a proof document: rolls by position, proofs from ``fair_dice``."""
    rolls = document.get("rolls") or []
    proofs = {}
    seeds = []
    for seed in document.get("fair_dice") or []:
        seeds.append(seed)
        for proof in seed.get("proofs", []):
            proofs[proof["roll"]] = {"verifiable": True, "seed": seed["number"], **proof}
    for mark in document.get("rolls_by_hand") or []:
        proofs[mark["roll"]] = {"verifiable": False, "by_hand": True}
    entries = [
        {
            "id": f"roll {position}",
            "created_at": roll.get("created_at") or "",
            **roll,
            "proof": proofs.get(position),
        }
        for position, roll in enumerate(rolls)
    ]
    scopes = document.get("fair_dice_scopes") or []
    missions = document.get("missions")
    # The GM's archive holds every roll: every lane's counters are checked for gaps.
    return {
        "format": VERSION,
        "seeds": seeds,
        "scopes": scopes,
        "rolls": entries,
        "complete": True,
        "missions": len(missions) if isinstance(missions, list) else None,
    }


def check(entry: dict, proof: dict, seed: dict, holder: dict) -> str | None:
    if sha256_hex(bytes.fromhex(seed["server_seed"])) != seed["commitment"]:
        return "the server seed does not match its commitment"
    secret_key = holder.get("secret_key")
    if not is_open(proof["lane"]) and sha256_hex(bytes.fromhex(secret_key)) != holder["secret_commitment"]:
        return "the secret key does not match its commitment"
    key = roll_key(seed["server_seed"], secret_key, proof["lane"], proof["counter"], proof["client_seeds"])
    faces, kept, total = dice(Stream(key), entry["kind"], entry["count"], entry["modifier"])
    if faces != list(entry["faces"]):
        return f"the dice recompute as {faces}, not {list(entry['faces'])}"
    if kept != list(entry["kept"] or entry["faces"]) or total != entry["total"]:
        return f"the total recomputes as {total}, not {entry['total']}"
    return None


RECORD_VERSION = "dossier-roll/1"
READING_KEYS = ("summary", "success", "result", "column", "margin", "band_name", "outcome")
RECORD_FIELDS = ("kind", "count", "modifier", "purpose", "faces", "kept", "total", "reading")


def reading(detail) -> dict:
    """The part of a roll's detail that reads its dice (a check's success, result, column...)."""
    if not isinstance(detail, dict):
        return {}
    return {key: detail[key] for key in READING_KEYS if key in detail}


def record_problem(entry: dict, proof: dict):
    """What differs between the roll shown and the record made with it (its modifier, purpose,
    reading, kind...), None when nothing; a proof without a record binds nothing here."""
    record = proof.get("record")
    if not record:
        return None
    if not isinstance(record, dict) or record.get("v") != RECORD_VERSION:
        return "its record is unreadable"
    shown = {**entry, "reading": entry["reading"] if "reading" in entry else reading(entry.get("detail"))}
    for field in RECORD_FIELDS:
        if field in shown and shown[field] != record.get(field):
            return f"its {field} is not the one recorded when it was made"
    for field in ("lane", "counter", "seed"):
        if proof.get(field) != record.get(field):
            return f"its {field} is not the one recorded when it was made"
    if "secret" in entry and bool(entry["secret"]) != record.get("secret"):
        return "its kind (secret or open) is not the one recorded when it was made"
    if entry.get("roller") and entry["roller"] != record.get("roller"):
        return "who made it is not the one recorded when it was made"
    seeds = proof.get("client_seeds")
    players = sha256_hex("\n".join(sorted(seeds)).encode("utf-8")) if isinstance(seeds, list) else None
    if "players" in record and players is not None and record["players"] != players:
        return "its players' seeds are not the ones recorded when it was made"
    return None


WHEN_REVEALED = "the game master reveals it at the end of a session or mission"
WHEN_KEY_OUT = (
    "it comes out once every secret roll under the seed is shared and every closed mission published"
)
WHEN_SCENE_KEY_OUT = "it comes out once the scene is over and its secret rolls are shared"


WHY_SEALED = (
    "a secret roll whose result is not shared with you: it can be checked once the game master "
    "shares it and its secret key is out"
)
WHY_BY_HAND = "entered by hand from physical dice: no seed made it, so there is nothing to recompute"
WHY_UNPROVEN = (
    "made without the fair dice (before they existed, or by scripted dice such as the demo's): "
    "it has no proof"
)


def waits_for(number, lane: str, seed: dict, holder: dict):
    """What a roll still waits for before it can be checked, None when nothing (the same words
    as Dossier's own checkers, characters/systems/fair_dice.py waits_for)."""
    revealed = bool(seed.get("server_seed"))
    if is_open(lane) or holder.get("secret_key"):
        return None if revealed else f"waits for seed {number} to be revealed: {WHEN_REVEALED}"
    scene = lane.startswith("secret:")
    key = "its scene's secret key" if scene else f"seed {number}'s secret key"
    when = WHEN_SCENE_KEY_OUT if scene else WHEN_KEY_OUT
    if not revealed:
        return f"waits for seed {number} to be revealed ({WHEN_REVEALED}), then for {key}: {when}"
    return f"waits for {key}: {when}"


def verify(document: dict) -> list[tuple[object, str, str]]:
    if "fair_dice" in document or "campaign" in document:
        document = from_archive(document)
    seeds = {s["number"]: s for s in document.get("seeds", [])}
    scopes = {s["label"]: s for s in document.get("scopes", [])}
    gaps = counter_gaps(document)
    seen = set()
    out = []
    for index, entry in enumerate(document.get("rolls", [])):
        proof = entry.get("proof")
        reason = ""
        if entry.get("sealed"):
            verdict, reason = "sealed", WHY_SEALED
        elif not proof or not proof.get("verifiable"):
            by_hand = bool(proof and proof.get("by_hand"))
            verdict = "by hand" if by_hand else "not verifiable"
            reason = WHY_BY_HAND if by_hand else WHY_UNPROVEN
        else:
            seed = seeds.get(proof["seed"])
            key = (proof["seed"], proof["lane"], proof["counter"])
            holder = keys_for(proof["lane"], seed or {}, scopes)
            if seed is None:
                verdict, reason = "FAILED", "its seed is not in the document"
            elif holder is None or not declared(proof["lane"], scopes, document.get("missions")):
                verdict, reason = "FAILED", undeclared_reason(proof["lane"])
            elif key in seen:
                verdict, reason = "FAILED", "another roll took the same counter"
            elif index in gaps:
                verdict, reason = "FAILED", gaps[index]
            elif waiting := waits_for(proof["seed"], proof["lane"], seed, holder):
                bound = record_problem(entry, proof)  # checked before the dice can be
                verdict, reason = ("FAILED", bound) if bound else ("pending", waiting)
            else:
                try:
                    problem = check(entry, proof, seed, holder) or record_problem(entry, proof)
                except (KeyError, TypeError, ValueError) as error:
                    problem = f"unreadable: {error}"
                verdict, reason = ("FAILED", problem) if problem else ("verified", "")
            seen.add(key)
        out.append((entry.get("id"), verdict, reason))
    return out


# -- the roll log's Merkle tree (RFC 9162 2.1; characters/systems/merkle.py): the two checks a
# reader makes against a tree head they kept; tests/characters/test_merkle.py holds them equal to
# Dossier's. The document's "logs" (docs/fair-dice.md, "The roll log") are checked by check_logs.
def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def verify_inclusion(leaf: bytes, index: int, size: int, proof: list, expected: bytes) -> bool:
    """RFC 9162 2.1.3.2: ``leaf`` (its hash) is leaf ``index`` of the tree of ``size`` leaves."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = _node(p, r)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = _node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes, proof: list) -> bool:
    """RFC 9162 2.1.4.2: the tree of ``second`` leaves only appends to the tree of ``first``."""
    if first == second:
        return not proof and first_root == second_root
    if not 0 < first < second or not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = _node(c, fr), _node(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = _node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_root and sr == second_root and sn == 0


LEAF_VERSION = "dossier-leaf/1"
HEAD_VERSION = "dossier-log/1"


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def leaf_hash(leaf: dict) -> bytes:
    return hashlib.sha256(b"\x00" + canonical(leaf)).digest()


def head_message(head: dict) -> bytes:
    fields = (HEAD_VERSION, head["log"], int(head["size"]), head["root"], int(head["timestamp"]))
    return "".join(f"{field}\n" for field in fields).encode()


def signature_problem(head: dict, public_key: str):
    """None if the head is signed by the log's key (Ed25519, with the ``cryptography`` package)."""
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:  # the dice and the tree are still checked; say what was not
        print("note: tree head signatures not checked (install the cryptography package)", file=sys.stderr)
        return None
    try:
        message = head_message(head)
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(str(head.get("signature") or "")), message
        )
    except (InvalidSignature, KeyError, TypeError, ValueError):
        return "its tree head's signature does not check"
    return None


DRAW_FIELDS = (
    "roller",
    "character",
    "kind",
    "count",
    "modifier",
    "purpose",
    "secret",
    "by_hand",
    "lane",
    "counter",
    "seed",
)


def _opens(whole: dict, proof: dict, sealed: dict) -> bool:
    """A shared leaf's draw (the roll as announced, its seed, lane, counter and the players' seeds'
    digest) opens its sealed leaf's commitment, sha256(salt || draw), and is its record's draw."""
    draw, record = whole.get("draw"), whole["record"]
    if not isinstance(draw, dict) or any(draw.get(field) != record.get(field) for field in DRAW_FIELDS):
        return False
    seeds = proof.get("client_seeds")
    players = sha256_hex("\n".join(sorted(seeds)).encode("utf-8")) if isinstance(seeds, list) else None
    if proof.get("verifiable") and players is not None and draw.get("players") != players:
        return False
    try:
        return hashlib.sha256(
            bytes.fromhex(str(whole.get("salt"))) + canonical(draw)
        ).hexdigest() == sealed.get("commitment")
    except ValueError:
        return False


def leaf_problem(entry: dict, leaves: list):
    """The roll shown against its leaves in the reader's log (fair_dice.leaf_problem)."""
    if not leaves:
        return "it is not in the roll log"
    sealed = next((leaf for leaf in leaves if leaf.get("type") == "sealed"), None)
    if entry.get("sealed"):
        return None if sealed is not None else "its sealed leaf is not in the roll log"
    whole = next((leaf for leaf in leaves if leaf.get("type") in ("roll", "shared")), None)
    if whole is None or not isinstance(whole.get("record"), dict):
        return "its result is not in the roll log"
    record = whole["record"]
    proof = entry.get("proof") or {}
    if proof.get("record") and proof["record"] != record:
        return "its record is not the one in the roll log"
    fields = {
        "record": record,
        "lane": record.get("lane"),
        "counter": record.get("counter"),
        "seed": record.get("seed"),
    }
    problem = record_problem(entry, fields)
    if problem:
        return problem.replace("recorded when it was made", "in the roll log")
    if proof.get("verifiable") and any(proof.get(k) != record.get(k) for k in ("lane", "counter", "seed")):
        return "its lane or counter is not the one in the roll log"
    if sealed is not None and (whole.get("type") != "shared" or not _opens(whole, proof, sealed)):
        return "its shared result does not open its sealed leaf"
    return None


def _hashes(items):
    try:
        return [bytes.fromhex(h) for h in items]
    except (TypeError, ValueError):
        return None


def check_logs(document: dict, kept=None):
    """(roll place -> why it fails against the log, the logs' own problems): each head signed by
    the document's log_key, each leaf in its head's tree, each roll its leaves' record, each lane
    in counter order in the log, and each head kept earlier a prefix of the new one."""
    key = str((document.get("log_key") or {}).get("public_key") or "")
    problems, by_roll, bad, started = [], {}, set(), []
    for log in document.get("logs") or []:
        head = log.get("head") or {}
        name = str(head.get("log") or log.get("audience"))
        why = signature_problem(head, key)
        if why:
            problems.append(f"{name}: {why}")
            continue
        started.append(str(log.get("started_at") or ""))
        root, lanes = bytes.fromhex(head["root"]), {}
        for item in log.get("leaves", []):
            leaf, index, path = item.get("leaf") or {}, item.get("index"), _hashes(item.get("proof", []))
            if not (
                isinstance(index, int)
                and path is not None
                and verify_inclusion(leaf_hash(leaf), index, head["size"], path, root)
            ):
                bad.add(leaf.get("roll"))
                continue
            by_roll.setdefault(leaf.get("roll"), []).append((index, leaf))
            record = leaf.get("record")
            if isinstance(record, dict) and record.get("lane") and record.get("counter") is not None:
                lanes.setdefault((record.get("seed"), record["lane"]), []).append((index, record["counter"]))
        for (_, lane), places in lanes.items():
            counters = [counter for _, counter in sorted(places)]
            if counters != sorted(counters):
                problems.append(f"{name}: the log holds lane {lane}'s rolls out of their order")
        old = (kept or {}).get(name)
        if old:
            why = signature_problem(old, key)
            if why:
                problems.append(f"{name}: the head you kept: {why}")
            elif old["size"] > head["size"]:
                problems.append(
                    f"{name}: the log is shorter than the head you kept ({head['size']} < {old['size']})"
                )
            elif old["size"] == head["size"]:
                if old["root"] != head["root"]:
                    problems.append(f"{name}: the log was rewritten since the head you kept")
            elif old["size"] > 0:
                step = log.get("consistency") or {}
                path = _hashes(step.get("proof", []))
                if step.get("from") != old["size"] or path is None:
                    problems.append(f"{name}: no consistency proof from the head you kept")
                elif not verify_consistency(
                    old["size"], head["size"], bytes.fromhex(old["root"]), root, path
                ):
                    problems.append(f"{name}: the log was rewritten since the head you kept")
    out, first = {}, max(started) if started else ""
    for place, entry in enumerate(document.get("rolls", [])):
        if entry.get("id") in bad:
            out[place] = "its leaf is not in the signed roll log"
            continue
        leaves = [leaf for _, leaf in sorted(by_roll.get(entry.get("id"), []), key=lambda pair: pair[0])]
        if not leaves and str(entry.get("created_at") or "") < first:
            continue
        why = leaf_problem(entry, leaves)
        if why:
            out[place] = why
    return out, problems


def heads_of(saved: dict) -> dict:
    """The heads in a saved file: a head, a list of heads, or an earlier proof document."""
    if "logs" in saved:
        return {log["head"]["log"]: log["head"] for log in saved["logs"] if log.get("head")}
    items = saved if isinstance(saved, list) else [saved]
    return {head["log"]: head for head in items if isinstance(head, dict) and "log" in head}


def main(argv: list[str]) -> int:
    args = argv[1:]
    kept, save = None, None
    while len(args) > 1 and args[0] in ("--head", "--save-heads"):
        if args[0] == "--head":
            with open(args[1], encoding="utf-8") as handle:
                kept = heads_of(json.load(handle))
        else:
            save = args[1]
        args = args[2:]
    if len(args) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as handle:
        document = json.load(handle)
    results = verify(document)
    off_log, problems = (
        ({}, []) if "fair_dice" in document or "campaign" in document else check_logs(document, kept)
    )
    counts: dict[str, int] = {}
    for place, (roll, verdict, reason) in enumerate(results):
        if place in off_log and verdict != "FAILED":
            verdict, reason = "FAILED", off_log[place]
        counts[verdict] = counts.get(verdict, 0) + 1
        print(f"{roll}: {verdict}" + (f" ({reason})" if reason else ""))
    for problem in problems:
        print(f"BROKEN LOG {problem}")
    if save and not problems:
        with open(save, "w", encoding="utf-8") as handle:
            json.dump([log["head"] for log in document.get("logs") or []], handle, indent=1)
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no rolls"
    print(summary + (f"; the roll log is BROKEN ({len(problems)} problems)" if problems else ""))
    return 1 if counts.get("FAILED") or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
