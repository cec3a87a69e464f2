import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { createHttpTransport, type LookupAll } from "../../../storage/transports/webhook_http.ts";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";

// A name server of the internal network: one name is an internal host, the other is unknown. Nothing is
// asked of a real resolver.
const lookup: LookupAll = (hostname, _options, cb) => {
  if (hostname === "billing.corp.example") return cb(null, [{ address: "10.1.2.3", family: 4 }]);
  cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
};

describe("the delivery log does not tell a refused address from an unknown name", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ webhooks: { transport: createHttpTransport(false, lookup), allowPrivate: false, schedule: [5_000] } });
  });
  after(() => s.close());

  test("an internal name and an unknown one fail with the same words", async () => {
    const { token } = await s.token("mapper");
    const ids: string[] = [];
    for (const host of ["billing.corp.example", "nothing.corp.example"]) {
      const res = await s.fetch("/api/v1/webhooks", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `https://${host}/hook`, events: ["*"] }) });
      assert.equal(res.status, 201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const form = new FormData();
    form.append("xml", new Blob([readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"))]), "a.xml");
    assert.equal((await s.fetch("/api/v1/submissions", token, { method: "POST", body: form })).status, 201);
    await s.app.webhooks!.runOnce();
    const errors = [];
    for (const id of ids) {
      const page = (await (await s.fetch(`/api/v1/webhooks/${id}/deliveries`, token)).json()) as { data: { error: string }[] };
      assert.equal(page.data.length, 1);
      errors.push(page.data[0]!.error.replace(/^\S+/, "NAME"));
    }
    assert.equal(errors[0], errors[1]);
    assert.doesNotMatch(errors[0]!, /forbidden|ENOTFOUND|10\.1\.2\.3/i);
  });
});
