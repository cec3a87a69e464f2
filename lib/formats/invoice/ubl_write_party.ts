/**
 * Writes a party (BG-4, BG-7, BG-10, BG-11) as a UBL 2.1 cac:Party and an address as cac:PostalAddress /
 * cac:Address, in the order of the UBL 2.1 common aggregate schema; the inverse of ubl_party.ts (EN 16931-3-2
 * UBL syntax binding). What UBL has no place for (a second contact, a department) is reported as a loss.
 * @module
 */

import type { Address, Contact, Party } from "./model.ts";
import { lose } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";

/** EN 16931's tax scheme of a VAT identifier (BT-31) in UBL's cac:PartyTaxScheme. */
const VAT = "VAT";
/** CII's scheme of a VAT identifier (BT-31), written as UBL's when converting; CII's FC (BT-32) stays FC. */
const CII_VAT = "VA";
/** The tax scheme of a tax registration (BT-32) the object gives no scheme for. */
const UBL_TAX_REGISTRATION = "TAX";

/**
 * Where the party's name goes: "legal" writes it as PartyLegalEntity/RegistrationName (seller BT-27, buyer BT-44),
 * "party" as PartyName/Name (payee BT-59, tax representative BT-62). A trading name (BT-28) is PartyName either way.
 */
export type UblNamePlace = "legal" | "party";

/** Writes `p` as `element` (cac:Party, cac:PayeeParty…); `field` is its invoice-object path (`invoice.seller`). */
export function writeUblParty(w: TracedWriter, element: string, p: Party, place: UblNamePlace, field: string, losses: WriteLoss[]): void {
  w.open(element);
  const e = p.electronic_address;
  if (e !== null) w.leaf("cbc:EndpointID", e.value, `${field}.electronic_address`, { schemeID: e.scheme });
  for (let i = 0; i < p.identifiers.length; i++) {
    const id = p.identifiers[i]!;
    w.open("cac:PartyIdentification").leaf("cbc:ID", id.value, `${field}.identifiers[${i}]`, { schemeID: id.scheme }).close();
  }
  const partyName = p.trading_name ?? (place === "party" ? p.name : null);
  const legalName = p.trading_name !== null || place === "legal" ? p.name : null;
  if (partyName !== null) w.open("cac:PartyName").leaf("cbc:Name", partyName, p.trading_name !== null ? `${field}.trading_name` : `${field}.name`).close();
  if (p.address !== null) writeUblAddress(w, "cac:PostalAddress", p.address, `${field}.address`);
  // The reader takes the first VAT scheme as the VAT id (BT-31), whatever scheme the object gave it.
  if (p.tax_id !== null) {
    _taxScheme(w, p.tax_id.value, VAT, `${field}.tax_id`);
    // The reader takes the country from the number's prefix: a country the number does not start with is lost.
    const c = p.tax_id.country;
    if (c !== null && !p.tax_id.value.startsWith(c)) lose(losses, `${field}.tax_id.country`, c, "UBL gives a VAT id's country only as the number's prefix");
  }
  for (let i = 0; i < p.other_tax_ids.length; i++) {
    const t = p.other_tax_ids[i]!;
    _taxScheme(w, t.value, _ublScheme(t.scheme, UBL_TAX_REGISTRATION), `${field}.other_tax_ids[${i}]`);
  }
  if (legalName !== null || p.registers.length > 0 || p.legal_info !== null) {
    const first = p.registers[0] ?? null;
    w.open("cac:PartyLegalEntity");
    w.leaf("cbc:RegistrationName", legalName, `${field}.name`);
    if (first !== null) w.leaf("cbc:CompanyID", first.value, `${field}.registers[0]`, { schemeID: first.scheme });
    w.leaf("cbc:CompanyLegalForm", p.legal_info, `${field}.legal_info`);
    w.close();
    for (let i = 1; i < p.registers.length; i++) {
      const r = p.registers[i]!;
      w.open("cac:PartyLegalEntity").leaf("cbc:CompanyID", r.value, `${field}.registers[${i}]`, { schemeID: r.scheme }).close();
    }
  }
  const contact = p.contacts[0];
  if (contact !== undefined) _contact(w, contact, losses, `${field}.contacts[0]`);
  for (let i = 1; i < p.contacts.length; i++) {
    for (const [k, v] of Object.entries(p.contacts[i]!)) lose(losses, `${field}.contacts[${i}].${k}`, v, "UBL gives a party one contact");
  }
  w.close();
}

