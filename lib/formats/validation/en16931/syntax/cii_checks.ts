/**
 * The CII rules of the artefacts whose tests are more than a path count or a code list,
 * written out with XPath's semantics (general comparisons, string values, `matches`).
 * @module
 */
import { quoteXml } from "../../../xml/errors.ts";
import type { XmlElement } from "../../../xml/tree.ts";
import type { Finding, SyntaxCheck } from "./engine.ts";
import { attr, child, children, isNamed, NS, stringValue, xsBoolean } from "./values.ts";

const fail = (at: XmlElement, message: string): Finding => ({ at, message });

const RAM = NS.ram;

/** Elements at a relative path of `ram:` steps. */
function ram(el: XmlElement, ...steps: string[]): XmlElement[] {
  let level = [el];
  for (const local of steps) {
    const next: XmlElement[] = [];
    for (const e of level) for (const kid of e.children) if (kid.local === local && kid.ns === RAM) next.push(kid);
    level = next;
  }
  return level;
}

/** Key of the per-document answer to "does an invoiced quantity carry a unit code". */
const BILLED_UNIT = {};

/** `not(P/ram:ID and P/ram:GlobalID)`: a party is identified by one or the other, not both. */
function idOrGlobalId(party: string, what: string): SyntaxCheck {
  return (el) => {
    if (ram(el, party, "ID").length === 0 || ram(el, party, "GlobalID").length === 0) return null;
    return fail(ram(el, party)[0]!, `${what} should have an identifier (ID) or a global identifier (GlobalID), not both`);
  };
}

/** `not(C/ram:PersonName and C/ram:DepartmentName)` for a party's contacts. */
function personOrDepartment(party: string, what: string): SyntaxCheck {
  return (el) => {
    const contacts = ram(el, party, "DefinedTradeContact");
    const person = contacts.some((c) => child(c, NS.ram, "PersonName") !== undefined);
    const department = contacts.some((c) => child(c, NS.ram, "DepartmentName") !== undefined);
    return person && department ? fail(contacts[0]!, `${what} contact should have a person name or a department name, not both`) : null;
  };
}

/** `not(ram:X) or <allowed>`. */
function onlyWhere(local: string, allowed: (el: XmlElement) => boolean, message: string): SyntaxCheck {
  return (el) => {
    const found = child(el, NS.ram, local);
    return found === undefined || allowed(el) ? null : fail(found, message);
  };
}

const typeCodeIs = (el: XmlElement, ...values: string[]): boolean =>
  ram(el, "TypeCode").some((c) => values.includes(stringValue(c)));
const isAdditional = (el: XmlElement): boolean => isNamed(el, NS.ram, "AdditionalReferencedDocument");

function hasAncestor(el: XmlElement, local: string, parentOf: (e: XmlElement) => XmlElement | undefined): boolean {
  for (let a = parentOf(el); a !== undefined; a = parentOf(a)) if (isNamed(a, NS.ram, local)) return true;
  return false;
}

function onlyInHeaderSettlement(local: string): SyntaxCheck {
  return (el, doc) => {
    const found = child(el, NS.ram, local);
    if (found === undefined || hasAncestor(el, "ApplicableHeaderTradeSettlement", doc.parentOf)) return null;
    return fail(found, `${local} should be used only in the header trade settlement's taxes`);
  };
}

// XPath's \d is any Unicode decimal digit and \s is XML whitespace; `matches` has no implicit anchors.
const DATE_102 = /^[ \t\n\r]*(\p{Nd}{4})(1[0-2]|0[1-9])(3[01]|[12][0-9]|0[1-9])[ \t\n\r]*$/u;

