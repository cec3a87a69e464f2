import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";
import { ublInvoice } from "../../fixtures/ubl_invoice.ts";

const SAMPLES = fileURLToPath(new URL("../../fixtures/samples/", import.meta.url));

/** The roots each folder of real documents may have (FIELDS.md), as "{ns}local". */
const ROOTS: Record<string, string[]> = {
  "ksef-fa2": ["{http://crd.gov.pl/wzor/2023/06/29/12648/}Faktura"],
  "ksef-fa3": ["{http://crd.gov.pl/wzor/2025/06/25/13775/}Faktura"],
  "ksef-upo": ["{http://upo.schematy.mf.gov.pl/KSeF/v4-3}Potwierdzenie"],
  ubl: ["{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}Invoice", "{urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2}CreditNote"],
  cii: ["{urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100}CrossIndustryInvoice"],
  schemas: ["{http://www.w3.org/2001/XMLSchema}schema"],
};

/** Paths under `dir` (relative, with '/') of files ending in `ext`, walked without recursion. */
function files(dir: string, ext: string): string[] {
  const out: string[] = [];
  const pending = [""];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) pending.push(path);
      else if (entry.name.endsWith(ext)) out.push(path);
    }
  }
  return out.sort();
}

function count(el: XmlElement): number {
  let n = 0;
  const stack = [el];
  while (stack.length > 0) {
    const e = stack.pop()!;
    n++;
    stack.push(...e.children);
  }
  return n;
}

describe("parseXml() reads the real documents in test/fixtures/samples", () => {
  const all = [...files(SAMPLES, ".xml"), ...files(SAMPLES, ".xsd")];
  test("there are real documents to read", () => {
    assert.ok(all.length >= 50, `found ${all.length}`);
  });
  for (const file of all) {
    test(`parseXml() reads ${file} with the expected root`, () => {
      const bytes = readFileSync(join(SAMPLES, file));
      const doc = parseXml(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      const folder = file.split("/")[0]!;
      assert.ok(folder in ROOTS, `no expected root for folder ${folder}`);
      assert.ok(ROOTS[folder]!.includes(`{${doc.root.ns}}${doc.root.local}`), `root {${doc.root.ns}}${doc.root.local}`);
      assert.equal(doc.encoding, "utf-8");
      // The same document as text gives the same tree.
      const text = new TextDecoder().decode(bytes);
      assert.deepEqual(parseXml(text).root, doc.root);
    });
  }

  test("parseXml() matches KSeF elements by namespace, whatever the prefix (n0: sample)", () => {
    const bytes = readFileSync(join(SAMPLES, "ksef-fa3/FA_3_Zalacznik_Przyklad_2_prefixed_mojibake.xml"));
    const { root } = parseXml(new Uint8Array(bytes));
    assert.equal(root.prefix, "n0");
    const fa = root.children.find((c) => c.local === "Fa");
    assert.ok(fa !== undefined);
    assert.equal(fa.ns, root.ns);
  });
});

describe("parseXml() reads generated UBL invoices", () => {
  test("parseXml() reads a 2 MB invoice into the expected tree", () => {
    const text = ublInvoice(3700);
    assert.ok(text.length > 2_000_000);
    const { root } = parseXml(text);
    const lines = root.children.filter((c) => c.local === "InvoiceLine");
    assert.equal(lines.length, 3700);
    const last = lines[3699]!;
    const cbc = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
    assert.deepEqual(
      last.children.map((c) => [c.ns === cbc ? "cbc" : "cac", c.local, c.text.trim()]).slice(0, 2),
      [["cbc", "ID", "3700"], ["cbc", "InvoicedQuantity", String((3700 % 7) + 1)]],
    );
    assert.deepEqual(last.children[1]!.attrs, [{ ns: "", local: "unitCode", prefix: "", value: "H87" }]);
    assert.equal(count(root), text.match(/<[A-Za-z]/g)!.length); // every start tag, counted apart
  });
});
