/**
 * Writes the CII D16B parts shared by header and lines: a trade party (ram:…TradeParty), a postal address, a date
 * container (udt:DateTimeString format 102), a period and an allowance or charge, in the order of the CII D16B
 * schema; the inverse of cii_party.ts (EN 16931-3-3 CII syntax binding). What CII has no place for (a second
 * register number, a fourth address line) is reported as a loss.
 * @module
 */

import type { Address, AllowanceCharge, Party, Period } from "./model.ts";
import { lose } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";

/** UN/EDIFACT 2379 CCYYMMDD, the date format EN 16931 uses in CII. */
const FORMAT_102 = { format: "102" } as const;
/** CII's scheme of a VAT identifier (BT-31) and of a tax registration (BT-32). */
const VA = "VA";
const FC = "FC";
/** UBL's scheme of a VAT identifier, written as CII's when converting. */
const UBL_VAT = "VAT";
/** The tax type code of EN 16931's VAT. */
const VAT = "VAT";
/** The scheme UBL gives the SEPA creditor id among a party's identifiers. */
const SEPA = "SEPA";
const LOSS = "CII D16B (EN 16931 binding) has no element for this value";

/** A YYYY-MM-DD date as CCYYMMDD; null stays null. */
export function ciiDateText(date: string | null): string | null {
  return date === null ? null : date.replaceAll("-", "");
}

/** Writes `container` with a udt:DateTimeString (or, with `qualified`, qdt:) of `date` in format 102; nothing for null. */
export function writeCiiDate(w: TracedWriter, container: string, date: string | null, field: string, qualified = false): void {
  if (date === null) return;
  w.open(container).leaf(qualified ? "qdt:DateTimeString" : "udt:DateTimeString", ciiDateText(date), field, FORMAT_102).close();
}

/**
 * Writes `p` as `element` (ram:SellerTradeParty…); `field` is its invoice-object path (`invoice.seller`). An identifier
 * with scheme SEPA equal to `creditorId` is left out: the settlement writes it as ram:CreditorReferenceID.
 */
export function writeCiiParty(w: TracedWriter, element: string, p: Party, field: string, losses: WriteLoss[], creditorId: string | null = null): void {
  w.open(element);
  // ram:ID comes before ram:GlobalID in the schema; the reader keeps both as identifiers, in document order.
  for (let i = 0; i < p.identifiers.length; i++) {
    const id = p.identifiers[i]!;
    if (id.scheme === null) w.leaf("ram:ID", id.value, `${field}.identifiers[${i}]`);
  }
  for (let i = 0; i < p.identifiers.length; i++) {
    const id = p.identifiers[i]!;
    // UBL writes the SEPA creditor id (BT-90) as a party identifier; CII has ram:CreditorReferenceID for it.
    if (id.scheme === SEPA && id.value === creditorId) continue;
    if (id.scheme !== null) w.leaf("ram:GlobalID", id.value, `${field}.identifiers[${i}]`, { schemeID: id.scheme });
  }
  w.leaf("ram:Name", p.name, `${field}.name`);
  w.leaf("ram:Description", p.legal_info, `${field}.legal_info`);
  const reg = p.registers[0] ?? null;
  if (reg !== null || p.trading_name !== null) {
    w.open("ram:SpecifiedLegalOrganization");
    if (reg !== null) w.leaf("ram:ID", reg.value, `${field}.registers[0]`, { schemeID: reg.scheme });
    w.leaf("ram:TradingBusinessName", p.trading_name, `${field}.trading_name`);
    w.close();
  }
  for (let i = 1; i < p.registers.length; i++) lose(losses, `${field}.registers[${i}]`, p.registers[i]!.value, "CII gives a party one legal registration");
  for (let i = 0; i < p.contacts.length; i++) {
    const c = p.contacts[i]!;
    const f = `${field}.contacts[${i}]`;
    w.open("ram:DefinedTradeContact");
    w.leaf("ram:PersonName", c.name, `${f}.name`);
    w.leaf("ram:DepartmentName", c.department, `${f}.department`);
    if (c.phone !== null) w.open("ram:TelephoneUniversalCommunication").leaf("ram:CompleteNumber", c.phone, `${f}.phone`).close();
    if (c.fax !== null) w.open("ram:FaxUniversalCommunication").leaf("ram:CompleteNumber", c.fax, `${f}.fax`).close();
    if (c.email !== null) w.open("ram:EmailURIUniversalCommunication").leaf("ram:URIID", c.email, `${f}.email`).close();
    w.close();
  }
  if (p.address !== null) writeCiiAddress(w, p.address, `${field}.address`, losses);
  const e = p.electronic_address;
  if (e !== null) w.open("ram:URIUniversalCommunication").leaf("ram:URIID", e.value, `${field}.electronic_address`, { schemeID: e.scheme }).close();
  // The reader takes the first VA registration as the VAT id (BT-31), whatever scheme the object gave it.
  if (p.tax_id !== null) {
    _taxRegistration(w, p.tax_id.value, VA, `${field}.tax_id`);
    // The reader takes the country from the number's prefix: a country the number does not start with is lost.
    const c = p.tax_id.country;
    if (c !== null && !p.tax_id.value.startsWith(c)) lose(losses, `${field}.tax_id.country`, c, "CII gives a VAT id's country only as the number's prefix");
  }
  for (let i = 0; i < p.other_tax_ids.length; i++) {
    const t = p.other_tax_ids[i]!;
    _taxRegistration(w, t.value, t.scheme === UBL_VAT ? VA : t.scheme ?? FC, `${field}.other_tax_ids[${i}]`);
  }
  w.close();
}

