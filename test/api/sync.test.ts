/**
 * The sync endpoints (README “Documents and the inbox”) through a real server: requesting a
 * run answers 202 at once and coalesces with a run already queued or running;
 * a run reads the tenant's inbox, counts what it did, and records documents
 * that fail without failing; half-written files are left alone.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SourceError, type DocumentSource, type SourceItem } from "../../lib/contracts/document_source.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { STORES } from "../support/stores.ts";

const SYNC_ID_RE = /^sync_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO_MS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const GOOD = [
  readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml")),
  readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")),
  readFileSync(fixturePath("samples", "cii", "mustang_factur-x.xml")),
];

interface Run {
  id: string;
  status: string;
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
  counts: { fetched: number; created: number; updated: number; unchanged: number; failed: number };
  skipped: { source: string; part: string; reason: string; next_at: string | null }[];
  errors: { external_id: string; code: string; message: string }[];
  error?: { code: string; message: string };
  links: { self: string };
}

const post = (s: TestServer, token: string, body?: unknown): Promise<Response> =>
  s.fetch("/api/v1/documents/sync", token, body === undefined ? { method: "POST" } : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** Reads a run until it is succeeded or failed, letting the runner finish in between. */
async function finishedRun(s: TestServer, token: string, id: string): Promise<Run> {
  for (let i = 0; i < 100; i++) {
    const res = await s.fetch(`/api/v1/documents/sync/${id}`, token);
    assert.equal(res.status, 200);
    const run = (await res.json()) as Run;
    if (run.status === "succeeded" || run.status === "failed") return run;
    await s.app.sync.idle();
  }
  throw new Error(`Run ${id} did not finish`);
}

/** A source whose run waits until `open()` is called, then yields nothing (or throws). */
function gatedSource(name: string, fail = false): { source: DocumentSource; open: () => void; pulls: () => number } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let pulls = 0;
  return {
    open: () => open(),
    pulls: () => pulls,
    source: {
      name,
      async *pull(): AsyncIterable<SourceItem> {
        pulls++;
        await gate;
        if (fail) throw new SourceError("UPSTREAM_ERROR", "The other server answered 503 three times");
      },
    },
  };
}

for (const store of STORES) describe(`POST /api/v1/documents/sync${store.label}`, () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer({ storage: store });
    token = (await s.token("acme", ["documents:read", "documents:write"])).token;
  });
  after(() => s.close());

  test("answers 202 with Location and a queued run with zero counts", async () => {
    const res = await post(s, token);
    assert.equal(res.status, 202);
    const run = (await res.json()) as Run;
    for (const key of ["id", "status", "requested_at", "started_at", "finished_at", "counts", "errors", "skipped", "warnings", "links"]) assert.ok(key in run, key);
    assert.match(run.id, SYNC_ID_RE);
    assert.equal(res.headers.get("location"), `/api/v1/documents/sync/${run.id}`);
    assert.equal(run.status, "queued");
    assert.match(run.requested_at, ISO_MS_RE);
    assert.equal(run.started_at, null);
    assert.equal(run.finished_at, null);
    assert.deepEqual(run.counts, { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 });
    assert.deepEqual(run.errors, []);
    assert.deepEqual(run.skipped, []);
    assert.deepEqual(run.links, { self: `/api/v1/documents/sync/${run.id}` });
    await s.app.sync.idle();
  });

  test("the Location reads the run, which reaches succeeded with its counts", async () => {
    s.drop("acme", "a.xml", GOOD[0]!);
    s.drop("acme", "b.xml", GOOD[1]!);
    s.drop("acme", "c.xml", GOOD[2]!);
    const res = await post(s, token);
    const location = res.headers.get("location")!;
    const queued = (await res.json()) as Run;
    const got = await s.fetch(location, token);
    assert.equal(got.status, 200);
    assert.equal(((await got.json()) as Run).id, queued.id);
    const run = await finishedRun(s, token, queued.id);
    assert.equal(run.status, "succeeded");
    assert.deepEqual(run.counts, { fetched: 3, created: 3, updated: 0, unchanged: 0, failed: 0 });
    assert.deepEqual(run.errors, []);
    assert.match(run.started_at!, ISO_MS_RE);
    assert.match(run.finished_at!, ISO_MS_RE);
    assert.ok(run.requested_at <= run.started_at! && run.started_at! <= run.finished_at!);
    assert.ok(!("error" in run) || run.error === null, "no run error when it succeeded");
  });

  test("imported files leave the inbox, so the next run fetches nothing", async () => {
    assert.ok(!existsSync(join(s.dataDir, "inbox", "acme", "a.xml")));
    const run = await s.sync(token);
    assert.equal(run.status, "succeeded");
    assert.deepEqual(run.counts, { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 });
  });

  test("a file that is not a readable invoice counts as failed with {external_id, code, message}, and the run succeeds", async () => {
    s.drop("acme", "good.xml", GOOD[0]!);
    s.drop("acme", "broken.xml", "<Invoice><cbc:ID>1</Invoice");
    s.drop("acme", "not-an-invoice.xml", '<?xml version="1.0"?><recipe xmlns="urn:example:food"><name>Bigos</name></recipe>');
    s.drop("acme", "empty.xml", "");
    s.drop("acme", "meta-broken.json", "{ not json");
    const run = await s.sync(token);
    assert.equal(run.status, "succeeded");
    assert.deepEqual(run.counts, { fetched: 5, created: 1, updated: 0, unchanged: 0, failed: 4 });
    const errors = run.errors as Run["errors"];
    assert.deepEqual(errors.map((e) => e.external_id).sort(), ["broken", "empty", "meta-broken", "not-an-invoice"]);
    for (const e of errors) {
      assert.deepEqual(Object.keys(e).sort(), ["code", "external_id", "message"]);
      assert.match(e.code, /^[A-Z_]+$/);
      assert.ok(e.message.length > 0);
      assert.doesNotMatch(e.message, /\n\s+at |\/tmp\/|\/work\//, "no stack traces or paths");
    }
  });

  test("files being written (.NAME, NAME.tmp, NAME.part) and other extensions are ignored and left in place", async () => {
    const ignored = [".x.xml", "a.xml.tmp", "a.xml.part", ".hidden.json", "b.json.tmp", "notes.txt"];
    for (const name of ignored) s.drop("acme", name, GOOD[1]!);
    s.drop("acme", "real.xml", GOOD[1]!);
    const run = await s.sync(token);
    assert.deepEqual(run.counts, { fetched: 1, created: 1, updated: 0, unchanged: 0, failed: 0 });
    for (const name of ignored) assert.ok(existsSync(join(s.dataDir, "inbox", "acme", name)), `${name} is still there`);
    const list = (await (await s.fetch("/api/v1/documents?limit=500", token)).json()) as { data: { external_id: string }[] };
    const names = list.data.map((d) => d.external_id);
    for (const bad of [".x", "a.xml", ".hidden", "b.json", "notes"]) assert.ok(!names.includes(bad), bad);
  });

  test("an unknown or malformed source is 422 VALIDATION_ERROR naming source", async () => {
    for (const source of ["ftp", "", 5, null]) {
      const res = await post(s, token, { source });
      assert.equal(res.status, 422, JSON.stringify(source));
      const { error } = (await res.json()) as { error: { code: string; details: Record<string, unknown> } };
      assert.equal(error.code, "VALIDATION_ERROR");
      assert.equal(error.details.field, "source");
    }
  });

  test("an unknown source's message lists the tenant's sources", async () => {
    const res = await post(s, token, { source: "erp" });
    assert.equal(res.status, 422);
    const { error } = (await res.json()) as { error: { message: string } };
    assert.equal(error.message, 'Unknown source "erp": this tenant\'s sources are inbox');
  });

  test("the named default source is accepted", async () => {
    const res = await post(s, token, { source: "inbox" });
    assert.equal(res.status, 202);
    await res.arrayBuffer();
    await s.app.sync.idle();
  });

  test("a malformed or unknown run id is 404 NOT_FOUND", async () => {
    for (const id of ["nope", "sync_01JD0000000000000000000000", "doc_01JD0000000000000000000000", "sync_01JD000000ZZZZZZZ000000000"]) {
      const res = await s.fetch(`/api/v1/documents/sync/${id}`, token);
      assert.equal(res.status, 404, id);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, "NOT_FOUND");
    }
  });

  test("at most 100 errors are kept while every failure is counted", async () => {
    for (let i = 0; i < 105; i++) s.drop("acme", `bad-${String(i).padStart(3, "0")}.xml`, "<oops");
    const run = await s.sync(token);
    assert.equal(run.status, "succeeded");
    assert.equal((run.counts as Run["counts"]).failed, 105);
    assert.equal((run.errors as Run["errors"]).length, 100);
  });
});

