/**
 * The date by which an offline invoice must reach KSeF (tryby-offline.md, "Zestawienie trybów wystawiania faktur"
 * and "Termin przesłania faktury do KSeF przy kolejnych zdarzeniach"), in Polish working days (working_days.ts):
 * - offline24 (the seller's choice, art. 106nda of the VAT act): the next working day after the issue date (`P_1`);
 * - offline during a KSeF unavailability announced in the BIP and the interface (art. 106nh): the next working day
 *   after the unavailability ends;
 * - the emergency mode during a KSeF failure (awaria, art. 106nf): 7 working days from the end of the failure.
 * A failure announced while an invoice still waits to be sent (on or before its deadline) moves the deadline to
 * 7 working days from the end of the last such failure; while one lasts there is no date yet; a total failure
 * (awaria całkowita) lifts the obligation to send at all. Computes only: which failures were announced is the caller's.
 * @module
 */
import { addPolishWorkingDays, endOfWarsawDay } from "./working_days.ts";

/** tryby-offline.md: working days to send after a failure (awaria) ends. */
export const FAILURE_WORKING_DAYS = 7;

/** How an offline invoice was issued, with the dates (YYYY-MM-DD, Poland) its deadline counts from. */
export type OfflineIssue =
  | { mode: "offline24"; issueDate: string }
  | { mode: "unavailability"; issueDate: string; unavailabilityEnd: string }
  | { mode: "emergency"; issueDate: string; failureEnd: string };

/** A KSeF failure announced by the Ministry of Finance (BIP and the API): the day announced, the day it ended (null: lasting). */
export interface KsefFailure {
  announced: string;
  ended: string | null;
  /** A total failure (awaria całkowita): invoices need not be sent at all. */
  total?: boolean;
}

/** The deadline, or why there is none: a failure still lasts, or a total failure lifted the obligation. */
export type OfflineDeadline =
  | { deadline: string; endsAt: number }
  | { deadline: null; reason: "failure_ongoing" | "total_failure" };

/**
 * The deadline of an invoice issued as `issue`, given the failures announced so far (any order); `endsAt` is the
 * instant (ms) the deadline day ends in Europe/Warsaw, for a "deadline near" warning.
 */
export function offlineDeadline(issue: OfflineIssue, failures: readonly KsefFailure[] = []): OfflineDeadline {
  let deadline = issue.mode === "offline24" ? addPolishWorkingDays(issue.issueDate, 1)
    : issue.mode === "unavailability" ? addPolishWorkingDays(issue.unavailabilityEnd, 1)
    : addPolishWorkingDays(issue.failureEnd, FAILURE_WORKING_DAYS);
  // Failures in the order announced; one counts when announced after the issue and while the invoice still waits.
  for (const f of [...failures].sort((a, b) => a.announced.localeCompare(b.announced))) {
    if (f.announced < issue.issueDate || f.announced > deadline) continue;
    if (f.total === true) return { deadline: null, reason: "total_failure" };
    if (f.ended === null) return { deadline: null, reason: "failure_ongoing" };
    deadline = addPolishWorkingDays(f.ended, FAILURE_WORKING_DAYS);
  }
  return { deadline, endsAt: endOfWarsawDay(deadline) };
}
