/**
 * Idempotency keys (the idempotency conventions in /docs) through a real server: key validation, replays
 * with `Idempotent-Replayed: true`, fingerprints that ignore the multipart
 * boundary, mismatches, concurrent use of one key, tenant scope, sync runs,
 * what is and is not kept, restarts, and the 24-hour expiry on an injected clock.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import { createApp } from "../../lib/app.ts";
import { generateToken } from "../../lib/auth/tokens.ts";
import { toNodeListener } from "../../lib/http/node_adapter.ts";
import type { Storage, TenantStore } from "../../lib/contracts/storage.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { STORES } from "../support/stores.ts";
import { errorOf, type ApiErrorBody } from "../support/api.ts";

// ---------------------------------------------------------------- helpers

const sample = (dir: string, file: string): Buffer => readFileSync(fixturePath("samples", dir, file));
const COMPLEX = sample("ksef-fa3", "FA_3_complex.xml");
const PEPPOL = sample("ubl", "peppol-bis3_base-example.xml");
const FACTURX = sample("cii", "mustang_factur-x.xml");



/** A response read whole: what a replay must reproduce. */
interface Answer {
  status: number;
  location: string | null;
  replayed: string | null;
  retryAfter: string | null;
  text: string;
}

async function answerOf(res: Response): Promise<Answer> {
  return {
    status: res.status, location: res.headers.get("location"), replayed: res.headers.get("idempotent-replayed"),
    retryAfter: res.headers.get("retry-after"), text: await res.text(),
  };
}

