/**
 * The UBL rules of the artefacts whose tests are more than a path count or a code list,
 * written out: each reads its Schematron assertion's XPath with XPath's own semantics
 * (general comparisons over node-sets, string values, `normalize-space`).
 * @module
 */
import { quoteXml } from "../../../xml/errors.ts";
import type { XmlElement } from "../../../xml/tree.ts";
import type { DocView } from "./doc_view.ts";
import type { Finding, SyntaxCheck } from "./engine.ts";
import { ISO_6523_ICD } from "../code_lists/iso_6523_icd.ts";
import { UNTDID_1001_CREDIT_NOTE_UBL, UNTDID_1001_INVOICE_UBL } from "../code_lists/untdid_1001.ts";
import { UNTDID_4451_UBL } from "../code_lists/untdid_4451.ts";
import { attr, child, children, isNamed, normalizeSpace, NS, stringValue } from "./values.ts";

const fail = (at: XmlElement, message: string): Finding => ({ at, message });

/** `normalize-space(x)` is one token of the list (the artefacts' `contains(' … ', concat(' ', …, ' '))`). */
function inList(value: string, codes: ReadonlySet<string>): boolean {
  const v = normalizeSpace(value);
  return !v.includes(" ") && codes.has(v);
}

/** PayeeParty name differs from the seller's legal name: XPath `!=` over both node-sets (false when either is empty). */
function payeeNameDiffers(payee: XmlElement, doc: DocView): boolean {
  const names = children(payee, NS.cac, "PartyName").flatMap((p) => children(p, NS.cbc, "Name")).map(stringValue);
  const parent = doc.parentOf(payee);
  const legal: string[] = [];
  for (const sup of parent === undefined ? [] : children(parent, NS.cac, "AccountingSupplierParty")) {
    for (const party of children(sup, NS.cac, "Party")) {
      for (const entity of children(party, NS.cac, "PartyLegalEntity")) {
        for (const reg of children(entity, NS.cbc, "RegistrationName")) legal.push(stringValue(reg));
      }
    }
  }
  return names.some((n) => legal.some((l) => n !== l));
}

function payeeRule(counted: (payee: XmlElement) => XmlElement[], what: string): SyntaxCheck {
  return (el, doc) => {
    const found = counted(el);
    if (found.length > 1) return fail(found[1]!, `${what} may occur only once in the payee`);
    if (!payeeNameDiffers(el, doc)) {
      return fail(el, "A payee must have a name different from the seller's legal registration name");
    }
    return null;
  };
}

// BR-CL-08 accepts a note subject code that occurs anywhere in the list's text (XPath `contains`).
const NOTE_SUBJECTS = ` ${[...UNTDID_4451_UBL.codes].join(" ")} `;

