/* Dossier: checks the campaign's rolls in the browser (docs/fair-dice.md, scheme dossier-dice/1).
 *
 * Our own SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104): crypto.subtle exists only in secure
 * contexts, and a table's server on a plain-http LAN address is not one. The dice follow
 * characters/systems/fair_dice.py and characters/systems/dice.py exactly; scripts/verify_rolls.py
 * is the same check in Python. Window.dossierFairDice exposes verify() for tests.
 */
(function () {
  "use strict";

  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ];

  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }

  function sha256(bytes) {
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var length = bytes.length;
    var padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[length] = 0x80;
    var bits = length * 8;
    var view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
    view.setUint32(padded.length - 4, bits >>> 0);
    var w = new Array(64);
    for (var offset = 0; offset < padded.length; offset += 64) {
      for (var i = 0; i < 16; i++) { w[i] = view.getUint32(offset + i * 4); }
      for (i = 16; i < 64; i++) {
        var s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        var s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (i = 0; i < 64; i++) {
        var t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + hh) | 0;
    }
    var out = new Uint8Array(32);
    var outView = new DataView(out.buffer);
    for (i = 0; i < 8; i++) { outView.setUint32(i * 4, h[i] >>> 0); }
    return out;
  }

  function concat(a, b) {
    var out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  }

  function hmac(key, message) {
    if (key.length > 64) { key = sha256(key); }
    var block = new Uint8Array(64);
    block.set(key);
    var inner = new Uint8Array(64), outer = new Uint8Array(64);
    for (var i = 0; i < 64; i++) { inner[i] = block[i] ^ 0x36; outer[i] = block[i] ^ 0x5c; }
    return sha256(concat(outer, sha256(concat(inner, message))));
  }

  function utf8(text) { return new TextEncoder().encode(text); }
  function hex(bytes) {
    var out = "";
    for (var i = 0; i < bytes.length; i++) { out += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16); }
    return out;
  }
  function unhex(text) {
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) { out[i] = parseInt(text.substr(i * 2, 2), 16); }
    return out;
  }

  // Sorting as Python sorts str: by code point (JS's default sort compares UTF-16 units).
  function byCodePoint(a, b) {
    var x = Array.from(a), y = Array.from(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) { return d; }
    }
    return x.length - y.length;
  }

  function clientDigest(seeds) { return hex(sha256(utf8(seeds.slice().sort(byCodePoint).join("\n")))); }

  // An open lane ("open", or "open:<scope>" for rolls only some members see) needs only the server seed.
  function isOpen(lane) {
    return lane === "open" || lane.indexOf("open:") === 0;
  }

  // The lanes a document declares (characters/systems/fair_dice.py declared): "open", "secret",
  // "open:<scope>" and "secret:<scope>" for a scope the document lists, "hidden:campaign" and
  // "hidden:mission-<n>" (n at most the document's missions when it gives them).
  var HIDDEN_LANE = /^hidden:(?:campaign|mission-([1-9][0-9]{0,8}))$/;
  function laneScope(lane) {
    if (lane.indexOf("open:") === 0) { return lane.slice("open:".length); }
    if (lane.indexOf("secret:") === 0) { return lane.slice("secret:".length); }
    return null;
  }
  function declared(lane, scopes, missions) {
    if (typeof lane !== "string") { return false; }
    if (lane === "open" || lane === "secret") { return true; }
    var label = laneScope(lane);
    if (label !== null) { return Object.prototype.hasOwnProperty.call(scopes, label); }
    var found = HIDDEN_LANE.exec(lane);
    if (!found) { return false; }
    return found[1] === undefined || typeof missions !== "number" || Number(found[1]) <= missions;
  }
  function undeclaredReason(lane) {
    if (typeof lane === "string" && laneScope(lane) !== null) {
      return "its dice scope is not in the document: its lane is not one the document declares";
    }
    return "its lane is not one the document declares";
  }

  // What holds the secret key a lane needs: the seed, or for "secret:<scope>" that scope's own;
  // null for a lane the document does not declare.
  function keysFor(lane, seed, scopes) {
    if (!declared(lane, scopes)) { return null; }
    return lane.indexOf("secret:") === 0 ? scopes[lane.slice("secret:".length)] : seed;
  }

  // Rolls (by index) whose counter leaves counters of their lane unused (fair_dice.counter_gaps).
  function counterGaps(doc) {
    var rolls = doc.rolls || [], complete = doc.complete === true, lanes = {}, shown = [], problems = {};
    var sealed = rolls.filter(function (e) { return e && e.sealed; }).length;
    rolls.forEach(function (entry, index) {
      var proof = entry && entry.proof;
      if (entry.sealed || !proof || !proof.verifiable) { return; }
      if (typeof proof.lane !== "string" || !Number.isInteger(proof.counter)) { return; }
      var key = proof.seed + "|" + proof.lane;
      (lanes[key] = lanes[key] || {})[proof.counter] = true;
      shown.push([index, proof.seed, proof.lane, proof.counter, key]);
    });
    var last = {};
    shown.forEach(function (item) {
      var lane = item[2], counter = item[3], counters = lanes[item[4]], bound = Object.keys(counters).length;
      var before = last[item[4]];
      last[item[4]] = before === undefined ? counter : Math.max(before, counter);
      if (before !== undefined && counter < before) { // the log is in the order the rolls were made
        problems[item[0]] = "it takes counter " + counter + " of lane " + lane + " under seed " + item[1] +
          " but comes after counter " + before + ": the log's order was changed";
        return;
      }
      if (!(isOpen(lane) || complete)) {
        if (lane === "secret" || lane.indexOf("secret:") === 0) { bound += sealed; } else { return; }
      }
      if (counter >= bound) {
        var missing = [];
        for (var c = 0; c < counter && missing.length < 5; c++) { if (!counters[c]) { missing.push(c); } }
        problems[item[0]] = "counter " + counter + " of lane " + lane + " under seed " + item[1] +
          " leaves counters unused (" + missing.join(", ") + (missing.length === 5 ? "..." : "") +
          " not in the document): a counter was skipped or a roll removed";
      }
    });
    return problems;
  }

  function rollKey(serverSeed, secretKey, lane, counter, digest) {
    var message = utf8("dossier-dice/1|" + lane + "|" + counter + "|" + digest);
    var key = hmac(unhex(serverSeed), message);
    return isOpen(lane) ? key : hmac(unhex(secretKey), key);
  }

  function Stream(key) { this.key = key; this.block = 0; this.words = []; }
  Stream.prototype.word = function () {
    if (!this.words.length) {
      var counter = new Uint8Array(4);
      new DataView(counter.buffer).setUint32(0, this.block);
      this.block += 1;
      var bytes = hmac(this.key, counter), view = new DataView(bytes.buffer);
      for (var i = 0; i < 8; i++) { this.words.push(view.getUint32(i * 4)); }
    }
    return this.words.shift();
  };
  Stream.prototype.below = function (n) {
    var limit = 4294967296 - (4294967296 % n);
    for (;;) {
      var word = this.word();
      if (word < limit) { return word % n; }
    }
  };
  Stream.prototype.randint = function (a, b) { return a + this.below(b - a + 1); };

  function sum(list) { return list.reduce(function (t, x) { return t + x; }, 0); }
  function many(n, f) { var out = []; for (var i = 0; i < n; i++) { out.push(f()); } return out; }

  // characters/systems/dice.py roll_kind: faces, kept and total.
  function rollKind(rng, kind, count, modifier) {
    var faces, kept, total;
    if (kind === "d6") {
      faces = many(count, function () { return rng.randint(1, 6); });
      total = sum(faces) + modifier;
    } else if (kind === "d10") {
      faces = many(count, function () { return rng.randint(0, 9) || 10; });
      total = sum(faces) + modifier;
    } else if (kind === "percent") {
      faces = many(2, function () { return rng.randint(0, 9); });
      total = (faces[0] * 10 + faces[1] || 100) + modifier;
    } else if (kind === "d1000") {
      faces = many(3, function () { return rng.randint(0, 9); });
      total = (faces[0] * 100 + faces[1] * 10 + faces[2] || 1000) + modifier;
    } else if (kind === "fudge") {
      faces = many(count, function () { return [-1, 0, 1][rng.below(3)]; });
      total = sum(faces) + modifier;
    } else if (kind === "3d6_bonus" || kind === "3d6_penalty") {
      faces = many(3 + count, function () { return rng.randint(1, 6); });
      var ordered = faces.slice().sort(function (x, y) { return kind === "3d6_bonus" ? y - x : x - y; });
      kept = ordered.slice(0, 3);
      total = sum(kept) + modifier;
    } else if (kind === "d6_wild") {
      // the last die is a Wild Die: rolled again while it shows 6, at most 50 faces
      faces = many(count - 1, function () { return rng.randint(1, 6); });
      var chain = [rng.randint(1, 6)];
      while (chain[chain.length - 1] === 6 && chain.length < 50) { chain.push(rng.randint(1, 6)); }
      faces = faces.concat(chain);
      total = sum(faces) + modifier;
    } else {
      throw new Error("unknown dice kind " + kind);
    }
    return { faces: faces, kept: kept || faces, total: total };
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // What a roll's proof binds besides its dice (characters/systems/fair_dice.py record_problem).
  var READING_KEYS = ["summary", "success", "result", "column", "margin", "band_name", "outcome"];
  var RECORD_FIELDS = ["kind", "count", "modifier", "purpose", "faces", "kept", "total", "reading"];
  function reading(detail) {
    var out = {};
    if (detail && typeof detail === "object" && !Array.isArray(detail)) {
      READING_KEYS.forEach(function (k) { if (Object.prototype.hasOwnProperty.call(detail, k)) { out[k] = detail[k]; } });
    }
    return out;
  }
  // Equal as Python compares JSON values (key order never matters).
  function equal(a, b) {
    if (a === b) { return true; }
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) { return false; }
    if (Array.isArray(a) !== Array.isArray(b)) { return false; }
    var ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) { return false; }
    return ka.every(function (k) { return Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k]); });
  }
  function recordProblem(entry, proof) {
    var record = proof.record;
    if (!record) { return null; }
    if (typeof record !== "object" || record.v !== "dossier-roll/1") { return "its record is unreadable"; }
    var shown = Object.assign({}, entry, { reading: "reading" in entry ? entry.reading : reading(entry.detail) });
    var i, field;
    for (i = 0; i < RECORD_FIELDS.length; i++) {
      field = RECORD_FIELDS[i];
      if (field in shown && !equal(shown[field], record[field])) { return "its " + field + " is not the one recorded when it was made"; }
    }
    var where = ["lane", "counter", "seed"];
    for (i = 0; i < where.length; i++) {
      if (!equal(proof[where[i]], record[where[i]])) { return "its " + where[i] + " is not the one recorded when it was made"; }
    }
    if ("secret" in entry && !!entry.secret !== record.secret) { return "its kind (secret or open) is not the one recorded when it was made"; }
    if (entry.roller && entry.roller !== record.roller) { return "who made it is not the one recorded when it was made"; }
    if ("players" in record && Array.isArray(proof.client_seeds) && record.players !== clientDigest(proof.client_seeds)) {
      return "its players' seeds are not the ones recorded when it was made";
    }
    return null;
  }

  function checkRoll(entry, proof, seed, holder) {
    if (hex(sha256(unhex(seed.server_seed))) !== seed.commitment) {
      return "the server seed does not match its commitment";
    }
    if (!isOpen(proof.lane) && hex(sha256(unhex(holder.secret_key))) !== holder.secret_commitment) {
      return "the secret key does not match its commitment";
    }
    var key = rollKey(seed.server_seed, holder.secret_key, proof.lane, proof.counter, clientDigest(proof.client_seeds));
    var got = rollKind(new Stream(key), entry.kind, entry.count, entry.modifier);
    if (!same(got.faces, entry.faces)) { return "the dice recompute as " + got.faces.join(" ") + ", not " + entry.faces.join(" "); }
    if (!same(got.kept, entry.kept) || got.total !== entry.total) { return "the total recomputes as " + got.total + ", not " + entry.total; }
    return null;
  }

  // What a roll still waits for before it can be checked (null when nothing), in the same words
  // as characters/systems/fair_dice.py waits_for and scripts/verify_rolls.py.
  var WHEN_REVEALED = "the game master reveals it at the end of a session or mission";
  var WHEN_KEY_OUT = "it comes out once every secret roll under the seed is shared and every closed mission published";
  var WHEN_SCENE_KEY_OUT = "it comes out once the scene is over and its secret rolls are shared";
  function waitsFor(number, lane, seed, holder) {
    var revealed = !!seed.server_seed;
    if (isOpen(lane) || holder.secret_key) {
      return revealed ? null : "waits for seed " + number + " to be revealed: " + WHEN_REVEALED;
    }
    var scene = lane.indexOf("secret:") === 0;
    var key = scene ? "its scene's secret key" : "seed " + number + "'s secret key";
    var when = scene ? WHEN_SCENE_KEY_OUT : WHEN_KEY_OUT;
    if (!revealed) {
      return "waits for seed " + number + " to be revealed (" + WHEN_REVEALED + "), then for " + key + ": " + when;
    }
    return "waits for " + key + ": " + when;
  }

  // Why a sealed, by-hand or unproven roll is not checked: characters/systems/fair_dice.py why_not.
  var WHY_SEALED = "a secret roll whose result is not shared with you: it can be checked once the game master shares it and its secret key is out";
  var WHY_BY_HAND = "entered by hand from physical dice: no seed made it, so there is nothing to recompute";
  var WHY_UNPROVEN = "made without the fair dice (before they existed, or by scripted dice such as the demo's): it has no proof";

  // -- the roll log (RFC 9162; characters/systems/merkle.py and fair_dice.check_logs) ----------
  function canonical(value) {
    if (Array.isArray(value)) { return "[" + value.map(canonical).join(",") + "]"; }
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort(byCodePoint).map(function (k) { return JSON.stringify(k) + ":" + canonical(value[k]); }).join(",") + "}";
    }
    return JSON.stringify(value);
  }
  function leafHash(leaf) { return sha256(concat(new Uint8Array([0]), utf8(canonical(leaf)))); }
  function node(left, right) { return sha256(concat(concat(new Uint8Array([1]), left), right)); }
  function sameBytes(a, b) { return a.length === b.length && a.every(function (x, i) { return x === b[i]; }); }
  function hashes(items) {
    if (!Array.isArray(items) || !items.every(function (h) { return typeof h === "string" && /^[0-9a-f]{64}$/.test(h); })) { return null; }
    return items.map(unhex);
  }
  function verifyInclusion(leaf, index, size, proof, expected) {
    if (!(index >= 0 && index < size)) { return false; }
    var fn = index, sn = size - 1, r = leaf;
    for (var i = 0; i < proof.length; i++) {
      if (sn === 0) { return false; }
      if (fn % 2 === 1 || fn === sn) {
        r = node(proof[i], r);
        while (fn && fn % 2 === 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else { r = node(r, proof[i]); }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sn === 0 && sameBytes(r, expected);
  }
  function verifyConsistency(first, second, firstRoot, secondRoot, proof) {
    if (first === second) { return proof.length === 0 && sameBytes(firstRoot, secondRoot); }
    if (!(first > 0 && first < second) || !proof.length) { return false; }
    var path = proof.slice();
    if ((first & (first - 1)) === 0) { path.unshift(firstRoot); }
    var fn = first - 1, sn = second - 1;
    while (fn % 2 === 1) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    var fr = path[0], sr = path[0];
    for (var i = 1; i < path.length; i++) {
      if (sn === 0) { return false; }
      if (fn % 2 === 1 || fn === sn) {
        fr = node(path[i], fr); sr = node(path[i], sr);
        while (fn && fn % 2 === 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else { sr = node(sr, path[i]); }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sameBytes(fr, firstRoot) && sameBytes(sr, secondRoot) && sn === 0;
  }
  var DRAW_FIELDS = ["roller", "character", "kind", "count", "modifier", "purpose", "secret", "by_hand", "lane", "counter", "seed"];
  // A shared leaf's draw opens its sealed leaf's commitment (fair_dice._opens).
  function opens(whole, proof, sealed) {
    var draw = whole.draw, record = whole.record, salt = whole.salt;
    if (!draw || typeof draw !== "object" || DRAW_FIELDS.some(function (k) { return !equal(draw[k], record[k]); })) { return false; }
    if (proof.verifiable && Array.isArray(proof.client_seeds) && draw.players !== clientDigest(proof.client_seeds)) { return false; }
    if (typeof salt !== "string" || !/^([0-9a-f]{2})*$/.test(salt)) { return false; }
    return hex(sha256(concat(unhex(salt), utf8(canonical(draw))))) === sealed.commitment;
  }
  function leafProblem(entry, leaves) {
    if (!leaves.length) { return "it is not in the roll log"; }
    var sealed = leaves.filter(function (l) { return l.type === "sealed"; })[0];
    if (entry.sealed) { return sealed ? null : "its sealed leaf is not in the roll log"; }
    var whole = leaves.filter(function (l) { return l.type === "roll" || l.type === "shared"; })[0];
    if (!whole || !whole.record || typeof whole.record !== "object") { return "its result is not in the roll log"; }
    var record = whole.record, proof = entry.proof || {};
    if (proof.record && !equal(proof.record, record)) { return "its record is not the one in the roll log"; }
    var problem = recordProblem(entry, { record: record, lane: record.lane, counter: record.counter, seed: record.seed });
    if (problem) { return problem.replace("recorded when it was made", "in the roll log"); }
    if (proof.verifiable && ["lane", "counter", "seed"].some(function (k) { return proof[k] !== record[k]; })) {
      return "its lane or counter is not the one in the roll log";
    }
    if (sealed && (whole.type !== "shared" || !opens(whole, proof, sealed))) { return "its shared result does not open its sealed leaf"; }
    return null;
  }
  function headMessage(head) {
    return utf8("dossier-log/1\n" + head.log + "\n" + head.size + "\n" + head.root + "\n" + head.timestamp + "\n");
  }
  // Each roll of the document against the leaves of its logs (the trees' roots as the heads say;
  // the heads' signatures and the heads kept are checkLogs's): place -> why it fails.
  function offLog(doc) {
    var byRoll = {}, bad = {}, started = [], out = {};
    (doc.logs || []).forEach(function (log) {
      var head = log.head || {}, root = hashes([head.root]);
      if (!root) { return; }
      started.push(String(log.started_at || ""));
      (log.leaves || []).forEach(function (item) {
        var leaf = item.leaf || {}, path = hashes(item.proof || []);
        if (!(Number.isInteger(item.index) && path && verifyInclusion(leafHash(leaf), item.index, head.size, path, root[0]))) {
          bad[leaf.roll] = true;
          return;
        }
        (byRoll[leaf.roll] = byRoll[leaf.roll] || []).push([item.index, leaf]);
      });
    });
    var first = started.sort().slice(-1)[0] || "";
    (doc.rolls || []).forEach(function (entry, place) {
      if (bad[entry.id]) { out[place] = "its leaf is not in the signed roll log"; return; }
      var leaves = (byRoll[entry.id] || []).sort(function (a, b) { return a[0] - b[0]; }).map(function (p) { return p[1]; });
      if (!leaves.length && String(entry.created_at || "") < first) { return; }
      var why = leafProblem(entry, leaves);
      if (why) { out[place] = why; }
    });
    return out;
  }
  // Ed25519 in this browser: WebCrypto where it is (secure contexts), else our own
  // (static/js/ed25519-verify.js, loaded before this file on the page); null if neither.
  function signatureCheck(publicKey, signature, message) {
    var own = (typeof window !== "undefined" && window.dossierEd25519) || null;
    var subtle = typeof crypto !== "undefined" && crypto && crypto.subtle;
    if (subtle) {
      return subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"])
        .then(function (k) { return subtle.verify({ name: "Ed25519" }, k, signature, message); })
        .catch(function (error) {
          if (error && error.name === "NotSupportedError" && own) { return own.verify(publicKey, signature, message); }
          return false;
        });
    }
    return Promise.resolve(own.verify(publicKey, signature, message));
  }
  function canCheckSignatures() {
    return !!((typeof crypto !== "undefined" && crypto && crypto.subtle) || (typeof window !== "undefined" && window.dossierEd25519));
  }
  // The logs' own problems (a Promise of a list): each head signed by the document's log_key
  // (Ed25519: WebCrypto's, else static/js/ed25519-verify.js), each lane in counter order in its log, and each head the reader kept
  // (``kept``: log id -> head) a prefix of the new one (its consistency proof). ``signed`` in the
  // answer: whether the signatures could be checked in this browser.
  function checkLogs(doc, kept) {
    var key = ((doc.log_key || {}).public_key) || "", signed = canCheckSignatures();
    var problems = [];
    function checkSignature(head) {
      if (!signed) { return Promise.resolve(true); }
      var sig = /^[0-9a-f]{128}$/.test(head.signature || "") ? unhex(head.signature) : null;
      if (!sig || !/^[0-9a-f]{64}$/.test(key)) { return Promise.resolve(false); }
      return signatureCheck(unhex(key), sig, headMessage(head));
    }
    var checks = (doc.logs || []).map(function (log) {
      var head = log.head || {}, name = String(head.log || log.audience), old = (kept || {})[name];
      return checkSignature(head).then(function (ok) {
        if (!ok) { problems.push(name + ": its tree head's signature does not check"); return; }
        var lanes = {};
        (log.leaves || []).forEach(function (item) {
          var r = (item.leaf || {}).record;
          if (r && typeof r === "object" && r.lane && r.counter !== null && r.counter !== undefined) {
            var k = r.seed + "|" + r.lane;
            (lanes[k] = lanes[k] || []).push([item.index, r.counter, r.lane]);
          }
        });
        Object.keys(lanes).forEach(function (k) {
          var counters = lanes[k].sort(function (a, b) { return a[0] - b[0]; }).map(function (p) { return p[1]; });
          if (counters.some(function (c, i) { return i && c < counters[i - 1]; })) {
            problems.push(name + ": the log holds lane " + lanes[k][0][2] + "'s rolls out of their order");
          }
        });
        if (!old) { return; }
        return checkSignature(old).then(function (oldOk) {
          var root = hashes([head.root]), oldRoot = hashes([old.root]);
          if (!oldOk || !root || !oldRoot) { problems.push(name + ": the head you kept: its tree head's signature does not check"); }
          else if (old.size > head.size) { problems.push(name + ": the log is shorter than the head you kept (" + head.size + " < " + old.size + ")"); }
          else if (old.size === head.size) { if (old.root !== head.root) { problems.push(name + ": the log was rewritten since the head you kept"); } }
          else if (old.size > 0) {
            var step = log.consistency || {}, path = hashes(step.proof || []);
            if (step.from !== old.size || !path) { problems.push(name + ": no consistency proof from the head you kept"); }
            else if (!verifyConsistency(old.size, head.size, oldRoot[0], root[0], path)) { problems.push(name + ": the log was rewritten since the head you kept"); }
          }
        });
      });
    });
    return Promise.all(checks).then(function () { return { problems: problems, signed: signed }; });
  }

  // The same verdicts as campaigns.fairness.verify_document.
  function verify(doc) {
    var seeds = {}, scopes = Object.create(null), seen = {}, verdicts = [];
    (doc.seeds || []).forEach(function (s) { seeds[s.number] = s; });
    (doc.scopes || []).forEach(function (s) { scopes[s.label] = s; });
    var gaps = counterGaps(doc), offlog = offLog(doc);
    (doc.rolls || []).forEach(function (entry, index) {
      var proof = entry.proof, verdict, reason = "";
      if (entry.sealed) {
        verdict = "sealed";
        reason = WHY_SEALED;
      } else if (!proof || !proof.verifiable) {
        verdict = proof && proof.by_hand ? "by hand" : "not verifiable";
        reason = proof && proof.by_hand ? WHY_BY_HAND : WHY_UNPROVEN;
      } else {
        var seed = seeds[proof.seed], key = proof.seed + "|" + proof.lane + "|" + proof.counter;
        var holder = keysFor(proof.lane, seed || {}, scopes);
        if (!seed) { verdict = "failed"; reason = "its seed is not in the document"; }
        else if (!holder || !declared(proof.lane, scopes, doc.missions)) { verdict = "failed"; reason = undeclaredReason(proof.lane); }
        else if (seen[key]) { verdict = "failed"; reason = "another roll took the same counter"; }
        else if (gaps[index]) { verdict = "failed"; reason = gaps[index]; }
        else if (waitsFor(proof.seed, proof.lane, seed, holder)) {
          var bound = recordProblem(entry, proof); // checked before the dice can be
          verdict = bound ? "failed" : "pending";
          reason = bound || waitsFor(proof.seed, proof.lane, seed, holder);
        }
        else {
          var problem = checkRoll(entry, proof, seed, holder) || recordProblem(entry, proof);
          verdict = problem ? "failed" : "verified";
          reason = problem || "";
        }
        seen[key] = true;
      }
      if (offlog[index] && verdict !== "failed") { verdict = "failed"; reason = offlog[index]; }
      verdicts.push({ id: entry.id, verdict: verdict, reason: reason, entry: entry });
    });
    return verdicts;
  }

  function show() {
    var source = document.getElementById("fair-document");
    var list = document.getElementById("fair-results");
    var summary = document.getElementById("fair-summary");
    var verdicts = verify(JSON.parse(source.textContent));
    var counts = {};
    list.textContent = "";
    verdicts.forEach(function (v) {
      counts[v.verdict] = (counts[v.verdict] || 0) + 1;
      var item = document.createElement("li");
      item.dataset.verdict = v.verdict;
      var e = v.entry;
      var what = e.sealed ? "a secret roll" : e.kind + (e.count > 1 ? " ×" + e.count : "") + " → " + e.total + (e.purpose ? " (" + e.purpose + ")" : "");
      item.textContent = e.created_at.slice(0, 19).replace("T", " ") + " " + what + ": " + v.verdict + (v.reason ? " (" + v.reason + ")" : "");
      list.appendChild(item);
    });
    summary.textContent = Object.keys(counts).sort().map(function (k) { return counts[k] + " " + k; }).join(", ") || "No rolls yet.";
  }

  window.dossierFairDice = {
    sha256: function (t) { return hex(sha256(utf8(t))); },
    verify: verify,
    checkLogs: checkLogs,
    verifyInclusion: function (leaf, index, size, proof, root) { return verifyInclusion(unhex(leaf), index, size, proof.map(unhex), unhex(root)); },
    verifyConsistency: function (m, n, a, b, proof) { return verifyConsistency(m, n, unhex(a), unhex(b), proof.map(unhex)); }
  };
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("fair-verify");
    if (button) { button.addEventListener("click", show); }
  });
})();
