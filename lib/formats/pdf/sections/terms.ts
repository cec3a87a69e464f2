/**
 * KSeF WarunkiTransakcji (contracts, orders, batch numbers, delivery terms, contract rate,
 * transports with carrier, cargo and route, intermediary) and the order of an advance invoice
 * (KSeF Zamowienie: its value and lines, as a line table).
 * @module
 */

import type { Address, Transport } from "../../invoice/model.ts";
import { flowHeading, type RenderContext, space } from "../blocks.ts";
import { codeWords } from "../code_words.ts";
import { flowFields, type Field } from "../fields.ts";
import { formatDecimal, formatMoney } from "../format.ts";
import { drawLineTable } from "./line_table.ts";
import { addressLines, taxIdField } from "./party_block.ts";

/** Draws the transaction terms; nothing when the invoice has none. */
export function drawTransactionTerms(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  const t = inv.transaction_terms;
  if (t === null) return;
  const dated = (x: { date: string | null; number: string | null }) => [x.number, x.date === null ? null : `${L.dated} ${x.date}`].filter((s) => s !== null).join(" ");
  const fields: Field[] = [
    ...t.contracts.map((c): Field => [L.contract, dated(c)]),
    ...t.orders.map((o): Field => [L.order, dated(o)]),
    [L.batch, t.batch_numbers.join(", ")],
    [L.deliveryTerms, t.delivery_terms],
    [L.contractRate, t.contract_rate === null ? null : formatDecimal(t.contract_rate, lang, 0)],
    [L.contractCurrency, t.contract_currency],
  ];
  if (t.intermediary) fields.push([L.intermediary, L.yes]);
  for (const tr of t.transports) for (const x of _transport(ctx, tr)) fields.push(x);
  flowHeading(ctx, L.transactionTerms, 14);
  flowFields(ctx, fields);
  space(ctx, 8);
}

function _transport(ctx: RenderContext, t: Transport): Field[] {
  const { labels: L, lang } = ctx;
  const place = (a: Address | null) => (a === null ? null : addressLines(a).join(", "));
  const carrier = t.carrier;
  const carrierText = carrier === null ? null : [carrier.name, carrier.tax_id === null ? null : taxIdField(ctx, carrier.tax_id).join(": "), place(carrier.address)].filter((s) => s !== null).join(", ");
  return [
    [L.transportKind, [codeWords(t.kind, lang, "transport"), t.kind_description].filter((s) => s !== null).join(" – ")],
    [L.carrier, carrierText], [L.transportOrder, t.order_number],
    [L.cargo, [codeWords(t.cargo, lang, "cargo"), t.cargo_description].filter((s) => s !== null).join(" – ")],
    [L.packaging, t.packaging], [L.start, t.start?.replace("T", " ") ?? null], [L.end, t.end?.replace("T", " ") ?? null],
    [L.shipFrom, place(t.from)], ...t.via.map((v): Field => [L.shipVia, place(v)]), [L.shipTo, place(t.to)],
  ];
}

/** Draws the orders of an advance invoice (KSeF Zamowienie) as line tables with their value. */
export function drawOrders(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  for (const o of inv.orders) {
    const value = o.value === null ? "" : ` – ${L.orderValue}: ${formatMoney(o.value, inv.currency, lang)}`;
    if (o.lines.length === 0) {
      flowHeading(ctx, `${L.orderTable}${value}`, 10);
      continue;
    }
    drawLineTable(ctx, o.lines, `${L.orderTable}${value}`, false);
  }
}
