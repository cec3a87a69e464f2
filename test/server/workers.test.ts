import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FileStorage } from "../../storage/file/store.ts";
import { assertOneAtATime, finishedRun, type Run } from "../support/api.ts";
import { runCli, startChild } from "../support/child.ts";
import { fixturePath } from "../support/server.ts";

const ubl = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
const invoice = (n: string): string => ubl.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>${n}</cbc:ID>`);

test("WORKERS=2 serves one data directory from two processes with concurrent writers", { skip: "Deno" in globalThis ? "node:cluster is Node's" : false }, async (t) => {
  const data = mkdtempSync(join(tmpdir(), "workers-"));
  t.after(() => rmSync(data, { recursive: true, force: true })); // after the finally below has stopped the server
  const token = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read,documents:write,submissions:read,submissions:write"]).stdout.trim();
  const inbox = join(data, "inbox", "acme");
  mkdirSync(inbox, { recursive: true });
  for (let i = 0; i < 60; i++) writeFileSync(join(inbox, `D-${i}.xml`), invoice(`D-${i}`));
  const server = await startChild(["--data", data, "--workers", "2", "--rate-limit", "off"]);
  const h = { "x-api-token": token };
  try {
    const upload = (n: string, key?: string) => {
      const form = new FormData();
      form.append("xml", new Blob([invoice(n)]), `${n}.xml`);
      return fetch(`${server.url}/api/v1/submissions`, { method: "POST", headers: key ? { ...h, "idempotency-key": key } : h, body: form });
    };
    const key = crypto.randomUUID();
    const results = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => upload(`S-${i}`)),
      ...Array.from({ length: 10 }, () => upload("K-1", key)),
      ...Array.from({ length: 8 }, () => fetch(`${server.url}/api/v1/documents/sync`, { method: "POST", headers: h })),
    ]);
    const statuses = results.map((r) => r.status);
    assert.ok(statuses.slice(0, 40).every((s) => s === 201), `distinct uploads: ${statuses.slice(0, 40)}`);
    const keyed = statuses.slice(40, 50);
    assert.ok(keyed.every((s) => s === 201 || s === 409), `keyed uploads: ${keyed}`);
    const runIds = new Set(await Promise.all(results.slice(50).map(async (r) => ((await r.json()) as { id: string }).id)));
    // Every file was in the inbox before the first request, so once each run has finished all are documents.
    const runs: Run[] = [];
    for (const id of runIds) runs.push(await finishedRun(server.url, token, id));
    assert.ok(runs.every((r) => r.status === "succeeded"));
    assertOneAtATime(runs);
    const docs = ((await (await fetch(`${server.url}/api/v1/documents?limit=500`, { headers: h })).json()) as { data: { id: string; external_id: string }[] }).data;
    const ids = docs.map((d) => d.external_id);
    assert.equal(ids.length, 60);
    assert.equal(new Set(ids).size, 60, "no document twice");
    const subs = (await (await fetch(`${server.url}/api/v1/submissions?limit=500`, { headers: h })).json()) as { data: { id: string; number: string }[] };
    const numbers = subs.data.map((s) => s.number);
    assert.equal(numbers.length, 41, "40 distinct uploads and one for the shared key");
    assert.equal(numbers.filter((n) => n === "K-1").length, 1);

    // Every XML downloads whole from whichever process answers: the primary wrote the documents' blobs and the
    // workers the submissions', each in packs of its own, and a process finds the others' on a miss.
    const docXml = await Promise.all(docs.map(async (d) => {
      const res = await fetch(`${server.url}/api/v1/documents/${d.id}/xml`, { headers: h });
      return { status: res.status, text: await res.text(), want: invoice(d.external_id) };
    }));
    assert.ok(docXml.every((x) => x.status === 200 && x.text === x.want), "every document's XML, byte for byte");
    const subXml = await Promise.all(subs.data.map(async (sub) => {
      const res = await fetch(`${server.url}/api/v1/submissions/${sub.id}/xml`, { headers: h });
      return { status: res.status, text: await res.text(), want: invoice(sub.number) };
    }));
    assert.ok(subXml.every((x) => x.status === 200 && x.text === x.want), "every submission's XML, byte for byte");
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  // Afterwards the store is consistent as one process sees it: every index entry there, no duplicate.
  const store = new FileStorage(data).tenant("acme");
  const feed = await store.documentChanges(0, 500, {}, 10_000);
  assert.equal(feed.items.length, 60);
  assert.equal((await store.submissionChanges(0, 500, 10_000)).items.length, 41);
  assert.equal((await store.upsertDocument({ source: "inbox", external_id: "D-1", fields: { type: null, format: null, number: null, issue_date: null, currency: null, seller: null, buyer: null, totals: null }, xml: null, received_at: null }, new Date().toISOString())).outcome, "unchanged");
});
