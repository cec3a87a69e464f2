import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { offlineDeadline, type KsefFailure, type OfflineIssue } from "../../lib/ksef/offline_deadline.ts";

describe("offlineDeadline()", () => {
  const cases: { what: string; issue: OfflineIssue; failures?: KsefFailure[]; expected: string | null }[] = [
    { what: "offline24: the next working day", issue: { mode: "offline24", issueDate: "2025-07-08" }, expected: "2025-07-09" },
    { what: "offline24 on a Friday before Easter", issue: { mode: "offline24", issueDate: "2026-04-03" }, expected: "2026-04-07" },
    { what: "offline24 before Christmas 2025", issue: { mode: "offline24", issueDate: "2025-12-23" }, expected: "2025-12-29" },
    {
      what: "tryby-offline.md's example: offline24, a failure announced on the deadline day, ended on Saturday 12 July",
      issue: { mode: "offline24", issueDate: "2025-07-08" }, failures: [{ announced: "2025-07-09", ended: "2025-07-12" }], expected: "2025-07-22",
    },
    {
      what: "offline24 with a failure announced after the deadline: not moved",
      issue: { mode: "offline24", issueDate: "2025-07-08" }, failures: [{ announced: "2025-07-10", ended: "2025-07-12" }], expected: "2025-07-09",
    },
    { what: "offline during an unavailability: the next working day after its end", issue: { mode: "unavailability", issueDate: "2026-04-01", unavailabilityEnd: "2026-04-03" }, expected: "2026-04-07" },
    {
      what: "offline during an unavailability, then a failure",
      issue: { mode: "unavailability", issueDate: "2026-11-09", unavailabilityEnd: "2026-11-10" }, failures: [{ announced: "2026-11-12", ended: "2026-11-12" }], expected: "2026-11-23",
    },
    { what: "emergency: 7 working days from the failure's end, over Christmas and New Year", issue: { mode: "emergency", issueDate: "2025-12-19", failureEnd: "2025-12-22" }, expected: "2026-01-07" },
    {
      what: "emergency: another failure within the 7 days starts the count again from its end",
      issue: { mode: "emergency", issueDate: "2026-03-02", failureEnd: "2026-03-02" },
      failures: [{ announced: "2026-03-10", ended: "2026-03-12" }], expected: "2026-03-23",
    },
    {
      what: "emergency around Corpus Christi 2027",
      issue: { mode: "emergency", issueDate: "2027-05-20", failureEnd: "2027-05-21" }, expected: "2027-06-02",
    },
  ];
  for (const { what, issue, failures, expected } of cases) {
    test(`offlineDeadline(): ${what}`, () => {
      const r = offlineDeadline(issue, failures);
      assert.equal(r.deadline, expected);
    });
  }

  test("offlineDeadline() gives the instant the deadline ends in Warsaw (midnight local time, winter and summer)", () => {
    const winter = offlineDeadline({ mode: "offline24", issueDate: "2026-01-09" });
    assert.deepEqual(winter, { deadline: "2026-01-12", endsAt: Date.parse("2026-01-12T23:00:00Z") });
    const summer = offlineDeadline({ mode: "offline24", issueDate: "2025-07-08" }, [{ announced: "2025-07-09", ended: "2025-07-12" }]);
    assert.deepEqual(summer, { deadline: "2025-07-22", endsAt: Date.parse("2025-07-22T22:00:00Z") });
  });

  test("offlineDeadline() has no date while an announced failure lasts, and none at all after a total failure", () => {
    const issue: OfflineIssue = { mode: "offline24", issueDate: "2026-05-04" };
    assert.deepEqual(offlineDeadline(issue, [{ announced: "2026-05-05", ended: null }]), { deadline: null, reason: "failure_ongoing" });
    assert.deepEqual(offlineDeadline(issue, [{ announced: "2026-05-05", ended: null, total: true }]), { deadline: null, reason: "total_failure" });
    // Failures in any order: the one announced last (within the waiting period) counts.
    assert.equal(offlineDeadline(issue, [{ announced: "2026-05-12", ended: "2026-05-13" }, { announced: "2026-05-05", ended: "2026-05-06" }]).deadline, "2026-05-22");
  });
});
