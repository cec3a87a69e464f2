/**
 * HalfSipHash-2-4 with a 32-bit output (Aumasson and Bernstein's SipHash
 * family, 32-bit words): a keyed pseudorandom function that is fast on short
 * inputs. Used where a secret must be recognised again without keeping it:
 * with a random key, a forger who never sees outputs must guess blindly.
 * It is not a hash for storage (tokens are stored as SHA-256).
 * @module
 */

function _rotl(x: number, b: number): number {
  return (x << b) | (x >>> (32 - b));
}

// The state between rounds. Module-level functions rather than closures per call: this runs twice a request.
const _v = new Int32Array(4);

function _sipRounds(n: number): void {
  let v0 = _v[0]!, v1 = _v[1]!, v2 = _v[2]!, v3 = _v[3]!;
  for (let r = 0; r < n; r++) {
    v0 = (v0 + v1) | 0; v1 = _rotl(v1, 5); v1 ^= v0; v0 = _rotl(v0, 16);
    v2 = (v2 + v3) | 0; v3 = _rotl(v3, 8); v3 ^= v2;
    v0 = (v0 + v3) | 0; v3 = _rotl(v3, 7); v3 ^= v0;
    v2 = (v2 + v1) | 0; v1 = _rotl(v1, 13); v1 ^= v2; v2 = _rotl(v2, 16);
  }
  _v[0] = v0; _v[1] = v1; _v[2] = v2; _v[3] = v3;
}

/** HalfSipHash-2-4 of `input` (bytes, or a string of code units below 256) under the 64-bit key `k0`, `k1`. */
export function halfSipHash24(input: Uint8Array | string, k0: number, k1: number): number {
  // Each byte read one way for the whole input, not a test of its type per byte: this runs twice a request.
  return typeof input === "string" ? _hashString(input, k0, k1) : _hashBytes(input, k0, k1);
}

function _hashString(input: string, k0: number, k1: number): number {
  const len = input.length;
  const whole = len - (len % 4);
  _start(k0, k1);
  for (let i = 0; i < whole; i += 4) {
    _compress((input.charCodeAt(i) & 0xff) | ((input.charCodeAt(i + 1) & 0xff) << 8) | ((input.charCodeAt(i + 2) & 0xff) << 16) | ((input.charCodeAt(i + 3) & 0xff) << 24));
  }
  let last = len << 24;
  for (let i = whole; i < len; i++) last |= (input.charCodeAt(i) & 0xff) << (8 * (i - whole));
  return _finish(last);
}

function _hashBytes(input: Uint8Array, k0: number, k1: number): number {
  const len = input.length;
  const whole = len - (len % 4);
  _start(k0, k1);
  for (let i = 0; i < whole; i += 4) _compress(input[i]! | (input[i + 1]! << 8) | (input[i + 2]! << 16) | (input[i + 3]! << 24));
  let last = len << 24;
  for (let i = whole; i < len; i++) last |= input[i]! << (8 * (i - whole));
  return _finish(last);
}

function _start(k0: number, k1: number): void {
  _v[0] = k0;
  _v[1] = k1;
  _v[2] = 0x6c796765 ^ k0;
  _v[3] = 0x74656462 ^ k1;
}

function _compress(m: number): void {
  _v[3]! ^= m;
  _sipRounds(2);
  _v[0]! ^= m;
}

function _finish(last: number): number {
  _compress(last);
  _v[2]! ^= 0xff;
  _sipRounds(4);
  return (_v[1]! ^ _v[3]!) >>> 0;
}
