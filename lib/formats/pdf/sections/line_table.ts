/**
 * The line items table with the columns the data has: number, name, quantity and unit, then
 * money columns in order of importance (net and gross unit price, discount, net and gross
 * amount, VAT amount) as far as they fit beside a readable name column, and the VAT rate.
 * Money columns that do not fit go to a second table keyed by line number. Everything else a
 * line carries (codes, period, attributes, notes, KSeF DodatkowyOpis of the line) is printed
 * under its row. Also draws the order table of an advance invoice (KSeF Zamowienie).
 * @module
 */

import type { InvoiceLine } from "../../invoice/model.ts";
import { clean, flowHeading, type RenderContext, type StyledLine } from "../blocks.ts";
import { isKsef, unitName } from "../code_words.ts";
import { formatAmount, formatDecimal, formatRate } from "../format.ts";
import { type Column, CONTENT_WIDTH } from "../layout.ts";
import { lineDetails } from "./line_details.ts";
import { fitColumns, flowTable, type TableRow } from "../table.ts";

/** A money column: which value, its label, and its width. */
interface _Money {
  key: "net_price" | "price_with_vat" | "discount" | "net_amount" | "amount_with_vat" | "vat_amount";
  label: "unitPriceNet" | "unitPriceGross" | "discount" | "amountNet" | "amountGross" | "vatAmount";
  width: number;
}

/** Money columns in the order they claim room. */
const _MONEY: readonly _Money[] = [
  { key: "net_price", label: "unitPriceNet", width: 58 },
  { key: "net_amount", label: "amountNet", width: 64 },
  { key: "price_with_vat", label: "unitPriceGross", width: 58 },
  { key: "amount_with_vat", label: "amountGross", width: 64 },
  { key: "discount", label: "discount", width: 48 },
  { key: "vat_amount", label: "vatAmount", width: 56 },
];
/** Order in which the chosen columns are printed, left to right. */
const _PRINT_ORDER: readonly _Money["key"][] = ["net_price", "price_with_vat", "discount", "net_amount", "amount_with_vat", "vat_amount"];
/** The name column keeps at least this width (about 30 characters at 8 pt). */
const _NAME_MIN = 130;
/**
 * FA_RR(1) lines always have all four amounts (P_7, P_8, P_10, P_11) and short produce names ("Pszenica"):
 * a narrower name column keeps the four in one table.
 */
const _NAME_MIN_RR = 118;
const _NO_W = 24;
const _QTY_W = 46;
const _UNIT_W = 34;
const _UNIT_W_CODED = 50;
const _RATE_W = 44;
const _SHADE_BEFORE = 0.93;
/** Width of a money column of the second, keyed table. */
const _KEYED_W = 76;

/** Draws the invoice's line table (and the keyed table of columns that did not fit). */
export function drawLines(ctx: RenderContext): void {
  drawLineTable(ctx, ctx.invoice.lines, ctx.labels.lines, true);
}

/** Draws `lines` as a table under `heading`; `notes` adds the KSeF DodatkowyOpis tied to each line. */
export function drawLineTable(ctx: RenderContext, lines: readonly InvoiceLine[], heading: string, notes: boolean): void {
  const { labels: L, lang, invoice: inv } = ctx;
  if (lines.length === 0) return;
  const has = (f: (l: InvoiceLine) => unknown) => lines.some((l) => f(l) !== null && f(l) !== undefined);
  const qty = has((l) => l.quantity);
  const unit = has((l) => l.unit);
  const rate = has((l) => l.vat_rate ?? l.vat_category);
  // UN/ECE unit codes print with their name ("pcs (C62)"), KSeF units are short words.
  const unitW = isKsef(inv) ? _UNIT_W : _UNIT_W_CODED;
  let room = CONTENT_WIDTH - _NO_W - (inv.format === "ksef-fa-rr1" ? _NAME_MIN_RR : _NAME_MIN) - (qty ? _QTY_W : 0) - (unit ? unitW : 0) - (rate ? _RATE_W : 0);
  const shown: _Money[] = [];
  const keyed: _Money[] = [];
  for (const m of _MONEY) {
    if (!has((l) => l[m.key])) continue;
    if (m.width <= room) {
      shown.push(m);
      room -= m.width;
    } else keyed.push(m);
  }
  shown.sort((a, b) => _PRINT_ORDER.indexOf(a.key) - _PRINT_ORDER.indexOf(b.key));
  const cols: Column[] = [{ width: _NO_W, align: "right" }, { width: 0, align: "left" }];
  const head = [L.lineNo, L.name];
  if (qty) cols.push({ width: _QTY_W, align: "right" }), head.push(L.quantity);
  if (unit) cols.push({ width: unitW, align: "left" }), head.push(L.unit);
  for (const m of shown) cols.push({ width: m.width, align: "right" }), head.push(L[m.label]);
  if (rate) cols.push({ width: _RATE_W, align: "right" }), head.push(L.vatRate);
  const hasBefore = lines.some((l) => l.before_correction);
  const detailW = CONTENT_WIDTH - _NO_W - 6;
  const rows: TableRow[] = lines.map((line, i) => {
    const cells = [clean(ctx, line.number ?? String(i + 1)), clean(ctx, line.name)];
    if (qty) cells.push(line.quantity === null ? "" : clean(ctx, formatDecimal(line.quantity, lang, 0)));
    if (unit) cells.push(clean(ctx, unitName(inv, line.unit, lang)));
    for (const m of shown) cells.push(clean(ctx, formatAmount(line[m.key], lang)));
    if (rate) cells.push(clean(ctx, formatRate(line.vat_rate, isKsef(inv) ? null : line.vat_category?.code ?? null, lang)));
    const below: StyledLine[] = lineDetails(ctx, line, notes, detailW);
    return {
      cells,
      shade: line.before_correction ? _SHADE_BEFORE : null,
      mark: hasBefore ? clean(ctx, line.before_correction ? L.beforeCorrection : L.afterCorrection) : "",
      below,
    };
  });
  flowHeading(ctx, heading, 30);
  flowTable(ctx, { columns: fitColumns(cols), head, rows });
  if (keyed.length > 0) _keyedTable(ctx, lines, keyed);
}

/** The money columns that did not fit, keyed by line number. */
function _keyedTable(ctx: RenderContext, lines: readonly InvoiceLine[], keyed: readonly _Money[]): void {
  const { labels: L, lang } = ctx;
  const cols: Column[] = [{ width: _NO_W + 20, align: "right" }, ...keyed.map((): Column => ({ width: _KEYED_W, align: "right" }))];
  const rows: TableRow[] = [];
  lines.forEach((line, i) => {
    if (keyed.every((m) => line[m.key] === null)) return;
    rows.push({ cells: [clean(ctx, line.number ?? String(i + 1)), ...keyed.map((m) => clean(ctx, formatAmount(line[m.key], lang)))] });
  });
  flowHeading(ctx, L.moreColumns, 24);
  flowTable(ctx, { columns: cols, head: [L.lineNo, ...keyed.map((m) => L[m.label])], rows });
}

