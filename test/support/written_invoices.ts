/**
 * Helpers of the UBL and CII writer tests: the samples of a format, the round trip read → write → read, the
 * documented exception (an attached document's name and type: the invoice object does not carry its content),
 * xmllint's verdict on written documents, and the EN 16931 rules fired by a document.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import type { Invoice } from "../../lib/formats/invoice/model.ts";
import { blankInvoice, blankLine, blankParty } from "../../lib/formats/invoice/blank.ts";
import { checkEn16931 } from "../../lib/formats/validation/en16931/rules.ts";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import { fixturePath } from "./server.ts";
import { oracleSchemas, xmllintVerdicts } from "./xsd_oracle.ts";

/** The sample files of `dir` under test/fixtures/samples, sorted. */
export function samplesOf(dir: string): string[] {
  return readdirSync(fixturePath("samples", dir)).filter((f) => f.endsWith(".xml")).sort().map((f) => fixturePath("samples", dir, f));
}

/** The invoice of a file. */
export function readFile(path: string): Invoice {
  return readInvoiceXml(readFileSync(path));
}

/** The invoice of written XML text. */
export function readText(xml: string): Invoice {
  return readInvoiceXml(new TextEncoder().encode(xml));
}

/**
 * `inv` as the writers can give it back: an attached document's filename and MIME code are left out, because
 * the invoice object does not hold the document's content (README "The invoice object") and a name without
 * content is not written. The writers report both as losses.
 */
export function withoutAttachedContent(inv: Invoice): Invoice {
  return { ...inv, attachments: inv.attachments.map((a) => ({ ...a, filename: null, mime_code: null })) };
}

/** The ids of the EN 16931 rules `xml` breaks (errors and warnings). */
export function firedRules(xml: string | Uint8Array, syntax: "ubl" | "cii"): Set<string> {
  const bytes = typeof xml === "string" ? new TextEncoder().encode(xml) : xml;
  return new Set(checkEn16931(parseXml(bytes).root, syntax).map((v) => v.rule));
}

/** xmllint's verdict (true = valid) on each written document, against the shipped schema `entry`; files in a temporary directory. */
export function xmllintOn(documents: ReadonlyMap<string, string>, entry: "ublInvoice" | "ublCreditNote" | "cii"): Map<string, boolean> {
  const schemas = oracleSchemas(fixturePath("..", "..", "storage", "schemas"));
  const dir = mkdtempSync(join(tmpdir(), "written-"));
  try {
    const files = new Map<string, string>();
    let i = 0;
    for (const [name, xml] of documents) {
      const file = join(dir, `${i++}.xml`);
      writeFileSync(file, xml);
      files.set(file, name);
    }
    const verdicts = xmllintVerdicts(schemas.entry[entry], [...files.keys()]);
    return new Map([...verdicts].map(([file, ok]) => [files.get(file)!, ok]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    schemas.dispose();
  }
}

/**
 * A minimal invoice as a client creating one would post it: the parties' names, tax ids and addresses, number,
 * dates, currency, two lines with name, quantity, unit, price and VAT rate, and the computed amounts.
 */
export function minimalInvoice(): Invoice {
  const inv = blankInvoice("ubl");
  inv.profile = "urn:cen.eu:en16931:2017";
  inv.type = "invoice";
  inv.kind = { code: "380", text: "Commercial invoice" };
  inv.number = "FV/2026/12/001";
  inv.issue_date = "2026-12-06";
  inv.currency = "EUR";
  inv.seller = {
    ...blankParty(), name: "Seller & Sons Sp. z o.o.", tax_id: { value: "PL5260250274", country: "PL", scheme: "VAT" },
    address: { lines: ["ul. Prosta 1"], city: "Warszawa", postal_code: "00-001", subdivision: null, country_code: "PL", gln: null },
  };
  inv.buyer = {
    ...blankParty(), name: "Käufer GmbH", tax_id: { value: "DE123456789", country: "DE", scheme: "VAT" },
    address: { lines: ["Hauptstraße 5"], city: "Berlin", postal_code: "10115", subdivision: null, country_code: "DE", gln: null },
  };
  const line = (n: string, name: string, quantity: string, price: string, net: string) => ({
    ...blankLine(), number: n, name, quantity, unit: "C62", net_price: price, net_amount: net,
    vat_category: { code: "S", text: "Standard rate" }, vat_rate: "23",
  });
  inv.lines = [line("1", "Widget <large>", "2", "100.00", "200.00"), line("2", "Service", "1.5", "50.00", "75.00")];
  inv.vat_breakdown = [{
    category: { code: "S", text: "Standard rate" }, rate: "23", taxable_amount: "275.00", tax_amount: "63.25",
    tax_amount_tax_currency: null, exemption_reason: null, exemption_reason_code: null, tax_scheme: "VAT",
    line_total_basis_amount: null, allowance_charge_basis_amount: null, ksef_field: null,
  }];
  inv.totals = { ...inv.totals, line_net: "275.00", net: "275.00", tax: "63.25", gross: "338.25", payable: "338.25" };
  inv.payment = {
    means: { code: "58", text: null }, means_text: null, remittance_info: null, terms: null,
    due_dates: [{ date: "2026-12-20", description: null, quantity: null, unit: null, start_event: null }],
    accounts: [{ number: "PL61109010140000071219812874", name: null, bic: null, bank_name: null, description: null, bank_own_account: null, factor: false, held_by: null }],
    card: null, direct_debit: null, paid: false, paid_date: null, partial_status: null, partial_payments: [], discount: null,
    link: null, ksef_payment_id: null, proof_documents: [],
  };
  return inv;
}
