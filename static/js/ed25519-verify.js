/* Dossier: Ed25519 signature verification (RFC 8032, section 5.1.7) and SHA-512 (FIPS 180-4), for
 * browsers without WebCrypto's Ed25519: crypto.subtle exists only in secure contexts (https,
 * localhost), and a table's server on a plain-http LAN address is not one. Used by
 * static/js/fair-dice.js checkLogs when crypto.subtle is missing. Our own code, served from static/
 * (no CDN); checked against Node's Ed25519 and SHA-512 by tests/campaigns/test_roll_log.py.
 * Verification only (public data): no secret ever passes through it, so constant time is moot.
 */
(function (root) {
  "use strict";

  var M64 = (1n << 64n) - 1n;
  var K = [
    "428a2f98d728ae22", "7137449123ef65cd", "b5c0fbcfec4d3b2f", "e9b5dba58189dbbc", "3956c25bf348b538", "59f111f1b605d019",
    "923f82a4af194f9b", "ab1c5ed5da6d8118", "d807aa98a3030242", "12835b0145706fbe", "243185be4ee4b28c", "550c7dc3d5ffb4e2",
    "72be5d74f27b896f", "80deb1fe3b1696b1", "9bdc06a725c71235", "c19bf174cf692694", "e49b69c19ef14ad2", "efbe4786384f25e3",
    "0fc19dc68b8cd5b5", "240ca1cc77ac9c65", "2de92c6f592b0275", "4a7484aa6ea6e483", "5cb0a9dcbd41fbd4", "76f988da831153b5",
    "983e5152ee66dfab", "a831c66d2db43210", "b00327c898fb213f", "bf597fc7beef0ee4", "c6e00bf33da88fc2", "d5a79147930aa725",
    "06ca6351e003826f", "142929670a0e6e70", "27b70a8546d22ffc", "2e1b21385c26c926", "4d2c6dfc5ac42aed", "53380d139d95b3df",
    "650a73548baf63de", "766a0abb3c77b2a8", "81c2c92e47edaee6", "92722c851482353b", "a2bfe8a14cf10364", "a81a664bbc423001",
    "c24b8b70d0f89791", "c76c51a30654be30", "d192e819d6ef5218", "d69906245565a910", "f40e35855771202a", "106aa07032bbd1b8",
    "19a4c116b8d2d0c8", "1e376c085141ab53", "2748774cdf8eeb99", "34b0bcb5e19b48a8", "391c0cb3c5c95a63", "4ed8aa4ae3418acb",
    "5b9cca4f7763e373", "682e6ff3d6b2b8a3", "748f82ee5defb2fc", "78a5636f43172f60", "84c87814a1f0ab72", "8cc702081a6439ec",
    "90befffa23631e28", "a4506cebde82bde9", "bef9a3f7b2c67915", "c67178f2e372532b", "ca273eceea26619c", "d186b8c721c0c207",
    "eada7dd6cde0eb1e", "f57d4f7fee6ed178", "06f067aa72176fba", "0a637dc5a2c898a6", "113f9804bef90dae", "1b710b35131c471b",
    "28db77f523047d84", "32caab7b40c72493", "3c9ebe0a15c9bebc", "431d67c49c100d4c", "4cc5d4becb3e42b6", "597f299cfc657e2a",
    "5fcb6fab3ad6faec", "6c44198c4a475817"
  ].map(function (h) { return BigInt("0x" + h); });
  var H0 = [
    "6a09e667f3bcc908", "bb67ae8584caa73b", "3c6ef372fe94f82b", "a54ff53a5f1d36f1",
    "510e527fade682d1", "9b05688c2b3e6c1f", "1f83d9abfb41bd6b", "5be0cd19137e2179"
  ].map(function (h) { return BigInt("0x" + h); });

  function rotr(x, n) { return ((x >> n) | (x << (64n - n))) & M64; }

  function sha512(bytes) {
    var len = bytes.length, total = Math.ceil((len + 17) / 128) * 128;
    var data = new Uint8Array(total);
    data.set(bytes);
    data[len] = 0x80;
    var bits = BigInt(len) * 8n;
    for (var b = 0; b < 16; b++) { data[total - 1 - b] = Number((bits >> BigInt(8 * b)) & 0xffn); }
    var h = H0.slice(), w = new Array(80);
    for (var off = 0; off < total; off += 128) {
      for (var t = 0; t < 16; t++) {
        var v = 0n;
        for (var j = 0; j < 8; j++) { v = (v << 8n) | BigInt(data[off + t * 8 + j]); }
        w[t] = v;
      }
      for (t = 16; t < 80; t++) {
        var s0 = rotr(w[t - 15], 1n) ^ rotr(w[t - 15], 8n) ^ (w[t - 15] >> 7n);
        var s1 = rotr(w[t - 2], 19n) ^ rotr(w[t - 2], 61n) ^ (w[t - 2] >> 6n);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) & M64;
      }
      var a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (t = 0; t < 80; t++) {
        var t1 = (hh + (rotr(e, 14n) ^ rotr(e, 18n) ^ rotr(e, 41n)) + ((e & f) ^ (~e & M64 & g)) + K[t] + w[t]) & M64;
        var t2 = ((rotr(a, 28n) ^ rotr(a, 34n) ^ rotr(a, 39n)) + ((a & bb) ^ (a & c) ^ (bb & c))) & M64;
        hh = g; g = f; f = e; e = (d + t1) & M64; d = c; c = bb; bb = a; a = (t1 + t2) & M64;
      }
      h = [a, bb, c, d, e, f, g, hh].map(function (x, i) { return (x + h[i]) & M64; });
    }
    var out = new Uint8Array(64);
    h.forEach(function (x, i) { for (var j = 0; j < 8; j++) { out[i * 8 + j] = Number((x >> BigInt(56 - 8 * j)) & 0xffn); } });
    return out;
  }

  var P = (1n << 255n) - 19n;
  var L = (1n << 252n) + 27742317777372353535851937790883648493n;
  function mod(a, m) { var r = a % (m || P); return r < 0n ? r + (m || P) : r; }
  function pow(b, e) {
    var r = 1n;
    b = mod(b);
    while (e > 0n) { if (e & 1n) { r = mod(r * b); } b = mod(b * b); e >>= 1n; }
    return r;
  }
  function inv(a) { return pow(a, P - 2n); }
  var D = mod(-121665n * inv(121666n));
  var D2 = mod(2n * D);
  var SQRT_M1 = pow(2n, (P - 1n) / 4n);

  function leInt(bytes) {
    var v = 0n;
    for (var i = bytes.length - 1; i >= 0; i--) { v = (v << 8n) | BigInt(bytes[i]); }
    return v;
  }
  function decode(bytes) { // a point (x, y, z, t) in extended coordinates, or null
    var y = leInt(bytes) & ((1n << 255n) - 1n), sign = bytes[31] >> 7;
    if (y >= P) { return null; }
    var u = mod(y * y - 1n), v = mod(D * y * y + 1n);
    var x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
    var vx2 = mod(v * x * x);
    if (vx2 === mod(-u)) { x = mod(x * SQRT_M1); }
    else if (vx2 !== u) { return null; }
    if (x === 0n && sign === 1) { return null; }
    if (Number(x & 1n) !== sign) { x = P - x; }
    return [x, y, 1n, mod(x * y)];
  }
  function add(p, q) {
    var a = mod((p[1] - p[0]) * (q[1] - q[0])), b = mod((p[1] + p[0]) * (q[1] + q[0]));
    var c = mod(p[3] * D2 * q[3]), d = mod(p[2] * 2n * q[2]);
    var e = b - a, f = d - c, g = d + c, h = b + a;
    return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
  }
  function times(n, p) {
    var r = [0n, 1n, 1n, 0n];
    while (n > 0n) { if (n & 1n) { r = add(r, p); } p = add(p, p); n >>= 1n; }
    return r;
  }
  var BY = mod(4n * inv(5n));
  var B = (function () {
    var bytes = new Uint8Array(32), y = BY;
    for (var i = 0; i < 32; i++) { bytes[i] = Number(y & 0xffn); y >>= 8n; }
    return decode(bytes);
  })();

  // True if ``signature`` (64 bytes) is ``publicKey``'s (32 bytes) over ``message`` (bytes).
  function verify(publicKey, signature, message) {
    if (publicKey.length !== 32 || signature.length !== 64) { return false; }
    var a = decode(publicKey), r = decode(signature.subarray(0, 32));
    var s = leInt(signature.subarray(32));
    if (!a || !r || s >= L) { return false; }
    var all = new Uint8Array(64 + message.length);
    all.set(signature.subarray(0, 32));
    all.set(publicKey, 32);
    all.set(message, 64);
    var k = mod(leInt(sha512(all)), L);
    var left = times(s, B), right = add(r, times(k, a));
    return mod(left[0] * right[2]) === mod(right[0] * left[2]) && mod(left[1] * right[2]) === mod(right[1] * left[2]);
  }

  root.dossierEd25519 = { verify: verify, sha512: sha512 };
})(typeof window !== "undefined" ? window : globalThis);
