import assert from "node:assert/strict";
import { test } from "node:test";
import { berToDer } from "../../../lib/formats/asn1/ber.ts";
import { DerError, MAX_DER_DEPTH } from "../../../lib/formats/asn1/der.ts";
import { derContext, derInteger, derNull, derOctetString, derOid, derSequence, derSet } from "../../../lib/formats/asn1/der_writer.ts";

const hex = (h: string) => Uint8Array.from(h.replace(/\s/g, "").match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");

test("berToDer() makes lengths definite and shortest and joins a constructed OCTET STRING's segments", () => {
  const cases = [
    { what: "indefinite SEQUENCE", input: "30 80 02 01 05 00 00", expected: "30 03 02 01 05" },
    { what: "nested indefinite", input: "30 80 a0 80 05 00 00 00 00 00", expected: "30 04 a0 02 05 00" },
    { what: "a long-form length under 128", input: "04 81 02 aa bb", expected: "04 02 aa bb" },
    { what: "constructed OCTET STRING, definite", input: "24 08 04 02 aa bb 04 02 cc dd", expected: "04 04 aa bb cc dd" },
    { what: "constructed OCTET STRING, indefinite, nested", input: "24 80 04 01 aa 24 80 04 01 bb 00 00 00 00", expected: "04 02 aa bb" },
    { what: "a primitive string's content is not looked into", input: "04 05 30 80 00 00 00", expected: "04 05 30 80 00 00 00" },
    { what: "DER stays as it is", input: "30 06 06 01 2a 04 01 00", expected: "30 06 06 01 2a 04 01 00" },
  ];
  for (const { what, input, expected } of cases) assert.equal(toHex(berToDer(hex(input))), expected, what);
});

test("berToDer() refuses broken BER with a DerError, bounded in depth", () => {
  let deep = hex("05 00");
  for (let i = 0; i < MAX_DER_DEPTH + 2; i++) deep = Uint8Array.from([0x30, 0x80, ...deep, 0, 0]);
  const cases = [
    { what: "no end-of-contents", input: hex("30 80 05 00"), expected: /no end-of-contents/ },
    { what: "indefinite primitive", input: hex("04 80 00 00"), expected: /primitive/ },
    { what: "a segment that is not an OCTET STRING", input: hex("24 03 02 01 00"), expected: /holds something else/ },
    { what: "a length past the end", input: hex("30 05 05 00"), expected: /longer than/ },
    { what: "bytes after", input: hex("05 00 05 00"), expected: /bytes after/ },
    { what: "too deep", input: deep, expected: /deeper than/ },
    { what: "empty", input: new Uint8Array(0), expected: /ends inside/ },
  ];
  for (const { what, input, expected } of cases) assert.throws(() => berToDer(input), (e: unknown) => e instanceof DerError && expected.test(e.message), what);
});

test("berToDer() leaves DER byte for byte as it was", () => {
  const der = derSequence([derOctetString(new Uint8Array(300).fill(0x11)), derSet([derInteger(1), derInteger(2)]), derNull(), derContext(0, derOid("1.2.3"))]);
  assert.equal(toHex(berToDer(der)), toHex(der));
});
