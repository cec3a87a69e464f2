/**
 * The online-session side runs through the simulator's conformance checks: a request that departs from
 * open-api.json is refused with 21405 and recorded (so the test that sent it fails at `close()`), and its own
 * answers, including the error ones, are held to the operations' documented schemas.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { startKsefSimulator } from "./ksef_simulator.ts";
import { onlineSessions } from "./ksef_simulator_online.ts";
import { readFileSync } from "node:fs";
import { schemaJudge } from "./ksef_simulator_online.ts";
import { fixturePath } from "./server.ts";

const NIP = "5265877635";
const TOKEN = `20251010-EC-1DCE3E3000-12ECB5B36E-45|nip-${NIP}|${"a".repeat(64)}`;
const REF = "20261125-SO-0123456789-0123456789-AB";

test("online-session requests and answers are checked against open-api.json", async () => {
  const online = onlineSessions();
  const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceWrite"] }], routes: online.routes, limitGroup: online.limitGroup });
  try {
    // A body without `encryption` departs from OpenOnlineSessionRequest: refused before the route sees it.
    const bad = await fetch(`${sim.url}/sessions/online`, {
      method: "POST", headers: { authorization: "Bearer x", "content-type": "application/json", "x-error-format": "problem-details" },
      body: JSON.stringify({ formCode: { systemCode: "FA (3)", schemaVersion: "1-0E", value: "FA" } }),
    });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { errors: { code: number }[] }).errors[0]!.code, 21405);
    assert.equal(online.calls.open, undefined, "the route never saw it");
    const seen = sim.takeViolations();
    assert.ok(seen.some((v) => /lacks the required property encryption/.test(v)), seen.join("\n"));

    // Conformant requests the route refuses: its 401 and 400 answers pass the answer checks (none recorded).
    const unknown = await fetch(`${sim.url}/sessions/online/${REF}/close`, { method: "POST", headers: { authorization: "Bearer not-issued" } });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.headers.get("content-type"), "application/problem+json");
    assert.deepEqual(sim.takeViolations(), []);
    assert.equal(online.limitGroup("POST", `/sessions/online/${REF}/invoices`), "online-send");
    assert.equal(sim.stats.requests["online-open"], 1);
  } finally {
    await sim.close();
  }
});

test("the default judge refuses an FA(3) invoice its schema refuses (450) and passes a valid one", () => {
  const text = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"), "utf8");
  assert.equal(schemaJudge(new TextEncoder().encode(text), "FA (3)"), null);
  const broken = schemaJudge(new TextEncoder().encode(text.replace(/<P_2>[^<]*<\/P_2>/, "")), "FA (3)");
  assert.equal(broken?.code, 450);
  assert.ok(broken!.details.length > 0, "the schema's finding is in the details");
});
