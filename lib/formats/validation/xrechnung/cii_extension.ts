/**
 * XRechnung 3.0's rules for CII documents of the XRechnung extension (BR-DEX-01, BR-DEX-04..08, BR-DEX-15,
 * pattern "cii-extension-pattern") and of the CVD profile (BR-DE-CVD-*, BR-TMP-CVD-01, "cii-cvd-pattern"),
 * from KoSIT's XRechnung-CII-validation.sch, schematron 2.5.0. Each applies only to a document whose
 * specification identifier (BT-24) is exactly the extension's or the profile's.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attribute, first, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { CVA_CODES, CVD_VEHICLE_CATEGORIES, EAS_EXT, EXTENSION_MIME_CODES, ICD_EXT, inList, UNTDID_7143_CVD, XR_CVD_ID, XR_EXTENSION_ID } from "./vocabulary.ts";

const { ram } = NS;

/** `GuidelineSpecifiedDocumentContextParameter/ram:ID/text() = id`: the identifier exactly as written. */
function _claims(root: XmlElement, id: string): boolean {
  return select(root, "rsm:ExchangedDocumentContext", "ram:GuidelineSpecifiedDocumentContextParameter", "ram:ID").some((c) => c.children.length === 0 && c.text === id);
}

/** BR-DEX-* when the document claims the XRechnung extension. */
export function checkXrechnungCiiExtension(root: XmlElement, r: Report): void {
  if (!_claims(root, XR_EXTENSION_ID)) return;
  const subLines = _hasDescendant(root, "ParentLineID");
  for (const d of select(root, "rsm:SupplyChainTradeTransaction", "ram:IncludedSupplyChainTradeLineItem", "ram:AssociatedDocumentLineDocument")) {
    r.check(!subLines, "BR-DEX-15", d, "This CII file might use the concept of Sub Invoice Lines. However XRechnung does not support this", "warning");
  }
  const walk = (el: XmlElement, underProduct: boolean, underShipTo: boolean, underTaxRegistration: boolean, parent: XmlElement | null): void => {
    if (el.ns === ram) {
      const scheme = attribute(el, "schemeID");
      const message = (what: string) => `Any scheme identifier ${what} MUST be coded using one of the ISO 6523 ICD list, not "${(scheme ?? "").slice(0, 20)}"`;
      if (el.local === "AttachmentBinaryObject") {
        const mime = attribute(el, "mimeCode");
        r.check(mime !== null && EXTENSION_MIME_CODES.includes(mime), "BR-DEX-01", el, `"Attached Document" (BT-125) benutzt einen nicht zulässigen MIME-Code: ${mime ?? ""}`);
      } else if (scheme !== null && el.local === "GlobalID") {
        if (parent?.local === "SpecifiedTradeProduct") r.check(inList(ICD_EXT, scheme), "BR-DEX-06", el, message("in ram:GlobalID"));
        else if (parent?.local === "ShipToTradeParty") r.check(inList(ICD_EXT, scheme), "BR-DEX-08", el, message("for a Delivery location identifier"));
        else if (!underProduct && !underShipTo) r.check(inList(ICD_EXT, scheme), "BR-DEX-04", el, message("in ram:GlobalID"));
      } else if (scheme !== null && el.local === "ID" && !underTaxRegistration) {
        r.check(inList(ICD_EXT, scheme), "BR-DEX-05", el, message("in ram:ID"));
      } else if (scheme !== null && el.local === "URIID" && parent?.local === "URIUniversalCommunication") {
        r.check(inList(EAS_EXT, scheme), "BR-DEX-07", el, `Any scheme identifier for an Endpoint Identifier MUST belong to the CEF EAS code list, not "${scheme.slice(0, 20)}"`);
      }
    }
    const product = underProduct || (el.ns === ram && el.local === "SpecifiedTradeProduct");
    const shipTo = underShipTo || (el.ns === ram && el.local === "ShipToTradeParty");
    const taxRegistration = underTaxRegistration || (el.ns === ram && el.local === "SpecifiedTaxRegistration");
    for (const c of el.children) walk(c, product, shipTo, taxRegistration, el);
  };
  walk(root, false, false, false, null);
}

