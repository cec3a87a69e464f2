/**
 * Authentication and tenants (README “Security model”, README “Configuration”) through a real server: one 401
 * for every bad token, tokens in the query string ignored, 403 with the
 * required scope, no way to another tenant's data, and the `token`
 * subcommands run as real child processes against a running server.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { SCOPES, type Scope } from "../../lib/auth/tokens.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { childEnv, serverCommand } from "../support/child.ts";
import { errorOf } from "../support/api.ts";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..");
const TOKEN_LINE_RE = /^itk_([A-Za-z0-9]{8,32})_([A-Za-z0-9_-]{43,})\n$/;
const SAMPLE = fixturePath("samples", "ksef-fa3", "FA_3_complex.xml");


/** The ids of the documents in a tenant's first feed page. */
async function documentIds(s: TestServer, token: string): Promise<string[]> {
  const body = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] };
  return body.data.map((d) => d.id);
}

describe("authentication (README “Security model”)", () => {
  let s: TestServer;
  let good: string;
  let goodKeyId: string;
  before(async () => {
    s = await startServer();
    ({ token: good, keyId: goodKeyId } = await s.token("acme", ["documents:read"]));
  });
  after(() => s.close());

  test("a valid token in X-API-Token is accepted", async () => {
    const res = await s.fetch("/api/v1/documents", good);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  test("a missing, malformed, unknown, wrong, revoked or expired token is 401 with one identical message", async () => {
    const secret = good.slice(`itk_${goodKeyId}_`.length);
    const revoked = await s.token("acme", ["documents:read"]);
    await s.storage.tokens.revoke(revoked.keyId, new Date().toISOString());
    const expired = await s.token("acme", ["documents:read"], { expires_at: new Date(Date.now() - 1000).toISOString() });
    const cases = [
      { what: "no token", input: null },
      { what: "an empty token", input: "" },
      { what: "a token of another shape", input: "Bearer abc" },
      { what: "an unknown key id", input: `itk_ffffffffffffffffff_${secret}` },
      { what: "a wrong secret", input: `itk_${goodKeyId}_${"A".repeat(43)}` },
      { what: "the secret with one character changed", input: `itk_${goodKeyId}_${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}` },
      { what: "a revoked token", input: revoked.token },
      { what: "an expired token", input: expired.token },
    ];
    const answers = new Set<string>();
    for (const { what, input } of cases) {
      const res = await s.fetch("/api/v1/documents", input);
      const error = await errorOf(res, 401, "UNAUTHENTICATED");
      assert.deepEqual(error.details, {}, what);
      if (input) assert.ok(!error.message.includes(input), `${what}: the token is not echoed`);
      answers.add(JSON.stringify({ message: error.message, details: error.details }));
    }
    assert.equal(answers.size, 1, "one message for all");
  });

  test("the 401 names the X-API-Token header, and says that Authorization: Bearer is not accepted when it came", async () => {
    const plain = await errorOf(await s.fetch("/api/v1/documents", null), 401, "UNAUTHENTICATED");
    assert.equal(plain.message, "Missing or invalid API token: send it in the X-API-Token header");
    const bearer = await errorOf(await s.fetch("/api/v1/documents", null, { headers: { authorization: `Bearer ${good}` } }), 401, "UNAUTHENTICATED");
    assert.equal(bearer.message, "Missing or invalid API token: send it in the X-API-Token header (Authorization: Bearer is not accepted)");
    assert.ok(!bearer.message.includes(good), "the token is not echoed");
  });

  test("a token that expires later is accepted until then", async () => {
    const soon = await s.token("acme", ["documents:read"], { expires_at: new Date(Date.now() + 60_000).toISOString() });
    const res = await s.fetch("/api/v1/documents", soon.token);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  test("a token that is revoked stops working at once in the same process", async () => {
    const t = await s.token("acme", ["documents:read"]);
    assert.equal((await s.fetch("/api/v1/documents", t.token)).status, 200);
    await s.storage.tokens.revoke(t.keyId, new Date().toISOString());
    await errorOf(await s.fetch("/api/v1/documents", t.token), 401, "UNAUTHENTICATED");
  });

  test("a token in the query string is ignored", async () => {
    for (const name of ["token", "api_token", "x-api-token", "X-API-Token", "access_token"]) {
      await errorOf(await s.fetch(`/api/v1/documents?${name}=${encodeURIComponent(good)}`, null), 401, "UNAUTHENTICATED");
    }
  });

  test("a token in the query string beside a valid header is an unknown parameter (strict parameters), never used", async () => {
    const error = await errorOf(await s.fetch("/api/v1/documents?token=itk_junk_junk", good), 400, "BAD_REQUEST");
    assert.deepEqual(error.details, { field: "token", issue: "unknown parameter" });
  });

  test("the health endpoints outside /api/v1 need no token", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      const res = await s.fetch(path, null);
      assert.equal(res.status, 200, path);
      await res.arrayBuffer();
    }
  });

  test("GET /api/v1/openapi.json needs no token", async () => {
    const res = await s.fetch("/api/v1/openapi.json", null);
    assert.equal(res.status, 200);
  });
});

describe("scopes (README “Security model”)", () => {
  let s: TestServer;
  let all: string;
  let docId: string;
  let runId: string;
  before(async () => {
    s = await startServer();
    all = (await s.token("acme")).token;
    s.drop("acme", "FA_3_complex.xml", readFileSync(SAMPLE));
    runId = (await s.sync(all)).id as string;
    docId = (await documentIds(s, all))[0]!;
  });
  after(() => s.close());

  const NOT_YET = "route not implemented yet (its own issue)";
  const SUB = "sub_01JD0000000000000000000000";
  const WHK = "whk_01JD0000000000000000000000";
  // `unknownId`: the path names a resource that does not exist, so 404 is a right answer once the scope is there.
  const table: { scope: Scope; route: string; method: string; path: () => string; unknownId?: boolean; todo?: string }[] = [
    { scope: "documents:read", route: "GET /documents", method: "GET", path: () => "/api/v1/documents" },
    { scope: "documents:read", route: "GET /documents/{id}", method: "GET", path: () => `/api/v1/documents/${docId}` },
    { scope: "documents:read", route: "GET /documents/{id}/xml", method: "GET", path: () => `/api/v1/documents/${docId}/xml` },
    { scope: "documents:read", route: "GET /documents/{id}/pdf", method: "GET", path: () => `/api/v1/documents/${docId}/pdf` },
    { scope: "documents:read", route: "GET /documents/sync/{id}", method: "GET", path: () => `/api/v1/documents/sync/${runId}` },
    { scope: "documents:write", route: "POST /documents/sync", method: "POST", path: () => "/api/v1/documents/sync" },
    { scope: "submissions:read", route: "GET /submissions", method: "GET", path: () => "/api/v1/submissions" },
    { scope: "submissions:read", route: "GET /submissions/{id}", method: "GET", path: () => `/api/v1/submissions/${SUB}`, unknownId: true },
    { scope: "submissions:read", route: "GET /submissions/{id}/xml", method: "GET", path: () => `/api/v1/submissions/${SUB}/xml`, unknownId: true },
    { scope: "submissions:read", route: "GET /submissions/{id}/pdf", method: "GET", path: () => `/api/v1/submissions/${SUB}/pdf`, unknownId: true },
    { scope: "submissions:write", route: "POST /submissions", method: "POST", path: () => "/api/v1/submissions" },
    { scope: "webhooks:read", route: "GET /webhooks", method: "GET", path: () => "/api/v1/webhooks" },
    { scope: "webhooks:read", route: "GET /webhooks/{id}", method: "GET", path: () => `/api/v1/webhooks/${WHK}`, unknownId: true },
    { scope: "webhooks:write", route: "POST /webhooks", method: "POST", path: () => "/api/v1/webhooks" },
    { scope: "webhooks:write", route: "DELETE /webhooks/{id}", method: "DELETE", path: () => `/api/v1/webhooks/${WHK}`, unknownId: true },
    { scope: "webhooks:write", route: "PATCH /webhooks/{id}", method: "PATCH", path: () => `/api/v1/webhooks/${WHK}`, unknownId: true },
    { scope: "webhooks:read", route: "GET /webhooks/{id}/deliveries", method: "GET", path: () => `/api/v1/webhooks/${WHK}/deliveries`, unknownId: true },
    {
      scope: "webhooks:write", route: "POST /webhooks/{id}/deliveries/{evt_id}/retry", method: "POST",
      path: () => `/api/v1/webhooks/${WHK}/deliveries/evt_01JD0000000000000000000000/retry`, unknownId: true,
    },
  ];

  for (const row of table) {
    const options = row.todo ? { todo: row.todo } : {};
    test(`${row.route} without ${row.scope} is 403 FORBIDDEN naming it`, options, async () => {
      const others = (await s.token("acme", SCOPES.filter((x) => x !== row.scope))).token;
      const res = await s.fetch(row.path(), others, { method: row.method });
      const error = await errorOf(res, 403, "FORBIDDEN");
      assert.equal(error.details.required_scope, row.scope);
    });

    test(`${row.route} with only ${row.scope} is let through`, options, async () => {
      const only = (await s.token("acme", [row.scope])).token;
      const res = await s.fetch(row.path(), only, { method: row.method });
      await res.arrayBuffer();
      const refused = [401, 403, 405, ...(row.unknownId ? [] : [404])];
      assert.ok(!refused.includes(res.status), `got ${res.status}`);
      await s.app.sync.idle();
    });
  }

  test("the scope is checked before the resource is looked up, so 403 says nothing about existence", async () => {
    const writeOnly = (await s.token("acme", ["documents:write"])).token;
    for (const path of [`/api/v1/documents/${docId}`, "/api/v1/documents/doc_01JD0000000000000000000000"]) {
      const error = await errorOf(await s.fetch(path, writeOnly), 403, "FORBIDDEN");
      assert.equal(error.details.required_scope, "documents:read");
    }
  });
});

describe("tenants (the conventions in /docs, README “Security model”)", () => {
  let s: TestServer;
  let acme: string;
  let globex: string;
  let acmeDoc: string;
  let globexDoc: string;
  let acmeRun: string;
  before(async () => {
    s = await startServer();
    acme = (await s.token("acme")).token;
    globex = (await s.token("globex")).token;
    // The same file in both inboxes: same external id, different tenants.
    s.drop("acme", "FA_3_complex.xml", readFileSync(SAMPLE));
    s.drop("globex", "FA_3_complex.xml", readFileSync(SAMPLE));
    acmeRun = (await s.sync(acme)).id as string;
    await s.sync(globex);
    acmeDoc = (await documentIds(s, acme))[0]!;
    globexDoc = (await documentIds(s, globex))[0]!;
  });
  after(() => s.close());

  test("each tenant sees only its own documents", async () => {
    assert.notEqual(acmeDoc, globexDoc);
    assert.deepEqual(await documentIds(s, acme), [acmeDoc]);
    assert.deepEqual(await documentIds(s, globex), [globexDoc]);
    const page = (await (await s.fetch("/api/v1/documents?page=1", globex)).json()) as { total: number };
    assert.equal(page.total, 1);
  });

  test("another tenant's document id is 404 NOT_FOUND on the document, its XML and HEAD", async () => {
    await errorOf(await s.fetch(`/api/v1/documents/${acmeDoc}`, globex), 404, "NOT_FOUND");
    await errorOf(await s.fetch(`/api/v1/documents/${acmeDoc}/xml`, globex), 404, "NOT_FOUND");
    const head = await s.fetch(`/api/v1/documents/${acmeDoc}/xml`, globex, { method: "HEAD" });
    assert.equal(head.status, 404);
  });

  test("the same answer comes for a malformed, an unknown and a foreign id", async () => {
    const answers = [];
    for (const id of ["nope", "doc_01JD0000000000000000000000", acmeDoc]) {
      const error = await errorOf(await s.fetch(`/api/v1/documents/${id}`, globex), 404, "NOT_FOUND");
      answers.push(JSON.stringify([error.message, error.details]));
    }
    assert.equal(new Set(answers).size, 1);
  });

  test("another tenant's sync run is 404 NOT_FOUND", async () => {
    await errorOf(await s.fetch(`/api/v1/documents/sync/${acmeRun}`, globex), 404, "NOT_FOUND");
    assert.equal((await s.fetch(`/api/v1/documents/sync/${acmeRun}`, acme)).status, 200);
  });
});

/** Runs `server.ts` with arguments as a child process and collects its output. */
function runServerTs(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const [cmd, ...pre] = serverCommand();
    const child = spawn(cmd!, [...pre, ...args], { cwd: ROOT, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `server.ts serve` on a free port and resolves with its URL once it logs "listening". */
function serveChild(dataDir: string): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const [cmd, ...pre] = serverCommand();
    const child = spawn(cmd!, [...pre, "serve", "--data", dataDir, "--port", "0", "--demo", "off"], {
      cwd: ROOT, env: childEnv(), stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      for (const line of out.split("\n")) {
        if (!line.includes('"listening"')) continue;
        const { url } = JSON.parse(line) as { url: string };
        resolve({ url, child, output: () => out });
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Asks until `check` is true or `ms` have passed; true when it became true. */
async function pollUntil(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const statusOf = async (url: string, token: string): Promise<number> => {
  const res = await fetch(`${url}/api/v1/documents`, { headers: { "x-api-token": token } });
  await res.arrayBuffer();
  return res.status;
};

describe("the token subcommands (README “Security model”, README “Configuration”)", () => {
  let dataDir: string;
  let server: { url: string; child: ChildProcess; output: () => string };
  let first: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "itest-cli-"));
    const created = await runServerTs(["token", "create", "--data", dataDir, "--tenant", "t1", "--scopes", "documents:read"]);
    assert.equal(created.code, 0, created.stderr);
    first = created.stdout.trim();
    server = await serveChild(dataDir);
  });
  after(async () => {
    const exited = new Promise((r) => server.child.once("exit", r));
    server.child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("token create prints the token alone on one stdout line, and the running server accepts it", async () => {
    const res = await runServerTs(["token", "create", "--data", dataDir, "--tenant", "t1", "--scopes", "documents:read,documents:write"]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, TOKEN_LINE_RE);
    const token = res.stdout.trim();
    assert.ok(await pollUntil(async () => (await statusOf(server.url, token)) === 200, 1500), "accepted within 1.5 s");
    assert.equal(await statusOf(server.url, first), 200);
  });

  test("token list shows key ids, tenants and scopes but never a secret or its hash", async () => {
    const res = await runServerTs(["token", "list", "--data", dataDir]);
    assert.equal(res.code, 0, res.stderr);
    const [, keyId, secret] = TOKEN_LINE_RE.exec(`${first}\n`)!;
    assert.ok(res.stdout.includes(keyId!), "the key id is listed");
    assert.ok(res.stdout.includes("t1"));
    assert.ok(res.stdout.includes("documents:read"));
    assert.ok(!res.stdout.includes(secret!), "no secret");
    assert.ok(!res.stdout.includes(createHash("sha256").update(secret!).digest("hex")), "no secret hash");
    assert.ok(!/[0-9a-f]{64}/i.test(res.stdout), "nothing shaped like a SHA-256");
  });

  test("token list --tenant lists only that tenant's tokens", async () => {
    const other = await runServerTs(["token", "create", "--data", dataDir, "--tenant", "t2", "--scopes", "documents:read"]);
    assert.equal(other.code, 0, other.stderr);
    const otherKey = TOKEN_LINE_RE.exec(other.stdout)![1]!;
    const res = await runServerTs(["token", "list", "--data", dataDir, "--tenant", "t1"]);
    assert.equal(res.code, 0, res.stderr);
    assert.ok(res.stdout.includes(TOKEN_LINE_RE.exec(`${first}\n`)![1]!));
    assert.ok(!res.stdout.includes(otherKey), "t2's token is not listed");
  });

  test("token create --expires-in sets an expiry", async () => {
    const res = await runServerTs(["token", "create", "--data", dataDir, "--tenant", "t1", "--scopes", "documents:read", "--expires-in", "30d"]);
    assert.equal(res.code, 0, res.stderr);
    const keyId = TOKEN_LINE_RE.exec(res.stdout)![1]!;
    const list = await runServerTs(["token", "list", "--data", dataDir]);
    const line = list.stdout.split("\n").find((l) => l.includes(keyId)) ?? "";
    const expiry = /20\d\d-\d\d-\d\dT[\d:.]+Z/.exec(line.slice(line.indexOf("expires")))?.[0];
    assert.ok(expiry, `an expiry is listed: ${line}`);
    const days = (Date.parse(expiry) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
  });

  test("token revoke KEY_ID makes the token 401 in the running server within 1.5 s", async () => {
    const created = await runServerTs(["token", "create", "--data", dataDir, "--tenant", "t1", "--scopes", "documents:read"]);
    const token = created.stdout.trim();
    const keyId = TOKEN_LINE_RE.exec(created.stdout)![1]!;
    assert.ok(await pollUntil(async () => (await statusOf(server.url, token)) === 200, 1500), "accepted first");
    const revoked = await runServerTs(["token", "revoke", "--data", dataDir, keyId]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.ok(await pollUntil(async () => (await statusOf(server.url, token)) === 401, 1500), "refused within 1.5 s");
    assert.equal(await statusOf(server.url, first), 200, "other tokens still work");
  });

  test("the stored tokens.json and the server's output hold no token secret", async () => {
    const stored = readFileSync(join(dataDir, "tokens.json"), "utf8");
    const [, keyId, secret] = TOKEN_LINE_RE.exec(`${first}\n`)!;
    assert.ok(stored.includes(keyId!), "the token is in this file");
    assert.ok(!stored.includes(secret!), "but not its secret");
    assert.ok(!stored.includes(first));
    assert.ok(!server.output().includes(secret!), "nor is it logged");
  });

  test("token create with an unknown scope fails without printing a token", async () => {
    const res = await runServerTs(["token", "create", "--data", dataDir, "--tenant", "t1", "--scopes", "documents:delete"]);
    assert.notEqual(res.code, 0);
    assert.equal(res.stdout, "");
    assert.match(res.stderr, /documents:delete/);
  });

  test("token revoke of an unknown key id fails", async () => {
    const res = await runServerTs(["token", "revoke", "--data", dataDir, "ffffffffffffffffff"]);
    assert.notEqual(res.code, 0);
    assert.equal(res.stdout, "");
  });
});
