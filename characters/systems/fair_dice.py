"""Provably fair dice: every server roll derived from committed seeds, so anyone can recompute it.

Pure (no Django). The scheme (version ``dossier-dice/1``; docs/fair-dice.md is the reader's copy and
scripts/verify_rolls.py an independent stdlib implementation):

- A campaign's *seed* is two random 32-byte values: the server seed S and the secret key K. Their
  commitments ``sha256(S)`` and ``sha256(K)`` (lower-case hex) are shown before any roll under them.
- Every player's *client seed* is a text the player sets (or a random one). A roll takes the sorted
  list of the players' seeds as they stand at that moment; their digest is
  ``sha256("\\n".join(sorted seeds))``.
- A roll has a *lane* and a *counter*: ``open`` for open rolls (0, 1, 2, ... under the seed),
  ``secret`` for announced secret rolls (their own 0, 1, 2, ...), ``hidden:<scope>`` for unannounced
  secret rolls (numbered within their scope, a mission), so that no lane's numbers count rolls a
  reader may not know exist. Rolls that only some members see (a Tempo conflict's, shown to its
  participants) take ``open:<scope>`` and ``secret:<scope>``, numbered within that scope; a
  ``secret:<scope>`` lane's second key is the scope's own secret key (its commitment shown to the
  scope's members from its start), not the seed's.
- ``message = "dossier-dice/1|<lane>|<counter>|<client digest>"``;
  open lanes (``open``, ``open:<scope>``): ``roll key = HMAC-SHA256(S, message)``;
  secret lanes: ``roll key = HMAC-SHA256(K, HMAC-SHA256(S, message))`` (both keys needed).
- The dice read a stream of 32-bit big-endian words: block j is ``HMAC-SHA256(roll key, j as 4
  bytes big-endian)``, eight words a block. A number below n takes the next word w, rejecting
  w >= 2^32 - (2^32 mod n); the value is w mod n. ``randint(a, b)`` is a + (a number below b-a+1);
  ``choice(seq)`` is seq[a number below len(seq)]. characters.systems.dice.roll_kind then reads the
  faces as it does for any source of randomness.

Revealing S (rotation) makes every open roll under it recomputable and no secret one: those need K,
which is revealed only once no secret roll made under the seed is still the GM's.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import secrets
from collections.abc import Sequence
from typing import Any

from characters.systems.dice import DiceResult, roll_kind

VERSION = "dossier-dice/1"
OPEN = "open"
SECRET = "secret"
HIDDEN = "hidden"  # + ":" + scope


def is_open(lane: str) -> bool:
    """An open lane (``open`` or ``open:<scope>``): its rolls need only the server seed."""
    return lane == OPEN or lane.startswith(OPEN + ":")


def lane_scope(lane: str) -> str | None:
    """The scope a lane numbers its rolls within (``open:<scope>``, ``secret:<scope>``), else None."""
    for prefix in (OPEN + ":", SECRET + ":"):
        if lane.startswith(prefix):
            return lane[len(prefix) :]
    return None


#: The lanes of unannounced secret rolls: numbered within the campaign or within one mission,
#: named by its place among the campaign's missions (campaigns/table/fairness.py _mission_place).
HIDDEN_LANE = re.compile(r"hidden:(?:campaign|mission-([1-9][0-9]{0,8}))")


def declared(lane: str, scopes: dict[str, dict[str, Any]], missions: Any = None) -> bool:
    """Whether ``lane`` is one the document declares: ``open`` and ``secret``; ``open:<scope>`` and
    ``secret:<scope>`` for a dice scope the document lists (its commitment shown from the scope's
    start); ``hidden:campaign`` and ``hidden:mission-<n>`` (n at most ``missions`` when the
    document says how many missions the campaign has). Any other lane is one a server could have
    made up to roll again in a fresh lane (issue 48, finding 2)."""
    if not isinstance(lane, str):
        return False
    if lane in (OPEN, SECRET):
        return True
    label = lane_scope(lane)
    if label is not None:
        return label in scopes
    found = HIDDEN_LANE.fullmatch(lane)
    if found is None:
        return False
    number = found.group(1)
    return number is None or not isinstance(missions, int) or int(number) <= missions


def keys_for(lane: str, seed: dict[str, Any], scopes: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """What holds the secret key (and its commitment) a lane's dice need: the seed, or for a
    scope's secret lane (``secret:<scope>``) the scope. None for a lane the document does not
    declare (``declared``): an ``open:<scope>`` lane of a scope ``scopes`` lacks included."""
    if not declared(lane, scopes):
        return None
    if lane.startswith(SECRET + ":"):
        return scopes.get(lane_scope(lane) or "")
    return seed


def undeclared_reason(lane: Any) -> str:
    """The verdict's words for a lane ``declared`` refuses (the same in every checker)."""
    if isinstance(lane, str) and lane_scope(lane) is not None:
        return "its dice scope is not in the document: its lane is not one the document declares"
    return "its lane is not one the document declares"


