/**
 * The countries Peppol's UBL schematron decides its national rules by: $supplierCountry (the seller's VAT
 * identifier prefix, else the tax representative's, else the seller's address country), $customerCountry,
 * and whether the seller's and the buyer's addresses are in Germany ($supplierCountryIsDE, $customerCountryIsDE).
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { first, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";

const { cac, cbc } = NS;

function _vatPrefix(party: XmlElement | null): string | null {
  if (party === null) return null;
  for (const s of select(party, "cac:PartyTaxScheme")) {
    if (!select(s, "cac:TaxScheme", "cbc:ID").some((i) => stringValue(i) === "VAT")) continue;
    const prefix = stringValue(first(s, "cbc:CompanyID")).slice(0, 2);
    if (prefix !== "") return normalizeSpace(prefix).toUpperCase();
  }
  return null;
}

function _addressCountry(party: XmlElement | null): string | null {
  const c = first(party === null ? [] : [party], "cac:PostalAddress", "cac:Country", "cbc:IdentificationCode");
  return c === null ? null : normalizeSpace(stringValue(c)).toUpperCase();
}

/** The parties' countries as the schematron's variables compute them ("XX" when nothing says). */
export function countries(root: XmlElement): { supplier: string; customer: string; supplierIsDe: boolean; customerIsDe: boolean } {
  const seller = first(root, "cac:AccountingSupplierParty", "cac:Party");
  const buyer = first(root, "cac:AccountingCustomerParty", "cac:Party");
  const supplier = _vatPrefix(seller) ?? _vatPrefix(first(root, "cac:TaxRepresentativeParty")) ?? _addressCountry(seller) ?? "XX";
  const customer = _vatPrefix(buyer) ?? _addressCountry(buyer) ?? "XX";
  return { supplier, customer, supplierIsDe: _addressCountry(seller) === "DE", customerIsDe: _addressCountry(buyer) === "DE" };
}
