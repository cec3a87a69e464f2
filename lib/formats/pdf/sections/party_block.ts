/**
 * One party as printed: name, trading name, every tax identifier with the label its scheme
 * calls for (NIP without a country prefix, an EU VAT number with its own, a foreign tax id with
 * its country), other identifiers with their scheme, address, correspondence address, contacts,
 * registers and the KSeF role-specific fields. Builds lines only; parties.ts places them.
 * @module
 */

import type { Address, Party, TaxId } from "../../invoice/model.ts";
import { clean, paragraphs, styled, type RenderContext, type StyledLine } from "../blocks.ts";
import { codeWords, isKsef } from "../code_words.ts";
import { fieldBlock, type Field } from "../fields.ts";

/** Text size of a party's name and of its address lines. */
const _NAME_SIZE = 9.5;
const _TEXT_SIZE = 8.5;

/** The lines of one party `width` wide, under an optional heading line. */
export function partyLines(ctx: RenderContext, p: Party, width: number, heading: string | null = null, extra: readonly Field[] = []): StyledLine[] {
  const L = ctx.labels;
  const out: StyledLine[] = [];
  for (const x of styled(ctx, clean(ctx, p.name), width, _NAME_SIZE, true)) out.push(x);
  if (p.address !== null) for (const line of addressLines(p.address)) for (const s of paragraphs(ctx, line)) for (const x of styled(ctx, s, width, _TEXT_SIZE)) out.push(x);
  const fields: Field[] = [...extra, [L.tradingName, p.trading_name]];
  for (const t of [p.tax_id, ...p.other_tax_ids]) if (t !== null) fields.push(taxIdField(ctx, t));
  fields.push([L.vatPrefix, p.vat_prefix]);
  if (p.no_tax_id) fields.push([L.foreignTaxId, L.noTaxId]);
  for (const id of p.identifiers) {
    const label = id.scheme === "IDWew" ? L.internalId : id.scheme === "EORI" ? L.eori : L.identifier;
    fields.push([label, id.scheme === "IDWew" || id.scheme === "EORI" || id.scheme === null ? id.value : `${id.value} (${id.scheme})`]);
  }
  if (p.electronic_address !== null) fields.push([L.electronicAddress, _withScheme(p.electronic_address.value, p.electronic_address.scheme)]);
  for (const r of p.registers) fields.push([L.legalRegistration, _withScheme(r.value, r.scheme)]);
  fields.push([L.legalInfo, p.legal_info]);
  if (p.address?.gln) fields.push([L.gln, p.address.gln]);
  if (p.correspondence_address !== null) fields.push([L.corrAddress, addressLines(p.correspondence_address).join(", ")]);
  if (p.correspondence_address?.gln) fields.push([L.gln, p.correspondence_address.gln]);
  for (const c of p.contacts) {
    fields.push([L.contact, c.name], [L.department, c.department], [L.phone, c.phone], [L.email, c.email], [L.fax, c.fax]);
  }
  fields.push([L.status, codeWords(p.status, ctx.lang, "status")], [L.customerNumber, p.customer_number], [L.supplierNumber, p.supplier_number], [L.buyerId, p.buyer_id]);
  if (p.jst === true) fields.push([L.jst, L.yes]);
  if (p.gv === true) fields.push([L.gv, L.yes]);
  const block = fieldBlock(ctx, fields, width);
  if (block[0] !== undefined && out.length > 0) block[0] = { ...block[0], lead: block[0].lead + 2 };
  const body = [...out, ...block];
  if (heading === null || body.length === 0) return body;
  // Room under the heading for the rule drawn there, whatever the first line is.
  body[0] = { ...(body[0] as StyledLine), lead: (body[0] as StyledLine).lead + 5 };
  return [...styled(ctx, clean(ctx, heading), width, 9, true, 0.25), ...body];
}

/** The lines of an address: as written, then post code and city, subdivision, country code. */
export function addressLines(a: Address): string[] {
  const out = a.lines.filter((l) => l.trim() !== "");
  const city = [a.postal_code, a.city].filter((s) => s !== null && s.trim() !== "").join(" ");
  if (city !== "") out.push(city);
  const rest = [a.subdivision, a.country_code].filter((s): s is string => s !== null && s.trim() !== "");
  if (rest.length > 0) out.push(rest.join(", "));
  return out;
}

/** A tax identifier labelled by its scheme: NIP, EU VAT number, tax registration, foreign tax id. */
export function taxIdField(ctx: RenderContext, t: TaxId): Field {
  const L = ctx.labels;
  if (t.scheme === "NIP") return [L.taxId, t.value];
  if (isKsef(ctx.invoice)) {
    return t.scheme === "VAT" ? [L.euVat, _withCountry(t)] : [L.foreignTaxId, _withCountry(t)];
  }
  // UBL PartyTaxScheme/TaxScheme "VAT" or CII SpecifiedTaxRegistration schemeID "VA" (BT-31), "FC" (BT-32).
  const scheme = t.scheme === null || t.scheme === "VAT" ? "" : ` (${t.scheme})`;
  if (t.scheme === "FC") return [L.taxRegistration, `${t.value}${scheme}`];
  if (t.scheme === "VAT" || t.scheme === "VA" || t.scheme === null) return [L.vatId, `${t.value}${scheme}`];
  return [L.foreignTaxId, `${_withCountry(t)}${scheme}`];
}

/** A value with its country in brackets unless the value already starts with it. */
function _withCountry(t: TaxId): string {
  return t.country === null || t.value.startsWith(t.country) ? t.value : `${t.value} (${t.country})`;
}

function _withScheme(value: string, scheme: string | null): string {
  return scheme === null ? value : `${value} (${scheme})`;
}

/** Lines of a block headed by `heading`, or none when it has no fields. */
export function fieldSection(ctx: RenderContext, heading: string, fields: readonly Field[], width: number): StyledLine[] {
  const body = fieldBlock(ctx, fields, width);
  return body.length === 0 ? [] : [...styled(ctx, clean(ctx, heading), width, 9, true, 0.25), ...body.map((l, i) => (i === 0 ? { ...l, lead: l.lead + 3 } : l))];
}