/** A multipart/form-data body with one `xml` file part and `boundary`, encoded by hand (RFC 7578). */
function multipartBody(boundary: string, xml: Uint8Array, filename = "invoice.xml"): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="xml"; filename="${filename}"\r\nContent-Type: application/xml\r\n\r\n`),
    Buffer.from(xml),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** POSTs an invoice as a hand-made multipart body with `boundary`, under `key` when given. */
function submit(s: TestServer, token: string, xml: Uint8Array, key: string | null, boundary = "idem-boundary-1"): Promise<Response> {
  const headers: Record<string, string> = { "content-type": `multipart/form-data; boundary=${boundary}` };
  if (key !== null) headers["idempotency-key"] = key;
  return s.fetch("/api/v1/submissions", token, { method: "POST", headers, body: new Uint8Array(multipartBody(boundary, xml)) });
}

/** The ids in a tenant's submissions feed. */
async function submissionIds(s: TestServer, token: string): Promise<string[]> {
  const res = await s.fetch("/api/v1/submissions?limit=500", token);
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { id: string }[] }).data.map((d) => d.id);
}

let tenantCount = 0;
/** A token of a new tenant with every scope. */
async function freshTenant(s: TestServer): Promise<string> {
  return (await s.token(`idem${++tenantCount}`)).token;
}

// ---------------------------------------------------------------- the key itself

for (const store of STORES) describe(`the Idempotency-Key header (the idempotency conventions in /docs)${store.label}`, () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: store });
  });
  after(() => s.close());

  const bad = [
    { what: "a word", input: "retry-1" },
    { what: "an empty value", input: "" },
    { what: "a UUID v1", input: "6ba7b810-9dad-11d1-80b4-00c04fd430c8" },
    { what: "a UUID v7", input: "01890a5d-ac96-774b-bcce-b302099a8057" },
    { what: "a v4 with the wrong variant", input: "3f1c2a9e-6b1d-4c7e-7a2b-9d8e7f6a5b4c" },
    { what: "a v4 without hyphens", input: "3f1c2a9e6b1d4c7e8a2b9d8e7f6a5b4c" },
    { what: "a v4 in braces", input: "{3f1c2a9e-6b1d-4c7e-8a2b-9d8e7f6a5b4c}" },
    { what: "a v4 with a character too many", input: "3f1c2a9e-6b1d-4c7e-8a2b-9d8e7f6a5b4cd" },
    { what: "the nil UUID", input: "00000000-0000-0000-0000-000000000000" },
  ];
  for (const { what, input } of bad) {
    test(`${what} is 400 BAD_REQUEST with field Idempotency-Key, and nothing is created`, async () => {
      const token = await freshTenant(s);
      const error = await errorOf(await submit(s, token, COMPLEX, input), 400, "BAD_REQUEST");
      assert.equal(error.details.field, "Idempotency-Key");
      assert.deepEqual(await submissionIds(s, token), []);
    });
  }

  test("a refused key is not stored: a later request with a valid key executes", async () => {
    const token = await freshTenant(s);
    await errorOf(await submit(s, token, COMPLEX, "not-a-uuid"), 400, "BAD_REQUEST");
    const res = await submit(s, token, COMPLEX, randomUUID());
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal(res.headers.get("idempotent-replayed"), null);
    assert.equal((await submissionIds(s, token)).length, 1);
  });

  test("a bad key on POST /documents/sync is 400 too", async () => {
    const token = await freshTenant(s);
    const res = await s.fetch("/api/v1/documents/sync", token, { method: "POST", headers: { "idempotency-key": "nope" } });
    const error = await errorOf(res, 400, "BAD_REQUEST");
    assert.equal(error.details.field, "Idempotency-Key");
  });

  test("a request without a key executes every time", async () => {
    const token = await freshTenant(s);
    const first = await submit(s, token, COMPLEX, null);
    assert.equal(first.status, 201);
    await first.arrayBuffer();
    await errorOf(await submit(s, token, COMPLEX, null), 409, "DUPLICATE_SUBMISSION");
  });
});

// ---------------------------------------------------------------- replays

for (const store of STORES) describe(`replays (the idempotency conventions in /docs)${store.label}`, () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: store });
  });
  after(() => s.close());

  test("the same key and body get the same status, body and Location with Idempotent-Replayed: true, and one submission exists", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const first = await answerOf(await submit(s, token, COMPLEX, key));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.replayed, null, "the first answer is not a replay");
    for (let i = 0; i < 3; i++) {
      const again = await answerOf(await submit(s, token, COMPLEX, key));
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text, "the same body");
      assert.equal(again.location, first.location);
      assert.equal(again.replayed, "true");
    }
    const id = (JSON.parse(first.text) as { id: string }).id;
    assert.deepEqual(await submissionIds(s, token), [id]);
  });

  test("a new multipart boundary with the same content is a replay", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const a = await answerOf(await submit(s, token, PEPPOL, key, "boundary-AAAA"));
    assert.equal(a.status, 201, a.text);
    const b = await answerOf(await submit(s, token, PEPPOL, key, "----WebKitFormBoundary7MA4YWxkTrZu0gW"));
    assert.equal(b.status, 201, b.text);
    assert.equal(b.replayed, "true");
    assert.equal(b.text, a.text);
    assert.equal((await submissionIds(s, token)).length, 1);
  });

  test("a FormData upload and a curl-like hand-made body of the same part replay each other", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const form = new FormData();
    form.append("xml", new Blob([new Uint8Array(FACTURX)], { type: "application/xml" }), "invoice.xml");
    const a = await answerOf(await s.fetch("/api/v1/submissions", token, { method: "POST", body: form, headers: { "idempotency-key": key } }));
    assert.equal(a.status, 201, a.text);
    const b = await answerOf(await submit(s, token, FACTURX, key, "------------------------d74496d66958873e"));
    assert.equal(b.replayed, "true", b.text);
    assert.equal(b.text, a.text);
  });

  test("the same key with another body is 422 IDEMPOTENCY_KEY_MISMATCH and creates nothing", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const first = await submit(s, token, COMPLEX, key);
    assert.equal(first.status, 201);
    await first.arrayBuffer();
    await errorOf(await submit(s, token, PEPPOL, key), 422, "IDEMPOTENCY_KEY_MISMATCH");
    assert.equal((await submissionIds(s, token)).length, 1);
  });

  test("the same key on another path is 422 IDEMPOTENCY_KEY_MISMATCH", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const first = await submit(s, token, COMPLEX, key);
    assert.equal(first.status, 201);
    await first.arrayBuffer();
    const res = await s.fetch("/api/v1/documents/sync", token, { method: "POST", headers: { "idempotency-key": key } });
    await errorOf(res, 422, "IDEMPOTENCY_KEY_MISMATCH");
    await s.app.sync.idle();
  });

  test("a replay has the Content-Type of the first answer", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const first = await submit(s, token, COMPLEX, key);
    const type = first.headers.get("content-type");
    await first.arrayBuffer();
    const again = await submit(s, token, COMPLEX, key);
    await again.arrayBuffer();
    assert.equal(again.headers.get("content-type"), type);
  });

  test("a replayed error's X-Request-Id equals its error.request_id (the conventions in /docs)", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const broken = Buffer.from("<Faktura><P_2>x</P_3></Faktura>");
    const first = await submit(s, token, broken, key);
    const firstError = await errorOf(first, 422, "VALIDATION_ERROR");
    assert.equal(firstError.request_id, first.headers.get("x-request-id"));
    const again = await submit(s, token, broken, key);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    const againError = await errorOf(again, 422, "VALIDATION_ERROR");
    assert.equal(againError.request_id, again.headers.get("x-request-id"), "§1: X-Request-Id equals error.request_id when the body is an error");
  });

  test("a 413 with a key is not kept (the body was never read): the key then executes", async () => {
    const small = await startServer({ uploadLimit: 1024 });
    try {
      const token = (await small.token("acme")).token;
      const key = randomUUID();
      await errorOf(await submit(small, token, COMPLEX, key), 413, "PAYLOAD_TOO_LARGE");
      const tiny = Buffer.from("<a/>");
      const res = await answerOf(await submit(small, token, tiny, key));
      assert.equal(res.status, 422, res.text);
      assert.equal(res.replayed, null);
    } finally {
      await small.close();
    }
  });

  test("keys are scoped to the tenant: the same key in two tenants executes twice", async () => {
    const a = await freshTenant(s);
    const b = await freshTenant(s);
    const key = randomUUID();
    const ra = await answerOf(await submit(s, a, COMPLEX, key));
    const rb = await answerOf(await submit(s, b, COMPLEX, key));
    assert.equal(ra.status, 201);
    assert.equal(rb.status, 201, rb.text);
    assert.equal(rb.replayed, null);
    assert.notEqual(JSON.parse(ra.text).id, JSON.parse(rb.text).id);
    assert.equal((await submissionIds(s, a)).length, 1);
    assert.equal((await submissionIds(s, b)).length, 1);
  });

  test("another key for the same invoice executes (and finds the duplicate)", async () => {
    const token = await freshTenant(s);
    const first = await answerOf(await submit(s, token, COMPLEX, randomUUID()));
    const error = await errorOf(await submit(s, token, COMPLEX, randomUUID()), 409, "DUPLICATE_SUBMISSION");
    assert.equal(error.details.existing_id, JSON.parse(first.text).id);
  });

  test("a 422 validation error after execution is kept and replayed for the same key", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const broken = Buffer.from("<?xml version=\"1.0\"?>\n<Faktura>\n  <P_2>x</P_3>\n</Faktura>\n");
    const first = await answerOf(await submit(s, token, broken, key));
    assert.equal(first.status, 422, first.text);
    const again = await answerOf(await submit(s, token, broken, key));
    assert.equal(again.status, 422);
    assert.equal(again.replayed, "true");
    assert.equal(again.text, first.text, "the same body, request_id included");
  });

  test("a 409 duplicate after execution is kept and replayed for the same key", async () => {
    const token = await freshTenant(s);
    await (await submit(s, token, COMPLEX, null)).arrayBuffer();
    const key = randomUUID();
    const first = await answerOf(await submit(s, token, COMPLEX, key));
    assert.equal(first.status, 409, first.text);
    const again = await answerOf(await submit(s, token, COMPLEX, key));
    assert.equal(again.status, 409);
    assert.equal(again.replayed, "true");
    assert.equal(again.text, first.text);
  });

  test("a 401 with a key is not stored: the key then executes with a valid token", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    await errorOf(await submit(s, "itk_nobody_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", COMPLEX, key), 401, "UNAUTHENTICATED");
    const res = await answerOf(await submit(s, token, COMPLEX, key));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.replayed, null);
  });

  test("a 403 with a key is not stored: the key then executes with a token that has the scope", async () => {
    const tenant = `idem${++tenantCount}`;
    const readOnly = (await s.token(tenant, ["submissions:read"])).token;
    const writer = (await s.token(tenant, ["submissions:read", "submissions:write"])).token;
    const key = randomUUID();
    await errorOf(await submit(s, readOnly, COMPLEX, key), 403, "FORBIDDEN");
    const res = await answerOf(await submit(s, writer, COMPLEX, key));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.replayed, null);
  });

  test("two tokens of one tenant share its keys", async () => {
    const tenant = `idem${++tenantCount}`;
    const one = (await s.token(tenant)).token;
    const two = (await s.token(tenant)).token;
    const key = randomUUID();
    const a = await answerOf(await submit(s, one, COMPLEX, key));
    const b = await answerOf(await submit(s, two, COMPLEX, key));
    assert.equal(b.replayed, "true", b.text);
    assert.equal(b.text, a.text);
  });
});

// ---------------------------------------------------------------- concurrency

for (const store of STORES) describe(`one key used concurrently (the idempotency conventions in /docs)${store.label}`, () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: store });
  });
  after(() => s.close());

  test("20 parallel POSTs with one key execute once: one 201, the others 409 IDEMPOTENCY_KEY_IN_USE with Retry-After: 1 or replays", async () => {
    for (let round = 0; round < 5; round++) {
      const token = await freshTenant(s);
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(s, token, COMPLEX, key, `parallel-${i}`).then(answerOf)));
      const executed = answers.filter((a) => a.status === 201 && a.replayed === null);
      assert.equal(executed.length, 1, `round ${round}: ${answers.map((a) => `${a.status}${a.replayed ? "R" : ""}`).join(" ")}`);
      for (const a of answers) {
        if (a.status === 201) {
          assert.equal(a.text, executed[0]!.text);
          continue;
        }
        assert.equal(a.status, 409, a.text);
        assert.equal((JSON.parse(a.text) as { error: ApiErrorBody }).error.code, "IDEMPOTENCY_KEY_IN_USE", a.text);
        assert.equal(a.retryAfter, "1");
      }
      assert.equal((await submissionIds(s, token)).length, 1);
    }
  });

  test("a retry after IDEMPOTENCY_KEY_IN_USE gets the replay", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => submit(s, token, PEPPOL, key).then(answerOf)));
    const first = answers.find((a) => a.status === 201 && a.replayed === null)!;
    const retry = await answerOf(await submit(s, token, PEPPOL, key));
    assert.equal(retry.replayed, "true");
    assert.equal(retry.text, first.text);
  });
});

type CreateSubmission = TenantStore["createSubmission"];

/**
 * A real server over a memory store whose createSubmission goes through `wrap`, so a test can
 * hold the first request while it executes or make it fail. Built like test/support/server.ts.
 */
async function wrappedServer(wrap: (call: () => ReturnType<CreateSubmission>) => ReturnType<CreateSubmission>): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const inner = new MemoryStorage();
  const wrapped = (t: TenantStore): TenantStore => new Proxy(t, {
    get(target, prop) {
      if (prop === "createSubmission") return (...args: Parameters<CreateSubmission>) => wrap(() => target.createSubmission(...args));
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const storage: Storage = {
    tokens: inner.tokens,
    tenant: (id) => wrapped(inner.tenant(id)),
    tenants: () => inner.tenants(),
    secret: (name) => inner.secret(name),
    check: () => inner.check(),
    close: () => inner.close(),
  };
  const app = await createApp({ storage, rateLimit: null, anonymousLimit: null });
  const t = generateToken();
  await inner.tokens.create({
    key_id: t.keyId, tenant: "acme", secret_sha256: t.secretSha256, scopes: ["submissions:read", "submissions:write"],
    created_at: new Date().toISOString(), expires_at: null, revoked_at: null,
  });
  const server = createServer(toNodeListener(app.handle));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const addr = server.address();
  return {
    url: `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`, token: t.token,
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** POSTs `xml` under `key` to a wrapped server. */
function postTo(g: { url: string; token: string }, key: string, xml: Uint8Array, boundary: string): Promise<Answer> {
  return fetch(`${g.url}/api/v1/submissions`, {
    method: "POST",
    headers: { "x-api-token": g.token, "idempotency-key": key, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: new Uint8Array(multipartBody(boundary, xml)),
  }).then(answerOf);
}

describe("a key whose first request is still executing (the idempotency conventions in /docs)", () => {
  test("every other request with the key is 409 IDEMPOTENCY_KEY_IN_USE with Retry-After: 1; after it finishes they replay", async () => {
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const g = await wrappedServer(async (call) => {
      entered();
      await gate;
      return call();
    });
    try {
      const key = randomUUID();
      const first = postTo(g, key, COMPLEX, "first");
      await inside;
      const during = await Promise.all([...Array.from({ length: 19 }, (_, i) => postTo(g, key, COMPLEX, `during-${i}`)), postTo(g, key, PEPPOL, "other-body")]);
      for (const a of during) {
        assert.equal(a.status, 409, a.text);
        assert.equal((JSON.parse(a.text) as { error: ApiErrorBody }).error.code, "IDEMPOTENCY_KEY_IN_USE");
        assert.equal(a.retryAfter, "1");
        assert.equal(a.replayed, null);
      }
      release();
      const done = await first;
      assert.equal(done.status, 201, done.text);
      assert.equal(done.replayed, null);
      const retry = await postTo(g, key, COMPLEX, "retry");
      assert.equal(retry.replayed, "true");
      assert.equal(retry.text, done.text);
      const list = await fetch(`${g.url}/api/v1/submissions`, { headers: { "x-api-token": g.token } });
      assert.equal(((await list.json()) as { data: unknown[] }).data.length, 1);
    } finally {
      release();
      await g.close();
    }
  });
});

describe("5xx answers are not kept (the idempotency conventions in /docs)", () => {
  test("after a 500 the same key executes again and succeeds", async () => {
    let failures = 1;
    const g = await wrappedServer(async (call) => {
      if (failures-- > 0) throw new Error("disk on fire");
      return call();
    });
    try {
      const key = randomUUID();
      const failed = await postTo(g, key, COMPLEX, "one");
      assert.equal(failed.status, 500, failed.text);
      assert.equal((JSON.parse(failed.text) as { error: ApiErrorBody }).error.code, "INTERNAL_ERROR");
      assert.ok(!failed.text.includes("disk on fire"), "the error's message is not leaked");
      const retry = await postTo(g, key, COMPLEX, "two");
      assert.equal(retry.status, 201, retry.text);
      assert.equal(retry.replayed, null, "executed, not replayed");
      const again = await postTo(g, key, COMPLEX, "three");
      assert.equal(again.replayed, "true");
    } finally {
      await g.close();
    }
  });
});

// ---------------------------------------------------------------- sync runs

for (const store of STORES) describe(`POST /documents/sync with a key (README “Documents and the inbox”, the idempotency conventions in /docs)${store.label}`, () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: store });
  });
  after(() => s.close());

  test("a repeat replays the same run id even after the run finished, and starts no run", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const first = await answerOf(await s.fetch("/api/v1/documents/sync", token, { method: "POST", headers: { "idempotency-key": key } }));
    assert.equal(first.status, 202, first.text);
    const run = JSON.parse(first.text) as { id: string };
    await s.app.sync.idle();
    const again = await answerOf(await s.fetch("/api/v1/documents/sync", token, { method: "POST", headers: { "idempotency-key": key } }));
    assert.equal(again.status, 202);
    assert.equal(again.replayed, "true");
    assert.equal(JSON.parse(again.text).id, run.id);
    assert.equal(again.location, first.location);
    assert.equal(again.location, `/api/v1/documents/sync/${run.id}`);
    // Another key after the run finished starts a new run.
    const other = await answerOf(await s.fetch("/api/v1/documents/sync", token, { method: "POST", headers: { "idempotency-key": randomUUID() } }));
    assert.equal(other.status, 202);
    assert.notEqual(JSON.parse(other.text).id, run.id);
    await s.app.sync.idle();
  });

  test("a JSON body replays for the same bytes and mismatches for others", async () => {
    const token = await freshTenant(s);
    const key = randomUUID();
    const post = (body: string) => s.fetch("/api/v1/documents/sync", token, {
      method: "POST", headers: { "idempotency-key": key, "content-type": "application/json" }, body,
    });
    const first = await answerOf(await post('{"source":"inbox"}'));
    assert.equal(first.status, 202, first.text);
    const again = await answerOf(await post('{"source":"inbox"}'));
    assert.equal(again.replayed, "true");
    assert.equal(again.text, first.text);
    await errorOf(await post('{"source":"other"}'), 422, "IDEMPOTENCY_KEY_MISMATCH");
    await s.app.sync.idle();
  });
});

// ---------------------------------------------------------------- restarts

describe("stored keys survive a restart (the idempotency conventions in /docs)", () => {
  test("a replay after the server restarts on the same data directory returns the stored answer", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "itest-idem-restart-"));
    try {
      const one = await startServer({ dataDir });
      const token = (await one.token("acme")).token;
      const key = randomUUID();
      const errKey = randomUUID();
      const first = await answerOf(await submit(one, token, COMPLEX, key));
      assert.equal(first.status, 201, first.text);
      const broken = Buffer.from("<Faktura><P_2>x</P_3></Faktura>");
      const firstErr = await answerOf(await submit(one, token, broken, errKey));
      assert.equal(firstErr.status, 422);
      await one.close();

      const two = await startServer({ dataDir });
      try {
        const again = await answerOf(await submit(two, token, COMPLEX, key, "after-restart"));
        assert.equal(again.status, 201, again.text);
        assert.equal(again.replayed, "true");
        assert.equal(again.text, first.text);
        assert.equal(again.location, first.location);
        const againErr = await answerOf(await submit(two, token, broken, errKey));
        assert.equal(againErr.replayed, "true");
        assert.equal(againErr.text, firstErr.text);
        await errorOf(await submit(two, token, PEPPOL, key), 422, "IDEMPOTENCY_KEY_MISMATCH");
        assert.equal((await submissionIds(two, token)).length, 1);
      } finally {
        await two.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a crash between a submission and its key's own record (the idempotency conventions in /docs)", () => {
  test("the key committed with the submission is restored at startup: a retry is replayed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "itest-idem-crash-"));
    try {
      const one = await startServer({ dataDir });
      const token = (await one.token("acme")).token;
      const key = randomUUID();
      const first = await answerOf(await submit(one, token, COMPLEX, key));
      assert.equal(first.status, 201, first.text);
      await one.close();
      // Simulate the crash: the key's own file never got its line (the submission's record holds it too).
      const dirs = findDirs(dataDir, "idempotency");
      assert.ok(dirs.length > 0, "the file store keeps keys under idempotency/");
      for (const dir of dirs) for (const f of readdirSync(dir)) writeFileSync(join(dir, f), "");
      const two = await startServer({ dataDir });
      try {
        const again = await answerOf(await submit(two, token, COMPLEX, key, "after-crash"));
        assert.equal(again.replayed, "true", again.text);
        assert.equal(again.text, first.text);
        assert.equal((await submissionIds(two, token)).length, 1);
      } finally {
        await two.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Directories named `name` anywhere under `root`. */
function findDirs(root: string, name: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(root, entry.name);
    if (entry.name === name) out.push(path);
    else out.push(...findDirs(path, name));
  }
  return out;
}

// ---------------------------------------------------------------- expiry

describe("keys expire after 24 hours (the idempotency conventions in /docs)", () => {
  const HOUR = 3_600_000;
  const T0 = Date.parse("2026-11-20T10:00:00.000Z");
  let t = T0;
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: () => t });
  });
  after(() => s.close());

  test("a repeat 24 h - 1 ms later is a replay; 24 h + 1 ms later the key executes again", async () => {
    t = T0;
    const token = await freshTenant(s);
    const key = randomUUID();
    const first = await answerOf(await submit(s, token, COMPLEX, key));
    assert.equal(first.status, 201, first.text);
    const id = (JSON.parse(first.text) as { id: string }).id;

    t = T0 + 24 * HOUR - 1;
    const replay = await answerOf(await submit(s, token, COMPLEX, key));
    assert.equal(replay.replayed, "true", replay.text);
    assert.equal(replay.text, first.text);

    t = T0 + 24 * HOUR + 1;
    // It executes: the invoice exists, so the answer is the duplicate, not the stored 201.
    const res = await s.fetch("/api/v1/submissions", token, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=late", "idempotency-key": key },
      body: new Uint8Array(multipartBody("late", COMPLEX)),
    });
    assert.equal(res.headers.get("idempotent-replayed"), null);
    const error = await errorOf(res, 409, "DUPLICATE_SUBMISSION");
    assert.equal(error.details.existing_id, id);
  });

  test("an expired key may be used with another body (it is a new request)", async () => {
    t = T0;
    const token = await freshTenant(s);
    const key = randomUUID();
    const first = await answerOf(await submit(s, token, COMPLEX, key));
    assert.equal(first.status, 201, first.text);
    t = T0 + 25 * HOUR;
    const second = await answerOf(await submit(s, token, PEPPOL, key));
    assert.equal(second.status, 201, second.text);
    assert.equal(second.replayed, null);
    t = T0 + 25 * HOUR + 1000;
    const replay = await answerOf(await submit(s, token, PEPPOL, key));
    assert.equal(replay.replayed, "true");
    assert.equal(replay.text, second.text);
  });
});
