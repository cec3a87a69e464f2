/**
 * Reads the fonts shipped with the project for PDF rendering: Liberation Sans 2.1.5 regular and
 * bold (SIL Open Font License 1.1, see LICENSE here; metric-compatible with Helvetica and Arial),
 * from this folder, wherever the project is installed. lib/ gets the bytes from here, as it does
 * no I/O itself. Node (tsx or type stripping) and Deno both resolve `import.meta.url` to a file: URL.
 * @module
 */

import { readFileSync } from "node:fs";
import type { PdfFontFiles } from "../../lib/formats/pdf/pdf_fonts.ts";

/** The shipped regular and bold TrueType files; read synchronously, as it happens once at start-up. */
export function readPdfFontFiles(): PdfFontFiles {
  return {
    regular: readFileSync(new URL("./LiberationSans-Regular.ttf", import.meta.url)),
    bold: readFileSync(new URL("./LiberationSans-Bold.ttf", import.meta.url)),
  };
}
