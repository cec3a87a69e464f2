import assert from "node:assert/strict";
import { test } from "node:test";
import { newSubmission, submissionJson, withKsef } from "../../../lib/contracts/record_json.ts";
import type { SubmissionKsef, SubmissionRecord } from "../../../lib/contracts/storage.ts";
import { subColumns, subColumnsOf } from "../../../storage/file/columns.ts";

const ksef = (status: SubmissionKsef["status"]): SubmissionKsef => ({
  status, ksef_number: status === "accepted" ? "5265877635-20261125-010000000001-4B" : null, acquired_at: null, session: null,
  session_type: null, reference: null, attempts: 1, error: null, updated_at: "2026-11-27T10:00:00.000Z",
});

const base = newSubmission("sub_01M8DGMBWP0000000HWY44BB0M", {
  fields: {
    format: "ksef-fa3", type: "invoice", number: "FV/1", issue_date: "2026-11-25", currency: "PLN",
    seller: { name: "A", tax_id: "5265877635" }, buyer: { name: "B", tax_id: "1111111111" }, totals: { net: "100", tax: "23", gross: "123" },
    validation: { valid: true, checks: [], errors: [], warnings: [] },
  },
  xml: { sha256: "bf53673a417e59ca3a255bd4015b379c9fe8ac9992773c33783370ed168a675c", size: 2967 },
  send: true,
}, "2026-11-27T09:00:00.000Z");

const cases: { what: string; record: SubmissionRecord }[] = [
  { what: "a new submission to be sent", record: base },
  ...(["sending", "accepted", "rejected"] as const).map((s) => ({ what: `one ${s}`, record: withKsef(base, ksef(s)) })),
  { what: "one not sent, of no known format or date", record: { ...base, ksef: null, format: null, type: null, issue_date: null } },
];

for (const { what, record } of cases) {
  test(`subColumnsOf() of ${what} equals subColumns() of its stored JSON (what a restart rebuilds)`, () => {
    assert.deepEqual(subColumnsOf(record), subColumns(new TextEncoder().encode(submissionJson(record))));
  });
}
