/**
 * Cost of reading invoices into the model, next to the cost of parsing them.
 * Baseline (same run): parseXml alone on the same bytes. Reported: parse time,
 * read time (readInvoice on the parsed tree) and read as a share of parse.
 * Inputs: the sample invoices of each format, and synthetic large invoices
 * (5,000 lines) to show the readers stay linear. Run: npx tsx bench/invoice.bench.ts
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readInvoice } from "../lib/formats/invoice/read.ts";
import type { XmlDocument } from "../lib/formats/xml/tree.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";

const SAMPLES = join(import.meta.dirname, "..", "test", "fixtures", "samples");
/** Time budget per measurement; the whole run stays well under a minute. */
const BUDGET_MS = 800;

function measure(fn: () => void): number {
  for (let i = 0; i < 20; i++) fn();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < BUDGET_MS) {
    for (let i = 0; i < 10; i++) fn();
    n += 10;
    now = performance.now();
  }
  return ((now - start) * 1000) / n; // µs per call
}

function row(name: string, bytes: Uint8Array[]): void {
  const docs: XmlDocument[] = bytes.map((b) => parseXml(b));
  const parseUs = measure(() => {
    for (const b of bytes) parseXml(b);
  });
  const readUs = measure(() => {
    for (const d of docs) readInvoice(d);
  });
  const kb = bytes.reduce((s, b) => s + b.length, 0) / 1024;
  console.log(
    `${name.padEnd(26)} ${String(bytes.length).padStart(3)} docs ${kb.toFixed(0).padStart(6)} KiB` +
      `  parse ${parseUs.toFixed(1).padStart(9)} µs  read ${readUs.toFixed(1).padStart(8)} µs` +
      `  read/parse ${((readUs / parseUs) * 100).toFixed(1).padStart(5)} %`,
  );
}

function samples(dir: string): Uint8Array[] {
  return readdirSync(join(SAMPLES, dir)).filter((f) => f.endsWith(".xml")).sort()
    .map((f) => new Uint8Array(readFileSync(join(SAMPLES, dir, f))));
}

function bigKsef(lines: number): Uint8Array {
  const rows: string[] = [];
  for (let i = 1; i <= lines; i++) {
    rows.push(`<FaWiersz><NrWierszaFa>${i}</NrWierszaFa><P_7>Towar ${i}</P_7><P_8A>szt.</P_8A><P_8B>2</P_8B>` +
      `<P_9A>10.00</P_9A><P_11>20.00</P_11><P_12>23</P_12></FaWiersz>`);
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">` +
    `<Podmiot1><DaneIdentyfikacyjne><NIP>5260250274</NIP><Nazwa>Sprzedawca</Nazwa></DaneIdentyfikacyjne></Podmiot1>` +
    `<Fa><KodWaluty>PLN</KodWaluty><P_1>2026-01-01</P_1><P_2>FV/1</P_2><P_13_1>${lines * 20}.00</P_13_1>` +
    `<P_14_1>${lines * 46 / 10}.00</P_14_1><P_15>${lines * 246 / 10}.00</P_15><RodzajFaktury>VAT</RodzajFaktury>` +
    `${rows.join("")}</Fa></Faktura>`;
  return new TextEncoder().encode(xml);
}

function bigUbl(lines: number): Uint8Array {
  const rows: string[] = [];
  for (let i = 1; i <= lines; i++) {
    rows.push(`<cac:InvoiceLine><cbc:ID>${i}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>` +
      `<cbc:LineExtensionAmount currencyID="EUR">20.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Item ${i}</cbc:Name>` +
      `<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID>` +
      `</cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">10.00` +
      `</cbc:PriceAmount></cac:Price></cac:InvoiceLine>`);
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ` +
    `xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" ` +
    `xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>1</cbc:ID>` +
    `<cbc:IssueDate>2026-01-01</cbc:IssueDate><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>` +
    `${rows.join("")}</Invoice>`;
  return new TextEncoder().encode(xml);
}

console.log(`invoice reading bench: ${typeof process !== "undefined" ? `node ${process.version}` : "unknown runtime"}`);
console.log("baseline: parseXml on the same bytes; read = readInvoice on the parsed tree\n");
for (const dir of ["ksef-fa2", "ksef-fa3", "ubl", "cii"]) row(`samples/${dir}`, samples(dir));
row("synthetic KSeF 5000 lines", [bigKsef(5000)]);
row("synthetic UBL 5000 lines", [bigUbl(5000)]);
