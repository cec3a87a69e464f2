import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { aesCbcDecrypt, aesDecryptBlock } from "../../../lib/formats/pkcs8/aes_cbc.ts";

const hex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const counting = (n: number) => Uint8Array.from({ length: n }, (_, i) => i);

test("aesDecryptBlock() gives FIPS 197 Appendix C's plaintext for AES-128, -192 and -256", () => {
  const cases = [
    { what: "C.1 AES-128", key: counting(16), ciphertext: "69c4e0d86a7b0430d8cdb78070b4c55a" },
    { what: "C.2 AES-192", key: counting(24), ciphertext: "dda97ca4864cdfe06eaf70a0ec0d7191" },
    { what: "C.3 AES-256", key: counting(32), ciphertext: "8ea2b7ca516745bfeafc49904b496089" },
  ];
  for (const { what, key, ciphertext } of cases) assert.equal(toHex(aesDecryptBlock(key, hex(ciphertext))), "00112233445566778899aabbccddeeff", what);
  assert.throws(() => aesDecryptBlock(new Uint8Array(20), new Uint8Array(16)), /16, 24 or 32 bytes/);
});

test("aesCbcDecrypt() reads what `openssl enc` encrypts, for every key size and length, and refuses a bad padding", () => {
  let seed = 99;
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
  for (const size of [16, 24, 32]) {
    for (const length of [0, 1, 15, 16, 17, 100]) {
      const key = bytes(size);
      const iv = bytes(16);
      const plain = bytes(length);
      const encrypted = execFileSync("openssl", ["enc", `-aes-${size * 8}-cbc`, "-K", toHex(key), "-iv", toHex(iv)], { input: plain });
      assert.equal(toHex(aesCbcDecrypt(key, iv, encrypted) ?? new Uint8Array([1])), toHex(plain), `AES-${size * 8}, ${length} bytes`);
      const wrongKey = Uint8Array.from(key);
      wrongKey[0]! ^= 1;
      const wrong = aesCbcDecrypt(wrongKey, iv, encrypted);
      // A wrong key passes the padding check about once in 256: then the caller's check of the result fails.
      if (wrong !== null) assert.notEqual(toHex(wrong), toHex(plain));
    }
  }
  assert.equal(aesCbcDecrypt(new Uint8Array(16), new Uint8Array(16), new Uint8Array(15)), null, "not whole blocks");
  assert.equal(aesCbcDecrypt(new Uint8Array(16), new Uint8Array(16), new Uint8Array(0)), null, "empty");
});
