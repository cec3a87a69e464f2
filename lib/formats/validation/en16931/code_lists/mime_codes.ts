/**
 * MIME types an attached document may have (BR-CL-24); compared as written.
 * Codes as the CEN/TC 434 validation artefacts 1.3.16 carry them (EUPL-1.2; see code_list.ts).
 * @module
 */
import { codeList } from "./code_list.ts";

/** Allowed attachment MIME type (6 codes). */
export const MIME_CODES = codeList(
  "allowed attachment MIME type",
  "application/pdf image/png image/jpeg text/csv " +
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet " +
    "application/vnd.oasis.opendocument.spreadsheet",
);
