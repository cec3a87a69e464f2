/**
 * The `convert` command (README "Converting from the command line"): an invoice file, XML or the JSON of a creation
 * (`{"format"?, "invoice": {…}}`, told by its first non-space byte `{`), converted by the code `POST /api/v1/convert`
 * runs (lib/api/conversion.ts), with the losses and any refusal as lines for stderr. Pure: the caller reads the
 * file, gives the reader and validator of XML, prints and exits; no server, no storage.
 * @module
 */
import type { ConversionLossRecord } from "../contracts/storage.ts";
import type { WrittenFormat } from "../formats/invoice/compute.ts";
import type { Violation } from "../formats/validation/violation.ts";
import { ApiError, badRequest } from "../http/errors.ts";
import { duplicateJsonKey } from "../http/json_keys.ts";
import { type ConversionInput, type ConversionOptions, convertToFormat } from "../api/conversion.ts";
import { toApiError } from "../api/errors.ts";
import { schemas } from "../api/openapi/schemas.ts";

/** Exit statuses: done, no valid invoice could be made (README "Converting from the command line"). */
export const CONVERT_EXIT = { ok: 0, refused: 1 } as const;

/** What the command prints and how it exits: `xml` for stdout (or `--out`), `messages` one line each for stderr. */
export interface ConvertOutcome {
  xml: Uint8Array | null;
  messages: string[];
  exit: (typeof CONVERT_EXIT)[keyof typeof CONVERT_EXIT];
}

/** The JSON top-level keys `POST /api/v1/convert` takes (the OpenAPI document's ConvertRequestJson). */
const _JSON_KEYS: ReadonlySet<string> = new Set(Object.keys((schemas()["ConvertRequestJson"] as { properties: object }).properties));
const _SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const _OPEN_BRACE = 0x7b;
const _BOM = [0xef, 0xbb, 0xbf];

/** Converts the bytes of an invoice file to `to`; every failure the input can cause is an outcome, never a throw. */
export async function runConvert(bytes: Uint8Array, to: WrittenFormat, options: ConversionOptions): Promise<ConvertOutcome> {
  try {
    if (bytes.length === 0) throw badRequest("file", "empty", "The input is empty");
    const { xml, losses, report } = await convertToFormat(readConversionInput(bytes), to, options);
    return { xml, messages: [...losses.map(lossLine), ...report.warnings.map(violationLine)], exit: CONVERT_EXIT.ok };
  } catch (caught) {
    const e = toApiError(caught);
    if (!(e instanceof ApiError)) throw e; // a bug: the caller reports it as one
    const violations = (e.details["violations"] ?? []) as Violation[];
    // The message names the first violation: said once, by the violations when there are any.
    return { xml: null, messages: violations.length > 0 ? violations.map(violationLine) : [_oneLine(e.message)], exit: CONVERT_EXIT.refused };
  }
}

/**
 * An invoice file as a conversion's input: the JSON of a creation when its first non-space byte is `{`, read as
 * `POST /api/v1/convert` reads its JSON body (no duplicate key, only `format` and `invoice`), else invoice XML.
 */
export function readConversionInput(bytes: Uint8Array): ConversionInput {
  let i = _BOM.every((b, k) => bytes[k] === b) ? _BOM.length : 0;
  while (i < bytes.length && _SPACE.has(bytes[i]!)) i++;
  if (bytes[i] !== _OPEN_BRACE) return { kind: "xml", bytes };
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest("file", "malformed_json", `The input starts with { but is not valid JSON: ${(e as Error).message}`);
  }
  const dup = duplicateJsonKey(text);
  if (dup !== null) throw badRequest(dup.slice(0, 64), "duplicate key", `The JSON gives the key ${JSON.stringify(dup.slice(0, 64))} twice in one object`);
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw badRequest("file", "not_an_object", "The JSON must be an object");
  for (const key of Object.keys(value)) {
    if (!_JSON_KEYS.has(key)) throw badRequest(key, "unknown parameter", `Unknown field in the JSON: ${key.slice(0, 64)} (it takes ${[..._JSON_KEYS].join(", ")})`);
  }
  return { kind: "json", value: value as Record<string, unknown> };
}

/** One loss as one line: `loss`, the invoice-object field, the value (JSON-quoted) and the reason, tab-separated. */
export function lossLine(loss: ConversionLossRecord): string {
  return ["loss", loss.field, JSON.stringify(loss.value), _oneLine(loss.reason)].join("\t");
}

/** One violation as one line: severity, rule, where (JSON path, XML path, line and column) and message, tab-separated. */
export function violationLine(v: Violation): string {
  const at = v.line === null ? v.path : `${v.path}:${v.line}:${v.column}`;
  const where = v.field === undefined ? at : at === "/" ? v.field : `${v.field} ${at}`; // "/": no XML path, the whole file
  return [v.severity, v.rule, where, _oneLine(v.message)].join("\t");
}

/** Text from the input (a reason, a message quoting a value) on one line: control characters as spaces. */
function _oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ");
}
