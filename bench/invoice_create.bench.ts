/**
 * CPU of creating an invoice from JSON (README "Creating invoices"): a 20-line invoice object, as a client posts
 * it, read against the OpenAPI invoice schemas, computed (line nets, the VAT breakdown, the totals), written as
 * FA(3) and validated (KSeF's file rules and the FA(3) schema), against the same-run cost of what an upload of the
 * same FA(3) costs: parse, read and validate the XML. The goal is ≤ 1 ms of CPU for the whole creation.
 * Run: npx tsx bench/invoice_create.bench.ts [--quick]
 */

import process from "node:process";
import { readInvoiceInput } from "../lib/api/submissions/invoice_input.ts";
import { completeInvoice } from "../lib/formats/invoice/compute.ts";
import { writeInvoice } from "../lib/formats/invoice/write_invoice.ts";
import { readAndValidate } from "../lib/formats/validation/read_and_validate.ts";
import { schemaSetOf } from "../lib/formats/validation/schema_set.ts";
import { readSchemaFiles } from "../storage/schemas/schema_files.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 1500;
const NOW = new Date("2026-12-06T10:00:00Z");
const schemas = schemaSetOf(readSchemaFiles());

/** The README's minimal invoice with 20 lines at 23, 8 and 5 %, as the JSON text a client sends. */
const body = JSON.stringify({
  number: "FV/2026/12/001", issue_date: "2026-12-04", currency: "PLN",
  seller: { name: "Przykładowa Sp. z o.o.", tax_id: { value: "5260250274", country: "PL", scheme: "NIP" }, address: { lines: ["ul. Prosta 1", "00-001 Warszawa"], country_code: "PL" } },
  buyer: { name: "Kowalski i Syn", tax_id: { value: "1234563218", country: "PL", scheme: "NIP" }, address: { lines: ["ul. Krzywa 2", "30-001 Kraków"], country_code: "PL" } },
  lines: Array.from({ length: 20 }, (_, i) => ({
    name: `Pozycja ${i + 1}: usługa wdrożeniowa`, quantity: String(1 + (i % 7)), unit: "szt.", net_price: `${100 + i}.${String(i * 7 % 100).padStart(2, "0")}`,
    vat_rate: ["23", "8", "5"][i % 3],
  })),
});

function create(): Uint8Array {
  const { invoice, findings } = readInvoiceInput({ format: "ksef-fa3", type: "other", ...JSON.parse(body) });
  if (findings.length > 0) throw new Error(findings[0]!.message);
  if (completeInvoice(invoice, "ksef-fa3").length > 0) throw new Error("the bench's invoice disagrees with itself");
  const xml = new TextEncoder().encode(writeInvoice(invoice, "ksef-fa3", { now: NOW }).xml);
  const { report } = readAndValidate(xml, schemas);
  if (!report.valid) throw new Error(`the written FA(3) is not valid: ${report.errors[0]!.message}`);
  return xml;
}

const xml = create();
console.log(`${process.release.name} ${process.version}; 20-line invoice, JSON ${body.length} B, FA(3) ${xml.length} B`);
const stages = {
  "read the JSON against the schemas": () => readInvoiceInput({ format: "ksef-fa3", type: "other", ...JSON.parse(body) }),
  "…and compute": () => completeInvoice(readInvoiceInput({ format: "ksef-fa3", type: "other", ...JSON.parse(body) }).invoice, "ksef-fa3"),
  "create: read, compute, write, validate": create,
  "baseline: an upload of that FA(3) (parse, read, validate)": () => readAndValidate(xml, schemas),
};
const results: Record<string, number> = {};
for (const [name, fn] of Object.entries(stages)) results[name] = bestMicrosPerCall(fn, { budgetMs, clock: "cpu", warmup: 200 });
for (const [name, us] of Object.entries(results)) console.log(`${name.padEnd(60)} ${us.toFixed(0).padStart(6)} µs`);
const ratio = results["create: read, compute, write, validate"]! / results["baseline: an upload of that FA(3) (parse, read, validate)"]!;
console.log(`creation / upload of the same invoice: ${ratio.toFixed(2)}× (goal: creation ≤ 1,000 µs)`);
