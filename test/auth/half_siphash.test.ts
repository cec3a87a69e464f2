import assert from "node:assert/strict";
import { test } from "node:test";
import { halfSipHash24 } from "../../lib/auth/half_siphash.ts";

// The reference implementation's vectors (key bytes 0..7, input bytes 0..n-1), as little-endian words.
const VECTORS = [0x5b9f35a9, 0xb85a4727, 0x03a662fa, 0x04e7fe8a, 0x89466e2a, 0x69b6fac5, 0x23fc6358, 0xc563cf8b];
const K0 = 0x03020100;
const K1 = 0x07060504;

test("halfSipHash24() gives the reference vectors for inputs of 0 to 7 bytes", () => {
  VECTORS.forEach((expected, n) => {
    const input = Uint8Array.from({ length: n }, (_, i) => i);
    assert.equal(halfSipHash24(input, K0, K1), expected, `input of ${n} bytes`);
  });
});

test("halfSipHash24() reads a string's code units as bytes, and another key gives another value", () => {
  const text = "lu-EJxCi0nFTJBJE-M5uPwL28PNburKLVH1PHSTqnFg";
  assert.equal(halfSipHash24(text, K0, K1), halfSipHash24(new TextEncoder().encode(text), K0, K1));
  assert.notEqual(halfSipHash24(text, K0, K1), halfSipHash24(text, K0 ^ 1, K1));
});