/** The UBL tax scheme of a further tax id: CII's VA is VAT, others as written, `fallback` when none. */
function _ublScheme(scheme: string | null, fallback: string): string {
  if (scheme === CII_VAT) return VAT;
  return scheme ?? fallback;
}

function _taxScheme(w: TracedWriter, value: string, scheme: string, field: string): void {
  w.open("cac:PartyTaxScheme").leaf("cbc:CompanyID", value, field);
  w.open("cac:TaxScheme").leaf("cbc:ID", scheme, null).close();
  w.close();
}

function _contact(w: TracedWriter, c: Contact, losses: WriteLoss[], field: string): void {
  w.open("cac:Contact");
  w.leaf("cbc:Name", c.name, `${field}.name`);
  w.leaf("cbc:Telephone", c.phone, `${field}.phone`);
  w.leaf("cbc:Telefax", c.fax, `${field}.fax`);
  w.leaf("cbc:ElectronicMail", c.email, `${field}.email`);
  w.close();
  lose(losses, `${field}.department`, c.department, "UBL's contact has no department");
}

/**
 * Street parts beyond BT-35 and BT-36 that the reader also keeps as lines in document order, in schema order
 * between cbc:AdditionalStreetName and cac:AddressLine: where an address of more than three lines puts the middle
 * ones, so that it keeps one AddressLine (BT-162, UBL-SR-51) and reads back the same.
 */
const _MIDDLE_LINES = ["cbc:BlockName", "cbc:BuildingName", "cbc:BuildingNumber", "cbc:Department"] as const;
/** Which of them `k` middle lines use: the building number and department first (the ones UBL examples carry). */
const _MIDDLE_SLOTS: readonly (readonly string[])[] = [[], [2], [2, 3], [0, 2, 3], [0, 1, 2, 3]].map((s) => s.map((i) => _MIDDLE_LINES[i]!));

/**
 * Writes an address as `element`. The reader keeps street parts as lines in document order: the first is
 * StreetName (BT-35), the second AdditionalStreetName (BT-36), the last of three or more cac:AddressLine (BT-162),
 * which comes after the others in the schema, so the lines read back in the same order.
 */
export function writeUblAddress(w: TracedWriter, element: string, a: Address, field: string): void {
  w.open(element);
  // The reader takes an address cbc:ID with scheme 0088 (GS1) as the GLN.
  if (a.gln !== null) w.leaf("cbc:ID", a.gln, `${field}.gln`, { schemeID: "0088" });
  const n = a.lines.length;
  w.leaf("cbc:StreetName", a.lines[0], `${field}.lines[0]`);
  w.leaf("cbc:AdditionalStreetName", a.lines[1], `${field}.lines[1]`);
  const middle = Math.min(Math.max(n - 3, 0), _MIDDLE_LINES.length);
  const slots = _MIDDLE_SLOTS[middle]!;
  for (let i = 0; i < middle; i++) w.leaf(slots[i]!, a.lines[2 + i], `${field}.lines[${2 + i}]`);
  w.leaf("cbc:CityName", a.city, `${field}.city`);
  w.leaf("cbc:PostalZone", a.postal_code, `${field}.postal_code`);
  w.leaf("cbc:CountrySubentity", a.subdivision, `${field}.subdivision`);
  for (let i = 2 + middle; i < n; i++) w.open("cac:AddressLine").leaf("cbc:Line", a.lines[i], `${field}.lines[${i}]`).close();
  if (a.country_code !== null) w.open("cac:Country").leaf("cbc:IdentificationCode", a.country_code, `${field}.country_code`).close();
  w.close();
}