def counter_gaps(document: dict[str, Any]) -> dict[int, str]:
    """The rolls of ``document`` (by index in ``rolls``) whose counter leaves counters of their
    lane unused: a counter skipped (a server trying counters until one gives the result it likes)
    or a roll removed (issue 48, finding 1). Each lane under a seed numbers its rolls 0, 1, 2, ...
    with no gap, so a lane's counters must be exactly 0 to n-1 for the n rolls the reader sees of
    it; the rolls at n or above fail.

    Where the reader may not see every roll of a lane, the check is what the document allows: a
    secret lane's sealed rolls carry no counter, so its counters must stay below the lane's shown
    rolls plus every sealed roll of the document; a hidden lane (unannounced secret rolls) is
    checked only in a document that says it holds every roll (``complete``: the GM's, an archive),
    since a reader who is not the GM never learns how many of them there are."""
    rolls = document.get("rolls") or []
    complete = document.get("complete") is True
    sealed = sum(1 for entry in rolls if isinstance(entry, dict) and entry.get("sealed"))
    lanes: dict[tuple[Any, Any], set[int]] = {}
    shown: list[tuple[int, Any, str, int]] = []
    for index, entry in enumerate(rolls):
        proof = entry.get("proof") if isinstance(entry, dict) else None
        if entry.get("sealed") or not isinstance(proof, dict) or not proof.get("verifiable"):
            continue
        lane, counter = proof.get("lane"), proof.get("counter")
        if not isinstance(lane, str) or isinstance(counter, bool) or not isinstance(counter, int):
            continue
        lanes.setdefault((proof.get("seed"), lane), set()).add(counter)
        shown.append((index, proof.get("seed"), lane, counter))
    problems: dict[int, str] = {}
    last: dict[tuple[Any, str], int] = {}
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
        elif lane == SECRET or lane.startswith(SECRET + ":"):
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


# -- what a roll waits for, in the words every checker uses (campaigns/table/fairness.py, the page's
# static/js/fair-dice.js and scripts/verify_rolls.py say the same; docs/fair-dice.md) -------------
#: When a seed is revealed, and when its secret key comes out: the conditions every member sees.
WHEN_REVEALED = "the game master reveals it at the end of a session or mission"
WHEN_KEY_OUT = (
    "it comes out once every secret roll under the seed is shared and every closed mission published"
)
WHEN_SCENE_KEY_OUT = "it comes out once the scene is over and its secret rolls are shared"


#: Why a roll the reader sees cannot be checked by anyone yet, or ever (a new user's walk: the
#: fair-dice page listed such rolls with no reason, or not at all). A sealed roll's words say nothing
#: of the roll (whose it is, its lane, its counter: part of what the GM keeps).
WHY_SEALED = (
    "a secret roll whose result is not shared with you: it can be checked once the game master "
    "shares it and its secret key is out"
)
WHY_BY_HAND = "entered by hand from physical dice: no seed made it, so there is nothing to recompute"
WHY_UNPROVEN = (
    "made without the fair dice (before they existed, or by scripted dice such as the demo's): "
    "it has no proof"
)


def why_not(entry: dict[str, Any]) -> str:
    """The reason a sealed, by-hand or unproven roll of a proof document is not checked."""
    proof = entry.get("proof")
    if entry.get("sealed"):
        return WHY_SEALED
    return WHY_BY_HAND if isinstance(proof, dict) and proof.get("by_hand") else WHY_UNPROVEN


