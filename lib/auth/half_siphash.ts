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

/** HalfSipHash-2-4 of `input` (bytes, or a string of code units below 256) under the 64-bit key `k0`, `k1`. */
export function halfSipHash24(input: Uint8Array | string, k0: number, k1: number): number {
  let v0 = k0 | 0;
  let v1 = k1 | 0;
  let v2 = (0x6c796765 ^ k0) | 0;
  let v3 = (0x74656462 ^ k1) | 0;
  const len = input.length;
  const at = typeof input === "string" ? (i: number) => input.charCodeAt(i) & 0xff : (i: number) => input[i]!;
  const round = () => {
    v0 = (v0 + v1) | 0; v1 = _rotl(v1, 5); v1 ^= v0; v0 = _rotl(v0, 16);
    v2 = (v2 + v3) | 0; v3 = _rotl(v3, 8); v3 ^= v2;
    v0 = (v0 + v3) | 0; v3 = _rotl(v3, 7); v3 ^= v0;
    v2 = (v2 + v1) | 0; v1 = _rotl(v1, 13); v1 ^= v2; v2 = _rotl(v2, 16);
  };
  const whole = len - (len % 4);
  for (let i = 0; i < whole; i += 4) {
    const m = at(i) | (at(i + 1) << 8) | (at(i + 2) << 16) | (at(i + 3) << 24);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  let last = len << 24;
  for (let i = whole; i < len; i++) last |= at(i) << (8 * (i - whole));
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xff;
  round();
  round();
  round();
  round();
  return (v1 ^ v3) >>> 0;
}
