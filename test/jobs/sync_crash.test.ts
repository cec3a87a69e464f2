import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fixturePath } from "../support/server.ts";
import { runCli, startChild } from "../support/child.ts";

const FILES = 400;

async function listAll(url: string, token: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor = "";
  for (;;) {
    const res = await fetch(`${url}/api/v1/documents?limit=500${cursor ? `&cursor=${cursor}` : ""}`, { headers: { "x-api-token": token } });
    const body = (await res.json()) as { data: Record<string, unknown>[]; next_cursor: string; has_more: boolean };
    out.push(...body.data);
    cursor = body.next_cursor;
    if (!body.has_more) return out;
  }
}

test("kill -9 during a sync loses no acknowledged document and duplicates none", async () => {
  const data = mkdtempSync(join(tmpdir(), "crash-"));
  const made = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read,documents:write"]);
  assert.equal(made.status, 0, made.stderr);
  const token = made.stdout.trim();
  const inbox = join(data, "inbox", "acme");
  mkdirSync(inbox, { recursive: true });
  const xml = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
  for (let i = 0; i < FILES; i++) writeFileSync(join(inbox, `INV-${String(i).padStart(4, "0")}.xml`), xml.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>INV-${i}</cbc:ID>`));

  const first = await startChild(["--data", data, "--rate-limit", "off"]);
  const processed = join(inbox, "processed");
  try {
    const res = await fetch(`${first.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token } });
    assert.equal(res.status, 202);
    for (let i = 0; i < 4000; i++) {
      if (existsSync(processed) && readdirSync(processed).length >= 20) break;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    first.child.kill("SIGKILL");
    await first.exited;
  }
  const acknowledged = readdirSync(processed).map((n) => n.replace(/\.xml$/, ""));
  assert.ok(acknowledged.length > 0 && acknowledged.length < FILES, `killed mid-sync after ${acknowledged.length} files`);

  const second = await startChild(["--data", data, "--rate-limit", "off"]);
  try {
    // Every acknowledged file is a document after the restart (the interrupted run resumes meanwhile).
    const afterCrash = new Set((await listAll(second.url, token)).map((d) => d.external_id));
    for (const id of acknowledged) assert.ok(afterCrash.has(id), `${id} was acknowledged but is missing`);
    // The resumed run and another sync finish the job: every file exactly once.
    for (let i = 0; i < 400 && readdirSync(inbox).filter((n) => n.endsWith(".xml")).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    await fetch(`${second.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token } });
    let docs: Record<string, unknown>[] = [];
    for (let i = 0; i < 400; i++) {
      docs = await listAll(second.url, token);
      if (docs.length === FILES) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const ids = docs.map((d) => d.external_id);
    assert.equal(new Set(ids).size, ids.length, "no duplicates");
    assert.equal(ids.length, FILES);
  } finally {
    second.child.kill("SIGKILL");
    await second.exited;
  }
});