def waits_for(number: Any, lane: str, seed: dict[str, Any], holder: dict[str, Any]) -> str | None:
    """What a roll under seed ``number`` in ``lane`` still waits for before it can be checked
    (None when nothing: its seed, and for a secret lane its key, are out). ``holder`` is what
    ``keys_for`` gives: the seed itself, or a scene's (dice scope's) own key."""
    revealed = bool(seed.get("server_seed"))
    if is_open(lane):
        return None if revealed else f"waits for seed {number} to be revealed: {WHEN_REVEALED}"
    if holder.get("secret_key"):
        return None if revealed else f"waits for seed {number} to be revealed: {WHEN_REVEALED}"
    scene = lane.startswith(SECRET + ":")
    key = "its scene's secret key" if scene else f"seed {number}'s secret key"
    when = WHEN_SCENE_KEY_OUT if scene else WHEN_KEY_OUT
    if not revealed:
        return f"waits for seed {number} to be revealed ({WHEN_REVEALED}), then for {key}: {when}"
    return f"waits for {key}: {when}"


def scoped(lane: str, scope: str) -> str:
    """``lane`` numbered within ``scope`` (a label every reader of its rolls sees, no database id)."""
    return f"{lane}:{scope}" if scope else lane


# -- what a roll's proof binds besides its dice (issue 48, finding 3) -------------------------------
RECORD_VERSION = "dossier-roll/1"
#: The keys of a roll's ``detail`` that say how the dice read (a check's success, result letter,
#: column and margin, a Tempo band, a summary): the reading a record binds.
READING_KEYS = ("summary", "success", "result", "column", "margin", "band_name", "outcome")
#: The fields a checker compares between a roll as shown and its record.
RECORD_FIELDS = ("kind", "count", "modifier", "purpose", "faces", "kept", "total", "reading")


def reading(detail: Any) -> dict[str, Any]:
    """The part of a roll's ``detail`` that reads its dice (READING_KEYS), as a record binds it."""
    if not isinstance(detail, dict):
        return {}
    return {key: detail[key] for key in READING_KEYS if key in detail}


def roll_record(
    *,
    kind: str,
    count: int,
    modifier: int,
    purpose: str,
    faces: Sequence[int],
    kept: Sequence[int],
    total: int,
    detail: Any,
    secret: bool,
    roller: str | None,
    character: str | None,
    lane: str,
    counter: int | None,
    seed: int | None,
    by_hand: bool = False,
    client_seeds: Sequence[str] | None = None,
) -> dict[str, Any]:
    """What a roll was when it was made, stored with its proof and shown with it: who made it and
    for which character (names, as they were), its dice kind, count, modifier, purpose, faces, kept
    dice, total and reading, its lane and counter under its seed, its kind (secret, by hand) and,
    for a roll the seeds drew, the digest of the players' seeds it took (``players``: a proof
    whose seeds were edited fails whatever its dice, not only when the dice come out different).
    Every checker compares it with the roll shown (``record_problem``): a modifier changed with
    the total moved to match, a purpose, a reading, a secret roll shown as open, all fail."""
    return {
        "v": RECORD_VERSION,
        "roller": roller or "",
        "character": character or "",
        "kind": kind,
        "count": count,
        "modifier": modifier,
        "purpose": purpose,
        "faces": list(faces),
        "kept": list(kept),
        "total": total,
        "reading": reading(detail),
        "secret": bool(secret),
        "by_hand": bool(by_hand),
        "lane": lane,
        "counter": counter,
        "seed": seed,
        **({"players": client_digest(client_seeds)} if client_seeds is not None else {}),
    }


def canonical(record: dict[str, Any]) -> bytes:
    """A record's bytes: JSON with sorted keys, no spaces, UTF-8 (the log's leaf, RFC 9162 2.1.1)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def leaf_hash(record: dict[str, Any]) -> str:
    """RFC 9162's leaf hash of a record: SHA-256(0x00 || bytes), hex."""
    return sha256_hex(b"\x00" + canonical(record))


