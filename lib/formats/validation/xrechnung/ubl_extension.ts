/**
 * XRechnung 3.0's rules for UBL documents of the XRechnung extension (BR-DEX-01..BR-DEX-14, pattern
 * "ubl-extension-pattern") and of the CVD profile (BR-DE-CVD-*, BR-TMP-CVD-01, pattern "ubl-cvd-pattern"),
 * from KoSIT's XRechnung-UBL-validation.sch, schematron 2.5.0. Each applies only to a document whose
 * specification identifier (BT-24) is exactly the extension's or the profile's.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attribute, descendants, first, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";
import { add, dec, eq, round2, sub, sum, type Dec, ZERO } from "../en16931/semantic_decimal.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { CVA_CODES, CVD_VEHICLE_CATEGORIES, EAS_EXT, EXTENSION_MIME_CODES, ICD_EXT, inList, UNTDID_7143_CVD, XR_CVD_ID, XR_EXTENSION_ID } from "./vocabulary.ts";

const { cac, cbc, inv } = NS;

/** `CustomizationID/text() = id`: the identifier exactly as written. */
function _claims(root: XmlElement, id: string): boolean {
  return select(root, "cbc:CustomizationID").some((c) => c.children.length === 0 && c.text === id);
}

/** BR-DEX-* when the document claims the XRechnung extension. */
export function checkXrechnungUblExtension(root: XmlElement, r: Report): void {
  if (!_claims(root, XR_EXTENSION_ID)) return;
  for (const o of descendants(root, cbc, "EmbeddedDocumentBinaryObject")) {
    const mime = attribute(o, "mimeCode");
    r.check(mime !== null && EXTENSION_MIME_CODES.includes(mime), "BR-DEX-01", o, `"Attached Document" (BT-125) benutzt einen nicht zulässigen MIME-Code: ${mime ?? ""}`);
  }
  if (root.ns === inv) {
    const lines = select(root, "cac:InvoiceLine");
    const subLines = descendants(root, cac, "SubInvoiceLine");
    const sums = (el: XmlElement): boolean => _equalsSum(el, select(el, "cac:SubInvoiceLine"));
    const ok = lines.every((l) => select(l, "cac:SubInvoiceLine").length === 0 || sums(l)) && subLines.every((s) => select(s, "cac:SubInvoiceLine").length === 0 || sums(s));
    r.check(ok, "BR-DEX-02", root, 'Der Wert von "Invoice line net amount" (BT-131) einer Rechnungszeile soll der Summe der BT-131 der direkt darunterliegenden "SUB INVOICE LINE" (BG-DEX-01) entsprechen', "warning");
    const taxed = subLines.every((s) => select(s, "cac:Item").every((i) => select(i, "cac:ClassifiedTaxCategory").length === 1));
    r.check(taxed, "BR-DEX-03", root, 'Eine Sub Invoice Line (BG-DEX-01) muss genau eine "SUB INVOICE LINE VAT INFORMATION" (BG-DEX-06) enthalten');
  }
  // The context is any cac:LegalMonetaryTotal; in a UBL document it sits on the root, whose payments it reads.
  for (const t of select(root, "cac:LegalMonetaryTotal")) _payable(root, t, r);
  _schemes(root, r);
  const currencies = select(root, "cbc:DocumentCurrencyCode").map(stringValue);
  if (root.ns === inv) for (const p of select(root, "cac:PrepaidPayment")) _thirdPartyPayment(currencies, p, r);
}

function _amount(el: XmlElement | null): Dec | null {
  return el === null ? null : dec(stringValue(el));
}

function _equalsSum(el: XmlElement, subs: XmlElement[]): boolean {
  const own = _amount(first(el, "cbc:LineExtensionAmount"));
  const parts: Dec[] = [];
  for (const s of subs) for (const a of select(s, "cbc:LineExtensionAmount")) {
    const d = _amount(a);
    if (d === null) return false;
    parts.push(d);
  }
  return own !== null && eq(own, sum(parts));
}

