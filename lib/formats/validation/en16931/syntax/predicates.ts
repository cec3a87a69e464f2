/**
 * The XPath predicates that appear in the artefacts' rule contexts and test paths, each written
 * out by hand and looked up by its exact text: the tables stay data, and a predicate the tables
 * use but this module lacks is a compile-time error of the rule set (tested).
 * @module
 */
import type { XmlElement } from "../../../xml/tree.ts";
import type { DocView } from "./doc_view.ts";
import { attr, child, children, isNamed, normalizeSpace, NS, stringValue, xsBoolean } from "./values.ts";

/** A predicate on an element, with the document at hand. */
export type Predicate = (el: XmlElement, doc: DocView) => boolean;

const hasAttr = (name: string): Predicate => (el) => attr(el, name) !== undefined;
const localEndsWith = (suffix: string): Predicate => (el) => el.local.endsWith(suffix);

/** `X = 'v'` for a child X: some X child has exactly that string value. */
function childEquals(ns: string, local: string, value: string): Predicate {
  return (el) => children(el, ns, local).some((c) => stringValue(c) === value);
}

/** `normalize-space(X) = 'v'` for a child X (the first one, as XPath 1 reads a node-set). */
function childNormalizedEquals(el: XmlElement, ns: string, local: string, value: string): boolean {
  const c = child(el, ns, local);
  return normalizeSpace(c === undefined ? "" : stringValue(c)) === value;
}

/** `path = true()` / `false()` for a child path of one or two steps. */
function indicatorIs(steps: readonly (readonly [string, string])[], wanted: boolean): Predicate {
  return (el) => {
    let level = [el];
    for (const [ns, local] of steps) level = level.flatMap((e) => children(e, ns, local));
    return level.some((e) => xsBoolean(stringValue(e)) === wanted);
  };
}

function hasAncestor(el: XmlElement, doc: DocView, test: (a: XmlElement) => boolean): boolean {
  for (let a = doc.parentOf(el); a !== undefined; a = doc.parentOf(a)) if (test(a)) return true;
  return false;
}

/** `cac:TaxScheme/upper-case(cbc:ID) = 'VAT'` (or `!=`): general comparison over every TaxScheme ID. */
function taxSchemeIdIsVat(el: XmlElement, equal: boolean): boolean {
  for (const scheme of children(el, NS.cac, "TaxScheme")) {
    for (const id of children(scheme, NS.cbc, "ID")) {
      if ((stringValue(id).toUpperCase() === "VAT") === equal) return true;
    }
  }
  return false;
}

/** True when an earlier element of the same name (document order) has the same string value. */
function repeatsEarlierValue(el: XmlElement, doc: DocView): boolean {
  const value = stringValue(el);
  for (const other of doc.all(el.ns, el.local)) {
    if (other === el) return false;
    if (stringValue(other) === value) return true;
  }
  return false;
}

/** `normalize-space(.) != normalize-space((//ram:SpecifiedTradeSettlementPaymentMeans/ram:X)[1])`. */
function differsFromFirstPaymentMeans(local: string): Predicate {
  return (el, doc) => {
    let first: XmlElement | undefined;
    for (const means of doc.all(NS.ram, "SpecifiedTradeSettlementPaymentMeans")) {
      first = child(means, NS.ram, local);
      if (first !== undefined) break;
    }
    const firstValue = first === undefined ? "" : normalizeSpace(stringValue(first));
    return normalizeSpace(stringValue(el)) !== firstValue;
  };
}

