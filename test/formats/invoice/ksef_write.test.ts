/**
 * The FA(3) writer (lib/formats/invoice/ksef_write.ts): every FA(3) sample read, written and read again gives the
 * same invoice object; every FA(2) sample written as FA(3) reads back with its values but for what FA(3) changed,
 * each such value listed in `losses`; a minimal object gives a valid FA(3); the written XML is valid by our XML
 * Schema validator and by `xmllint --schema` against the official XSD (skipped where xmllint is not installed); and
 * the trace names the invoice-object field of an element the validator finds at fault.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { after, before, describe, test } from "node:test";
import { blankAddress, blankInvoice, blankLine, blankParty } from "../../../lib/formats/invoice/blank.ts";
import { InvoiceError } from "../../../lib/formats/invoice/errors.ts";
import { writeKsefFa3 } from "../../../lib/formats/invoice/ksef_write.ts";
import { fa3Rate } from "../../../lib/formats/invoice/ksef_write_line.ts";
import type { Invoice, VatBreakdown } from "../../../lib/formats/invoice/model.ts";
import { readInvoiceXml } from "../../../lib/formats/invoice/read_xml.ts";
import { SchemaSet } from "../../../lib/formats/validation/schema_set.ts";
import { validateXsd } from "../../../lib/formats/xsd/validate.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { fixturePath } from "../../support/server.ts";
import { hasXmllint, oracleSchemas, xmllintVerdicts } from "../../support/xsd_oracle.ts";

const NOW = new Date("2026-02-02T10:00:00Z");
const schemas = new SchemaSet(readSchemaFiles());
const samples = (dir: string) => readdirSync(fixturePath("samples", dir)).filter((n) => n.endsWith(".xml")).sort();
const read = (dir: string, name: string) => readInvoiceXml(readFileSync(fixturePath("samples", dir, name)));
const reread = (xml: string) => readInvoiceXml(new TextEncoder().encode(xml));
const xsdErrors = (xml: string) => validateXsd(schemas.forFormat("ksef-fa3"), parseXml(new TextEncoder().encode(xml)).root).map((v) => `${v.path}: ${v.message}`);

/**
 * The FA(3) samples that are not valid by the FA(3) schema themselves, and what of them cannot come back: a valid
 * FA(3) has no place for it. Everything else of every sample reads back equal.
 */
const FA3_EXCEPTIONS: Record<string, { differs: string[]; invalid: boolean; why: string }> = {
  "FA_3_Przyklad_1_KOR.xml": {
    differs: ["invoice.payment.due_dates[0].description"],
    invalid: false,
    why: "its TerminOpis is FA(2)'s free text, which FA(3) replaced by Ilosc, Jednostka and ZdarzeniePoczatkowe",
  },
  "cirfmf-csharp_multiple-Subject3.xml": {
    differs: ["invoice.third_parties[0].identifiers[0]", "invoice.third_parties[1].identifiers[0]"],
    invalid: true,
    why: "a template: its Podmiot3 give both NIP and IDWew (a choice in FA(3)) and its NIPs are placeholders, written as given",
  },
  "FA_3_Przyklad_3_KOR_EUR.xml": {
    differs: [],
    invalid: true,
    why: "its NrKSeFFaKorygowanej does not match TNumerKSeF; the writer writes it as given",
  },
};

/** What an FA(2) invoice changes by becoming FA(3), besides its losses: the form, and Podmiot2's JST and GV that FA(3) requires (written as 2, no). */
const FA2_CHANGES = new Set(["invoice.format", "invoice.profile", "invoice.buyer.jst", "invoice.buyer.gv"]);

/** The paths at which `a` and `b` differ (`invoice.lines[2].net_price`). */
function differences(a: unknown, b: unknown, path = "invoice", out: string[] = []): string[] {
  if (isDeepStrictEqual(a, b)) return out;
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const array = Array.isArray(a);
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], array ? `${path}[${k}]` : `${path}.${k}`, out);
    }
  } else out.push(path);
  return out;
}

/** Every written document, checked by xmllint in one run at the end. */
const written: { what: string; file: string }[] = [];
let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), "fa3-write-"));
});
after(() => rmSync(work, { recursive: true, force: true }));
function keep(what: string, xml: string): void {
  const file = join(work, `w${String(written.length).padStart(3, "0")}.xml`);
  writeFileSync(file, xml);
  written.push({ what, file });
}