/** Hand-written CII checks by rule id. */
export const CII_CHECKS: Readonly<Record<string, SyntaxCheck>> = {
  "CII-SR-046": (el) => {
    const ids = ram(el, "GlobalID");
    if (ids.length === 0 || ids.some((id) => attr(id, "schemeID") !== undefined)) return null;
    return fail(ids[0]!, "An item's global identifier (GlobalID) needs its schemeID");
  },
  "CII-SR-090": (el) => {
    const origin = ram(el, "OriginTradeCountry");
    if (origin.length === 0 || ram(el, "OriginTradeCountry", "ID").length === 1) return null;
    return fail(origin[0]!, "The item's country of origin must have exactly one ID");
  },
  "CII-SR-119": (el) => {
    const charges = ram(el, "GrossPriceProductTradePrice", "AppliedTradeAllowanceCharge");
    const indicators = charges.flatMap((c) => ram(c, "ChargeIndicator"));
    const amounts = charges.flatMap((c) => ram(c, "ActualAmount"));
    const allowance = indicators.some((i) =>
      children(i, NS.udt, "Indicator").some((v) => xsBoolean(stringValue(v)) === false),
    );
    if ((allowance && amounts.length > 0) || (indicators.length === 0 && amounts.length === 0)) return null;
    return fail(charges[0] ?? el, "A gross price adjustment should be an allowance (ChargeIndicator false) with its ActualAmount");
  },
  "CII-SR-449": idOrGlobalId("ShipToTradeParty", "The deliver-to party"),
  "CII-SR-450": idOrGlobalId("BuyerTradeParty", "The buyer"),
  "CII-SR-451": idOrGlobalId("PayeeTradeParty", "The payee"),
  "CII-SR-465": personOrDepartment("SellerTradeParty", "The seller's"),
  "CII-SR-466": personOrDepartment("BuyerTradeParty", "The buyer's"),
  "CII-SR-462": (_el, doc) => {
    const codes = new Set<string>();
    let second: XmlElement | undefined;
    for (const tax of doc.all(NS.ram, "ApplicableTradeTax")) {
      for (const code of ram(tax, "DueDateTypeCode")) {
        codes.add(stringValue(code));
        if (codes.size > 1 && second === undefined) second = code;
      }
    }
    return second === undefined ? null : fail(second, "Every VAT point date code (DueDateTypeCode) must have the same value");
  },
  "CII-DT-015": onlyWhere("URIID", (el) => isAdditional(el) && typeCodeIs(el, "916"), "URIID should be used only in a supporting document reference (type code 916)"),
  "CII-DT-018": onlyWhere(
    "TypeCode",
    (el) => isAdditional(el) && typeCodeIs(el, "50", "130", "916"),
    "TypeCode should be used only in an additional document reference, with code 50, 130 or 916",
  ),
  "CII-DT-021": onlyWhere("Name", (el) => isAdditional(el) && typeCodeIs(el, "916"), "Name should be used only in a supporting document reference (type code 916)"),
  "CII-DT-022": onlyWhere(
    "AttachmentBinaryObject",
    (el) => isAdditional(el) && typeCodeIs(el, "916"),
    "AttachmentBinaryObject should be used only in a supporting document reference (type code 916)",
  ),
  "CII-DT-024": onlyWhere(
    "ReferenceTypeCode",
    (el) => isAdditional(el) && typeCodeIs(el, "130"),
    "ReferenceTypeCode should be used only for an invoiced object reference (type code 130)",
  ),
  "CII-DT-027": onlyWhere(
    "FormattedIssueDateTime",
    (el) => isNamed(el, NS.ram, "InvoiceReferencedDocument"),
    "FormattedIssueDateTime should be used only in a preceding invoice reference",
  ),
  "CII-DT-033": (el, doc) => {
    if (attr(el, "unitCode") === undefined) return null;
    const billed = doc.memo(BILLED_UNIT, () => {
      const root = doc.root;
      if (!isNamed(root, NS.rsm, "CrossIndustryInvoice")) return false;
      return children(root, NS.rsm, "SupplyChainTradeTransaction")
        .flatMap((t) => ram(t, "IncludedSupplyChainTradeLineItem", "SpecifiedLineTradeDelivery", "BilledQuantity"))
        .some((q) => attr(q, "unitCode") !== undefined);
    });
    return billed ? null : fail(el, "unitCode should not be used when no invoiced quantity carries one");
  },
  "CII-DT-037": (el) => {
    const codes = ram(el, "TypeCode");
    if (codes.length === 0 || codes.some((c) => stringValue(c) === "VAT")) return null;
    return fail(codes[0]!, `Tax type code ${quoteXml(stringValue(codes[0]!))} must be VAT`);
  },
  "CII-DT-041": onlyInHeaderSettlement("BasisAmount"),
  "CII-DT-054": onlyInHeaderSettlement("TaxPointDate"),
  "CII-DT-058": onlyInHeaderSettlement("DueDateTypeCode"),
  "CII-DT-052": onlyWhere(
    "ExemptionReasonCode",
    (el) => isNamed(el, NS.ram, "ApplicableTradeTax"),
    "ExemptionReasonCode should be used only in an applicable trade tax",
  ),
  "CII-DT-098": onlyWhere(
    "ExemptionReason",
    (el) => isNamed(el, NS.ram, "ApplicableTradeTax"),
    "ExemptionReason should be used only in an applicable trade tax",
  ),
  "CII-DT-097": (el) => {
    const text = stringValue(el);
    return DATE_102.test(text) ? null : fail(el, `Date ${quoteXml(text)} with format 102 must be written YYYYMMDD`);
  },
};
