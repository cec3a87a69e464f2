import assert from "node:assert/strict";
import { test } from "node:test";
import { bmpPassword } from "../../../lib/formats/pkcs12/kdf.ts";
import { deriveKeySync, type KdfRequest } from "../../../lib/formats/pkcs8/key_derivation.ts";
import { createKdfThread } from "../../../storage/process/kdf_thread.ts";

test("createKdfThread() derives the PKCS#12 KDF off the event loop, the same key as at once, and PBKDF2 too", async () => {
  const kdf = createKdfThread();
  try {
    const requests: KdfRequest[] = [
      { kind: "pkcs12", hash: "sha256", id: 3, password: bmpPassword("hasło"), salt: new Uint8Array(8).fill(2), iterations: 60_000, length: 32 },
      { kind: "pkcs12", hash: "sha1", id: 3, password: bmpPassword(""), salt: new Uint8Array(20), iterations: 1, length: 20 },
      { kind: "pbkdf2", hash: "sha512", password: new TextEncoder().encode("hasło"), salt: new Uint8Array(16), iterations: 1000, length: 32 },
    ];
    for (const r of requests) {
      let turns = 0;
      const timer = setInterval(() => turns++, 1);
      const key = await kdf.derive(r).finally(() => clearInterval(timer));
      assert.deepEqual(Buffer.from(key), Buffer.from(deriveKeySync(r)), `${r.kind} ${r.hash}`);
      if (r.iterations > 1000) assert.ok(turns >= 3, `the event loop turned ${turns} times`);
    }
    // Several at once are answered each with its own key.
    const many = await Promise.all([1, 2, 3].map((n) => kdf.derive({ ...requests[0]!, iterations: 1000 * n } as KdfRequest)));
    assert.deepEqual(many.map((k) => Buffer.from(k)), [1, 2, 3].map((n) => Buffer.from(deriveKeySync({ ...requests[0]!, iterations: 1000 * n } as KdfRequest))));
  } finally {
    await kdf.close();
  }
});
