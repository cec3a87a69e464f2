import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { readUpo } from "../../../../storage/ksef/send/upo.ts";
import { fixturePath } from "../../../support/server.ts";

test("readUpo() reads the document hash, KSeF number and acquisition time of a v4-3 UPO", () => {
  const upo = readFileSync(fixturePath("samples", "ksef-upo", "upo-v4-3_faktura-kontekst-nip.xml"));
  assert.deepEqual(readUpo(upo), {
    documentHash: "GZMGNVzs3krF6URKgvaw77OOeG3nJ+WGziT5xguliQ8=",
    ksefNumber: "5265877635-20250916-0200A0D6723E-C2",
    acquiredAt: "2025-09-16T09:05:41.045Z",
  });
  assert.deepEqual(readUpo(new TextEncoder().encode("not xml")), { documentHash: null, ksefNumber: null, acquiredAt: null });
});