/** Every predicate the tables use, by its text in the artefacts. */
export const PREDICATES: ReadonlyMap<string, Predicate> = new Map<string, Predicate>([
  ["@schemeID", hasAttr("schemeID")],
  ["@listID", hasAttr("listID")],
  ["@mimeCode", hasAttr("mimeCode")],
  ["@unitCode", hasAttr("unitCode")],
  ["@currencyID", hasAttr("currencyID")],
  ["@format = '102'", (el) => attr(el, "format") === "102"],
  ["ends-with(name(), 'BinaryObject')", localEndsWith("BinaryObject")],
  ["ends-with(name(), 'DocumentContextParameter')", localEndsWith("DocumentContextParameter")],
  ["ends-with(name(), 'ID')", localEndsWith("ID")],
  ["ends-with(name(), 'Quantity')", localEndsWith("Quantity")],
  ["ends-with(name(), 'ReferencedDocument')", localEndsWith("ReferencedDocument")],
  ["ends-with(name(), 'TradeTax')", localEndsWith("TradeTax")],
  [
    "ends-with(name(), 'Amount') and not (self::ram:TaxTotalAmount)",
    (el) => el.local.endsWith("Amount") && !isNamed(el, NS.ram, "TaxTotalAmount"),
  ],
  [
    "ends-with(name(), 'Amount') and not(ends-with(name(),'PriceAmount')) and not(ancestor::cac:Price/cac:AllowanceCharge)",
    (el, doc) =>
      el.local.endsWith("Amount") &&
      !el.local.endsWith("PriceAmount") &&
      !hasAncestor(el, doc, (a) => isNamed(a, NS.cac, "Price") && child(a, NS.cac, "AllowanceCharge") !== undefined),
  ],
  ["not(ancestor::ram:SpecifiedTaxRegistration)", (el, doc) => !hasAncestor(el, doc, (a) => isNamed(a, NS.ram, "SpecifiedTaxRegistration"))],
  [
    "not(ancestor::ram:SpecifiedTradeProduct) and not(ancestor::ram:ShipToTradeParty)",
    (el, doc) =>
      !hasAncestor(el, doc, (a) => isNamed(a, NS.ram, "SpecifiedTradeProduct") || isNamed(a, NS.ram, "ShipToTradeParty")),
  ],
  ["cbc:ChargeIndicator = false()", indicatorIs([[NS.cbc, "ChargeIndicator"]], false)],
  ["cbc:ChargeIndicator = true()", indicatorIs([[NS.cbc, "ChargeIndicator"]], true)],
  ["ram:ChargeIndicator/udt:Indicator = false()", indicatorIs([[NS.ram, "ChargeIndicator"], [NS.udt, "Indicator"]], false)],
  ["ram:ChargeIndicator/udt:Indicator = true()", indicatorIs([[NS.ram, "ChargeIndicator"], [NS.udt, "Indicator"]], true)],
  ["cbc:DocumentTypeCode = '130'", childEquals(NS.cbc, "DocumentTypeCode", "130")],
  ["cbc:DocumentTypeCode='130'", childEquals(NS.cbc, "DocumentTypeCode", "130")],
  [
    "cbc:DocumentTypeCode != '130' or not(cbc:DocumentTypeCode)",
    (el) => {
      const codes = children(el, NS.cbc, "DocumentTypeCode");
      return codes.length === 0 || codes.some((c) => stringValue(c) !== "130");
    },
  ],
  ["cac:TaxScheme/upper-case(cbc:ID)='VAT'", (el) => taxSchemeIdIsVat(el, true)],
  ["cac:TaxScheme/upper-case(cbc:ID)!='VAT'", (el) => taxSchemeIdIsVat(el, false)],
  ["upper-case(@schemeID) = 'SEPA'", (el) => attr(el, "schemeID")?.toUpperCase() === "SEPA"],
  ["ram:TypeCode='50'", childEquals(NS.ram, "TypeCode", "50")],
  ["ram:TypeCode='130'", childEquals(NS.ram, "TypeCode", "130")],
  ["normalize-space(ram:TypeCode) = '130'", (el) => childNormalizedEquals(el, NS.ram, "TypeCode", "130")],
  ["normalize-space(ram:TypeCode) = '916'", (el) => childNormalizedEquals(el, NS.ram, "TypeCode", "916")],
  [
    "(normalize-space(ram:TypeCode) = '30' or normalize-space(ram:TypeCode) = '58') and not(ram:PayeePartyCreditorFinancialAccount/ram:IBANID or ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID)",
    (el) => {
      if (!childNormalizedEquals(el, NS.ram, "TypeCode", "30") && !childNormalizedEquals(el, NS.ram, "TypeCode", "58")) return false;
      return !children(el, NS.ram, "PayeePartyCreditorFinancialAccount").some(
        (acc) => child(acc, NS.ram, "IBANID") !== undefined || child(acc, NS.ram, "ProprietaryID") !== undefined,
      );
    },
  ],
  ["not(preceding::cbc:PaymentID/. = .)", (el, doc) => !repeatsEarlierValue(el, doc)],
  ["not(preceding::cbc:PaymentMeansCode/. = .)", (el, doc) => !repeatsEarlierValue(el, doc)],
  [
    "normalize-space(.) != normalize-space((//ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode)[1])",
    differsFromFirstPaymentMeans("TypeCode"),
  ],
  [
    "normalize-space(.) != normalize-space((//ram:SpecifiedTradeSettlementPaymentMeans/ram:Information)[1])",
    differsFromFirstPaymentMeans("Information"),
  ],
]);

/**
 * For predicates on wildcard steps (`ram:*[ends-with(name(), 'ID')]`): a test on the local name
 * alone that every element they accept passes, so the walk can skip them by name.
 */
export const NAME_TESTS: ReadonlyMap<string, (local: string) => boolean> = new Map(
  [...PREDICATES.keys()]
    .map((text) => [text, /^ends-with\(name\(\), '([A-Za-z]+)'\)/.exec(text)?.[1]] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .map(([text, suffix]) => [text, (local: string) => local.endsWith(suffix)] as const),
);