describe("coalescing and failing runs (README “Documents and the inbox”)", () => {
  test("a second request while a run is queued or running gets that run: 202 with the same id", async () => {
    const inbox = gatedSource("inbox");
    const other = gatedSource("other");
    const s = await startServer({ sources: () => [inbox.source, other.source] });
    try {
      const token = (await s.token("acme", ["documents:read", "documents:write"])).token;
      const first = await post(s, token);
      const second = await post(s, token);
      const third = await post(s, token, { source: "inbox" });
      assert.deepEqual([first.status, second.status, third.status], [202, 202, 202], "answered without waiting for the run");
      const [a, b, c] = (await Promise.all([first.json(), second.json(), third.json()])) as Run[];
      assert.equal(b!.id, a!.id);
      assert.equal(c!.id, a!.id);
      assert.ok(["queued", "running"].includes(b!.status));
      assert.equal(second.headers.get("location"), `/api/v1/documents/sync/${a!.id}`);

      const elsewhere = (await (await post(s, token, { source: "other" })).json()) as Run;
      assert.notEqual(elsewhere.id, a!.id, "another source of the tenant gets its own run");

      const otherTenant = (await s.token("globex", ["documents:write"])).token;
      const theirs = (await (await post(s, otherTenant)).json()) as Run;
      assert.notEqual(theirs.id, a!.id, "another tenant gets its own run");

      inbox.open();
      other.open();
      await s.app.sync.idle();
      assert.equal((await finishedRun(s, token, a!.id)).status, "succeeded");

      const next = (await (await post(s, token)).json()) as Run;
      assert.notEqual(next.id, a!.id, "a request after the run finished starts a new one");
      await s.app.sync.idle();
    } finally {
      inbox.open();
      other.open();
      await s.close();
    }
  });

  test("a run whose source fails is failed with error {code, message}", async () => {
    const broken = gatedSource("inbox", true);
    const s = await startServer({ sources: () => [broken.source] });
    try {
      const token = (await s.token("acme", ["documents:read", "documents:write"])).token;
      const queued = (await (await post(s, token)).json()) as Run;
      broken.open();
      const run = await finishedRun(s, token, queued.id);
      assert.equal(run.status, "failed");
      assert.equal(run.error?.code, "UPSTREAM_ERROR");
      assert.equal(typeof run.error?.message, "string");
      assert.match(run.finished_at!, ISO_MS_RE);
    } finally {
      broken.open();
      await s.close();
    }
  });
});
