/**
 * Reads the UN/CEFACT CII D16B parts shared by header and lines: trade parties
 * (seller, buyer, payee, tax representative, ship-to, invoicee, item seller),
 * postal addresses, dates (udt:DateTimeString format 102) and allowances and
 * charges (BG-20/21, BG-27/28). Nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankAddress, blankParty } from "./blank.ts";
import { type AllowanceChargeNames, readAllowanceCharge } from "./binding.ts";
import type { Address, AllowanceCharge, Party, Period } from "./model.ts";
import { attr, child, childText, identifierOf, parseDate, textOf } from "./query.ts";

/** The CII reusable aggregate business information entities namespace. */
export const RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";

/** UN/EDIFACT 2379 date format code CCYYMMDD, the one EN 16931 allows for dates. */
const DATE_FORMAT_102 = "102";

/** An allowance or charge's parts, all ram: (the tax category's under ram:CategoryTradeTax). */
const ALLOWANCE_CHARGE_NAMES: AllowanceChargeNames = {
  ns: RAM, amount: "ActualAmount", base: "BasisAmount", percent: "CalculationPercent",
  reason: "Reason", reasonCode: "ReasonCode", category: "CategoryCode", rate: "RateApplicablePercent",
};

/**
 * A ram:…TradeParty. ID and GlobalID are BT-29 identifiers; SpecifiedTaxRegistration
 * with scheme VA is the VAT id (BT-31), FC the tax registration (BT-32);
 * SpecifiedLegalOrganization/ID is the register number (BT-30).
 */
export function readCiiParty(el: XmlElement | null): Party {
  const p = blankParty();
  if (el === null) return p;
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "ID":
      case "GlobalID": {
        const id = identifierOf(c);
        if (id !== null) p.identifiers.push(id);
        break;
      }
      case "Name": p.name = textOf(c); break;
      case "Description": p.legal_info = textOf(c); break;
      case "SpecifiedLegalOrganization": {
        const reg = identifierOf(child(c, RAM, "ID"));
        if (reg !== null) p.registers.push(reg);
        p.trading_name = childText(c, RAM, "TradingBusinessName");
        break;
      }
      case "DefinedTradeContact":
        p.contacts.push({
          name: childText(c, RAM, "PersonName"),
          phone: childText(child(c, RAM, "TelephoneUniversalCommunication"), RAM, "CompleteNumber"),
          email: childText(child(c, RAM, "EmailURIUniversalCommunication"), RAM, "URIID"),
          fax: childText(child(c, RAM, "FaxUniversalCommunication"), RAM, "CompleteNumber"),
          department: childText(c, RAM, "DepartmentName"),
        });
        break;
      case "PostalTradeAddress": p.address = readCiiAddress(c); break;
      case "URIUniversalCommunication": p.electronic_address = identifierOf(child(c, RAM, "URIID")); break;
      case "SpecifiedTaxRegistration": {
        const idEl = child(c, RAM, "ID");
        const value = textOf(idEl);
        if (value === null) break;
        const scheme = attr(idEl, "schemeID");
        const id = { value, country: /^[A-Z]{2}/.test(value) && scheme === "VA" ? value.slice(0, 2) : null, scheme };
        if (scheme === "VA" && p.tax_id === null) p.tax_id = id;
        else p.other_tax_ids.push(id);
        break;
      }
    }
  }
  return p;
}

/** ram:PostalTradeAddress (BG-5, BG-8, BG-12, BG-15). */
export function readCiiAddress(el: XmlElement): Address {
  const a = blankAddress();
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    const v = textOf(c);
    switch (c.local) {
      case "LineOne":
      case "LineTwo":
      case "LineThree":
        if (v !== null) a.lines.push(v);
        break;
      case "PostcodeCode": a.postal_code = v; break;
      case "CityName": a.city = v; break;
      case "CountryID": a.country_code = v; break;
      case "CountrySubDivisionName": a.subdivision = v; break;
    }
  }
  return a;
}

/**
 * A date container (IssueDateTime, DueDateDateTime…): its udt:DateTimeString or
 * DateString child (qdt: in some places, so matched by local name), format 102;
 * a string without a format attribute is read as 102 when it fits.
 */
export function ciiDate(container: XmlElement | null): string | null {
  if (container === null) return null;
  for (const c of container.children) {
    if (c.local !== "DateTimeString" && c.local !== "DateString") continue;
    const format = attr(c, "format");
    if (format !== null && format !== DATE_FORMAT_102) return null;
    const text = textOf(c);
    return text !== null && text.length === 8 ? parseDate(text) : null;
  }
  return null;
}

/** ram:BillingSpecifiedPeriod (BG-14, BG-26). */
export function readCiiPeriod(el: XmlElement): Period {
  return {
    start: ciiDate(child(el, RAM, "StartDateTime")),
    end: ciiDate(child(el, RAM, "EndDateTime")),
    description: childText(el, RAM, "Description"),
  };
}

/** ram:SpecifiedTradeAllowanceCharge or ram:AppliedTradeAllowanceCharge. */
export function readCiiAllowanceCharge(el: XmlElement): AllowanceCharge {
  const charge = _indicator(child(el, RAM, "ChargeIndicator"));
  return readAllowanceCharge(el, charge, child(el, RAM, "CategoryTradeTax"), ALLOWANCE_CHARGE_NAMES);
}

/** udt:Indicator "true"/"false" inside an indicator container. */
function _indicator(el: XmlElement | null): boolean {
  if (el === null) return false;
  for (const c of el.children) if (c.local === "Indicator") return textOf(c) === "true";
  return false;
}
