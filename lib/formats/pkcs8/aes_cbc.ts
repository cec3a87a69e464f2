/**
 * AES decryption in CBC mode with PKCS#7 padding (FIPS 197 §5.3 InvCipher, NIST SP 800-38A §6.2), for the one
 * case a runtime's node:crypto cannot do it: Deno 2 has no AES-192. Only decryption, only of the few hundred bytes
 * of a key file, so it is written for clarity over speed; node:crypto does everything else.
 * @module
 */

const _SBOX = new Uint8Array(256);
const _INV_SBOX = new Uint8Array(256);

// FIPS 197 §5.1.1: the S-box is the multiplicative inverse in GF(2^8) followed by the affine transformation.
// Computed on first use (a few milliseconds), not at import: most runs never need it.
function _tables(): void {
  if (_SBOX[0] !== 0) return; // S(0) is 0x63 once computed
  for (let x = 0; x < 256; x++) {
    let inv = 0;
    for (let y = 1; y < 256 && x !== 0; y++) {
      if (_mul(x, y) === 1) {
        inv = y;
        break;
      }
    }
    let s = inv;
    for (let i = 1; i <= 4; i++) s ^= ((inv << i) | (inv >> (8 - i))) & 0xff;
    _SBOX[x] = s ^ 0x63;
    _INV_SBOX[s ^ 0x63] = x;
  }
}

/** Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 §4.2). */
function _mul(a: number, b: number): number {
  let p = 0;
  for (let i = 0; i < 8; i++) {
    if ((b & 1) !== 0) p ^= a;
    const high = a & 0x80;
    a = (a << 1) & 0xff;
    if (high !== 0) a ^= 0x1b;
    b >>= 1;
  }
  return p;
}

/** FIPS 197 §5.2 KeyExpansion: the round keys as bytes, 16 per round. */
function _expandKey(key: Uint8Array): Uint8Array {
  _tables();
  const nk = key.length / 4;
  if (![4, 6, 8].includes(nk)) throw new RangeError("AES keys are 16, 24 or 32 bytes");
  const words = 4 * (nk + 7); // Nb (Nr + 1), Nr = Nk + 6
  const w = new Uint8Array(words * 4);
  w.set(key);
  let rcon = 1;
  for (let i = nk; i < words; i++) {
    let t = [w[4 * i - 4]!, w[4 * i - 3]!, w[4 * i - 2]!, w[4 * i - 1]!];
    if (i % nk === 0) {
      t = [_SBOX[t[1]!]! ^ rcon, _SBOX[t[2]!]!, _SBOX[t[3]!]!, _SBOX[t[0]!]!];
      rcon = _mul(rcon, 2);
    } else if (nk > 6 && i % nk === 4) t = t.map((b) => _SBOX[b]!);
    for (let j = 0; j < 4; j++) w[4 * i + j] = w[4 * (i - nk) + j]! ^ t[j]!;
  }
  return w;
}

/** FIPS 197 §5.3: one block decrypted in place (`s` column-major, as the input bytes come). */
function _decryptBlock(s: Uint8Array, w: Uint8Array, rounds: number): void {
  const addRoundKey = (round: number) => {
    for (let i = 0; i < 16; i++) s[i]! ^= w[16 * round + i]!;
  };
  addRoundKey(rounds);
  for (let round = rounds - 1; round >= 0; round--) {
    // InvShiftRows: row r moves r columns right; then InvSubBytes.
    const t = Uint8Array.from(s);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) s[r + 4 * ((c + r) % 4)] = _INV_SBOX[t[r + 4 * c]!]!;
    addRoundKey(round);
    if (round === 0) break;
    for (let c = 0; c < 4; c++) { // InvMixColumns (FIPS 197 §5.3.3)
      const [a0, a1, a2, a3] = [s[4 * c]!, s[4 * c + 1]!, s[4 * c + 2]!, s[4 * c + 3]!];
      s[4 * c] = _mul(a0, 14) ^ _mul(a1, 11) ^ _mul(a2, 13) ^ _mul(a3, 9);
      s[4 * c + 1] = _mul(a0, 9) ^ _mul(a1, 14) ^ _mul(a2, 11) ^ _mul(a3, 13);
      s[4 * c + 2] = _mul(a0, 13) ^ _mul(a1, 9) ^ _mul(a2, 14) ^ _mul(a3, 11);
      s[4 * c + 3] = _mul(a0, 11) ^ _mul(a1, 13) ^ _mul(a2, 9) ^ _mul(a3, 14);
    }
  }
}

/** One AES block decrypted (no mode, no padding): FIPS 197's InvCipher, for its own test vectors. */
export function aesDecryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  const s = Uint8Array.from(block);
  _decryptBlock(s, _expandKey(key), key.length / 4 + 6);
  return s;
}

/** `data` decrypted with AES-CBC and its PKCS#7 padding removed; null when the padding is not valid (a wrong key). */
export function aesCbcDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array | null {
  if (iv.length !== 16 || data.length === 0 || data.length % 16 !== 0) return null;
  const w = _expandKey(key);
  const rounds = key.length / 4 + 6;
  const out = new Uint8Array(data.length);
  let previous = iv;
  for (let p = 0; p < data.length; p += 16) {
    const block = data.subarray(p, p + 16);
    const s = Uint8Array.from(block);
    _decryptBlock(s, w, rounds);
    for (let i = 0; i < 16; i++) out[p + i] = s[i]! ^ previous[i]!;
    previous = block;
  }
  const pad = out[out.length - 1]!;
  if (pad < 1 || pad > 16) return null;
  for (let i = out.length - pad; i < out.length; i++) if (out[i] !== pad) return null;
  return out.subarray(0, out.length - pad);
}