def record_problem(entry: dict[str, Any], proof: dict[str, Any]) -> str | None:
    """None if the roll shown (``entry``; its reading as ``reading``, or read off ``detail``) and
    its proof (seed, lane, counter) are what its record says, else the first field that differs.
    A proof without a record (made before records were kept) binds nothing here."""
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
    if "players" in record and isinstance(seeds, list) and record["players"] != client_digest(seeds):
        return "its players' seeds are not the ones recorded when it was made"
    return None


SEED_BYTES = 32
MAX_CLIENT_SEED = 64


def new_seed_hex(nbytes: int = SEED_BYTES) -> str:
    """A fresh random seed (the one place seeds come from: tests seed it)."""
    return secrets.token_hex(nbytes)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def commitment(seed_hex: str) -> str:
    """What is shown before the rolls: the SHA-256 of the seed's bytes."""
    return sha256_hex(bytes.fromhex(seed_hex))


def client_digest(seeds: Sequence[str]) -> str:
    return sha256_hex("\n".join(sorted(seeds)).encode("utf-8"))


def message(lane: str, counter: int, digest: str) -> bytes:
    return f"{VERSION}|{lane}|{counter}|{digest}".encode()


def roll_key(server_seed_hex: str, secret_key_hex: str | None, lane: str, counter: int, digest: str) -> bytes:
    """The key a roll's dice come from; a secret lane needs the secret key too."""
    key = hmac.new(bytes.fromhex(server_seed_hex), message(lane, counter, digest), hashlib.sha256).digest()
    if is_open(lane):
        return key
    if secret_key_hex is None:
        raise ValueError("a secret roll's dice need the seed's secret key")
    return hmac.new(bytes.fromhex(secret_key_hex), key, hashlib.sha256).digest()


class FairRandom(random.Random):
    """The dice stream of one roll key. Only ``randint`` and ``choice`` are defined (what the dice
    roller uses), each by the documented rejection rule, never by CPython's internals."""

    def __init__(self, key: bytes) -> None:
        super().__init__(0)
        self._key = key
        self._block = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            block = hmac.new(self._key, self._block.to_bytes(4, "big"), hashlib.sha256).digest()
            self._block += 1
            self._words = [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]
        return self._words.pop(0)

    def below(self, n: int) -> int:
        if not 0 < n <= 2**32:
            raise ValueError(f"cannot draw below {n}")
        limit = 2**32 - (2**32 % n)
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def randint(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)

    def choice(self, seq: Any) -> Any:
        return seq[self.below(len(seq))]

    def random(self) -> float:  # pragma: no cover - a guard: the scheme defines no floats
        raise NotImplementedError("fair dice define randint and choice only")


def roll(
    kind: str,
    count: int,
    modifier: int,
    *,
    server_seed: str,
    secret_key: str | None,
    lane: str,
    counter: int,
    client_seeds: Sequence[str],
) -> DiceResult:
    key = roll_key(server_seed, secret_key, lane, counter, client_digest(client_seeds))
    return roll_kind(FairRandom(key), kind, count, modifier)


def check_roll(
    entry: dict[str, Any], seed: dict[str, Any], scopes: dict[str, dict[str, Any]] | None = None
) -> str | None:
    """None if the roll recomputes from its seed, or what is wrong. ``entry``: kind, count,
    modifier, faces, kept, total, lane, counter, client_seeds; ``seed``: server_seed,
    commitment, and for a secret lane secret_key and secret_commitment (for a scope's secret lane
    those come from ``scopes``, by label)."""
    server_seed = seed.get("server_seed")
    if not server_seed:
        return "the server seed is not revealed yet"
    if commitment(server_seed) != seed.get("commitment"):
        return "the server seed does not match its commitment"
    secret_key = None
    if not declared(entry["lane"], scopes or {}):
        return undeclared_reason(entry["lane"])
    if not is_open(entry["lane"]):
        holder = keys_for(entry["lane"], seed, scopes or {})
        if holder is None:
            return "its dice scope is not in the document"
        secret_key = holder.get("secret_key")
        if not secret_key:
            return "the secret key is not revealed yet"
        if commitment(secret_key) != holder.get("secret_commitment"):
            return "the secret key does not match its commitment"
    result = roll(
        entry["kind"],
        entry["count"],
        entry["modifier"],
        server_seed=server_seed,
        secret_key=secret_key,
        lane=entry["lane"],
        counter=entry["counter"],
        client_seeds=entry["client_seeds"],
    )
    if list(result.faces) != list(entry["faces"]):
        return f"the dice recompute as {list(result.faces)}, not {list(entry['faces'])}"
    if list(result.kept or result.faces) != list(entry["kept"]) or result.total != entry["total"]:
        return f"the total recomputes as {result.total}, not {entry['total']}"
    return None


