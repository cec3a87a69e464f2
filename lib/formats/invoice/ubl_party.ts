/**
 * Reads a UBL 2.1 cac:Party (seller, buyer, payee, tax representative, BG-4,
 * BG-7, BG-10, BG-11) and cac:PostalAddress / cac:Address into the model
 * (EN 16931 UBL syntax binding, Peppol BIS Billing 3.0). Nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankAddress, blankParty } from "./blank.ts";
import type { Address, Contact, Party } from "./model.ts";
import { attr, child, childText, identifierOf, textOf } from "./query.ts";

/** UBL 2.1 common aggregate components. */
export const CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
/** UBL 2.1 common basic components. */
export const CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

/**
 * cac:Party. Name: BT-27 RegistrationName, else PartyName/Name; PartyName is the
 * trading name (BT-28) when both are given. Tax id: the PartyTaxScheme whose
 * TaxScheme is VAT (BT-31); the others (BT-32, scheme "FC"…) go to other_tax_ids.
 * PartyLegalEntity/CompanyID is a register number (BT-30), not a tax id.
 */
export function readUblParty(party: XmlElement | null): Party {
  const p = blankParty();
  if (party === null) return p;
  let partyName: string | null = null;
  let legalName: string | null = null;
  for (const c of party.children) {
    if (c.ns === CBC) {
      if (c.local === "EndpointID") p.electronic_address = identifierOf(c);
      continue;
    }
    if (c.ns !== CAC) continue;
    switch (c.local) {
      case "PartyIdentification": {
        const id = identifierOf(child(c, CBC, "ID"));
        if (id !== null) p.identifiers.push(id);
        break;
      }
      case "PartyName": partyName ??= childText(c, CBC, "Name"); break;
      case "PostalAddress": p.address = readUblAddress(c); break;
      case "PartyTaxScheme": {
        const value = childText(c, CBC, "CompanyID");
        if (value === null) break;
        const scheme = childText(child(c, CAC, "TaxScheme"), CBC, "ID");
        const id = { value, country: _prefix(value), scheme };
        if (scheme === "VAT" && p.tax_id === null) p.tax_id = id;
        else p.other_tax_ids.push(id);
        break;
      }
      case "PartyLegalEntity": {
        legalName ??= childText(c, CBC, "RegistrationName");
        const reg = identifierOf(child(c, CBC, "CompanyID"));
        if (reg !== null) p.registers.push(reg);
        p.legal_info ??= childText(c, CBC, "CompanyLegalForm");
        break;
      }
      case "Contact": p.contacts.push(_contact(c)); break;
    }
  }
  p.name = legalName ?? partyName;
  p.trading_name = legalName !== null ? partyName : null;
  return p;
}

/** A two-letter ISO 3166 prefix of an EU VAT number ("DE123…" → "DE"; Greece writes "EL"). */
function _prefix(value: string): string | null {
  return /^[A-Z]{2}/.test(value) ? value.slice(0, 2) : null;
}

function _contact(el: XmlElement): Contact {
  return {
    name: childText(el, CBC, "Name"),
    phone: childText(el, CBC, "Telephone"),
    email: childText(el, CBC, "ElectronicMail"),
    fax: childText(el, CBC, "Telefax"),
    department: null,
  };
}

/** cac:PostalAddress / cac:Address (BG-5, BG-8, BG-12, BG-15). Street parts stay lines, in document order. */
export function readUblAddress(el: XmlElement): Address {
  const a = blankAddress();
  for (const c of el.children) {
    if (c.ns === CBC) {
      switch (c.local) {
        case "Postbox":
        case "Department":
        case "StreetName":
        case "AdditionalStreetName":
        case "BuildingNumber":
        case "BuildingName":
        case "BlockName":
        case "Floor":
        case "Room": {
          const t = textOf(c);
          if (t !== null) a.lines.push(t);
          break;
        }
        case "CityName": a.city = textOf(c); break;
        case "PostalZone": a.postal_code = textOf(c); break;
        case "CountrySubentity": a.subdivision = textOf(c); break;
        case "CountrySubentityCode": a.subdivision ??= textOf(c); break;
        case "ID": if (attr(c, "schemeID") === "0088") a.gln = textOf(c); break;
      }
    } else if (c.ns === CAC) {
      if (c.local === "AddressLine") {
        const t = childText(c, CBC, "Line");
        if (t !== null) a.lines.push(t);
      } else if (c.local === "Country") a.country_code = childText(c, CBC, "IdentificationCode");
    }
  }
  return a;
}
