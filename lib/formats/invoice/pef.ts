/**
 * Tells KSeF's PEF(3)/PEF_KOR(3) documents from other UBL 2.1 ones. Schemat_PEF(3)_v2-1.xsd and
 * Schemat_PEF_KOR(3)_v2-1.xsd declare the same root elements, in the same namespaces and with the same content
 * models, as OASIS UBL 2.1's Invoice and CreditNote; what they add is the Polish extension: the
 * `urn:pl:extended:CommonAggregateComponents-2` and `urn:pl:extended:CommonBasicComponents-2` components
 * (20241206_PEFPL-*-2.1-v1.4.34.xsd), which a document carries inside `ext:UBLExtensions`. A UBL document with
 * such an extension is PEF; one without cannot be told from plain UBL by its XML, and reads as `ubl`. The parties
 * the extension adds (AdditionalAddressData) are read here; the rest is read as UBL (ubl.ts).
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankAddress, blankParty } from "./blank.ts";
import type { Party, ThirdParty } from "./model.ts";
import { child, children, childText, compact } from "./query.ts";

/** The namespaces of KSeF's Polish UBL extension (the PEFPL component schemas' targetNamespace). */
export const PEF_EXTENSION_NAMESPACES: ReadonlySet<string> = new Set([
  "urn:pl:extended:CommonAggregateComponents-2",
  "urn:pl:extended:CommonBasicComponents-2",
]);

const _EXT_NS = "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2";

/** True when a UBL Invoice or CreditNote root carries KSeF's Polish extension in its UBLExtensions. */
export function hasPefExtension(root: XmlElement): boolean {
  for (const exts of root.children) {
    if (exts.ns !== _EXT_NS || exts.local !== "UBLExtensions") continue;
    for (const ext of exts.children) {
      for (const content of ext.children) {
        if (content.ns !== _EXT_NS || content.local !== "ExtensionContent") continue;
        if (content.children.some((apex) => PEF_EXTENSION_NAMESPACES.has(apex.ns))) return true;
      }
    }
  }
  return false;
}

const _CAC_PL = "urn:pl:extended:CommonAggregateComponents-2";
const _CBC_PL = "urn:pl:extended:CommonBasicComponents-2";

/** The parties of cac-pl:AdditionalAddressData and the role each stands in (20241206_PEFPL-CommonAggregateComponents). */
const _ROLES: Readonly<Record<string, string>> = {
  SellerSupplierParty: "Seller's supplier (PEF AdditionalAddressData/SellerSupplierParty)",
  ReceiverParty: "Receiver (PEF AdditionalAddressData/ReceiverParty)",
};

/**
 * The parties of the Polish extension's AdditionalAddressData, as third parties with the element's name as their
 * role code. The extension's other components (gross-priced lines, original document data, utility readings) are
 * not read into the model.
 */
export function readPefParties(root: XmlElement): ThirdParty[] {
  const out: ThirdParty[] = [];
  for (const exts of children(root, _EXT_NS, "UBLExtensions")) {
    for (const ext of children(exts, _EXT_NS, "UBLExtension")) {
      for (const data of children(child(ext, _EXT_NS, "ExtensionContent"), _CAC_PL, "AdditionalAddressData")) {
        for (const holder of data.children) {
          const text = holder.ns === _CAC_PL && Object.hasOwn(_ROLES, holder.local) ? _ROLES[holder.local] ?? null : null;
          const party = child(holder, _CAC_PL, "Party");
          if (text === null || party === null) continue;
          out.push({ ..._party(party), role: { code: holder.local, text }, role_description: null, share: null });
        }
      }
    }
  }
  return out;
}

/** A cac-pl:Party, named as ubl_party.ts names a UBL party: RegistrationName, else PartyName (then the trading name). */
function _party(el: XmlElement): Party {
  const p = blankParty();
  const partyName = childText(child(el, _CAC_PL, "PartyName"), _CBC_PL, "Name");
  const a = child(el, _CAC_PL, "PostalAddress");
  if (a !== null) {
    const address = blankAddress();
    address.lines = compact([childText(a, _CBC_PL, "StreetName"), childText(a, _CBC_PL, "AdditionalStreetName")]);
    address.city = childText(a, _CBC_PL, "CityName");
    address.postal_code = childText(a, _CBC_PL, "PostalZone");
    address.country_code = childText(child(a, _CAC_PL, "Country"), _CBC_PL, "IdentificationCode");
    const id = childText(a, _CBC_PL, "ID");
    if (id !== null) address.gln = id;
    p.address = address;
  }
  for (const t of children(el, _CAC_PL, "PartyTaxScheme")) {
    const value = childText(t, _CBC_PL, "CompanyID");
    if (value === null) continue;
    const id = { value, country: /^[A-Z]{2}/.test(value) ? value.slice(0, 2) : null, scheme: "VAT" };
    if (p.tax_id === null) p.tax_id = id;
    else p.other_tax_ids.push(id);
  }
  const legal = child(el, _CAC_PL, "PartyLegalEntity");
  const legalName = childText(legal, _CBC_PL, "RegistrationName");
  p.name = legalName ?? partyName;
  p.trading_name = legalName !== null ? partyName : null;
  if (legal !== null) {
    const reg = childText(legal, _CBC_PL, "CompanyID");
    if (reg !== null) p.registers.push({ value: reg, scheme: null });
    p.legal_info = childText(legal, _CBC_PL, "CompanyLegalForm");
  }
  const c = child(el, _CAC_PL, "Contact");
  if (c !== null) {
    p.contacts.push({
      name: childText(c, _CBC_PL, "Name"), phone: childText(c, _CBC_PL, "Telephone"), email: childText(c, _CBC_PL, "ElectronicMail"),
      fax: null, department: null,
    });
  }
  return p;
}