describe("writeKsefFa3()", () => {
  for (const name of samples("ksef-fa3")) {
    test(`reads back the invoice object of ${name} unchanged`, () => {
      const inv = read("ksef-fa3", name);
      const { xml, losses } = writeKsefFa3(inv, { now: NOW });
      const exception = FA3_EXCEPTIONS[name];
      assert.deepEqual(differences(inv, reread(xml)), exception?.differs ?? []);
      assert.deepEqual(losses.map((l) => l.field), exception?.differs ?? [], "what does not come back is listed in losses");
      if (!exception?.invalid) {
        assert.deepEqual(xsdErrors(xml), []);
        keep(`ksef-fa3/${name}`, xml);
      }
    });
  }

  for (const name of samples("ksef-fa2")) {
    test(`writes ${name} (FA(2)) as a valid FA(3) that reads back with its values, each change a loss`, () => {
      const inv = read("ksef-fa2", name);
      const { xml, losses } = writeKsefFa3(inv, { now: NOW });
      assert.deepEqual(xsdErrors(xml), []);
      keep(`ksef-fa2/${name}`, xml);
      const back = reread(xml);
      assert.equal(back.format, "ksef-fa3");
      assert.equal(back.created_at, NOW.toISOString(), "DataWytworzeniaFa is when the FA(3) was made");
      const lost = new Set(losses.map((l) => l.field));
      const unexplained = differences(inv, back).filter((d) => !FA2_CHANGES.has(d) && !lost.has(d));
      assert.deepEqual(unexplained, []);
      assert.ok(lost.has("invoice.created_at"), "the FA(2) creation time is reported as replaced");
    });
  }

  test("writes a valid FA(3) from a minimal object, with the annotations' \"no\" values", () => {
    const inv = minimalInvoice();
    const { xml, losses } = writeKsefFa3(inv, { now: NOW });
    assert.deepEqual(xsdErrors(xml), []);
    keep("minimal object", xml);
    assert.deepEqual(losses, []);
    for (const no of ["<P_16>2</P_16>", "<P_17>2</P_17>", "<P_18>2</P_18>", "<P_18A>2</P_18A>", "<Zwolnienie><P_19N>1</P_19N></Zwolnienie>",
      "<NoweSrodkiTransportu><P_22N>1</P_22N></NoweSrodkiTransportu>", "<P_23>2</P_23>", "<PMarzy><P_PMarzyN>1</P_PMarzyN></PMarzy>",
      "<RodzajFaktury>VAT</RodzajFaktury>", "<JST>2</JST>", "<GV>2</GV>"]) {
      assert.ok(xml.includes(no), no);
    }
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Faktura xmlns:etd="http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/"'));
    assert.ok(xml.includes('<KodFormularza kodSystemowy="FA (3)" wersjaSchemy="1-0E">FA</KodFormularza><WariantFormularza>3</WariantFormularza><DataWytworzeniaFa>2026-02-02T10:00:00.000Z</DataWytworzeniaFa>'));
    const back = reread(xml);
    for (const key of ["number", "issue_date", "currency"] as const) assert.equal(back[key], inv[key]);
    assert.deepEqual(back.seller, inv.seller);
    assert.deepEqual(back.buyer, { ...inv.buyer, jst: false, gv: false });
    assert.deepEqual(back.lines, inv.lines);
    assert.deepEqual(back.vat_breakdown.map((r) => [r.ksef_field, r.taxable_amount, r.tax_amount]), [["P_13_1", "200.00", "46.00"], ["P_13_2", "50.00", "4.00"]]);
    assert.equal(back.totals.gross, "300.00");
  });

  test("names the invoice-object field of an element the schema validator refuses", () => {
    const inv = minimalInvoice();
    inv.lines[1]!.net_price = "1.123456789"; // TKwotowy2 takes eight decimals
    const { xml, fields } = writeKsefFa3(inv, { now: NOW, trace: true });
    const found = validateXsd(schemas.forFormat("ksef-fa3"), parseXml(new TextEncoder().encode(xml)).root);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.path, "/Faktura/Fa/FaWiersz[2]/P_9A");
    assert.equal(fields.find((f) => f.path === found[0]!.path)?.field, "invoice.lines[1].net_price");
    assert.deepEqual(fields.find((f) => f.path === "/Faktura/Podmiot1/DaneIdentyfikacyjne/NIP"), { path: "/Faktura/Podmiot1/DaneIdentyfikacyjne/NIP", field: "invoice.seller.tax_id" });
    assert.deepEqual(fields.find((f) => f.path === "/Faktura/Fa/P_13_2"), { path: "/Faktura/Fa/P_13_2", field: "invoice.vat_breakdown[1].taxable_amount" });
    assert.deepEqual(writeKsefFa3(inv, { now: NOW }).fields, [], "nothing is recorded unless asked");
  });

  test("traces every sample's written elements with paths that name elements of the written XML", () => {
    for (const name of samples("ksef-fa3")) {
      const { xml, fields } = writeKsefFa3(read("ksef-fa3", name), { now: NOW, trace: true });
      const paths = new Set<string>();
      const walk = (el: XmlElement, path: string) => {
        paths.add(path);
        const counts = new Map<string, number>();
        for (const c of el.children) counts.set(c.local, (counts.get(c.local) ?? 0) + 1);
        const seen = new Map<string, number>();
        for (const c of el.children) {
          const i = (seen.get(c.local) ?? 0) + 1;
          seen.set(c.local, i);
          walk(c, `${path}/${c.local}${counts.get(c.local)! > 1 ? `[${i}]` : ""}`);
        }
      };
      const root = parseXml(new TextEncoder().encode(xml)).root;
      walk(root, `/${root.local}`);
      assert.ok(fields.length > 50, `${name}: ${fields.length} fields`);
      assert.deepEqual(fields.filter((f) => !paths.has(f.path) || !/^invoice(\.|$)/.test(f.field)), [], name);
    }
  });

  test("lists the values of a UBL invoice that FA(3) has no place for (German rates among them)", () => {
    const inv = read("ubl", "en16931_ubl-tc434-example1.xml");
    const { losses } = writeKsefFa3(inv, { now: NOW });
    const fields = losses.map((l) => l.field);
    for (const f of ["invoice.notes[0]", "invoice.totals.line_net", "invoice.payment.remittance_info", "invoice.seller.address.city", "invoice.vat_breakdown[0]", "invoice.lines[0].vat_rate"]) {
      assert.ok(fields.includes(f), `${f} in ${fields.join(", ")}`);
    }
    assert.deepEqual(losses.find((l) => l.field === "invoice.notes[0]")?.value, JSON.stringify(inv.notes[0]));
  });

  const RATES: { what: string; rate: string | null; category: string | null; expected: { rate: string; changed: boolean } | null }[] = [
    { what: "an FA(3) rate as it is", rate: "0 WDT", category: "K", expected: { rate: "0 WDT", changed: false } },
    { what: "a former rate FA(3) still has", rate: "22", category: "S", expected: { rate: "22", changed: false } },
    { what: "FA(2)'s 0 as domestic 0 %", rate: "0", category: "Z", expected: { rate: "0 KR", changed: true } },
    { what: "FA(2)'s np as supply outside the country", rate: "np", category: "O", expected: { rate: "np I", changed: true } },
    { what: "an EN 16931 percentage", rate: "23.00", category: "S", expected: { rate: "23", changed: true } },
    { what: "an exempt category", rate: "0", category: "E", expected: { rate: "zw", changed: true } },
    { what: "reverse charge", rate: null, category: "AE", expected: { rate: "oo", changed: true } },
    { what: "export", rate: "0", category: "G", expected: { rate: "0 EX", changed: true } },
    { what: "a rate Poland does not have", rate: "19", category: "S", expected: null },
  ];
  for (const { what, rate, category, expected } of RATES) {
    test(`fa3Rate() maps ${what}`, () => {
      assert.deepEqual(fa3Rate(rate, category === null ? null : { code: category, text: null }), expected);
    });
  }

  test("writes FA(2)'s rate 0 and its P_13_6 as FA(3)'s 0 KR and P_13_6_1, each change a loss", () => {
    const inv = minimalInvoice();
    inv.format = "ksef-fa2";
    inv.lines[1]!.vat_rate = "0";
    inv.lines[1]!.vat_category = { code: "Z", text: "Zero rated goods" };
    inv.vat_breakdown[1] = { ...inv.vat_breakdown[1]!, rate: "0", category: { code: "Z", text: "Zero rated goods" }, tax_amount: null, ksef_field: "P_13_6" };
    inv.totals.gross = "296.00";
    const { xml, losses } = writeKsefFa3(inv, { now: NOW });
    assert.deepEqual(xsdErrors(xml), []);
    keep("FA(2) rate 0", xml);
    assert.ok(xml.includes("<P_12>0 KR</P_12>") && xml.includes("<P_13_6_1>50.00</P_13_6_1>"));
    assert.deepEqual(losses.filter((l) => l.field !== "invoice.created_at").map((l) => [l.field, l.value]), [["invoice.vat_breakdown[1].rate", "0"], ["invoice.lines[1].vat_rate", "0"]]);
    const back = reread(xml);
    assert.equal(back.lines[1]!.vat_rate, "0 KR");
    assert.equal(back.vat_breakdown[1]!.ksef_field, "P_13_6_1");
  });

  test("refuses a value XML cannot carry with an InvoiceError naming its field", () => {
    for (const trace of [false, true]) {
      const inv = minimalInvoice();
      inv.lines[1]!.name = "Książka\u0001";
      inv.buyer.address!.lines = ["ul. Krzywa 2\u0007"];
      assert.throws(() => writeKsefFa3(inv, { now: NOW, trace }), (e: unknown) => {
        assert.ok(e instanceof InvoiceError);
        assert.equal(e.field, "invoice.buyer.address.lines[0]");
        assert.equal(e.issue, "invalid character");
        return true;
      });
      inv.buyer.address!.lines = ["ul. Krzywa 2"];
      assert.throws(() => writeKsefFa3(inv, { now: NOW, trace }), { name: "InvoiceError", field: "invoice.lines[1].name" });
    }
  });

  test("leaves a missing required value out for the schema to name, rather than inventing it", () => {
    const inv = minimalInvoice();
    inv.seller.tax_id = null;
    const errors = xsdErrors(writeKsefFa3(inv, { now: NOW }).xml);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /^\/Faktura\/Podmiot1\/DaneIdentyfikacyjne/);
  });
});

