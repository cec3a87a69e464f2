/**
 * The invoice's details in two columns, as the KSeF visualisation's "Szczegóły": kind, place
 * of issue, delivery period, VAT point date, currencies and exchange rates, KSeF markers (FP,
 * TP), and the EN 16931 references (buyer reference BT-10, project, contract, orders, advices,
 * tender, invoiced object, accounting reference) with KSeF advance invoices and WZ notes.
 * @module
 */

import { flowHeading, type RenderContext, space } from "../blocks.ts";
import { flowFields, present, type Field } from "../fields.ts";
import { formatDecimal } from "../format.ts";

/** Draws the details section; nothing when it has no field. */
export function drawDetails(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  const r = inv.references;
  const d = inv.delivery;
  const fields: Field[] = [
    // The title says the kind in words; the code as written (and the list's English text in English).
    [L.kind, inv.kind === null ? null : inv.kind.text === null || lang === "pl" ? inv.kind.code : `${inv.kind.code} – ${inv.kind.text}`],
    [L.issuePlace, inv.issue_place],
    [L.period, _period(ctx, d?.period?.start ?? null, d?.period?.end ?? null, d?.period?.description ?? null)],
    [L.taxPointDate, inv.tax_point_date],
    [L.taxPointCode, inv.tax_point_date_code],
    [L.taxCurrency, inv.tax_currency !== null && inv.tax_currency !== inv.currency ? inv.tax_currency : null],
  ];
  for (const x of inv.exchange_rates) {
    // Line rates are printed under their line, the contract rate with the transaction terms.
    if (x.applies_to === "line" || (x.applies_to === "contract" && inv.transaction_terms?.contract_rate === x.rate)) continue;
    const label = x.applies_to === "advance" ? L.rateOfAdvance : x.applies_to === "before_correction" ? L.rateBefore : x.applies_to === "contract" ? L.contractRate : L.exchangeRate;
    const pair = x.from_currency !== null && x.to_currency !== null ? ` ${x.from_currency}/${x.to_currency}` : "";
    fields.push([label, `${formatDecimal(x.rate, lang, 0)}${pair}${x.date === null ? "" : ` (${x.date})`}`]);
  }
  fields.push(
    [L.createdAt, inv.created_at?.replace("T", " ") ?? null],
    [L.buyerReference, r.buyer_reference], [L.project, r.project], [L.contract, r.contract], [L.order, r.order],
    [L.salesOrder, r.sales_order], [L.receivingAdvice, r.receiving_advice], [L.despatchAdvice, r.despatch_advice],
    [L.tender, r.tender],
    [L.invoicedObject, r.invoiced_object === null ? null : r.invoiced_object.scheme === null ? r.invoiced_object.value : `${r.invoiced_object.value} (${r.invoiced_object.scheme})`],
    [L.accountingRef, r.accounting_reference],
    // An advance invoice without a KSeF number was issued outside KSeF (NrKSeFZN).
    [L.advanceInvoices, r.advance_invoices.map((a) => [a.number, a.ksef_number === null ? `(${L.outsideKsef})` : `${L.ksefNumber} ${a.ksef_number}`].filter((s) => s !== null).join(" ")).join("; ")],
    [L.deliveryNotes, r.delivery_notes.join(", ")],
  );
  const m = inv.markers;
  if (m?.receipt_invoice) fields.push([L.receiptInvoice, L.yes]);
  if (m?.related_parties) fields.push([L.relatedParties, L.yes]);
  if (m?.excise_refund) fields.push([L.exciseRefund, L.yes]);
  if (present(fields).length === 0) return;
  flowHeading(ctx, L.details, 14);
  flowFields(ctx, fields);
  space(ctx, 8);
}

function _period(ctx: RenderContext, start: string | null, end: string | null, code: string | null): string | null {
  if (start === null && end === null) return null;
  const L = ctx.labels;
  const s = [start === null ? null : `${L.from} ${start}`, end === null ? null : `${L.to} ${end}`].filter((x) => x !== null).join(" ");
  return code === null ? s : `${s} (${code})`;
}
