/**
 * Writes the model's parties as KSeF FA(3) party elements (Podmiot1, Podmiot2, Podmiot3, PodmiotUpowazniony,
 * Podmiot1K, Podmiot2K, a transport's Przewoznik), the inverse of ksef_party.ts, in the sequences of
 * schemat_FA(3)_v1-0E.xsd (TPodmiot1/2/3, TAdres). A Polish VAT number is written as NIP, an EU one as KodUE +
 * NrVatUE, any other as KodKraju + NrID; a party with no tax id is written as BrakID only when the object says so
 * (`no_tax_id`). Values with no FA(3) element are reported as losses; required values that are missing are left out
 * for the schema to name.
 * @module
 */

import type { Address, Contact, Party, ThirdParty } from "./model.ts";
import { lose, loseFields } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";

/** Why a value is not in the written FA(3). */
export const NO_FA3_PLACE = "FA(3) has no element for this value";

/** TKodyKrajowUE: the member states' codes (Greece EL, Northern Ireland XI). */
const EU_CODES = new Set([
  "AT", "BE", "BG", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "EL", "HR", "HU", "IE", "IT", "LV", "LT", "LU", "MT",
  "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "XI",
]);

/** Which FA(3) party element is written: their sequences differ in what they carry. */
export type KsefPartyRole = "Podmiot1" | "Podmiot2" | "Podmiot3" | "PodmiotUpowazniony" | "Podmiot1K" | "Podmiot2K" | "Przewoznik";

/** Party fields no FA(3) party element has. */
const NEVER: readonly (keyof Party & string)[] = [
  "trading_name", "other_tax_ids", "electronic_address", "registers", "legal_info", "supplier_number",
];

/** The fields each role carries beyond name, tax id and address (the others are losses). */
const CARRIES: Readonly<Record<KsefPartyRole, readonly (keyof Party & string)[]>> = {
  Podmiot1: ["vat_prefix", "identifiers", "correspondence_address", "contacts", "status"],
  Podmiot2: ["identifiers", "correspondence_address", "contacts", "customer_number", "buyer_id", "jst", "gv"],
  Podmiot3: ["identifiers", "correspondence_address", "contacts", "customer_number", "buyer_id"],
  PodmiotUpowazniony: ["identifiers", "correspondence_address", "contacts"],
  Podmiot1K: ["vat_prefix"],
  Podmiot2K: ["buyer_id"],
  Przewoznik: [],
};
const OPTIONAL: readonly (keyof Party & string)[] = [
  "vat_prefix", "identifiers", "correspondence_address", "contacts", "status", "customer_number", "buyer_id", "jst", "gv",
];

/**
 * Writes party `p` as the element `role` (its name), from field `f` (`invoice.seller`). Podmiot3 and
 * PodmiotUpowazniony take a ThirdParty for their role; JST and GV of Podmiot2, required by FA(3), are written as 2
 * (no) when the object does not say.
 */
