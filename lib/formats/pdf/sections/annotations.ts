/**
 * KSeF Adnotacje with the wording the Ministry of Finance's visualisation prints: cash
 * accounting (metoda kasowa), self-billing (samofakturowanie), reverse charge (odwrotne
 * obciążenie), split payment (mechanizm podzielonej płatności), the legal basis of an exemption,
 * intra-Community supply of new means of transport with each vehicle, the simplified triangular
 * procedure and margin schemes. Only what applies is printed; nothing for UBL and CII.
 * @module
 */

import type { NewVehicle } from "../../invoice/model.ts";
import { clean, flowBlock, flowHeading, styled, type RenderContext, type StyledLine, space } from "../blocks.ts";
import { codeWords } from "../code_words.ts";
import { fieldBlock, type Field } from "../fields.ts";
import { CONTENT_WIDTH, LEFT } from "../layout.ts";

/** Draws the annotations that apply; nothing when none does. */
export function drawAnnotations(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  const a = inv.annotations;
  if (a === null) return;
  const lines: StyledLine[] = [];
  const flag = (on: boolean, text: string) => {
    if (on) for (const x of styled(ctx, clean(ctx, text), CONTENT_WIDTH, 9, true, 0, 3)) lines.push(x);
  };
  flag(a.cash_accounting, L.cashAccounting);
  flag(a.self_billing, L.selfBilling);
  flag(a.reverse_charge, L.reverseCharge);
  flag(a.split_payment, L.splitPayment);
  if (a.exemption.applies) {
    flag(true, L.exemption);
    for (const x of fieldBlock(ctx, [[L.exemptAct, a.exemption.act], [L.exemptDirective, a.exemption.directive], [L.exemptOther, a.exemption.other]], CONTENT_WIDTH, 8.5)) lines.push(x);
  }
  if (a.new_transport.applies) {
    flag(true, L.newTransport);
    if (a.new_transport.art_42_5) for (const x of styled(ctx, clean(ctx, L.art42), CONTENT_WIDTH, 8.5)) lines.push(x);
    for (const v of a.new_transport.vehicles) for (const x of fieldBlock(ctx, _vehicle(ctx, v), CONTENT_WIDTH, 8)) lines.push(x);
  }
  flag(a.triangular, L.triangular);
  if (a.margin.applies) flag(true, `${L.margin}${a.margin.scheme === null ? "" : `: ${codeWords(a.margin.scheme, lang, "margin")}`}`);
  if (lines.length === 0) return;
  flowHeading(ctx, L.annotations, 14);
  flowBlock(ctx, LEFT, lines);
  space(ctx, 10);
}

/** One vehicle as a single field: line, date of first use, make, model, colour, registration, year, usage. */
function _vehicle(ctx: RenderContext, v: NewVehicle): Field[] {
  const L = ctx.labels;
  const bits = [
    v.first_use_date === null ? null : `${L.firstUse}: ${v.first_use_date}`, v.make === null ? null : `${L.make}: ${v.make}`,
    v.model === null ? null : `${L.model}: ${v.model}`, v.colour === null ? null : `${L.colour}: ${v.colour}`,
    v.registration === null ? null : `${L.registration}: ${v.registration}`, v.year === null ? null : `${L.year}: ${v.year}`,
    ...v.usage.map((u) => `${u.field}: ${u.value}`),
  ].filter((s) => s !== null);
  return [[`${L.line} ${v.line_number ?? ""}`.trim(), bits.join(", ")]];
}
