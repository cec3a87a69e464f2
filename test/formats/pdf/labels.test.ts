import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { LABELS } from "../../../lib/formats/pdf/labels.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { renderText } from "../../support/pdf_text.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");

describe("labels", () => {
  test("LABELS has the same names in both languages, none empty", () => {
    assert.deepEqual(Object.keys(LABELS.pl).sort(), Object.keys(LABELS.en).sort());
    for (const lang of ["pl", "en"] as const) for (const [k, v] of Object.entries(LABELS[lang])) assert.ok(v.trim() !== "", `${lang}.${k}`);
  });

  test("an English rendering of a KSeF sample prints no Polish label", () => {
    // Polish labels that differ from the English ones and are long enough not to occur inside other words.
    const polish = Object.entries(LABELS.pl).filter(([k, v]) => v !== LABELS.en[k as keyof typeof LABELS.en] && v.length >= 6).map(([, v]) => v);
    for (const dir of ["ksef-fa2", "ksef-fa3"]) {
      for (const file of readdirSync(join(SAMPLES, dir)).filter((f) => f.endsWith(".xml"))) {
        const xml = readFileSync(join(SAMPLES, dir, file));
        const text = renderText(readInvoice(parseXml(xml)), { lang: "en", xmlSha256: new Uint8Array(32) }).join(" ");
        const source = xml.toString("utf8");
        // A label may still appear where the invoice's own data says it (a Polish note, a key of DodatkowyOpis).
        for (const p of polish) if (!source.includes(p)) assert.ok(!text.includes(p), `${dir}/${file}: "${p}" in the English PDF`);
      }
    }
  });
});
