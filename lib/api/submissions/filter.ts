/**
 * The filters of the submissions feed (README "Sending to KSeF"): `ksef_status`, `ksef_mode`, `overdue`, `format` and `type`, validated
 * like the documents' filters (a bad value is 400 with `details.field`), and a canonical key that binds a cursor
 * to them.
 * @module
 */
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../../formats/invoice/vocabulary.ts";
import { badRequest } from "../../http/errors.ts";
import type { KsefSendStatus, SubmissionFilter } from "../../contracts/storage.ts";
import { nearDeadlinesBefore } from "../../ksef/deadline_near.ts";
import { KSEF_MODES } from "./create.ts";

export const KSEF_SEND_STATUSES: readonly KsefSendStatus[] = ["queued", "sending", "accepted", "rejected"];

function _oneOf<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw badRequest(name, "invalid_value", `${name} must be one of ${allowed.join(", ")}`);
  return v as T;
}

/** The submissions feed's filters and their canonical key ("" for none, as before filters existed). */
export function parseSubmissionFilter(q: URLSearchParams, now: number, deadlineNearMs: number): { filter: SubmissionFilter; filterKey: string } {
  const filter: SubmissionFilter = {};
  const status = _oneOf(q, "ksef_status", KSEF_SEND_STATUSES);
  if (status) filter.ksef_status = status;
  const mode = _oneOf(q, "ksef_mode", KSEF_MODES);
  if (mode) filter.ksef_mode = mode;
  // `overdue` takes only true (false would mean "all but these", which no client asked for); the cursor is bound to
  // `overdue` itself, not to the day it compares with, so a feed followed across midnight keeps its cursor.
  const overdue = _oneOf(q, "overdue", ["true"]);
  if (overdue) filter.deadline_before = nearDeadlinesBefore(now, deadlineNearMs);
  const format = _oneOf(q, "format", INVOICE_FORMATS);
  if (format) filter.format = format;
  const type = _oneOf(q, "type", DOCUMENT_TYPES);
  if (type) filter.type = type;
  const { deadline_before: _day, ...keyed } = filter;
  const entries = Object.entries(overdue ? { ...keyed, overdue } : keyed).sort(([a], [b]) => (a < b ? -1 : 1));
  return { filter, filterKey: entries.length === 0 ? "" : JSON.stringify(entries) };
}