/** BR-DEX-09: BT-115 - BT-114 = BT-112 - BT-113 + Σ BT-DEX-002, each side rounded to two decimals. */
function _payable(root: XmlElement, t: XmlElement, r: Report): void {
  const payable = _amount(first(t, "cbc:PayableAmount"));
  const inclusive = _amount(first(t, "cbc:TaxInclusiveAmount"));
  const prepaid = first(t, "cbc:PrepaidAmount") === null ? ZERO : _amount(first(t, "cbc:PrepaidAmount"));
  const rounding = first(t, "cbc:PayableRoundingAmount") === null ? ZERO : _amount(first(t, "cbc:PayableRoundingAmount"));
  const paid = select(root, "cac:PrepaidPayment", "cbc:PaidAmount");
  const thirdParty = paid.some((p) => normalizeSpace(stringValue(p)) !== "") ? paid.map(_amount) : [ZERO];
  let ok = false;
  if (payable !== null && inclusive !== null && prepaid !== null && rounding !== null && thirdParty.every((x) => x !== null)) {
    ok = eq(round2(sub(payable, rounding)), round2(add(sub(inclusive, prepaid), sum(thirdParty as Dec[]))));
  }
  r.check(ok, "BR-DEX-09", t, "Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) - Paid amount (BT-113) + Rounding amount (BT-114) + Σ Third party payment amount (BT-DEX-002)");
}

/** BR-DEX-04..08: the extension's scheme lists, ISO 6523 and CEF EAS widened with XR01..XR03. */
function _schemes(root: XmlElement, r: Report): void {
  const walk = (el: XmlElement, supplierOrPayee: boolean): void => {
    for (const c of el.children) {
      const inParty = supplierOrPayee || (c.ns === cac && (c.local === "AccountingSupplierParty" || c.local === "PayeeParty"));
      const scheme = attribute(c, "schemeID");
      if (scheme !== null && el.ns === cac && c.ns === cbc) {
        if (el.local === "PartyIdentification" && c.local === "ID") {
          const sepa = inParty && normalizeSpace(scheme) === "SEPA";
          r.check(inList(ICD_EXT, scheme) || sepa, "BR-DEX-04", c, `Any scheme identifier in cbc:ID MUST be coded using one of the ISO 6523 ICD list, not "${scheme.slice(0, 20)}"`);
        } else if (el.local === "PartyLegalEntity" && c.local === "CompanyID") {
          r.check(inList(ICD_EXT, scheme), "BR-DEX-05", c, `Any scheme identifier in cbc:CompanyID MUST be coded using one of the ISO 6523 ICD list, not "${scheme.slice(0, 20)}"`);
        } else if (el.local === "StandardItemIdentification" && c.local === "ID") {
          r.check(inList(ICD_EXT, scheme), "BR-DEX-06", c, `Any scheme identifier in cbc:ID MUST be coded using one of the ISO 6523 ICD list, not "${scheme.slice(0, 20)}"`);
        } else if (el.local === "DeliveryLocation" && c.local === "ID") {
          r.check(inList(ICD_EXT, scheme), "BR-DEX-08", c, `Any scheme identifier for a Delivery location identifier MUST be coded using one of the ISO 6523 ICD list, not "${scheme.slice(0, 20)}"`);
        }
      }
      if (scheme !== null && c.ns === cbc && c.local === "EndpointID") {
        r.check(inList(EAS_EXT, scheme), "BR-DEX-07", c, `Any scheme identifier for an Endpoint Identifier MUST belong to the CEF EAS code list, not "${scheme.slice(0, 20)}"`);
      }
      walk(c, inParty);
    }
  };
  walk(root, false);
}

