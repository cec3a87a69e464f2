/**
 * The closing sections: notes (BG-1, with their subject code), KSeF DodatkowyOpis not tied to
 * a line, attachments (KSeF Zalacznik blocks with their metadata, paragraphs and tables; EN
 * 16931 supporting documents by id, description, location and file name, never their content),
 * and the KSeF footer: registers (full name, KRS, REGON, BDO) and the Stopka text.
 * @module
 */

import type { AttachmentTable } from "../../invoice/model.ts";
import { clean, flowBlock, flowHeading, paragraphs, styled, type RenderContext, space } from "../blocks.ts";
import { flowFields, type Field } from "../fields.ts";
import { type Column, CONTENT_WIDTH, LEFT } from "../layout.ts";
import { flowTable } from "../table.ts";

/** Draws notes and the additional information not tied to a line. */
export function drawNotes(ctx: RenderContext): void {
  const { invoice: inv, labels: L } = ctx;
  const paras = inv.notes.flatMap((n) => paragraphs(ctx, n.subject_code === null ? n.text : `${n.subject_code}: ${n.text}`));
  if (paras.length > 0) {
    flowHeading(ctx, L.notes, 12);
    for (const p of paras) flowBlock(ctx, LEFT, styled(ctx, p, CONTENT_WIDTH, 8.5, false, 0, 2));
    space(ctx, 10);
  }
  const lineNumbers = new Set(inv.lines.map((l) => l.number));
  const general = inv.additional_info.filter((a) => a.line_number === null || !lineNumbers.has(a.line_number));
  if (general.length > 0) {
    const fields: Field[] = general.map((a) => {
      const key = a.line_number === null ? a.key ?? "" : `${L.line} ${a.line_number}${a.key === null ? "" : `: ${a.key}`}`;
      return [key, a.value ?? ""];
    });
    flowHeading(ctx, L.additionalInfo, 12);
    flowFields(ctx, fields, 1, 8.5);
    space(ctx, 8);
  }
}

/** Draws the attachments: KSeF Zalacznik blocks and EN 16931 supporting documents. */
export function drawAttachments(ctx: RenderContext): void {
  const { invoice: inv, labels: L } = ctx;
  if (inv.attachments.length === 0) return;
  const ksef = inv.attachments.some((a) => a.paragraphs.length > 0 || a.tables.length > 0 || a.meta.length > 0);
  flowHeading(ctx, ksef ? L.attachments : L.supportingDocs, 20);
  for (const a of inv.attachments) {
    if (a.description !== null && (a.paragraphs.length > 0 || a.tables.length > 0)) flowBlock(ctx, LEFT, styled(ctx, clean(ctx, a.description), CONTENT_WIDTH, 9, true, 0, 4));
    const fields: Field[] = [
      [L.identifier, a.id], ...(a.paragraphs.length > 0 || a.tables.length > 0 ? [] : [[L.description, a.description] as Field]),
      [L.url, a.url], [L.file, [a.filename, a.mime_code === null ? null : `(${a.mime_code})`].filter((s) => s !== null).join(" ")],
      ...a.meta.map((m): Field => [m.key ?? "", m.value]),
    ];
    flowFields(ctx, fields, 2);
    for (const p of a.paragraphs) for (const s of paragraphs(ctx, p)) flowBlock(ctx, LEFT, styled(ctx, s, CONTENT_WIDTH, 8.5, false, 0, 2));
    for (const t of a.tables) _table(ctx, t);
    space(ctx, 6);
  }
  space(ctx, 6);
}

/** Columns of an attachment table narrower than this print their text smaller. */
const _NARROW = 52;

function _table(ctx: RenderContext, t: AttachmentTable): void {
  if (t.description !== null) flowBlock(ctx, LEFT, styled(ctx, clean(ctx, t.description), CONTENT_WIDTH, 8.5, true, 0, 3));
  const meta: Field[] = t.meta.map((m) => [m.key ?? "", m.value]);
  flowFields(ctx, meta, 2);
  const n = Math.max(t.columns.length, ...t.rows.map((r) => r.length), t.summary.length);
  if (n === 0) return;
  const w = CONTENT_WIDTH / n;
  const cols: Column[] = Array.from({ length: n }, (_, i) => ({ width: w, align: _numeric(t.columns[i]?.type ?? null) ? "right" : "left" }));
  const rows = t.rows.map((r) => ({ cells: Array.from({ length: n }, (_, i) => clean(ctx, r[i] ?? "")) }));
  if (t.summary.length > 0) rows.push({ cells: Array.from({ length: n }, (_, i) => clean(ctx, t.summary[i] ?? "")) });
  flowTable(ctx, { columns: cols, head: Array.from({ length: n }, (_, i) => clean(ctx, t.columns[i]?.name ?? "")), rows, size: w < _NARROW ? 6.5 : 7.5 });
  // The declared data type of each column (KSeF TKolumna Typ), so the table reads as its issuer defined it.
  const types = t.columns.filter((c) => c.type !== null).map((c) => `${c.name ?? ""}: ${_typeWords(ctx, c.type ?? "")}`);
  if (types.length > 0) {
    flowBlock(ctx, LEFT, styled(ctx, clean(ctx, `${ctx.labels.columnTypes}: ${types.join(" · ")}`), CONTENT_WIDTH, 6.5, false, 0.35));
    space(ctx, 6);
  }
}

/** KSeF TKolumna Typ values in words, [Polish, English]. */
const _TYPE_WORDS: Record<string, readonly [string, string]> = {
  txt: ["tekst", "text"], int: ["liczba całkowita", "integer"], dec: ["liczba", "decimal"],
  date: ["data", "date"], datetime: ["data i czas", "date and time"], time: ["czas", "time"],
};

/** A column type in words with its code ("liczba całkowita (int)"); an unknown code as written. */
function _typeWords(ctx: RenderContext, type: string): string {
  const w = Object.hasOwn(_TYPE_WORDS, type) ? _TYPE_WORDS[type] : undefined; // `type` comes from the invoice
  return w === undefined ? type : `${w[ctx.lang === "pl" ? 0 : 1]} (${type})`;
}

/** KSeF TKolumna Typ values that hold numbers (right-aligned). */
function _numeric(type: string | null): boolean {
  return type === "dec" || type === "int";
}

/** Draws the KSeF registers and footer text (Stopka). */
export function drawFooterSection(ctx: RenderContext): void {
  const { invoice: inv, labels: L } = ctx;
  const fields: Field[] = inv.registers.flatMap((r): Field[] => [[L.fullName, r.full_name], [L.krs, r.krs], [L.regon, r.regon], [L.bdo, r.bdo]]);
  const text = inv.footer.flatMap((f) => paragraphs(ctx, f));
  if (fields.every((f) => f[1] === null) && text.length === 0) return;
  flowHeading(ctx, fields.every((f) => f[1] === null) ? L.footer : L.registers, 12);
  flowFields(ctx, fields, 4);
  for (const p of text) flowBlock(ctx, LEFT, styled(ctx, p, CONTENT_WIDTH, 8, false, 0.2, 2));
  space(ctx, 10);
}
