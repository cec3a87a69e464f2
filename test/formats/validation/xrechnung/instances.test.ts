/**
 * The XRechnung pack against KoSIT's own test instances (test/fixtures/xrechnung/): every mutation a file
 * declares makes the rules it names fire, and leaves the rules it says stay valid silent.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { checkXrechnung } from "../../../../lib/formats/validation/xrechnung/pack.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";
import { xmuteCases } from "../../../support/xmute.ts";

const DIR = join(import.meta.dirname, "../../../fixtures/xrechnung");

for (const folder of ["ubl-inv", "ubl-cn", "cii"]) {
  const syntax = folder === "cii" ? "cii" : "ubl";
  describe(`XRechnung rules on KoSIT's ${folder} instances`, () => {
    for (const file of readdirSync(join(DIR, folder)).filter((f) => f.endsWith(".xml")).sort()) {
      test(`${file}: each declared mutation fires exactly the rules it expects`, () => {
        const text = readFileSync(join(DIR, folder, file), "utf8");
        const failures: string[] = [];
        for (const c of xmuteCases(text)) {
          const fired = new Set(checkXrechnung(parseXml(c.xml).root, syntax).map((v) => v.rule));
          for (const rule of c.invalid) if (!fired.has(rule)) failures.push(`${c.id}: ${rule} should fire`);
          for (const rule of c.valid) if (fired.has(rule)) failures.push(`${c.id}: ${rule} should not fire`);
        }
        assert.deepEqual(failures, []);
      });
    }
  });
}
