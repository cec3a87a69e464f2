/**
 * The file store on a disk that fills up: a 3 MiB tmpfs as
 * the data directory. A failed upload gives its space back, so the server
 * recovers without a restart, and a PDF is served while nothing can be written.
 * Needs the right to mount (root in a container); skipped, saying so, without it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";

const dir = mkdtempSync(join(tmpdir(), "diskfull-"));
const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", dir]).status === 0;
const SMALL_A = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));
const SMALL_B = readFileSync(fixturePath("samples", "cii", "mustang_factur-x.xml"));
// A valid invoice of 1.5 MB: a UBL sample with a large comment after its declaration.
const text = readFileSync(fixturePath("samples", "ubl", "en16931_BIS3_Invoice_positive_DKK.xml"), "utf8");
const cut = text.indexOf("?>") + 2;
const LARGE = Buffer.from(`${text.slice(0, cut)}<!--${"x".repeat(1_500_000)}-->${text.slice(cut)}`);

function free(): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

function tempFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" }).filter((n) => n.includes(".tmp-"));
}

describe("a full disk", { skip: mounted ? false : "cannot mount a tmpfs here (needs root)" }, () => {
  let s: TestServer;
  let token: string;
  let first: string;
  before(async () => {
    s = await startServer({ dataDir: dir });
    token = (await s.token("acme")).token;
    first = ((await (await upload(SMALL_A)).json()) as { id: string }).id;
  });
  after(async () => {
    await s?.close();
    spawnSync("umount", [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (bytes: Uint8Array): Promise<Response> => {
    const form = new FormData();
    form.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), "invoice.xml");
    return s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
  };

  test("a failed write gives its space back: the next small upload and /readyz succeed without a restart", async () => {
    writeFileSync(join(dir, "filler-1"), new Uint8Array(Math.max(0, free() - 500_000)));
    const big = await upload(LARGE);
    assert.equal(big.status, 503, await big.text());
    assert.ok(big.headers.get("retry-after"));
    assert.deepEqual(tempFiles(dir), [], "no temp file is left behind");
    const small = await upload(SMALL_B);
    assert.equal(small.status, 201, await small.text());
    assert.equal((await fetch(`${s.url}/readyz`)).status, 200);
  });

  test("a PDF is rendered and served while nothing can be written", async () => {
    writeFileSync(join(dir, "filler-2"), new Uint8Array(Math.max(0, free() - 4096)));
    try {
      writeFileSync(join(dir, "filler-3"), new Uint8Array(free()));
    } catch {
      // full already
    }
    const res = await s.fetch(`/api/v1/submissions/${first}/pdf`, token);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString("latin1"), "%PDF-");
    assert.deepEqual(tempFiles(dir), [], "no temp file is left behind");
  });
});