describe("the written FA(3) is valid by xmllint --schema against the official XSD", { skip: hasXmllint() ? false : "xmllint is not installed (apt-get install libxml2-utils)" }, () => {
  test("for every document written above", () => {
    assert.ok(written.length >= 20, `${written.length} documents`);
    const oracle = oracleSchemas(fixturePath("..", "..", "storage", "schemas"));
    try {
      const verdicts = xmllintVerdicts(oracle.entry.fa3, written.map((w) => w.file));
      assert.deepEqual(written.filter((w) => !verdicts.get(w.file)).map((w) => w.what), []);
    } finally {
      oracle.dispose();
    }
  });
});

/** The minimal object of README "Creating invoices": parties, number, dates, currency, two lines at 23 % and 8 %, the amounts. */
function minimalInvoice(): Invoice {
  const inv = blankInvoice("ksef-fa3");
  inv.number = "FV/2026/02/001";
  inv.issue_date = "2026-02-02";
  inv.currency = "PLN";
  inv.seller = { ...blankParty(), name: "Sprzedawca sp. z o.o.", tax_id: { value: "5261040828", country: "PL", scheme: "NIP" }, address: { ...blankAddress(), country_code: "PL", lines: ["ul. Prosta 1", "00-001 Warszawa"] } };
  inv.buyer = { ...blankParty(), name: "Nabywca S.A.", tax_id: { value: "7740001454", country: "PL", scheme: "NIP" }, address: { ...blankAddress(), country_code: "PL", lines: ["ul. Krzywa 2, 30-001 Kraków"] } };
  const line = (n: string, name: string, qty: string, price: string, net: string, rate: string) => ({
    ...blankLine(), number: n, name, quantity: qty, unit: "szt.", net_price: price, net_amount: net, vat_rate: rate,
    vat_category: { code: "S", text: "Standard rate" }, vat_rate_text: null,
  });
  inv.lines = [line("1", "Usługa", "2", "100.00", "200.00", "23"), line("2", "Książka", "1", "50.00", "50.00", "8")];
  const row = (rate: string, net: string, tax: string, field: string): VatBreakdown => ({
    category: { code: "S", text: "Standard rate" }, rate, taxable_amount: net, tax_amount: tax, tax_amount_tax_currency: null,
    exemption_reason: null, exemption_reason_code: null, tax_scheme: null, line_total_basis_amount: null,
    allowance_charge_basis_amount: null, ksef_field: field,
  });
  inv.vat_breakdown = [row("23", "200.00", "46.00", "P_13_1"), row("8", "50.00", "4.00", "P_13_2")];
  inv.totals.gross = "300.00";
  return inv;
}