# -- the roll log (RFC 9162 leaves and signed tree heads; docs/fair-dice.md "The roll log") -------
LEAF_VERSION = "dossier-leaf/1"
HEAD_VERSION = "dossier-log/1"


def roll_leaf(roll_id: int, record: dict[str, Any]) -> dict[str, Any]:
    """The leaf of a roll its log's readers see whole: its record (roll_record)."""
    return {"v": LEAF_VERSION, "type": "roll", "roll": roll_id, "record": record}


#: What a sealed roll's leaf commits to: the roll as announced and its draw (seed, lane, counter,
#: the players' seeds), not its dice. The seed fixes the dice of a draw, so committing to the draw
#: binds the result without depending on it: the table's log reads the same whatever the dice
#: were (tests/secrets: a player's heads do not depend on a sealed roll's result).
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


def draw_of(record: dict[str, Any], client_seeds: Sequence[str] | None) -> dict[str, Any]:
    """A roll's draw as its sealed leaf commits to it (DRAW_FIELDS of its record and the digest of
    the players' seeds it took, "" for a roll no seed made)."""
    players = client_digest(client_seeds) if client_seeds else ""
    return {**{field: record.get(field) for field in DRAW_FIELDS}, "players": players}


def sealing(draw: dict[str, Any], salt: str) -> str:
    """A sealed roll's commitment: SHA-256(salt || canonical(draw)), hex. The 32 secret bytes of
    salt keep a draw of few possible values from being found by trying them all."""
    return sha256_hex(bytes.fromhex(salt) + canonical(draw))


def sealed_leaf(roll_id: int, draw: dict[str, Any], salt: str) -> dict[str, Any]:
    """The leaf of a roll its log's readers know was made but not its result: a commitment only."""
    return {"v": LEAF_VERSION, "type": "sealed", "roll": roll_id, "commitment": sealing(draw, salt)}


def shared_leaf(roll_id: int, record: dict[str, Any], draw: dict[str, Any], salt: str) -> dict[str, Any]:
    """The leaf appended when a roll's result is shared with the log's readers: its record, its
    draw and the salt that opens its sealed leaf's commitment ("" if that log holds none)."""
    return {
        "v": LEAF_VERSION,
        "type": "shared",
        "roll": roll_id,
        "record": record,
        "draw": draw,
        "salt": salt,
    }


def leaf_bytes(leaf: dict[str, Any]) -> bytes:
    return canonical(leaf)


def head_message(log_id: str, size: int, root: str, timestamp: int) -> bytes:
    """The bytes a signed tree head signs (Ed25519): version, log, size, root (hex), time (ms)."""
    return f"{HEAD_VERSION}\n{log_id}\n{size}\n{root}\n{timestamp}\n".encode()


def leaf_problem(entry: dict[str, Any], leaves: Sequence[dict[str, Any]]) -> str | None:
    """None if the roll shown (``entry`` of a proof document) is what its leaves in the reader's
    log say (``leaves``: the log's leaves naming it, in log order), else why not. A sealed roll
    has its sealed leaf; any other roll a leaf with its record, equal to its proof's record and to
    what is shown; a shared roll's salt opens its sealed leaf's commitment."""
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
    problem = record_problem(
        entry,
        {
            "record": record,
            "lane": record.get("lane"),
            "counter": record.get("counter"),
            "seed": record.get("seed"),
        },
    )
    if problem:
        return problem.replace("recorded when it was made", "in the roll log")
    if proof.get("verifiable") and any(proof.get(k) != record.get(k) for k in ("lane", "counter", "seed")):
        return "its lane or counter is not the one in the roll log"
    if sealed is not None and (whole.get("type") != "shared" or not _opens(whole, proof, sealed)):
        return "its shared result does not open its sealed leaf"
    return None