function _taxRegistration(w: TracedWriter, value: string, scheme: string, field: string): void {
  w.open("ram:SpecifiedTaxRegistration").leaf("ram:ID", value, field, { schemeID: scheme }).close();
}

/** Address lines CII D16B's EN 16931 binding has: LineOne, LineTwo, LineThree (BT-35, BT-36, BT-162). */
const _LINES = ["ram:LineOne", "ram:LineTwo", "ram:LineThree"] as const;

/** Writes ram:PostalTradeAddress; lines past the third and the GLN are losses. */
export function writeCiiAddress(w: TracedWriter, a: Address, field: string, losses: WriteLoss[]): void {
  w.open("ram:PostalTradeAddress");
  w.leaf("ram:PostcodeCode", a.postal_code, `${field}.postal_code`);
  for (let i = 0; i < _LINES.length; i++) w.leaf(_LINES[i]!, a.lines[i], `${field}.lines[${i}]`);
  w.leaf("ram:CityName", a.city, `${field}.city`);
  w.leaf("ram:CountryID", a.country_code, `${field}.country_code`);
  w.leaf("ram:CountrySubDivisionName", a.subdivision, `${field}.subdivision`);
  w.close();
  for (let i = _LINES.length; i < a.lines.length; i++) lose(losses, `${field}.lines[${i}]`, a.lines[i], "CII's address has three lines");
  lose(losses, `${field}.gln`, a.gln, LOSS);
}

/** ram:BillingSpecifiedPeriod (BG-14, BG-26) from `field`, the period's path (`invoice.delivery.period`, or `.period` in a line). */
export function writeCiiPeriod(w: TracedWriter, p: Period, field: string): void {
  w.open("ram:BillingSpecifiedPeriod", field);
  w.leaf("ram:Description", p.description, ".description");
  writeCiiDate(w, "ram:StartDateTime", p.start, ".start");
  writeCiiDate(w, "ram:EndDateTime", p.end, ".end");
  w.close();
}

/**
 * ram:SpecifiedTradeAllowanceCharge (BG-20, BG-21, BG-27, BG-28) from `field`, its path (absolute, or relative in a
 * line), with its tax category when the object gives one.
 */
export function writeCiiAllowanceCharge(w: TracedWriter, a: AllowanceCharge, field: string): void {
  w.open("ram:SpecifiedTradeAllowanceCharge", field);
  w.open("ram:ChargeIndicator").leaf("udt:Indicator", a.charge ? "true" : "false", ".charge").close();
  w.leaf("ram:CalculationPercent", a.percentage, ".percentage");
  w.leaf("ram:BasisAmount", a.base_amount, ".base_amount");
  w.leaf("ram:ActualAmount", a.amount, ".amount");
  w.leaf("ram:ReasonCode", a.reason_code?.code, ".reason_code");
  w.leaf("ram:Reason", a.reason, ".reason");
  if (a.vat_category !== null || a.vat_rate !== null) {
    w.open("ram:CategoryTradeTax").leaf("ram:TypeCode", VAT, null);
    w.leaf("ram:CategoryCode", a.vat_category?.code, ".vat_category");
    w.leaf("ram:RateApplicablePercent", a.vat_rate, ".vat_rate");
    w.close();
  }
  w.close();
}
