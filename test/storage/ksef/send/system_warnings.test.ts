/**
 * KSeF's technical warnings on the sending side (README "Sending to KSeF"; KSeF API 2.6.0: the `X-System-Warning`
 * header, open-api.json `SystemWarning`): the warnings of the requests made for a submission (sending it, reading
 * its status and UPO) are kept on its `ksef.warnings`, each distinct one once; those of session-wide requests are
 * only logged; every one is logged at warn level with the tenant and the request. Through a real server, the
 * sender and the KSeF simulator.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Logger } from "../../../../lib/observe/log.ts";
import { validate, type Schema } from "../../../support/json_schema.ts";
import { fa3, sendSetup } from "./send_setup.ts";

function recordingLogger(): { logger: Logger; warned: Record<string, unknown>[] } {
  const warned: Record<string, unknown>[] = [];
  const none = () => {};
  return { warned, logger: { debug: none, info: none, error: none, warn: (msg, f) => void (msg === "upstream warning" && warned.push(f ?? {})), enabled: () => true } };
}

test("a submission keeps KSeF's warnings on its own requests under ksef.warnings; session-wide ones are logged only", { timeout: 60_000 }, async () => {
  const log = recordingLogger();
  const s = await sendSetup({}, {}, undefined, "online", {}, { logger: log.logger });
  try {
    s.sim.systemWarning = (method, path) => {
      if (method === "POST" && path === "/sessions/online") return "[OPEN-1]: Sesja bez naglowka X-KSeF-Feature";
      if (method === "POST" && /^\/sessions\/online\/[^/]+\/invoices$/.test(path)) return "[SEND-1]: Pole P_1M zostanie wymagane | [SEND-2]: Drugie";
      if (method === "GET" && /^\/sessions\/[^/]+\/invoices\/[^/]+$/.test(path)) return "[SEND-1]: Pole P_1M zostanie wymagane";
      return null;
    };
    const id = String((await s.upload("acme", fa3("WARN/1"))).id);
    await s.settle();
    const sub = await s.get("acme", id);
    const k = sub.ksef as { status: string; session: string; reference: string; warnings: Record<string, unknown>[] };
    assert.equal(k.status, "accepted", JSON.stringify(k));
    // SEND-1 came on the send and again on the status: kept once, with the request that first drew it.
    assert.deepEqual(k.warnings.map((w) => [w.code, w.message, w.operation]), [
      ["SEND-1", "Pole P_1M zostanie wymagane", `POST /sessions/online/${k.session}/invoices`],
      ["SEND-2", "Drugie", `POST /sessions/online/${k.session}/invoices`],
    ]);
    const doc = (await (await s.server.fetch("/api/v1/openapi.json", null)).json()) as { components: { schemas: Record<string, Schema> } };
    assert.deepEqual(validate(doc.components.schemas.SubmissionKsef!, k, doc), []);
    // Logged with the tenant and the request, each distinct warning once (within the hour), the session's too.
    assert.deepEqual(log.warned.map((f) => [f.tenant, f.code, f.operation]).sort(), [
      ["acme", "OPEN-1", "POST /sessions/online"],
      ["acme", "SEND-1", `POST /sessions/online/${k.session}/invoices`],
      ["acme", "SEND-2", `POST /sessions/online/${k.session}/invoices`],
    ].sort());

    // A submission whose requests carry no warning has none.
    s.sim.systemWarning = null;
    const quiet = String((await s.upload("acme", fa3("WARN/2"))).id);
    await s.settle();
    const q = (await s.get("acme", quiet)).ksef as { status: string; warnings: unknown[] };
    assert.deepEqual([q.status, q.warnings], ["accepted", []]);
  } finally {
    await s.close();
  }
});
