import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { fetchTransport, nodeTransport, type HttpTransport } from "../../../../storage/ksef/connection/http.ts";

/** A server on 127.0.0.1 answering with `handle`; what it received is kept. */
async function serve(handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void) {
  const seen: { method: string; headers: IncomingMessage["headers"]; body: Buffer }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    seen.push({ method: req.method!, headers: req.headers, body });
    handle(req, body, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const never = new AbortController().signal;
const transports: [string, () => HttpTransport][] = [["nodeTransport", nodeTransport], ["fetchTransport", () => fetchTransport(fetch)]];

for (const [name, make] of transports) {
  test(`${name}() sends the method, headers and body given (with its Content-Length) and reads the answer whole`, async () => {
    const s = await serve((_req, body, res) => {
      res.writeHead(201, { "retry-after": "7", "content-type": "application/xml" });
      res.end(Buffer.concat([Buffer.from("<got>"), body, Buffer.from("</got>")]));
    });
    const http = make();
    try {
      const part = new Uint8Array(100_000).map((_, i) => i % 251);
      const a = await http.request({ method: "PUT", url: `${s.url}/part/1`, headers: { "x-ms-blob-type": "BlockBlob" }, body: part, signal: never, timeoutMs: 5000 });
      assert.equal(a.status, 201);
      assert.equal(a.header("retry-after"), "7");
      assert.equal(a.header("x-missing"), null);
      assert.deepEqual(Buffer.from(a.body), Buffer.concat([Buffer.from("<got>"), Buffer.from(part), Buffer.from("</got>")]));
      assert.equal(s.seen[0]!.method, "PUT");
      assert.equal(s.seen[0]!.headers["x-ms-blob-type"], "BlockBlob");
      assert.equal(s.seen[0]!.headers["content-length"], "100000");
      assert.equal(s.seen[0]!.headers["transfer-encoding"], undefined);
    } finally {
      http.close();
      await s.close();
    }
  });

  test(`${name}() does not follow a redirect: it is a failure`, async () => {
    const s = await serve((_req, _body, res) => {
      res.writeHead(302, { location: "/elsewhere" });
      res.end();
    });
    const http = make();
    try {
      await assert.rejects(http.request({ method: "GET", url: `${s.url}/upo`, headers: {}, body: null, signal: never, timeoutMs: 5000 }));
      assert.equal(s.seen.length, 1, "the location was not asked for");
    } finally {
      http.close();
      await s.close();
    }
  });

  test(`${name}() gives up with a TimeoutError when no answer comes in time, and at once when the signal aborts`, async () => {
    const held: ServerResponse[] = [];
    const s = await serve((_req, _body, res) => void held.push(res));
    const http = make();
    try {
      await assert.rejects(http.request({ method: "GET", url: `${s.url}/slow`, headers: {}, body: null, signal: never, timeoutMs: 50 }), { name: "TimeoutError" });
      const stop = new AbortController();
      const pending = http.request({ method: "GET", url: `${s.url}/slow`, headers: {}, body: null, signal: stop.signal, timeoutMs: 60_000 });
      while (held.length < 2) await new Promise((r) => setImmediate(r));
      stop.abort(new Error("closing"));
      await assert.rejects(pending);
    } finally {
      for (const r of held) r.destroy();
      http.close();
      await s.close();
    }
  });
}

test("nodeTransport().close() ends a connection still waiting for its answer: the request fails and the server can close", async () => {
  const held: ServerResponse[] = [];
  const s = await serve((_req, _body, res) => void held.push(res));
  const http = nodeTransport();
  const pending = http.request({ method: "GET", url: `${s.url}/slow`, headers: {}, body: null, signal: never, timeoutMs: 60_000 });
  while (held.length < 1) await new Promise((r) => setImmediate(r));
  http.close();
  await assert.rejects(pending);
  // server.close() waits for every open connection: it returns only because close() ended the busy one.
  await s.close();
});

test("nodeTransport() fails an answer over its size limit and leaves no connection behind", async () => {
  const s = await serve((_req, _body, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const chunk = Buffer.alloc(1 << 20);
    let sent = 0;
    const more = (): void => {
      while (sent < 70 && res.write(chunk)) sent++;
      if (sent < 70) res.once("drain", more);
      else res.end();
    };
    res.on("error", () => {});
    more();
  });
  const http = nodeTransport();
  try {
    await assert.rejects(http.request({ method: "GET", url: `${s.url}/big`, headers: {}, body: null, signal: never, timeoutMs: 20_000 }), RangeError);
  } finally {
    http.close();
    await s.close();
  }
});
