import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { addPolishWorkingDays, easterSunday, endOfWarsawDay, isPolishWorkingDay, polishPublicHolidays, warsawDate } from "../../lib/ksef/working_days.ts";

describe("Polish working days", () => {
  test("easterSunday() follows the Gregorian computus", () => {
    const cases = [
      { input: 2008, expected: "2008-03-23" }, { input: 2019, expected: "2019-04-21" }, { input: 2024, expected: "2024-03-31" },
      { input: 2025, expected: "2025-04-20" }, { input: 2026, expected: "2026-04-05" }, { input: 2027, expected: "2027-03-28" },
      { input: 2038, expected: "2038-04-25" }, { input: 2285, expected: "2285-03-22" },
    ];
    for (const { input, expected } of cases) assert.equal(easterSunday(input), expected, String(input));
  });

  test("polishPublicHolidays() lists the statutory days, Christmas Eve from 2025 and Epiphany from 2011", () => {
    assert.deepEqual(polishPublicHolidays(2026), [
      "2026-01-01", "2026-01-06", "2026-04-05", "2026-04-06", "2026-05-01", "2026-05-03", "2026-05-24", "2026-06-04",
      "2026-08-15", "2026-11-01", "2026-11-11", "2026-12-24", "2026-12-25", "2026-12-26",
    ]);
    const y2027 = polishPublicHolidays(2027);
    for (const d of ["2027-03-28", "2027-03-29", "2027-05-16", "2027-05-27"]) assert.ok(y2027.includes(d), d);
    assert.ok(!polishPublicHolidays(2024).includes("2024-12-24"));
    assert.ok(polishPublicHolidays(2025).includes("2025-12-24"));
    assert.ok(!polishPublicHolidays(2010).includes("2010-01-06"));
  });

  test("addPolishWorkingDays(d, 1) is the next working day, over weekends and holidays", () => {
    const cases = [
      { what: "a Friday, over the weekend", input: "2026-01-09", expected: "2026-01-12" },
      { what: "a Saturday", input: "2026-01-10", expected: "2026-01-12" },
      { what: "Maundy Thursday (Good Friday is a working day)", input: "2026-04-02", expected: "2026-04-03" },
      { what: "Good Friday 2026, over Easter Sunday and Monday", input: "2026-04-03", expected: "2026-04-07" },
      { what: "Good Friday 2027", input: "2027-03-26", expected: "2027-03-30" },
      { what: "the day before Corpus Christi 2026", input: "2026-06-03", expected: "2026-06-05" },
      { what: "the day before Corpus Christi 2027", input: "2027-05-26", expected: "2027-05-28" },
      { what: "23 December 2025, over Christmas Eve, Christmas and the weekend", input: "2025-12-23", expected: "2025-12-29" },
      { what: "23 December 2024 (Christmas Eve not yet a holiday)", input: "2024-12-23", expected: "2024-12-24" },
      { what: "New Year's Eve 2025", input: "2025-12-31", expected: "2026-01-02" },
      { what: "5 January 2026, over Epiphany", input: "2026-01-05", expected: "2026-01-07" },
      { what: "10 November 2026, over Independence Day", input: "2026-11-10", expected: "2026-11-12" },
      { what: "30 April 2026, over 1 May (Friday) and the weekend with 3 May", input: "2026-04-30", expected: "2026-05-04" },
      { what: "30 April 2025, 2 May being a working day", input: "2025-04-30", expected: "2025-05-02" },
      { what: "Friday 14 August 2026 (15 August on a Saturday)", input: "2026-08-14", expected: "2026-08-17" },
      { what: "Friday 30 October 2026 (1 November on a Sunday)", input: "2026-10-30", expected: "2026-11-02" },
    ];
    for (const { what, input, expected } of cases) assert.equal(addPolishWorkingDays(input, 1), expected, what);
    assert.equal(isPolishWorkingDay("2026-04-03"), true);
    assert.equal(isPolishWorkingDay("2026-06-04"), false);
  });

  test("addPolishWorkingDays() counts several working days and refuses a bad count or date", () => {
    assert.equal(addPolishWorkingDays("2025-07-12", 7), "2025-07-22"); // tryby-offline.md's example
    assert.equal(addPolishWorkingDays("2025-12-22", 7), "2026-01-07");
    assert.throws(() => addPolishWorkingDays("2026-01-01", 0), RangeError);
    for (const bad of ["2026-02-30", "2026-1-01", "20260101", ""]) assert.throws(() => addPolishWorkingDays(bad, 1), /Not a calendar date/, bad);
  });

  test("endOfWarsawDay() and warsawDate() agree with the runtime's Europe/Warsaw time zone for every day of 2025-2027", () => {
    const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const local = (ms: number) => {
      const p = Object.fromEntries(parts.formatToParts(ms).map((x) => [x.type, x.value]));
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
    };
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) {
      const date = new Date(t).toISOString().slice(0, 10);
      const end = endOfWarsawDay(date);
      assert.equal(local(end), `${addDays(date, 1)} 00:00`, date);
      assert.equal(local(end - 60_000), `${date} 23:59`, date);
      assert.equal(warsawDate(end - 1), date);
      assert.equal(warsawDate(end), addDays(date, 1));
    }
    assert.equal(new Date(endOfWarsawDay("2026-03-28")).toISOString(), "2026-03-28T23:00:00.000Z");
    assert.equal(new Date(endOfWarsawDay("2026-03-29")).toISOString(), "2026-03-29T22:00:00.000Z");
    assert.equal(new Date(endOfWarsawDay("2026-10-25")).toISOString(), "2026-10-25T23:00:00.000Z");
  });
});

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