def _opens(whole: dict[str, Any], proof: dict[str, Any], sealed: dict[str, Any]) -> bool:
    """The shared leaf's draw opens the sealed leaf's commitment and is the shared record's draw
    (and the players' seeds of its proof)."""
    draw, record = whole.get("draw"), whole["record"]
    if not isinstance(draw, dict) or any(draw.get(field) != record.get(field) for field in DRAW_FIELDS):
        return False
    seeds = proof.get("client_seeds")
    if proof.get("verifiable") and isinstance(seeds, list) and draw.get("players") != client_digest(seeds):
        return False
    try:
        return sealing(draw, str(whole.get("salt"))) == sealed.get("commitment")
    except ValueError:
        return False


def _ed25519_ok(public_key: str, signature: str, message: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(signature), message
        )
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


def head_problem(head: dict[str, Any], public_key: str) -> str | None:
    """None if ``head`` is signed by ``public_key`` (hex, Ed25519), else why not."""
    try:
        message = head_message(str(head["log"]), int(head["size"]), str(head["root"]), int(head["timestamp"]))
    except (KeyError, TypeError, ValueError):
        return "its tree head is unreadable"
    if not _ed25519_ok(public_key, str(head.get("signature") or ""), message):
        return "its tree head's signature does not check"
    return None


def _hashes(items: Any) -> list[bytes] | None:
    try:
        return [bytes.fromhex(h) for h in items]
    except (TypeError, ValueError):
        return None


def check_logs(
    document: dict[str, Any], kept: dict[str, dict[str, Any]] | None = None
) -> tuple[dict[int, str], list[str]]:
    """The roll logs of a proof document: (for each roll's place in ``rolls`` a reason it fails
    against the log, the log's own problems). A log's head must be signed by ``log_key``; each
    leaf given must be in it (its inclusion proof, RFC 9162 2.1.3.2); each roll its leaves' record
    (leaf_problem) unless made before its log started; within a lane the log must hold rolls in
    counter order; and a head the reader kept (``kept``: log id -> head) must be a prefix of the
    new one (its consistency proof, 2.1.4.2): a log rewritten, cut or re-ordered since fails."""
    from characters.systems import merkle

    logs = document.get("logs")
    if logs is None:
        return {}, []
    key = str((document.get("log_key") or {}).get("public_key") or "")
    problems: list[str] = []
    by_roll: dict[Any, list[tuple[int, dict[str, Any]]]] = {}
    bad_leaf: set[Any] = set()
    started = []
    for log in logs:
        head = log.get("head") or {}
        name = str(head.get("log") or log.get("audience"))
        if why := head_problem(head, key):
            problems.append(f"{name}: {why}")
            continue
        started.append(str(log.get("started_at") or ""))
        root = bytes.fromhex(head["root"])
        lanes: dict[tuple[Any, Any], list[tuple[int, Any]]] = {}
        for item in log.get("leaves", []):
            leaf = item.get("leaf") or {}
            path = _hashes(item.get("proof", []))
            index, size = item.get("index"), head["size"]
            ok = (
                isinstance(index, int)
                and path is not None
                and merkle.verify_inclusion(merkle.leaf_hash(leaf_bytes(leaf)), index, size, path, root)
            )
            if not ok:
                bad_leaf.add(leaf.get("roll"))
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
            if why := head_problem(old, key):
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
                elif not merkle.verify_consistency(
                    old["size"], head["size"], bytes.fromhex(old["root"]), root, path
                ):
                    problems.append(f"{name}: the log was rewritten since the head you kept")
    out: dict[int, str] = {}
    first = max(started) if started else ""
    for place, entry in enumerate(document.get("rolls", [])):
        if entry.get("id") in bad_leaf:
            out[place] = "its leaf is not in the signed roll log"
            continue
        leaves = [leaf for _, leaf in sorted(by_roll.get(entry.get("id"), []), key=lambda pair: pair[0])]
        if not leaves and str(entry.get("created_at") or "") < first:
            continue  # made before the roll log started
        if why := leaf_problem(entry, leaves):
            out[place] = why
    return out, problems
