/**
 * `server.ts convert` (README "Converting from the command line") run as the real process: the XML on stdout or
 * written whole to --out, stdin with `-`, the losses and refusals on stderr, exit 1 for no valid invoice and 2 for a
 * wrong command line, the JSON of a creation as input. No server and no data directory: each run's working
 * directory is an empty temp directory, which must stay empty.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { readInvoice } from "../../lib/formats/invoice/read.ts";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import { CONVERT_OPTIONS } from "../../lib/cli/usage.ts";
import { readSchemaFiles, schemaSetOf, verdictOf } from "../../storage/schemas/validator.ts";
import { runCli } from "../support/child.ts";
import { MINIMAL_FA3 } from "../support/minimal_invoice.ts";
import { fixturePath } from "../support/server.ts";
import { hasXmllint, oracleSchemas, xmllintVerdicts } from "../support/xsd_oracle.ts";

const FA2 = fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_20.xml");
/** An FA(2) whose due dates are described in free text, which FA(3) has no place for. */
const FA2_WITH_LOSSES = fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_14_ROZ.xml");
const FOREIGN_UBL = fixturePath("samples", "ubl", "peppol-bis3_base-example.xml");
const schemas = schemaSetOf(readSchemaFiles());

describe("server.ts convert", () => {
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "convert-cli-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The command with DATA_DIR pointing into the temp directory: a run that opened storage would leave it there. */
  const convert = (args: string[], input?: string | Uint8Array) => runCli(["convert", ...args], { DATA_DIR: join(dir, "data") }, input);

  test("an FA(2) invoice comes out as FA(3) on stdout, valid by our validator and by xmllint, with no data directory made", () => {
    const r = convert([FA2, "--to", "ksef-fa3"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, ""); // this sample loses nothing
    const xml = new TextEncoder().encode(r.stdout);
    assert.equal(readInvoice(parseXml(xml)).format, "ksef-fa3");
    const report = verdictOf(xml, schemas);
    assert.deepEqual(report.errors, []);
    assert.equal(existsSync(join(dir, "data")), false);
    if (!hasXmllint()) return;
    const oracle = oracleSchemas(join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..", "storage", "schemas"));
    try {
      const file = join(oracle.dir, "converted.xml");
      writeFileSync(file, xml);
      assert.equal(xmllintVerdicts(oracle.entry.fa3, [file]).get(file), true);
    } finally {
      oracle.dispose();
    }
  });

  test("each value FA(3) has no place for is one line on stderr (field, value, reason), and --keep-notes writes it into DodatkowyOpis", () => {
    const r = convert([FA2_WITH_LOSSES, "--to", "ksef-fa3"]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trimEnd().split("\n");
    assert.ok(lines.length >= 1);
    for (const line of lines) {
      const [kind, field, value, reason] = line.split("\t");
      assert.equal(kind, "loss", line);
      assert.match(field!, /^invoice\./);
      assert.equal(typeof JSON.parse(value!), "string");
      assert.ok(reason!.length > 0);
    }
    assert.match(lines[0]!, /^loss\tinvoice\.payment\.due_dates\[0\]\.description\t"co najmniej 50% pozostałej kwoty"\t/);
    assert.doesNotMatch(r.stdout, /co najmniej 50% pozostałej kwoty/);
    const kept = convert([FA2_WITH_LOSSES, "--keep-notes", "--to", "ksef-fa3"]);
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(kept.stdout, /<DodatkowyOpis><Klucz>invoice\.payment\.due_dates\[0\]\.description<\/Klucz><Wartosc>co najmniej 50% pozostałej kwoty<\/Wartosc><\/DodatkowyOpis>/);
  });

  test("--out writes the file whole (through a temp file and a rename) and prints nothing on stdout", () => {
    const out = join(dir, "out.xml");
    const r = convert([FA2, "--to", "ksef-fa3", "--out", out]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "");
    assert.equal(readInvoice(parseXml(readFileSync(out))).format, "ksef-fa3");
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith("out.xml")), ["out.xml"]); // no temp file left beside it
  });

  test("- reads the invoice from stdin", () => {
    const r = convert(["-", "--to", "ksef-fa3"], readFileSync(FA2));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /kodSystemowy="FA \(3\)"/);
  });

  test("a foreign seller's UBL as FA(3) exits 1 naming why on stderr, with nothing on stdout and no --out file", () => {
    const out = join(dir, "refused.xml");
    const r = convert([FOREIGN_UBL, "--to", "ksef-fa3", "--out", out]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^error\tCONVERSION\tinvoice\.seller\.tax_id\tFA\(3\) is for Polish sellers/m);
    assert.equal(existsSync(out), false);
  });

  test("the JSON of the README's minimal invoice comes out as FA(3) with its totals computed, from a file and from stdin", () => {
    const file = join(dir, "minimal.json");
    writeFileSync(file, `\n  ${JSON.stringify(MINIMAL_FA3, null, 2)}`); // told by its first non-space byte
    for (const r of [convert([file, "--to", "ksef-fa3"]), convert(["-", "--to", "ksef-fa3"], JSON.stringify({ invoice: MINIMAL_FA3.invoice }))]) {
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /<P_15>1949\.99<\/P_15>/);
      assert.deepEqual(verdictOf(new TextEncoder().encode(r.stdout), schemas).errors, []);
    }
  });

  test("refused JSON exits 1 naming the JSON path at fault; a key the JSON of a creation does not take too", () => {
    const bad = structuredClone(MINIMAL_FA3);
    bad.invoice.lines[1]!.vat_rate = "19";
    const r = convert(["-", "--to", "ksef-fa3"], JSON.stringify(bad));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error\tINVOICE-VAT-RATE\tinvoice\.lines\[1\]\.vat_rate/m);
    const extra = convert(["-", "--to", "ksef-fa3"], JSON.stringify({ ...MINIMAL_FA3, colour: "red" }));
    assert.equal(extra.status, 1);
    assert.match(extra.stderr, /Unknown field in the JSON: colour/);
    const other = convert(["-", "--to", "cii"], JSON.stringify(MINIMAL_FA3));
    assert.equal(other.status, 1);
    assert.match(other.stderr, /format, when given, must equal/);
  });

  test("a wrong command line exits 2 with the usage: --to missing or unknown, an unknown flag, no FILE", () => {
    const cases = [
      { args: [FA2], message: /convert needs --to: one of ksef-fa3, ubl, cii/ },
      { args: [FA2, "--to", "ksef-fa2"], message: /--to is one of ksef-fa3, ubl, cii, not "ksef-fa2"/ },
      { args: [FA2, "--to", "ksef-fa3", "--port", "8080"], message: /Unknown option: --port/ },
      { args: ["--to", "ksef-fa3"], message: /convert needs a FILE/ },
    ];
    for (const c of cases) {
      const r = convert(c.args);
      assert.equal(r.status, 2, c.args.join(" "));
      assert.equal(r.stdout, "");
      assert.match(r.stderr, c.message);
      assert.match(r.stderr, /Usage: .*convert FILE --to ksef-fa3\|ubl\|cii/);
    }
  });

  test("--help prints the usage with every flag and exits 0", () => {
    const r = convert(["--help"]);
    assert.equal(r.status, 0);
    for (const o of CONVERT_OPTIONS) assert.match(r.stdout, new RegExp(`^  ${o.flag}`, "m"));
    assert.match(r.stdout, /-h, --help/);
  });
});
