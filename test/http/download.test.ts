import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { contentDisposition, downloadResponse, parseRange, type Download } from "../../lib/http/download.ts";
import type { ApiRequest, StreamBody } from "../../lib/http/types.ts";

describe("parseRange()", () => {
  const SIZE = 1000;
  const cases: { what: string; input: string | null; expected: [number, number] | "unsatisfiable" | null }[] = [
    { what: "no header", input: null, expected: null },
    { what: "an empty header", input: "", expected: null },
    { what: "the first 100 bytes", input: "bytes=0-99", expected: [0, 100] },
    { what: "one byte", input: "bytes=0-0", expected: [0, 1] },
    { what: "the last byte by position", input: "bytes=999-999", expected: [999, 1000] },
    { what: "an end past the size is clamped", input: "bytes=10-5000", expected: [10, 1000] },
    { what: "an open range", input: "bytes=100-", expected: [100, 1000] },
    { what: "an open range at the last byte", input: "bytes=999-", expected: [999, 1000] },
    { what: "a suffix", input: "bytes=-100", expected: [900, 1000] },
    { what: "a suffix of one byte", input: "bytes=-1", expected: [999, 1000] },
    { what: "a suffix longer than the file is the whole file", input: "bytes=-5000", expected: [0, 1000] },
    { what: "the unit in capitals (units are case-insensitive)", input: "BYTES=0-9", expected: [0, 10] },
    { what: "a start at the size", input: "bytes=1000-", expected: "unsatisfiable" },
    { what: "a start past the size", input: "bytes=5000-6000", expected: "unsatisfiable" },
    { what: "a suffix of zero bytes", input: "bytes=-0", expected: "unsatisfiable" },
    { what: "an end before the start (invalid: ignored)", input: "bytes=9-2", expected: null },
    { what: "several ranges (answered whole)", input: "bytes=0-1,5-6", expected: null },
    { what: "another unit", input: "items=0-5", expected: null },
    { what: "no numbers", input: "bytes=-", expected: null },
    { what: "garbage", input: "bytes=abc", expected: null },
    { what: "a negative start", input: "bytes=--5", expected: null },
    { what: "no unit", input: "0-99", expected: null },
  ];
  for (const { what, input, expected } of cases) {
    test(`${what}: ${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parseRange(input, SIZE), expected);
    });
  }
});

describe("contentDisposition()", () => {
  const cases = [
    { what: "slashes become underscores", input: "FA/2025/12/001", expected: 'attachment; filename="FA_2025_12_001.xml"' },
    { what: "plain ASCII stays as it is", input: "Snippet1", expected: 'attachment; filename="Snippet1.xml"' },
    { what: "spaces are kept", input: "018304 / 28865", expected: 'attachment; filename="018304 _ 28865.xml"' },
    { what: "quotes and backslashes cannot break the header", input: 'A"B\\C', expected: 'attachment; filename="A_B_C.xml"' },
    { what: "control characters cannot split the header", input: "a\r\nb", expected: 'attachment; filename="a_b.xml"' },
    { what: "NUL is replaced", input: "a\u0000b", expected: 'attachment; filename="a_b.xml"' },
    { what: "an empty name falls back", input: "", expected: 'attachment; filename="download.xml"' },
    { what: "blanks fall back", input: "   ", expected: 'attachment; filename="download.xml"' },
    { what: "a path cannot climb out", input: "../../etc/passwd", expected: 'attachment; filename=".._.._etc_passwd.xml"' },
    {
      what: "Polish letters get an ASCII fallback and filename*",
      input: "FV/Żółć/1",
      expected: "attachment; filename=\"FV_Zo_c_1.xml\"; filename*=UTF-8''FV_%C5%BB%C3%B3%C5%82%C4%87_1.xml",
    },
    { what: "ß has no ASCII decomposition", input: "Straße 1", expected: "attachment; filename=\"Stra_e 1.xml\"; filename*=UTF-8''Stra%C3%9Fe%201.xml" },
    { what: "a euro sign", input: "€100", expected: "attachment; filename=\"_100.xml\"; filename*=UTF-8''%E2%82%AC100.xml" },
    { what: "characters RFC 8187 does not allow unescaped are escaped", input: "Ł'(1)", expected: "attachment; filename=\"_1_.xml\"; filename*=UTF-8''%C5%81%27%281%29.xml" },
    { what: "ASCII that is unsafe in the fallback keeps its meaning in filename*", input: "50%;x", expected: "attachment; filename=\"50_x.xml\"; filename*=UTF-8''50%25%3Bx.xml" },
  ];
  for (const { what, input, expected } of cases) {
    test(`${what}: ${JSON.stringify(input)}`, () => {
      assert.equal(contentDisposition(input, "xml"), expected);
    });
  }

  test("the header is always ASCII, whatever the name", () => {
    for (const name of ["Żółć", "日本語の請求書", "😀/😀", "\u202eexe.fdp", "a\u0085b"]) {
      assert.match(contentDisposition(name, "pdf"), /^[\x20-\x7e]+$/, name);
    }
  });

  test("the extension is kept", () => {
    assert.equal(contentDisposition("FA/1", "pdf"), 'attachment; filename="FA_1.pdf"');
  });
});

/** A request with only headers, as downloadResponse reads it. */
function requestWith(headers: Record<string, string> = {}): ApiRequest {
  return {
    method: "GET", path: "/x", query: new URLSearchParams(), remoteAddress: "",
    header: (name) => headers[name] ?? null,
    body: { async *[Symbol.asyncIterator]() {} },
  };
}

const BYTES = new TextEncoder().encode("<Invoice>0123456789</Invoice>");
const DOWNLOAD: Download = { size: BYTES.length, hash: "abc123", contentType: "application/xml", filename: "FA/1", extension: "xml", body: BYTES };

/** The same bytes as a stream, counting what was read. */
function streamed(): { body: StreamBody; reads: [number, number][] } {
  const reads: [number, number][] = [];
  return {
    reads,
    body: {
      size: BYTES.length,
      async *stream(start, end) {
        reads.push([start, end]);
        yield BYTES.subarray(start, end);
      },
    },
  };
}

async function collect(body: unknown): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  const s = body as StreamBody;
  for await (const c of s.stream(0, s.size)) chunks.push(c);
  return Buffer.concat(chunks);
}

describe("downloadResponse()", () => {
  test("sends the whole file with its download headers", async () => {
    const res = downloadResponse(requestWith(), DOWNLOAD);
    assert.equal(res.status, 200);
    assert.deepEqual(
      { ...res.headers },
      {
        "content-type": "application/xml", etag: '"abc123"', "cache-control": "private, no-cache", "accept-ranges": "bytes",
        "content-disposition": 'attachment; filename="FA_1.xml"', "content-length": String(BYTES.length),
      },
    );
    assert.deepEqual(await collect(res.body), BYTES);
  });

  test("If-None-Match with the ETag is 304 without a body", () => {
    for (const inm of ['"abc123"', 'W/"abc123"', '"x", "abc123"', "*"]) {
      const res = downloadResponse(requestWith({ "if-none-match": inm }), DOWNLOAD);
      assert.equal(res.status, 304, inm);
      assert.equal(res.body, null);
      assert.equal(res.headers.etag, '"abc123"');
    }
    assert.equal(downloadResponse(requestWith({ "if-none-match": '"abc1234"' }), DOWNLOAD).status, 200);
  });

  test("a range is 206 with Content-Range and only those bytes", async () => {
    const res = downloadResponse(requestWith({ range: "bytes=9-18" }), DOWNLOAD);
    assert.equal(res.status, 206);
    assert.equal(res.headers["content-range"], `bytes 9-18/${BYTES.length}`);
    assert.equal(res.headers["content-length"], "10");
    assert.equal(new TextDecoder().decode(await collect(res.body)), "0123456789");
  });

  test("a range of a streamed file reads only that range from storage", async () => {
    const { body, reads } = streamed();
    const res = downloadResponse(requestWith({ range: "bytes=9-18" }), { ...DOWNLOAD, body });
    assert.equal(res.status, 206);
    assert.equal(new TextDecoder().decode(await collect(res.body)), "0123456789");
    assert.deepEqual(reads, [[9, 19]]);
  });

  test("an unsatisfiable range is 416 with Content-Range bytes */size", () => {
    const res = downloadResponse(requestWith({ range: `bytes=${BYTES.length}-` }), DOWNLOAD);
    assert.equal(res.status, 416);
    assert.equal(res.headers["content-range"], `bytes */${BYTES.length}`);
    assert.equal(res.body, null);
  });

  test("If-Range with the ETag honours the range; with another validator it sends everything", () => {
    assert.equal(downloadResponse(requestWith({ range: "bytes=0-0", "if-range": '"abc123"' }), DOWNLOAD).status, 206);
    assert.equal(downloadResponse(requestWith({ range: "bytes=0-0", "if-range": '"old"' }), DOWNLOAD).status, 200);
    assert.equal(downloadResponse(requestWith({ range: "bytes=0-0", "if-range": 'W/"abc123"' }), DOWNLOAD).status, 200, "If-Range needs a strong match");
  });
});
