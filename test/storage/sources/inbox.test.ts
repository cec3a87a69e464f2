/**
 * The inbox source through a real server and sync runs: metadata files are
 * validated, unusable files are failed with a reason and set aside, and a file
 * over the limit is refused without being read.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, ftruncateSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../../support/server.ts";

interface Run {
  status: string;
  counts: { fetched: number; created: number; updated: number; unchanged: number; failed: number };
  errors: { external_id: string; code: string; message: string }[];
}

describe("inbox source", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme", ["documents:read", "documents:write"])).token;
  });
  after(() => s.close());

  const failedFiles = (): string[] => readdirSync(join(s.dataDir, "inbox", "acme", "failed"));

  test("metadata with a bad date, a non-decimal amount, a wrong type, no known field, or not JSON is failed with the reason", async () => {
    const cases = [
      { stem: "TYPO", content: '{"numbr":"X-1","issue_date":"2024-02-30","totals":{"gross":"abc"}}', field: /issue_date|totals\.gross/ },
      { stem: "NUMBER5", content: '{"number":5}', field: /number/ },
      { stem: "NOFIELD", content: '{"numbr":"X-1","foo":1}', field: /none of the fields/ },
      { stem: "GROSS", content: '{"number":"X-2","totals":{"gross":"12,50"}}', field: /totals\.gross/ },
      { stem: "AMOUNT", content: '{"number":"X-3","totals":{"net":100}}', field: /totals\.net/ },
      { stem: "SELLER", content: '{"number":"X-4","seller":"ACME"}', field: /seller/ },
      { stem: "TRUNC", content: '{"number":', field: /not valid JSON/ },
      { stem: "ARRAY", content: "[1,2]", field: /not a JSON object/ },
    ];
    for (const c of cases) s.drop("acme", `${c.stem}.json`, c.content);
    const run = (await s.sync(token)) as unknown as Run;
    assert.equal(run.status, "succeeded");
    assert.deepEqual(run.counts, { fetched: cases.length, created: 0, updated: 0, unchanged: 0, failed: cases.length }, JSON.stringify(run.errors));
    for (const c of cases) {
      const e = run.errors.find((x) => x.external_id === c.stem);
      assert.ok(e, c.stem);
      assert.equal(e.code, "VALIDATION_ERROR", c.stem);
      assert.match(e.message, c.field, `${c.stem}: ${e.message}`);
      assert.ok(failedFiles().includes(`${c.stem}.json`), `${c.stem}.json is in failed/`);
    }
    const list = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: unknown[] };
    assert.equal(list.data.length, 0, "no document was made of them");
  });

  test("metadata with unknown fields besides known ones is imported, the unknown ones ignored", async () => {
    s.drop("acme", "OK-1.json", '{"number":"OK/1","issue_date":"2024-02-29","totals":{"gross":"12.50"},"note":"ignored"}');
    const run = (await s.sync(token)) as unknown as Run;
    assert.deepEqual(run.counts.created, 1, JSON.stringify(run.errors));
  });

  test("an error message says its reason once", async () => {
    s.drop("acme", "BAD-1.xml", "this is not XML at all");
    const run = (await s.sync(token)) as unknown as Run;
    const e = run.errors.find((x) => x.external_id === "BAD-1");
    assert.ok(e);
    const parts = e.message.split(": ");
    assert.equal(new Set(parts).size, parts.length, e.message);
  });

  // Deno's node:fs gives directory entries as decoded text, so a name that is not UTF-8 cannot be reached by its bytes.
  test("a file whose name is not UTF-8 counts as failed, with the reason, and moves to failed/", { skip: "Deno" in globalThis ? "Deno decodes file names lossily" : false }, async () => {
    const name = Buffer.concat([Buffer.from("bad"), Buffer.from([0xff, 0xfe]), Buffer.from("name.xml")]);
    const dir = join(s.dataDir, "inbox", "acme");
    mkdirSync(dir, { recursive: true });
    closeSync(openSync(Buffer.concat([Buffer.from(`${dir}/`), name]), "w"));
    const run = (await s.sync(token)) as unknown as Run;
    assert.equal(run.counts.failed, 1, JSON.stringify(run));
    assert.match(run.errors[0]!.message, /UTF-8/);
    const failed = readdirSync(join(dir, "failed"), { encoding: "buffer" });
    assert.ok(failed.some((n) => n.equals(name)), "moved to failed/");
    assert.ok(!readdirSync(dir, { encoding: "buffer" }).some((n) => n.equals(name)), "gone from the inbox");
    const again = (await s.sync(token)) as unknown as Run;
    assert.equal(again.counts.fetched, 0, "not seen again");
  });

  test("a file over the limit is refused by its size, without being read", async () => {
    // Sparse: 3 GiB that take no disk, and more than a Buffer can hold, so reading it would fail differently.
    const path = join(s.dataDir, "inbox", "acme", "huge.xml");
    const fd = openSync(path, "w");
    ftruncateSync(fd, 3 * 1024 ** 3);
    closeSync(fd);
    const run = (await s.sync(token)) as unknown as Run;
    assert.equal(run.counts.failed, 1);
    assert.equal(run.errors[0]!.code, "PAYLOAD_TOO_LARGE", run.errors[0]!.message);
    assert.ok(existsSync(join(s.dataDir, "inbox", "acme", "failed", "huge.xml")));
  });
});
