/**
 * Time of the CIUS rule packs (lib/formats/validation/rule_packs.ts: Peppol BIS Billing 3.0, XRechnung 3.0)
 * per invoice, next to the same-run baseline of the EN 16931 rules alone (en16931/rules.ts) on the same
 * parsed tree: a generated 30 KB UBL invoice (50 lines) claiming Peppol BIS, the same claiming XRechnung 3.0,
 * OpenPeppol's base example, and KoSIT's CII business case 01.01a grown to 30 KB, as XRechnung and as Peppol BIS.
 * The goal: all packs together under a millisecond for a 30 KB invoice.
 * Run: npx tsx bench/rule_packs.bench.ts [--quick]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { checkEn16931 } from "../lib/formats/validation/en16931/rules.ts";
import { checkRulePacks } from "../lib/formats/validation/rule_packs.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 1500;

const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
console.log(`CIUS rule packs, ${deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`}${quick ? ", quick" : ""}`);

const peppol = ublInvoice(50);
// XRechnung also wants the seller's contact (BR-DE-2) and a delivery date or period (BR-DE-TMP-32): added, so the
// invoice passes and the time is the rules', not that of locating violations.
const xrechnung = peppol
  .replace(/<cbc:CustomizationID>[^<]*</, "<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0<")
  .replace("</cac:Party>\n    </cac:AccountingSupplierParty>", "<cac:Contact><cbc:Name>A</cbc:Name><cbc:Telephone>0301234567</cbc:Telephone><cbc:ElectronicMail>a@example.de</cbc:ElectronicMail></cac:Contact></cac:Party>\n    </cac:AccountingSupplierParty><cac:Delivery><cbc:ActualDeliveryDate>2026-01-01</cbc:ActualDeliveryDate></cac:Delivery>");
// KoSIT's CII business case 01.01a with its line repeated up to about 30 KB, as XRechnung and as Peppol BIS.
const ciiSample = readFileSync(join(import.meta.dirname, "..", "test", "fixtures", "samples", "cii", "xrechnung_01.01a-INVOICE_uncefact.xml"), "utf8");
const lineStart = ciiSample.indexOf("<ram:IncludedSupplyChainTradeLineItem>");
const lineEnd = ciiSample.indexOf("</ram:IncludedSupplyChainTradeLineItem>") + "</ram:IncludedSupplyChainTradeLineItem>".length;
const ciiLine = ciiSample.slice(lineStart, lineEnd);
const ciiXrechnung = ciiSample.slice(0, lineEnd) + ciiLine.repeat(Math.ceil((30 * 1024 - ciiSample.length) / ciiLine.length)) + ciiSample.slice(lineEnd);
const ciiPeppol = ciiXrechnung.replace(
  /<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>[^<]*<\/ram:ID>/,
  "<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</ram:ID>",
);
const cases = [
  { what: "generated UBL, 50 lines, Peppol BIS", syntax: "ubl", text: peppol },
  { what: "generated UBL, 50 lines, XRechnung", syntax: "ubl", text: xrechnung },
  { what: "OpenPeppol base-example.xml", syntax: "ubl", text: readFileSync(join(import.meta.dirname, "..", "test", "fixtures", "peppol", "base-example.xml"), "utf8") },
  { what: "KoSIT CII 01.01a, lines repeated, XRechnung", syntax: "cii", text: ciiXrechnung },
  { what: "KoSIT CII 01.01a, lines repeated, Peppol BIS", syntax: "cii", text: ciiPeppol },
] as const;
// Findings cost their location (one pass over the tree on the first): the column says how many each case has.
const rows = [["invoice", "size", "findings", "packs", "EN 16931 rules (baseline)", "packs / baseline"]];
for (const c of cases) {
  const root = parseXml(c.text).root;
  const packs = checkRulePacks(root, c.syntax);
  if (packs.checks.length !== 1) throw new Error(`No pack ran on ${c.what}`);
  const packTime = bestMicrosPerCall(() => checkRulePacks(root, c.syntax), { budgetMs });
  const base = bestMicrosPerCall(() => checkEn16931(root, c.syntax), { budgetMs });
  rows.push([`${c.what} (${packs.checks[0]})`, `${(c.text.length / 1024).toFixed(0)} KiB`, String(packs.violations.length), `${packTime.toFixed(0)} µs`, `${base.toFixed(0)} µs`, `${(packTime / base).toFixed(2)}x`]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
