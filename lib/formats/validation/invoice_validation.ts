/**
 * The verdict a receiver would give an invoice (README "Validation"): KSeF's file rules and
 * the FA or FA_RR schema for KSeF invoices; the UBL, PEF or CII schema and, for documents that
 * claim EN 16931, its business rules. Every check runs even when another fails, so one answer
 * lists everything to fix. Errors refuse an upload; warnings never do.
 * @module
 */

import { CII_RSM_NS } from "../invoice/cii.ts";
import { KSEF_FA2_NS, KSEF_FA3_NS } from "../invoice/ksef.ts";
import { KSEF_FA_RR1_NS } from "../invoice/ksef_rr.ts";
import { hasPefExtension } from "../invoice/pef.ts";
import { UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS } from "../invoice/ubl.ts";
import { isKsefFormat, isUblFormat, type InvoiceFormat } from "../invoice/vocabulary.ts";
import type { XmlDocument, XmlElement } from "../xml/tree.ts";
import { MAX_XSD_VIOLATIONS, validateXsd } from "../xsd/validate.ts";
import { checkEn16931, claimsEn16931, EN16931_ARTEFACTS_VERSION } from "./en16931/rules.ts";
import { checkKsefFile } from "./ksef_file.ts";
import { checkRulePacks } from "./rule_packs.ts";
import { SCHEMA_CHECK, type SchemaSet } from "./schema_set.ts";
import type { Violation } from "./violation.ts";

/** The EN 16931 artefacts' rule that UBLExtensions should not be used. */
const _EXTENSIONS_RULE = "UBL-CR-001";

/** Findings listed in one answer (README "Validation": at most 200). */
export const MAX_VIOLATIONS = MAX_XSD_VIOLATIONS;

/** The full verdict (POST /validate). */
export interface ValidationReport {
  valid: boolean;
  format: InvoiceFormat;
  checks: string[];
  errors: Violation[];
  warnings: Violation[];
}

/** What a submission or document carries (`validation`): the verdict without the format, which the record has. */
export interface ValidationSummary {
  valid: boolean;
  checks: string[];
  errors: Violation[];
  warnings: Violation[];
}

/** The format of a document by its root element, or null when it is none of the supported ones. */
export function formatOf(root: XmlElement): InvoiceFormat | null {
  if (root.local === "Faktura" && root.ns === KSEF_FA2_NS) return "ksef-fa2";
  if (root.local === "Faktura" && root.ns === KSEF_FA3_NS) return "ksef-fa3";
  if (root.local === "Faktura" && root.ns === KSEF_FA_RR1_NS) return "ksef-fa-rr1";
  if ((root.local === "Invoice" && root.ns === UBL_INVOICE_NS) || (root.local === "CreditNote" && root.ns === UBL_CREDIT_NOTE_NS)) {
    return hasPefExtension(root) ? "ksef-pef3" : "ubl";
  }
  if (root.local === "CrossIndustryInvoice" && root.ns === CII_RSM_NS) return "cii";
  return null;
}

/**
 * Checks a parsed document of a known format; `bytes` are the ones it was parsed from (KSeF's file rules are
 * about them). Without schemas (an embedder that gives none) the schema check is left out of `checks`.
 */
export function validateInvoice(bytes: Uint8Array, doc: XmlDocument, format: InvoiceFormat, schemas: SchemaSet | null): ValidationReport {
  const root = doc.root;
  const checks: string[] = [];
  const found: Violation[] = [];
  if (isKsefFormat(format)) {
    checks.push("KSEF-FILE");
    const attachments = format === "ksef-fa3" && root.children.some((c) => c.local === "Zalacznik" && c.ns === root.ns);
    for (const x of checkKsefFile(bytes, doc.encoding, attachments)) found.push(x);
  }
  if (schemas?.covers(format)) {
    checks.push(SCHEMA_CHECK[format]);
    for (const x of validateXsd(schemas.forFormat(format), root)) found.push(x);
  }
  // PEF(3) is Peppol BIS Billing 3.0 with a Polish extension: EN 16931's rules apply as to any UBL document.
  const syntax = isUblFormat(format) ? "ubl" : format === "cii" ? "cii" : null;
  if (syntax !== null && claimsEn16931(root, syntax)) {
    checks.push(`EN16931:${EN16931_ARTEFACTS_VERSION}`);
    for (const x of checkEn16931(root, syntax)) {
      // UBL-CR-001 warns that a document carries UBLExtensions; PEF's schema declares the Polish extension they carry.
      if (format === "ksef-pef3" && x.rule === _EXTENSIONS_RULE) continue;
      found.push(x);
    }
    // The CIUS pack its BT-24 names (README "EU formats"). PEF(3) names Peppol BIS but goes to KSeF, whose verdict is
    // its schema and EN 16931's: Peppol's own rules (identifier check digits, endpoints) are not KSeF's.
    if (format !== "ksef-pef3") {
      const packs = checkRulePacks(root, syntax);
      for (const c of packs.checks) checks.push(c);
      for (const x of packs.violations) found.push(x);
    }
  }
  const errors = found.filter((v) => v.severity === "error");
  const warnings = found.filter((v) => v.severity !== "error");
  // Errors first: a long list of warnings never hides what refuses the invoice.
  const keptErrors = errors.slice(0, MAX_VIOLATIONS);
  return { valid: errors.length === 0, format, checks, errors: keptErrors, warnings: warnings.slice(0, MAX_VIOLATIONS - keptErrors.length) };
}

/** The `validation` object of a submission or document. */
export function validationSummary(r: ValidationReport): ValidationSummary {
  return { valid: r.valid, checks: r.checks, errors: r.errors, warnings: r.warnings };
}
