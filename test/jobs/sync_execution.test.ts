import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { formatKsefNumber } from "../../lib/formats/invoice/ksef_number.ts";
import { httpSource } from "../../storage/sources/http.ts";
import { startServer, type TestServer } from "../support/server.ts";

describe("a sync run takes an upstream's KSeF number only when it is one", () => {
  let up: Server;
  let s: TestServer;
  const good = formatKsefNumber("5260250274", "20251104", "0100001F2E1E");
  before(async () => {
    up = createServer((_req, res) => res.end(JSON.stringify({
      data: [
        { id: "ok", xml_available: false, number: "FV/1", ksef_number: good },
        { id: "bad-checksum", xml_available: false, number: "FV/2", ksef_number: `${good.slice(0, 33)}00` },
        { id: "not-a-number", xml_available: false, number: "FV/3", ksef_number: "../../etc/passwd" },
      ],
      has_more: false, next_cursor: "c1",
    })));
    await new Promise<void>((r) => up.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(up.address() as { port: number }).port}`;
    s = await startServer({
      sources: (tenant) => [httpSource({ name: "upstream", url, token: "t", positionFile: join(s.dataDir, `${tenant}.cursor`), retryDelays: [], maxXmlBytes: 10 * 1024 * 1024 })],
    });
  });
  after(async () => {
    await s.close();
    await new Promise<void>((r) => up.close(() => r()));
  });

  test("a malformed or wrong-checksum ksef_number fails its item; a valid one is kept", async () => {
    const { token } = await s.token("acme");
    const run = (await s.sync(token)) as { counts: Record<string, number>; errors: { external_id: string; code: string }[] };
    assert.equal(run.counts.created, 1);
    assert.equal(run.counts.failed, 2);
    assert.deepEqual(run.errors.map((e) => [e.external_id, e.code]), [["bad-checksum", "VALIDATION_ERROR"], ["not-a-number", "VALIDATION_ERROR"]]);
    const list = (await (await s.fetch("/api/v1/documents?page=1", token)).json()) as { data: { external_id: string; ksef_number: string | null }[] };
    assert.deepEqual(list.data.map((d) => [d.external_id, d.ksef_number]), [["ok", good]]);
  });
});