export function writeKsefParty(w: TracedWriter, role: KsefPartyRole, p: Party | ThirdParty, f: string, losses: WriteLoss[]): void {
  w.open(role, f);
  loseFields(losses, p, NEVER, f, NO_FA3_PLACE);
  const carried = CARRIES[role];
  for (const key of OPTIONAL) if (!carried.includes(key)) lose(losses, `${f}.${key}`, p[key], NO_FA3_PLACE);
  const kind = role === "Podmiot1" || role === "Podmiot1K" || role === "PodmiotUpowazniony" ? 1 : role === "Podmiot3" ? 3 : 2;
  const third = role === "Podmiot3" || role === "PodmiotUpowazniony" ? (p as ThirdParty) : null;
  if (role === "Podmiot3") w.leaf("IDNabywcy", p.buyer_id, `${f}.buyer_id`);
  if (role === "Podmiot1" || role === "Podmiot1K") w.leaf("PrefiksPodatnika", p.vat_prefix, `${f}.vat_prefix`);
  if (carried.includes("identifiers")) _identifiers(w, p, f, kind, losses);
  _identity(w, p, f, kind, losses);
  if (p.address !== null) writeKsefAddress(w, role === "Przewoznik" ? "AdresPrzewoznika" : "Adres", p.address, `${f}.address`, losses);
  if (carried.includes("correspondence_address") && p.correspondence_address !== null) {
    writeKsefAddress(w, "AdresKoresp", p.correspondence_address, `${f}.correspondence_address`, losses);
  }
  if (carried.includes("contacts")) _contacts(w, p.contacts, f, role === "PodmiotUpowazniony", losses);
  if (role === "Podmiot1") w.leaf("StatusInfoPodatnika", p.status?.code, `${f}.status`);
  if (role === "Podmiot2") {
    w.leaf("NrKlienta", p.customer_number, `${f}.customer_number`);
    w.leaf("IDNabywcy", p.buyer_id, `${f}.buyer_id`);
    w.leaf("JST", p.jst === true ? "1" : "2", `${f}.jst`);
    w.leaf("GV", p.gv === true ? "1" : "2", `${f}.gv`);
  }
  if (role === "Podmiot2K") w.leaf("IDNabywcy", p.buyer_id, `${f}.buyer_id`);
  if (third !== null && role === "Podmiot3") {
    if (third.role !== null) w.leaf("Rola", third.role.code, `${f}.role`);
    else if (third.role_description !== null) {
      w.leaf("RolaInna", "1", `${f}.role_description`);
      w.leaf("OpisRoli", third.role_description, `${f}.role_description`);
    }
    if (third.role !== null) lose(losses, `${f}.role_description`, third.role_description, NO_FA3_PLACE);
    w.leaf("Udzial", third.share, `${f}.share`);
    w.leaf("NrKlienta", p.customer_number, `${f}.customer_number`);
  }
  if (third !== null && role === "PodmiotUpowazniony") {
    w.leaf("RolaPU", third.role?.code, `${f}.role`);
    loseFields(losses, third, ["role_description", "share"], f, NO_FA3_PLACE);
  }
  w.close();
}

/** NrEORI (the first EORI identifier), and the identifiers FA(3) has no place for as losses. */
function _identifiers(w: TracedWriter, p: Party, f: string, kind: 1 | 2 | 3, losses: WriteLoss[]): void {
  let eori = false;
  for (let i = 0; i < p.identifiers.length; i++) {
    const id = p.identifiers[i]!;
    if (id.scheme === "EORI" && !eori) {
      eori = true;
      w.leaf("NrEORI", id.value, `${f}.identifiers[${i}]`);
    } else if (!(kind === 3 && id.scheme === "IDWew" && _nip(p, kind) === null && i === _idWewIndex(p))) {
      lose(losses, `${f}.identifiers[${i}]`, id, NO_FA3_PLACE);
    }
  }
}

function _idWewIndex(p: Party): number {
  return p.identifiers.findIndex((x) => x.scheme === "IDWew");
}

/**
 * The party's Polish NIP: a NIP or, for a party that FA(3) names by NIP only (`kind` 1), a VAT number of Poland
 * without its PL prefix; null for others. A buyer's "PL…" VAT number stays KodUE PL + NrVatUE, as it was read.
 */
function _nip(p: Party, kind: 1 | 2 | 3): string | null {
  const t = p.tax_id;
  if (t === null) return null;
  if (t.scheme === "NIP") return t.value;
  if (kind === 1 && t.scheme === "VAT" && (t.country === "PL" || t.country === null) && /^(PL)?\d{10}$/.test(t.value)) {
    return t.value.startsWith("PL") ? t.value.slice(2) : t.value;
  }
  return null;
}

