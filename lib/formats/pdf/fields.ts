/**
 * Label-and-value fields laid out in columns, the way the official KSeF visualisation prints its
 * details: "Label: value" with the label grey, filled row by row, a row moved whole to the next
 * page when it does not fit. Also side-by-side blocks (seller beside buyer). Layout only: the
 * sections decide which fields there are.
 * @module
 */

import { blockHeight, drawBlock, fieldLines, flowBlock, type RenderContext, type StyledLine, space } from "./blocks.ts";
import { CONTENT_WIDTH, LEFT } from "./layout.ts";

/** One field: label and value; a null or blank value leaves the field out. */
export type Field = readonly [label: string, value: string | null | undefined];

/** Horizontal gap between columns. */
export const GUTTER = 18;

/** The fields that have a value. */
export function present(fields: readonly Field[]): Field[] {
  return fields.filter((f) => f[1] !== null && f[1] !== undefined && f[1].trim() !== "");
}

/** Draws fields in `columns` columns at the cursor; a field wider than its column wraps inside it. */
export function flowFields(ctx: RenderContext, fields: readonly Field[], columns = 2, size = 8): void {
  const shown = present(fields);
  if (shown.length === 0) return;
  const w = (CONTENT_WIDTH - GUTTER * (columns - 1)) / columns;
  for (let i = 0; i < shown.length; i += columns) {
    const blocks = shown.slice(i, i + columns).map(([label, value]) => fieldLines(ctx, label, value ?? null, w, size));
    flowColumns(ctx, blocks, w);
  }
  space(ctx, 2);
}

/** Draws blocks side by side at the cursor, each `width` wide; one after another when they are taller than a page. */
export function flowColumns(ctx: RenderContext, blocks: readonly (readonly StyledLine[])[], width: number): void {
  const { flow } = ctx;
  const h = Math.max(0, ...blocks.map(blockHeight));
  if (h === 0) return;
  flow.ensure(h);
  if (h > flow.room()) {
    for (const b of blocks) flowBlock(ctx, LEFT, b);
    return;
  }
  blocks.forEach((b, k) => drawBlock(flow.page, LEFT + k * (width + GUTTER), flow.y, b));
  flow.y += h;
}

/** Field lines of a block `width` wide, one field under another. */
export function fieldBlock(ctx: RenderContext, fields: readonly Field[], width: number, size = 8): StyledLine[] {
  return present(fields).flatMap(([label, value]) => fieldLines(ctx, label, value ?? null, width, size));
}
