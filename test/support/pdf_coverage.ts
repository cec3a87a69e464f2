/**
 * Counts how many leaf values of an invoice XML appear in the text extracted from its PDF
 * (README "The PDF"): the leaves and skips of invoice_coverage.ts, strings matched as whole
 * words in whitespace-normalised text, numbers as decimals whatever their grouping and
 * decimal sign ("1 234,56", "1,234.56", "23%"), dates in ISO, DD.MM.YYYY or DD-MM-YYYY form.
 * KSeF yes/no flags (TWybor1, TWybor1_2) are not numbers to find anywhere: a flag that says yes
 * is found when its wording is printed, one that says no when that wording is absent.
 * @module
 */

import type { XmlElement } from "../../lib/formats/xml/tree.ts";
import { LABELS, type Labels } from "../../lib/formats/pdf/labels.ts";
import { leafValues, type Coverage, type Leaf } from "./invoice_coverage.ts";

/** Values at least this long may also match with all whitespace removed (a wrapped URL or id). */
const _GLUED_MIN = 8;

/** What the extracted text offers to match against. */
export interface PdfText {
  /** Whitespace runs (no-break spaces too) as one space. */
  text: string;
  /** All whitespace removed. */
  glued: string;
  /** Every number read as a canonical decimal, in every plausible reading. */
  numbers: Set<string>;
  /** Every date as YYYY-MM-DD. */
  dates: Set<string>;
}

/** Indexes the text pdftotext extracted from a PDF. */
export function pdfText(raw: string): PdfText {
  const text = raw.replace(/[\s\u00a0]+/g, " ").trim();
  const numbers = new Set<string>();
  // Polish groups thousands with a no-break space; read groups joined and each piece alone.
  for (const m of raw.matchAll(/-?\d+(?:[\u00a0 ,.]\d+)*/g)) {
    const tok = m[0];
    const pieces = tok.split(/[\u00a0 ]/);
    // Groups of three digits after a space continue the number before them ("16 260,16").
    for (let i = 0; i < pieces.length; i++) {
      let joined = pieces[i] ?? "";
      for (const reading of _readings(joined)) numbers.add(reading);
      for (let j = i + 1; j < pieces.length && /^\d{3}(?:[,.]\d+)?$/.test(pieces[j] ?? ""); j++) {
        joined += pieces[j];
        for (const reading of _readings(joined)) numbers.add(reading);
      }
    }
  }
  const dates = new Set<string>();
  for (const m of text.matchAll(/(\d{4})-(\d{2})-(\d{2})/g)) dates.add(`${m[1]}-${m[2]}-${m[3]}`);
  for (const m of text.matchAll(/(\d{2})[.\-/](\d{2})[.\-/](\d{4})/g)) dates.add(`${m[3]}-${m[2]}-${m[1]}`);
  return { text, glued: text.replace(/ /g, ""), numbers, dates };
}

/** Canonical decimals a number token may stand for: "1,234" is 1234 (English) or 1.234 (Polish). */
function _readings(tok: string): string[] {
  const out: string[] = [];
  const t = tok.replace(/\u00a0/g, "");
  const add = (s: string) => {
    const d = canonicalDecimal(s);
    if (d !== null) out.push(d);
  };
  add(t.replace(/,/g, ""));
  add(t.replace(/\./g, "").replace(/,/g, "."));
  add(t.replace(/,/g, "."));
  return out;
}

/** A decimal string without sign noise, leading or trailing zeros; null when it is not one. */
export function canonicalDecimal(s: string): string | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s.trim());
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const int = (m[2] ?? "").replace(/^0+/, "") || "0";
  const frac = (m[3] ?? "").replace(/0+$/, "");
  const sign = m[1] === "-" && (int !== "0" || frac !== "") ? "-" : "";
  return frac === "" ? `${sign}${int}` : `${sign}${int}.${frac}`;
}

function _isoDate(s: string): string | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*|Z|[+-]\d{2}:\d{2})?$/.exec(s);
  if (m !== null) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 12) return `${m[1]}-${m[2]}-${m[3]}`;
  return null;
}

const _WORD = /[\p{L}\p{N}]/u;

/** True when `needle` occurs in `hay` not glued to a letter or digit on either side. */
function _hasWord(hay: string, needle: string): boolean {
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    const before = hay[i - 1] ?? " ";
    const after = hay[i + needle.length] ?? " ";
    const edgeA = !_WORD.test(needle[0] ?? "") || !_WORD.test(before);
    const edgeB = !_WORD.test(needle[needle.length - 1] ?? "") || !_WORD.test(after);
    if (edgeA && edgeB) return true;
  }
  return false;
}

/**
 * KSeF flags and the label that prints their meaning; `negative` flags say "no" with "1"
 * (P_19N: no exemption), the others say "yes" with "1" and "no" with "2".
 */
const _FLAGS: Readonly<Record<string, { label: keyof Labels; negative?: true }>> = {
  P_16: { label: "cashAccounting" }, P_17: { label: "selfBilling" }, P_18: { label: "reverseCharge" },
  P_18A: { label: "splitPayment" }, P_19: { label: "exemption" }, P_19N: { label: "exemption", negative: true },
  P_22: { label: "newTransport" }, P_22N: { label: "newTransport", negative: true }, P_23: { label: "triangular" },
  P_PMarzy: { label: "margin" }, P_PMarzyN: { label: "margin", negative: true }, P_42_5: { label: "art42" },
  Zaplacono: { label: "paidInFull" }, FP: { label: "receiptInvoice" }, TP: { label: "relatedParties" },
  JST: { label: "jst" }, GV: { label: "gv" }, StanPrzed: { label: "beforeCorrection" }, P_12_Zal_15: { label: "annex15" },
  PodmiotPosredniczacy: { label: "intermediary" }, NrKSeFN: { label: "outsideKsef" }, NrKSeFZN: { label: "outsideKsef" },
};

/** True when one leaf value can be read in the PDF text; `element` is the leaf's element name. */
export function foundInPdf(value: string, pdf: PdfText, element = ""): boolean {
  const v = value.replace(/[\s\u00a0]+/g, " ").trim();
  const flag = Object.hasOwn(_FLAGS, element) ? _FLAGS[element] : undefined;
  if (flag !== undefined && (v === "1" || v === "2")) {
    const printed = pdf.text.includes(LABELS.pl[flag.label]) || pdf.text.includes(LABELS.en[flag.label]);
    const yes = (v === "1") !== (flag.negative === true);
    return printed === yes;
  }
  if (v === "") return true;
  const date = _isoDate(v);
  if (date !== null && pdf.dates.has(date)) return true;
  const d = canonicalDecimal(v);
  if (d !== null) return pdf.numbers.has(d);
  if (_hasWord(pdf.text, v)) return true;
  return v.length >= _GLUED_MIN && pdf.glued.includes(v.replace(/ /g, ""));
}

/** How many of the XML's leaves appear in the PDF's text. */
export function pdfCoverage(root: XmlElement, pdf: PdfText): Coverage {
  const leaves = leafValues(root);
  const missing: Leaf[] = leaves.filter((l) => !foundInPdf(l.value, pdf, l.path.slice(l.path.lastIndexOf("/") + 1)));
  return { total: leaves.length, found: leaves.length - missing.length, missing };
}