/** DaneIdentyfikacyjne: TPodmiot1 (NIP, Nazwa), TPodmiot2 or TPodmiot3 (one id of the choice, Nazwa). */
function _identity(w: TracedWriter, p: Party, f: string, kind: 1 | 2 | 3, losses: WriteLoss[]): void {
  w.open("DaneIdentyfikacyjne", f);
  const t = p.tax_id;
  const nip = _nip(p, kind);
  const tf = `${f}.tax_id`;
  if (nip !== null) w.leaf("NIP", nip, tf);
  else if (kind === 1) lose(losses, tf, t, "FA(3) names this party by a Polish NIP only");
  else if (kind === 3 && _idWewIndex(p) >= 0) w.leaf("IDWew", p.identifiers[_idWewIndex(p)]!.value, `${f}.identifiers[${_idWewIndex(p)}]`);
  else if (t !== null && t.country !== null && EU_CODES.has(t.country) && t.scheme !== "NrID") {
    w.leaf("KodUE", t.country, tf);
    w.leaf("NrVatUE", t.value.startsWith(t.country) ? t.value.slice(t.country.length) : t.value, tf);
  } else if (t !== null) {
    w.leaf("KodKraju", t.country, tf);
    w.leaf("NrID", t.value, tf);
  } else if (p.no_tax_id) w.leaf("BrakID", "1", `${f}.no_tax_id`);
  if (nip !== null || kind === 1 || t !== null) {
    if (p.no_tax_id) lose(losses, `${f}.no_tax_id`, true, "FA(3) writes either a tax id or BrakID: the tax id was written");
  }
  w.leaf("Nazwa", p.name, `${f}.name`);
  w.close();
}

/** Up to three DaneKontaktowe (Email, Telefon; EmailPU, TelefonPU of PodmiotUpowazniony). */
function _contacts(w: TracedWriter, contacts: readonly Contact[], f: string, pu: boolean, losses: WriteLoss[]): void {
  let written = 0;
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i]!;
    const cf = `${f}.contacts[${i}]`;
    loseFields(losses, c, ["name", "fax", "department"], cf, NO_FA3_PLACE);
    if (written === 3) {
      loseFields(losses, c, ["email", "phone"], cf, "FA(3) takes at most three contacts");
      continue;
    }
    written++;
    w.open("DaneKontaktowe", cf);
    w.leaf(pu ? "EmailPU" : "Email", c.email, `${cf}.email`);
    w.leaf(pu ? "TelefonPU" : "Telefon", c.phone, `${cf}.phone`);
    w.close();
  }
}

/**
 * A TAdres: KodKraju, AdresL1, AdresL2, GLN. FA(3) keeps an address as two lines of text: a postal code, city or
 * subdivision, and lines beyond the second, are written into AdresL2 and reported, since they read back as text.
 */
export function writeKsefAddress(w: TracedWriter, name: string, a: Address, f: string, losses: WriteLoss[]): void {
  w.open(name, f);
  w.leaf("KodKraju", a.country_code, ".country_code");
  const structured = a.city !== null || a.postal_code !== null || a.subdivision !== null;
  if (!structured && a.lines.length <= 2) {
    w.leaf("AdresL1", a.lines[0], ".lines[0]");
    w.leaf("AdresL2", a.lines[1], ".lines[1]");
  } else {
    const reason = "FA(3) keeps an address as two lines of text: written into AdresL2";
    const second: string[] = a.lines.slice(1);
    for (let i = 1; i < a.lines.length; i++) lose(losses, `${f}.lines[${i}]`, a.lines[i], reason);
    const place = [a.postal_code, a.city].filter((x) => x !== null).join(" ");
    if (place !== "") second.push(place);
    if (a.subdivision !== null) second.push(a.subdivision);
    loseFields(losses, a, ["postal_code", "city", "subdivision"], f, reason);
    const l1 = a.lines[0] ?? second.shift();
    w.leaf("AdresL1", l1, ".lines[0]");
    w.leaf("AdresL2", second.length > 0 ? second.join(", ") : null, ".lines[1]");
  }
  w.leaf("GLN", a.gln, ".gln");
  w.close();
}