function _hasDescendant(el: XmlElement, local: string): boolean {
  for (const c of el.children) if ((c.local === local && c.ns === ram) || _hasDescendant(c, local)) return true;
  return false;
}

/** BR-DE-CVD-* and BR-TMP-CVD-01 when the document claims the CVD profile. */
export function checkXrechnungCiiCvd(root: XmlElement, r: Report): void {
  if (!_claims(root, XR_CVD_ID)) return;
  const cvd = (p: XmlElement) => select(p, "ram:DesignatedProductClassification", "ram:ClassCode").filter((c) => attribute(c, "listID") === "CVD");
  const cva = (p: XmlElement) => select(p, "ram:ApplicableProductCharacteristic").filter((c) => select(c, "ram:Description").some((d) => stringValue(d) === "cva"));
  for (const tx of select(root, "rsm:SupplyChainTradeTransaction")) {
    const products = select(tx, "ram:IncludedSupplyChainTradeLineItem", "ram:SpecifiedTradeProduct");
    r.check(products.some((p) => cvd(p).length > 0 && cva(p).length > 0), "BR-DE-CVD-03", tx, "In einer Rechnung muss mindestens eine Rechnungszeile (BG-25) mit BT-158 im Schema 'CVD' und BT-160 'cva' enthalten sein");
    for (const p of products) {
      r.check(cva(p).length === 0 || cvd(p).length === 1, "BR-DE-CVD-06-b", p, "Wenn BT-160 mit dem Wert 'cva' angegeben ist, muss in derselben Rechnungszeile genau ein BT-158 mit dem Schema 'CVD' vorhanden sein");
      r.check(cvd(p).length === 0 || cva(p).length === 1, "BR-DE-CVD-06-a", p, "Wenn BT-158 mit dem Schema 'CVD' angegeben ist, muss in derselben Rechnungszeile genau ein BT-160 mit dem Wert 'cva' vorhanden sein");
      for (const code of select(p, "ram:DesignatedProductClassification", "ram:ClassCode")) {
        const list = attribute(code, "listID");
        r.check(inList(UNTDID_7143_CVD, list), "BR-TMP-CVD-01", code, `Das Bildungsschema für "Item classification identifier" (BT-158) ist aus der Codeliste UNTDID 7143 zu wählen, nicht "${(list ?? "").slice(0, 20)}"`);
        r.check(normalizeSpace(list) !== "CVD" || CVD_VEHICLE_CATEGORIES.includes(normalizeSpace(stringValue(code))), "BR-DE-CVD-04", code, "Ein BT-158 im Schema 'CVD' muss eine der zulässigen Fahrzeugkategorien enthalten");
      }
      for (const c of cva(p)) {
        r.check(CVA_CODES.includes(normalizeSpace(stringValue(first(c, "ram:Value")))), "BR-DE-CVD-05", c, "Hat BT-160 den Wert 'cva', muss BT-161 einen der zulässigen Werte (clean, zero-emission, other) enthalten");
      }
    }
    for (const a of select(tx, "ram:ApplicableHeaderTradeAgreement")) {
      r.check(select(a, "ram:ContractReferencedDocument", "ram:IssuerAssignedID").some((e) => normalizeSpace(stringValue(e)) !== ""), "BR-DE-CVD-01", a, 'Das Element "Contract reference" (BT-12) muss übermittelt werden');
      const tender = select(a, "ram:AdditionalReferencedDocument").some((d) => normalizeSpace(stringValue(first(d, "ram:TypeCode"))) === "50" && select(d, "ram:IssuerAssignedID").some((i) => normalizeSpace(stringValue(i)) !== ""));
      r.check(tender, "BR-DE-CVD-02", a, 'Das Element "Tender or lot reference" (BT-17) muss übermittelt werden');
    }
  }
}