/** BR-DEX-10..14 on a third party payment (BG-DEX-09). */
function _thirdPartyPayment(currencies: string[], p: XmlElement, r: Report): void {
  const filled = (local: string) => select(p, `cbc:${local}`).some((e) => normalizeSpace(stringValue(e)) !== "");
  r.check(filled("ID"), "BR-DEX-10", p, 'Das Element "Third party payment type" (BT-DEX-001) muss übermittelt werden');
  r.check(filled("PaidAmount"), "BR-DEX-11", p, 'Das Element "Third party payment amount" (BT-DEX-002) muss übermittelt werden');
  r.check(filled("InstructionID"), "BR-DEX-12", p, 'Das Element "Third party payment description" (BT-DEX-003) muss übermittelt werden');
  const amount = stringValue(first(p, "cbc:PaidAmount"));
  const dot = amount.indexOf(".");
  r.check(dot < 0 || amount.length - dot - 1 <= 2, "BR-DEX-13", p, 'Die maximale Anzahl zulässiger Nachkommastellen für "Third party payment amount" (BT-DEX-002) ist 2');
  const ok = select(p, "cbc:PaidAmount").some((a) => currencies.includes(attribute(a, "currencyID") ?? "\u0000"));
  r.check(ok, "BR-DEX-14", p, 'Die Währungsangabe von "Third party payment amount" (BT-DEX-002) muss BT-5 ("Invoice currency code") entsprechen');
}

/** BR-DE-CVD-* and BR-TMP-CVD-01 when the document claims the CVD profile. */
export function checkXrechnungUblCvd(root: XmlElement, r: Report): void {
  if (!_claims(root, XR_CVD_ID)) return;
  r.check(select(root, "cac:OriginatorDocumentReference", "cbc:ID").some((e) => normalizeSpace(stringValue(e)) !== ""), "BR-DE-CVD-02", root, 'Das Element "Tender or lot reference" (BT-17) muss übermittelt werden');
  r.check(select(root, "cac:ContractDocumentReference", "cbc:ID").some((e) => normalizeSpace(stringValue(e)) !== ""), "BR-DE-CVD-01", root, 'Das Element "Contract reference" (BT-12) muss übermittelt werden');
  const items = [...select(root, "cac:InvoiceLine", "cac:Item"), ...select(root, "cac:CreditNoteLine", "cac:Item")];
  const cvd = (i: XmlElement) => select(i, "cac:CommodityClassification", "cbc:ItemClassificationCode").filter((c) => attribute(c, "listID") === "CVD");
  const cva = (i: XmlElement) => select(i, "cac:AdditionalItemProperty").filter((p) => select(p, "cbc:Name").some((n) => stringValue(n) === "cva"));
  r.check(items.some((i) => cvd(i).length > 0 && cva(i).length > 0), "BR-DE-CVD-03", root, "In einer Rechnung muss mindestens eine Rechnungszeile (BG-25) mit BT-158 im Schema 'CVD' und BT-160 'cva' enthalten sein");
  for (const item of items) {
    r.check(cvd(item).length === 0 || cva(item).length === 1, "BR-DE-CVD-06-a", item, "Wenn BT-158 mit dem Schema 'CVD' angegeben ist, muss in derselben Rechnungszeile genau ein BT-160 mit dem Wert 'cva' vorhanden sein");
    r.check(cva(item).length === 0 || cvd(item).length === 1, "BR-DE-CVD-06-b", item, "Wenn BT-160 mit dem Wert 'cva' angegeben ist, muss in derselben Rechnungszeile genau ein BT-158 mit dem Schema 'CVD' vorhanden sein");
    for (const code of select(item, "cac:CommodityClassification", "cbc:ItemClassificationCode")) {
      const list = attribute(code, "listID");
      r.check(inList(UNTDID_7143_CVD, list), "BR-TMP-CVD-01", code, `Das Bildungsschema für "Item classification identifier" (BT-158) ist aus der Codeliste UNTDID 7143 zu wählen, nicht "${(list ?? "").slice(0, 20)}"`);
      r.check(normalizeSpace(list) !== "CVD" || CVD_VEHICLE_CATEGORIES.includes(normalizeSpace(stringValue(code))), "BR-DE-CVD-04", code, "Ein BT-158 im Schema 'CVD' muss eine der zulässigen Fahrzeugkategorien enthalten");
    }
    for (const p of cva(item)) {
      r.check(CVA_CODES.includes(normalizeSpace(stringValue(first(p, "cbc:Value")))), "BR-DE-CVD-05", p, "Hat BT-160 den Wert 'cva', muss BT-161 einen der zulässigen Werte (clean, zero-emission, other) enthalten");
    }
  }
}
