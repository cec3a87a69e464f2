import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { test } from "node:test";
import { createJsonLogger } from "../../lib/observe/log.ts";
import { createHttpTransport } from "../../storage/transports/webhook_http.ts";
import { fixturePath, startServer } from "../support/server.ts";

/** Parses the Prometheus text format into samples: name{labels} → value. */
function parseProm(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+]+|\+Inf|NaN)$/.exec(line);
    assert.ok(m, `a valid sample line: ${line}`);
    out.set(`${m[1]}${m[2] ?? ""}`, Number(m[3]));
  }
  return out;
}

test("/metrics counts requests by route template and status, with a consistent latency histogram", async () => {
  const rx = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((r) => rx.listen(0, "127.0.0.1", r));
  const s = await startServer({ webhooks: { transport: createHttpTransport(true), allowPrivate: true } });
  try {
    const { token } = await s.token("acme");
    const hook = await s.fetch("/api/v1/webhooks", token, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${(rx.address() as { port: number }).port}/`, events: ["*"] }),
    });
    assert.equal(hook.status, 201);
    s.drop("acme", "A.xml", readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")));
    s.drop("acme", "B.xml", "not xml");
    await s.sync(token);
    const doc = ((await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] }).data[0]!;
    await s.fetch(`/api/v1/documents/${doc.id}`, token);
    await s.fetch("/api/v1/documents/doc_00000000000000000000000000", token);
    await s.fetch("/api/v1/documents", null);
    const before = parseProm(await (await fetch(`${s.url}/metrics`)).text());
    assert.ok((before.get("webhook_outbox_depth") ?? 0) > 0, "events wait for delivery");
    await s.app.webhooks!.runOnce();

    const res = await fetch(`${s.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
    const m = parseProm(await res.text());
    assert.equal(m.get('http_requests_total{route="/api/v1/documents/:id",status="200"}'), 1);
    assert.equal(m.get('http_requests_total{route="/api/v1/documents/:id",status="404"}'), 1);
    assert.equal(m.get('http_requests_total{route="/api/v1/documents",status="401"}'), 1);
    const inf = m.get('http_request_duration_seconds_bucket{le="+Inf"}');
    assert.equal(inf, m.get("http_request_duration_seconds_count"));
    let last = 0;
    for (const [k, v] of m) {
      if (!k.startsWith("http_request_duration_seconds_bucket")) continue;
      assert.ok(v >= last, "buckets are cumulative");
      last = v;
    }
    assert.equal(m.get('sync_runs_total{outcome="succeeded"}'), 1);
    assert.ok((m.get('webhook_deliveries_total{outcome="success"}') ?? 0) >= 2, "document.created and sync.completed delivered");
    assert.equal(m.get("webhook_outbox_depth"), 0);
  } finally {
    await s.close();
    rx.close();
  }
});

test("request logs are JSON lines with both ids, tenant, key id, route, status and duration, and never the token", async () => {
  const lines: string[] = [];
  const s = await startServer({ logger: createJsonLogger("info", (l) => void lines.push(l)) });
  try {
    const { token, keyId } = await s.token("acme");
    await s.fetch("/api/v1/documents", token, { headers: { "x-correlation-id": "corr-123" } });
    const entry = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.msg === "request" && e.correlation_id === "corr-123");
    assert.ok(entry, lines.join(""));
    assert.match(entry.request_id as string, /^req_/);
    assert.equal(entry.tenant, "acme");
    assert.equal(entry.key_id, keyId);
    assert.equal(entry.route, "/api/v1/documents");
    assert.equal(entry.status, 200);
    assert.equal(typeof entry.duration_ms, "number");
    assert.match(entry.time as string, /Z$/);
    assert.ok(!lines.join("").includes(token.split("_")[2]!), "the secret never appears in logs");
  } finally {
    await s.close();
  }
  const quiet: string[] = [];
  const q = await startServer({ logger: createJsonLogger("warn", (l) => void quiet.push(l)) });
  try {
    await q.fetch("/api/v1/documents", null);
    assert.deepEqual(quiet, [], "LOG_LEVEL=warn drops request lines");
  } finally {
    await q.close();
  }
});
