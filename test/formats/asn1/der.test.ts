import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  child, children, content, contextTag, DerError, MAX_DER_DEPTH, parseDer, readBigInt, readBitString, readIntegerBytes, readOid, readSmallInt, readString, readTime, TAG,
} from "../../../lib/formats/asn1/der.ts";
import { derBitString, derContext, derInteger, derNull, derOctetString, derOid, derPrintableString, derSequence, derSet, derUtf8String } from "../../../lib/formats/asn1/der_writer.ts";
import { decodePem, encodePem } from "../../../lib/formats/asn1/pem.ts";

const hex = (h: string) => Uint8Array.from(h.replace(/\s/g, "").match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");

describe("DER", () => {
  test("the writer's output is what the reader reads back, for each type", () => {
    const der = derSequence([
      derInteger(0), derInteger(127), derInteger(128), derInteger(2n ** 64n), derOid("1.2.840.113549.1.12.10.1.2"), derOid("2.999.3"),
      derOctetString(Uint8Array.of(1, 2, 3)), derNull(), derBitString(Uint8Array.of(0xa0)), derUtf8String("Zażółć"), derPrintableString("PL"),
      derContext(0, derInteger(5)), derContext(1, Uint8Array.of(9), true), derSet([derInteger(2), derInteger(1)]),
    ]);
    const n = children(parseDer(der), TAG.SEQUENCE);
    assert.deepEqual([0, 1, 2, 3].map((i) => readBigInt(n[i]!)), [0n, 127n, 128n, 2n ** 64n]);
    assert.equal(toHex(readIntegerBytes(n[2]!)), "0080", "a leading zero keeps 128 positive");
    assert.equal(readOid(n[4]!), "1.2.840.113549.1.12.10.1.2");
    assert.equal(readOid(n[5]!), "2.999.3");
    assert.deepEqual([...content(n[6]!)], [1, 2, 3]);
    assert.equal(n[7]!.tag, TAG.NULL);
    assert.deepEqual(readBitString(n[8]!), { bits: Uint8Array.of(0xa0), unused: 0 });
    assert.equal(readString(n[9]!), "Zażółć");
    assert.equal(readString(n[10]!), "PL");
    assert.equal(readSmallInt(child(children(n[11]!, contextTag(0)), 0), 10), 5);
    assert.equal(n[12]!.tag, contextTag(1, false));
    // X.690 §11.6: a SET OF is written sorted.
    assert.deepEqual(children(n[13]!, TAG.SET).map((x) => readBigInt(x)), [1n, 2n]);
  });

  test("the writer agrees with openssl's DER for the same values", () => {
    const ours = derSequence([derInteger(65537), derOid("1.2.840.10045.4.3.2"), derUtf8String("Jan Kowalski"), derPrintableString("TINPL-5265877635")]);
    const conf = "asn1=SEQUENCE:s\n[s]\na=INTEGER:65537\nb=OID:1.2.840.10045.4.3.2\nc=UTF8:Jan Kowalski\nd=PRINTABLESTRING:TINPL-5265877635\n";
    const dir = mkdtempSync(join(tmpdir(), "der-"));
    try {
      writeFileSync(join(dir, "conf"), conf);
      execFileSync("openssl", ["asn1parse", "-genconf", join(dir, "conf"), "-noout", "-out", join(dir, "out.der")]);
      assert.equal(toHex(ours), toHex(readFileSync(join(dir, "out.der"))));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // X.690 §10.1: lengths of 128 and more in the long form, in as few octets as they need.
    assert.equal(toHex(derOctetString(new Uint8Array(300))).slice(0, 8), "0482012c");
    assert.equal(toHex(derOctetString(new Uint8Array(200))).slice(0, 6), "0481c8");
  });

  test("times read as RFC 5280 gives them: UTCTime years 50-99 are 19YY", () => {
    const utc = (s: string) => Uint8Array.from([TAG.UTC_TIME, s.length, ...new TextEncoder().encode(s)]);
    const gen = (s: string) => Uint8Array.from([TAG.GENERALIZED_TIME, s.length, ...new TextEncoder().encode(s)]);
    assert.equal(readTime(parseDer(utc("491231235959Z"))), Date.UTC(2049, 11, 31, 23, 59, 59));
    assert.equal(readTime(parseDer(utc("500101000000Z"))), Date.UTC(1950, 0, 1));
    assert.equal(readTime(parseDer(gen("20500101000000Z"))), Date.UTC(2050, 0, 1));
    assert.throws(() => readTime(parseDer(utc("5001010000Z"))), DerError);
    assert.throws(() => readTime(parseDer(gen("20500101000000+0100"))), DerError);
  });

  test("hostile input is a DerError, quickly, never a hang or a large allocation", () => {
    const deep = (n: number) => {
      let b = derNull();
      for (let i = 0; i < n; i++) b = derSequence([b]);
      return b;
    };
    const cases = [
      { what: "empty", input: new Uint8Array(0), expected: /ends inside an element header/ },
      { what: "a header alone", input: hex("30"), expected: /ends inside an element header/ },
      { what: "a length past the end", input: hex("30 05 02 01 00"), expected: /longer than what contains it/ },
      { what: "4 GiB claimed", input: hex("04 84 ff ff ff ff 00"), expected: /longer than what contains it/ },
      { what: "a 9-octet length", input: hex("04 89 01 00 00 00 00 00 00 00 00"), expected: /length is too large/ },
      { what: "indefinite length (BER)", input: hex("30 80 00 00"), expected: /indefinite length/ },
      { what: "a long-form length under 128", input: hex("04 81 01 00"), expected: /shortest form/ },
      { what: "a long tag number", input: hex("1f 22 01 00"), expected: /tag numbers above 30/ },
      { what: "bytes after the element", input: hex("05 00 00"), expected: /bytes after/ },
      { what: "a child past its parent", input: hex("30 03 04 05 00 00 00 00 00"), expected: /longer than what contains it|bytes after/ },
      { what: "nesting too deep", input: deep(MAX_DER_DEPTH + 2), expected: /deeper than/ },
    ];
    for (const { what, input, expected } of cases) {
      assert.throws(() => {
        const walk = (n: ReturnType<typeof parseDer>): void => {
          if ((n.tag & 0x20) !== 0) children(n).forEach(walk);
        };
        walk(parseDer(input));
      }, (e: unknown) => e instanceof DerError && expected.test(e.message), what);
    }
    // Exactly as deep as allowed is read.
    const ok = parseDer(deep(MAX_DER_DEPTH));
    let n = ok;
    for (let i = 0; i < MAX_DER_DEPTH; i++) n = children(n)[0]!;
    assert.equal(n.tag, TAG.NULL);
  });

  test("typed readers refuse what is not their type or not minimal", () => {
    const cases = [
      { what: "an empty INTEGER", fn: () => readIntegerBytes(parseDer(hex("02 00"))), expected: /empty/ },
      { what: "a padded INTEGER", fn: () => readIntegerBytes(parseDer(hex("02 02 00 01"))), expected: /not minimal/ },
      { what: "a negative count", fn: () => readBigInt(parseDer(hex("02 01 ff"))), expected: /negative/ },
      { what: "an over-large count", fn: () => readSmallInt(parseDer(hex("02 04 7f ff ff ff")), 2_000_000), expected: /larger than/ },
      { what: "an OID ending in an arc", fn: () => readOid(parseDer(hex("06 02 2a 86"))), expected: /ends inside an arc/ },
      { what: "an OID with a padded arc", fn: () => readOid(parseDer(hex("06 03 2a 80 01"))), expected: /not minimal/ },
      { what: "an OID arc beyond 2^53", fn: () => readOid(parseDer(hex("06 0a 2a ff ff ff ff ff ff ff ff 7f"))), expected: /too large/ },
      { what: "an INTEGER read as an OID", fn: () => readOid(parseDer(hex("02 01 01"))), expected: /tag 0x2 where 0x6/ },
      { what: "a BIT STRING with 8 unused bits", fn: () => readBitString(parseDer(hex("03 02 08 00"))), expected: /unused-bits/ },
      { what: "bad UTF-8", fn: () => readString(parseDer(hex("0c 01 ff"))), expected: /not UTF-8/ },
      { what: "an odd BMPString", fn: () => readString(parseDer(hex("1e 01 00"))), expected: /odd length/ },
      { what: "children of a primitive", fn: () => children(parseDer(hex("04 01 00"))), expected: /not constructed/ },
      { what: "a missing element", fn: () => child(children(parseDer(hex("30 00"))), 0), expected: /no element 1/ },
    ];
    for (const { what, fn, expected } of cases) assert.throws(fn, (e: unknown) => e instanceof DerError && expected.test(e.message), what);
  });

  test("random bytes never make the reader throw anything but a DerError", () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const base = derSequence([derInteger(3), derSequence([derOid("1.2.840.113549.1.7.1"), derContext(0, derOctetString(derSequence([derNull(), derUtf8String("x")])))])]);
    for (let i = 0; i < 3000; i++) {
      const bytes = Uint8Array.from(base);
      for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      const input = bytes.subarray(0, Math.floor(rand() * (bytes.length + 1)));
      try {
        const walk = (n: ReturnType<typeof parseDer>): void => {
          if ((n.tag & 0x20) !== 0) children(n).forEach(walk);
          else if (n.tag === TAG.OID) readOid(n);
          else if (n.tag === TAG.UTF8_STRING) readString(n);
        };
        walk(parseDer(input));
      } catch (e) {
        assert.ok(e instanceof DerError, `${toHex(input)}: ${String(e)}`);
      }
    }
  });

  test("PEM round-trips, skips broken blocks and reports RFC 1421 headers", () => {
    const der = derSequence([derInteger(1)]);
    const pem = encodePem("CERTIFICATE", der);
    assert.deepEqual(decodePem(`text before\n${pem}text after`), [{ label: "CERTIFICATE", der, hasHeaders: false }]);
    assert.deepEqual(decodePem("-----BEGIN X-----\n!!!!\n-----END X-----\n"), []);
    assert.deepEqual(decodePem("-----BEGIN A-----\nMAA=\n-----END B-----\n"), [], "labels must match");
    const headers = decodePem("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00\n\nMAA=\n-----END RSA PRIVATE KEY-----\n");
    assert.deepEqual(headers.map((b) => [b.label, b.hasHeaders, [...b.der]]), [["RSA PRIVATE KEY", true, [0x30, 0]]]);
  });

  test("decodePem() reads 8,000 BEGIN lines without an END in a bounded number of searches, not one scan per line", () => {
    const der = derSequence([derInteger(1)]);
    const block = encodePem("CERTIFICATE", der);
    const cases = [
      { what: "unterminated BEGIN lines after a block", text: block + "-----BEGIN CERTIFICATE-----\nMAA=\n".repeat(8000), blocks: 1, maxSteps: 10 },
      { what: "BEGIN lines of labels PEM does not have", text: "-----BEGIN bad label-----\n".repeat(8000) + block, blocks: 1, maxSteps: 3 * 8000 + 10 },
      { what: "8,000 blocks", text: block.repeat(8000), blocks: 8000, maxSteps: 3 * 8000 + 10 },
    ];
    for (const { what, text, blocks, maxSteps } of cases) {
      const steps = { count: 0 };
      const out = decodePem(text, steps);
      assert.equal(out.length, blocks, what);
      assert.deepEqual(out[0], { label: "CERTIFICATE", der, hasHeaders: false }, what);
      assert.ok(steps.count > 0 && steps.count <= maxSteps, `${what}: ${steps.count} searches`);
    }
  });
});