/** Hand-written UBL checks by rule id. */
export const UBL_CHECKS: Readonly<Record<string, SyntaxCheck>> = {
  "BR-CL-01": (el) => {
    const list = el.local === "InvoiceTypeCode" ? UNTDID_1001_INVOICE_UBL : UNTDID_1001_CREDIT_NOTE_UBL;
    return inList(stringValue(el), list.codes) ? null : fail(el, `${quoteXml(stringValue(el))} is not a valid ${list.title}`);
  },
  "BR-CL-08": (el) => {
    const text = stringValue(el);
    const hash = text.indexOf("#");
    if (hash < 0) return null;
    const rest = text.slice(hash + 1);
    const end = rest.indexOf("#");
    const code = end < 0 ? "" : rest.slice(0, end);
    if ([...code].length !== 3 || NOTE_SUBJECTS.includes(code)) return null;
    return fail(el, `Note subject '#${code}#' is not a valid ${UNTDID_4451_UBL.title}`);
  },
  "BR-CL-10": (el, doc) => {
    const scheme = attr(el, "schemeID") ?? "";
    if (inList(scheme, ISO_6523_ICD.codes)) return null;
    if (normalizeSpace(scheme) === "SEPA") {
      for (let a = doc.parentOf(el); a !== undefined; a = doc.parentOf(a)) {
        if (isNamed(a, NS.cac, "AccountingSupplierParty") || isNamed(a, NS.cac, "PayeeParty")) return null;
      }
    }
    return fail(el, `schemeID ${quoteXml(scheme)} is not a valid ${ISO_6523_ICD.title} (SEPA only for the seller or the payee)`);
  },
  "UBL-SR-51": (el) => {
    const lines = children(el, NS.cac, "AddressLine");
    return lines.length <= 1 ? null : fail(lines[1]!, "An address may have only one third address line (AddressLine)");
  },
  "UBL-SR-43": (el, doc) => {
    const codes = children(el, NS.cbc, "DocumentTypeCode").map(stringValue);
    if (codes.includes("130")) return null;
    if (doc.root.local === "CreditNote" && codes.includes("50")) return null;
    const schemed = children(el, NS.cbc, "ID").some((id) => attr(id, "schemeID") !== undefined);
    if (!schemed && codes.length === 0) return null;
    return fail(el, "A document reference may have a scheme identifier or a type code only for an invoiced object (type code 130, or 50 in a credit note)");
  },
  "UBL-DT-01": (el) => {
    const text = stringValue(el);
    const dot = text.indexOf(".");
    const fraction = dot < 0 ? "" : text.slice(dot + 1);
    // At most two characters: a code point is one or two UTF-16 units (no array of a long fraction's characters).
    const short = fraction.length <= 2 || (fraction.length <= 4 && [...fraction].length <= 2);
    return short ? null : fail(el, `Amount ${quoteXml(text)} has more than two fraction digits`);
  },
  "UBL-SR-53": (el) => {
    const schemeId = children(el, NS.cac, "TaxScheme").some((s) => child(s, NS.cbc, "ID") !== undefined);
    if (schemeId && child(el, NS.cbc, "CompanyID") !== undefined) return null;
    return fail(el, "A party tax scheme needs both its tax scheme identifier and the VAT identifier (CompanyID)");
  },
  "UBL-CR-002": (el) => {
    const versions = children(el, NS.cbc, "UBLVersionID");
    if (versions.length === 0 || versions.some((v) => stringValue(v) === "2.1")) return null;
    return fail(versions[0]!, "UBLVersionID should be absent or 2.1");
  },
  "UBL-CR-412": (el) => {
    if (el.local === "CreditNote" && el.ns === NS.cn) return null;
    for (const means of children(el, NS.cac, "PaymentMeans")) {
      const due = child(means, NS.cbc, "PaymentDueDate");
      if (due !== undefined) return fail(due, "PaymentMeans/PaymentDueDate should not be used in an invoice");
    }
    return null;
  },
  "UBL-DT-18": (_el, doc) => {
    const other = doc.withAttr("name").find((e) => !isNamed(e, NS.cbc, "PaymentMeansCode"));
    return other === undefined ? null : fail(other, "Attribute name should be used only on PaymentMeansCode");
  },
  "UBL-SR-19": payeeRule(
    (p) => children(p, NS.cac, "PartyName").flatMap((n) => children(n, NS.cbc, "Name")),
    "The payee name",
  ),
  "UBL-SR-20": payeeRule(
    (p) =>
      children(p, NS.cac, "PartyIdentification")
        .flatMap((i) => children(i, NS.cbc, "ID"))
        // upper-case() of a missing attribute is "", which is not SEPA: identifiers without a scheme count.
        .filter((id) => (attr(id, "schemeID") ?? "").toUpperCase() !== "SEPA"),
    "The payee identifier",
  ),
  "UBL-SR-21": payeeRule(
    (p) => children(p, NS.cac, "PartyLegalEntity").flatMap((e) => children(e, NS.cbc, "CompanyID")),
    "The payee legal registration identifier",
  ),
};
