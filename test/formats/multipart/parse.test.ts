import { test } from "node:test";
import assert from "node:assert/strict";
import { toApiError } from "../../../lib/api/errors.ts";
import { ApiError } from "../../../lib/http/errors.ts";
import {
  DEFAULT_MULTIPART_LIMITS,
  MultipartParser,
  parseBoundary,
  parseMultipart,
  resolveMultipartLimits,
} from "../../../lib/formats/multipart/parse.ts";
import type { MultipartLimits, MultipartPart } from "../../../lib/formats/multipart/parse.ts";
import { createRandom } from "../../support/random.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A body and its boundary as a real encoder (undici's FormData through Request) writes them. */
async function encode(form: FormData): Promise<{ bytes: Uint8Array; boundary: string }> {
  const req = new Request("http://localhost/", { method: "POST", body: form });
  const bytes = new Uint8Array(await req.arrayBuffer());
  return { bytes, boundary: parseBoundary(req.headers.get("content-type")) };
}

/** Feeds `chunks` to a parser and returns the parts, or throws what the parser threw. */
function parseChunks(chunks: Uint8Array[], boundary: string, limits: Partial<MultipartLimits> = {}): MultipartPart[] {
  const parts: MultipartPart[] = [];
  const parser = new MultipartParser(boundary, (p) => parts.push(p), limits);
  for (const c of chunks) parser.push(c);
  parser.end();
  return parts;
}

function splitAt(bytes: Uint8Array, ...cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    out.push(bytes.subarray(from, cut));
    from = cut;
  }
  out.push(bytes.subarray(from));
  return out;
}

function bytewise(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

/** Parts as plain data, for deepEqual across chunkings. */
function summary(parts: MultipartPart[]): unknown[] {
  return parts.map((p) => ({ name: p.name, filename: p.filename, contentType: p.contentType, headers: { ...p.headers }, body: dec.decode(p.body) }));
}

/** The outcome of parsing: parts, or the status and issue the API answers a MultipartError with; anything else is rethrown. */
function outcome(chunks: Uint8Array[], boundary: string, limits: Partial<MultipartLimits> = {}): unknown {
  try {
    return summary(parseChunks(chunks, boundary, limits));
  } catch (raw) {
    const err = toApiError(raw);
    if (err instanceof ApiError) return { status: err.status, code: err.code, details: err.details };
    throw raw;
  }
}

/** Asserts that every split of `bytes` into one, two (at each position) and single-byte chunks gives the same parts. */
function assertEverySplit(bytes: Uint8Array, boundary: string, limits: Partial<MultipartLimits> = {}): unknown {
  const whole = outcome([bytes], boundary, limits);
  for (let cut = 0; cut <= bytes.length; cut++) {
    assert.deepEqual(outcome(splitAt(bytes, cut), boundary, limits), whole, `split at ${cut}`);
  }
  assert.deepEqual(outcome(bytewise(bytes), boundary, limits), whole, "one byte at a time");
  return whole;
}

function raw(s: string): Uint8Array {
  return enc.encode(s);
}

async function* iterate(chunks: Uint8Array[], pulled: { count: number }): AsyncGenerator<Uint8Array> {
  for (const c of chunks) {
    pulled.count++;
    yield c;
  }
}

test("parseBoundary() reads quoted, unquoted and oddly spaced boundaries", () => {
  const cases = [
    { what: "unquoted", input: "multipart/form-data; boundary=abc", expected: "abc" },
    { what: "case-insensitive type and parameter name", input: "Multipart/Form-Data; BOUNDARY=AbC", expected: "AbC" },
    { what: "quoted with a space and tspecials", input: 'multipart/form-data; boundary="a b:c=?"', expected: "a b:c=?" },
    { what: "whitespace around everything", input: "multipart/form-data \t;  boundary = abc  ", expected: "abc" },
    { what: "after another parameter", input: "multipart/form-data; charset=utf-8; boundary=----x", expected: "----x" },
    { what: "before another parameter", input: 'multipart/form-data; boundary="q"; charset=utf-8', expected: "q" },
    { what: "unquoted with tspecials (sloppy clients)", input: "multipart/form-data; boundary=----=_Part_0_1.2", expected: "----=_Part_0_1.2" },
    { what: "exactly 70 characters", input: `multipart/form-data; boundary=${"b".repeat(70)}`, expected: "b".repeat(70) },
  ];
  for (const { what, input, expected } of cases) assert.equal(parseBoundary(input), expected, what);
});

test("parseBoundary() refuses other media types with 415 and bad boundaries with 400", () => {
  const unsupported = { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", details: { expected: "multipart/form-data" } };
  const bad = (issue: string) => ({ status: 400, code: "BAD_REQUEST", details: { field: "Content-Type", issue } });
  const cases = [
    { what: "no Content-Type", input: null, expected: unsupported },
    { what: "empty Content-Type", input: "", expected: unsupported },
    { what: "JSON", input: "application/json", expected: unsupported },
    { what: "another multipart subtype", input: "multipart/mixed; boundary=abc", expected: unsupported },
    { what: "no boundary parameter", input: "multipart/form-data", expected: bad("missing boundary") },
    { what: "other parameters only", input: "multipart/form-data; charset=utf-8", expected: bad("missing boundary") },
    { what: "empty boundary", input: "multipart/form-data; boundary=", expected: bad("empty boundary") },
    { what: "empty quoted boundary", input: 'multipart/form-data; boundary=""', expected: bad("empty boundary") },
    { what: "71 characters", input: `multipart/form-data; boundary=${"b".repeat(71)}`, expected: bad("boundary too long") },
    { what: "a character outside bchars", input: "multipart/form-data; boundary=a<b", expected: bad("invalid boundary characters") },
    { what: "ending with a space", input: 'multipart/form-data; boundary="ab "', expected: bad("invalid boundary characters") },
    { what: "non-ASCII", input: "multipart/form-data; boundary=é", expected: bad("invalid boundary characters") },
    { what: "unterminated quote", input: 'multipart/form-data; boundary="abc', expected: bad("malformed parameters") },
    { what: "junk after a quoted value", input: 'multipart/form-data; boundary="abc"x', expected: bad("malformed parameters") },
    { what: "two boundaries", input: "multipart/form-data; boundary=a; boundary=b", expected: bad("duplicate boundary") },
  ];
  for (const { what, input, expected } of cases) {
    assert.throws(() => parseBoundary(input), (raw: unknown) => {
      const err = toApiError(raw);
      assert.ok(err instanceof ApiError, what);
      assert.deepEqual({ status: err.status, code: err.code, details: err.details }, expected, what);
      return true;
    });
  }
});

test("parseMultipart() reads what a real FormData encoder writes, however it is chunked", async () => {
  const form = new FormData();
  form.append("note", "zażółć \"gęślą\"\r\njaźń \\ --");
  form.append("empty", "");
  form.append("xml", new File(['<?xml version="1.0"?>\r\n<Faktura>€</Faktura>'], 'fa"k\\tura.xml', { type: "application/xml" }));
  form.append("blob", new Blob([new Uint8Array([0, 13, 10, 45, 45, 255])]));
  form.append('na"me\r\nż', "v");
  const { bytes, boundary } = await encode(form);

  const parts = await parseMultipart(iterate([bytes], { count: 0 }), boundary);
  assert.deepEqual(
    parts.map((p) => [p.name, p.filename, p.contentType]),
    [
      ["note", null, null],
      ["empty", null, null],
      ["xml", 'fa"k\\tura.xml', "application/xml"],
      ["blob", "blob", "application/octet-stream"],
      ['na"me\r\nż', null, null],
    ],
  );
  assert.equal(dec.decode(parts[0]?.body), "zażółć \"gęślą\"\r\njaźń \\ --");
  assert.equal(parts[1]?.body.length, 0);
  assert.equal(dec.decode(parts[2]?.body), '<?xml version="1.0"?>\r\n<Faktura>€</Faktura>');
  assert.deepEqual([...(parts[3]?.body ?? [])], [0, 13, 10, 45, 45, 255]);
  assert.equal(parts[2]?.headers["content-disposition"], 'form-data; name="xml"; filename="fa%22k\\tura.xml"');

  assertEverySplit(bytes, boundary);
});

test("parseMultipart() takes chunks from any async iterable and returns parts in order", async () => {
  const form = new FormData();
  for (let i = 0; i < 5; i++) form.append(`f${i}`, "x".repeat(i * 1000));
  const { bytes, boundary } = await encode(form);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 777) chunks.push(bytes.slice(i, i + 777));
  const parts = await parseMultipart(iterate(chunks, { count: 0 }), boundary);
  assert.deepEqual(parts.map((p) => [p.name, p.body.length]), [["f0", 0], ["f1", 1000], ["f2", 2000], ["f3", 3000], ["f4", 4000]]);
});

test("MultipartParser follows RFC 2046 where real encoders do not go", () => {
  const b = "XyZ";
  const one = (body: string) => [{ name: "a", filename: null, contentType: null, headers: { "content-disposition": 'form-data; name="a"' }, body }];
  const cases = [
    { what: "a preamble and an epilogue are ignored", input: 'preamble --XyZ\r\n\r\n--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--XyZ--\r\nepilogue\r\n--XyZ\r\n', expected: one("v") },
    { what: "the first delimiter may carry its CRLF", input: '\r\n--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--XyZ--', expected: one("v") },
    { what: "transport padding after delimiters", input: '--XyZ\t \t\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--XyZ--  \r\n', expected: one("v") },
    { what: "the boundary not after CRLF is data", input: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nv--XyZ\n--XyZ\r--XyZ \r\n-XyZ\r\n--XyZ--', expected: one("v--XyZ\n--XyZ\r--XyZ \r\n-XyZ") },
    { what: "a partial delimiter is data", input: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n--Xy\r\r\n--X\r\n\r\n--XyZ--', expected: one("\r\n--Xy\r\r\n--X\r\n") },
    { what: "an empty body", input: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n--XyZ--', expected: one("") },
    { what: "the close delimiter may end the stream", input: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--XyZ--', expected: one("v") },
    {
      what: "header names are case-insensitive and values trimmed",
      input: '--XyZ\r\ncOnTeNt-DiSpOsItIoN:   FORM-DATA;NAME=a  \r\nCONTENT-TYPE:text/plain\t\r\nX-Extra: 1\r\nx-extra: 2\r\n\r\nv\r\n--XyZ--',
      expected: [{ name: "a", filename: null, contentType: "text/plain", headers: { "content-disposition": "FORM-DATA;NAME=a", "content-type": "text/plain", "x-extra": "1, 2" }, body: "v" }],
    },
    {
      what: "a folded header line is unfolded",
      input: '--XyZ\r\nContent-Disposition: form-data;\r\n name="a";\r\n\tfilename="f.xml"\r\n\r\nv\r\n--XyZ--',
      expected: [{ name: "a", filename: "f.xml", contentType: null, headers: { "content-disposition": 'form-data; name="a"; filename="f.xml"' }, body: "v" }],
    },
    {
      what: "quoted-string escapes and percent escapes of the HTML encoder",
      input: '--XyZ\r\nContent-Disposition: form-data; name="a\\"b%22c%0D%0A"; filename="C:\\dir\\\\x\\"y;z=.xml"\r\n\r\nv\r\n--XyZ--',
      expected: [{ name: 'a"b"c\r\n', filename: 'C:\\dir\\x"y;z=.xml', contentType: null, headers: { "content-disposition": 'form-data; name="a\\"b%22c%0D%0A"; filename="C:\\dir\\\\x\\"y;z=.xml"' }, body: "v" }],
    },
    {
      what: "filename* (RFC 8187) wins over filename",
      input: "--XyZ\r\nContent-Disposition: form-data; name=a; filename=\"EUR rates\"; filename*=UTF-8''%e2%82%ac%20rates\r\n\r\nv\r\n--XyZ--",
      expected: [{ name: "a", filename: "€ rates", contentType: null, headers: { "content-disposition": "form-data; name=a; filename=\"EUR rates\"; filename*=UTF-8''%e2%82%ac%20rates" }, body: "v" }],
    },
    {
      what: "an undecodable filename* is ignored",
      input: "--XyZ\r\nContent-Disposition: form-data; name=a; filename=x; filename*=UTF-8''%ff%zz\r\n\r\nv\r\n--XyZ--",
      expected: [{ name: "a", filename: "x", contentType: null, headers: { "content-disposition": "form-data; name=a; filename=x; filename*=UTF-8''%ff%zz" }, body: "v" }],
    },
    {
      what: "an empty filename stays empty, not null",
      input: '--XyZ\r\nContent-Disposition: form-data; name="a"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--XyZ--',
      expected: [{ name: "a", filename: "", contentType: "application/octet-stream", headers: { "content-disposition": 'form-data; name="a"; filename=""', "content-type": "application/octet-stream" }, body: "" }],
    },
  ];
  for (const { what, input, expected } of cases) {
    assert.deepEqual(assertEverySplit(raw(input), b), expected, what);
  }
});

test("MultipartParser answers every malformed body with 400 and a short issue", () => {
  const b = "XyZ";
  const cd = 'Content-Disposition: form-data; name="a"';
  const cases = [
    { what: "a header line starting with a space (dicer's crash)", input: `--XyZ\r\n ${cd}\r\n\r\nv\r\n--XyZ--`, expected: "continuation line without a header" },
    { what: "a header line without a colon", input: `--XyZ\r\n${cd}\r\nbogus\r\n\r\nv\r\n--XyZ--`, expected: "header line without colon" },
    { what: "a space before the colon", input: `--XyZ\r\nContent-Disposition : form-data; name=a\r\n\r\nv\r\n--XyZ--`, expected: "invalid header name" },
    { what: "an empty header name", input: `--XyZ\r\n: x\r\n${cd}\r\n\r\nv\r\n--XyZ--`, expected: "invalid header name" },
    { what: "a bare LF in the headers", input: `--XyZ\r\n${cd}\n\r\nv\r\n--XyZ--`, expected: "header line not ended by CRLF" },
    { what: "a bare CR in the headers", input: `--XyZ\r\n${cd}\rX\r\n\r\nv\r\n--XyZ--`, expected: "bare CR in part headers" },
    { what: "no Content-Disposition", input: "--XyZ\r\nContent-Type: text/plain\r\n\r\nv\r\n--XyZ--", expected: "missing Content-Disposition" },
    { what: "no headers at all", input: "--XyZ\r\n\r\nv\r\n--XyZ--", expected: "missing Content-Disposition" },
    { what: "two Content-Dispositions", input: `--XyZ\r\n${cd}\r\n${cd}\r\n\r\nv\r\n--XyZ--`, expected: "duplicate Content-Disposition header" },
    { what: "two Content-Types", input: `--XyZ\r\n${cd}\r\nContent-Type: a/b\r\nContent-Type: c/d\r\n\r\nv\r\n--XyZ--`, expected: "duplicate Content-Type header" },
    { what: "an attachment disposition", input: '--XyZ\r\nContent-Disposition: attachment; name="a"\r\n\r\nv\r\n--XyZ--', expected: "not form-data disposition" },
    { what: "no name", input: '--XyZ\r\nContent-Disposition: form-data; filename="a"\r\n\r\nv\r\n--XyZ--', expected: "missing name" },
    { what: "name without parameters", input: "--XyZ\r\nContent-Disposition: form-data\r\n\r\nv\r\n--XyZ--", expected: "missing name" },
    { what: 'name=""', input: '--XyZ\r\nContent-Disposition: form-data; name=""\r\n\r\nv\r\n--XyZ--', expected: "empty name" },
    { what: "two names", input: "--XyZ\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\nv\r\n--XyZ--", expected: "duplicate name parameter" },
    { what: "an unterminated quoted name", input: '--XyZ\r\nContent-Disposition: form-data; name="a\r\n\r\nv\r\n--XyZ--', expected: "malformed Content-Disposition" },
    { what: "junk after the boundary", input: `--XyZ\r\n${cd}\r\n\r\nv\r\n--XyZa\r\n--XyZ--`, expected: "invalid boundary line" },
    { what: "junk after transport padding", input: `--XyZ  x\r\n${cd}\r\n\r\nv\r\n--XyZ--`, expected: "invalid boundary line" },
    { what: "CR without LF after the boundary", input: `--XyZ\r${cd}\r\n\r\nv\r\n--XyZ--`, expected: "invalid boundary line" },
    { what: "a single dash after the boundary", input: `--XyZ\r\n${cd}\r\n\r\nv\r\n--XyZ-x`, expected: "invalid boundary line" },
    { what: "no final boundary", input: `--XyZ\r\n${cd}\r\n\r\nv`, expected: "missing final boundary" },
    { what: "a final boundary without its dashes", input: `--XyZ\r\n${cd}\r\n\r\nv\r\n--XyZ`, expected: "missing final boundary" },
    { what: "a final boundary cut after one dash", input: `--XyZ\r\n${cd}\r\n\r\nv\r\n--XyZ-`, expected: "missing final boundary" },
    { what: "a final boundary cut in the middle", input: `--XyZ\r\n${cd}\r\n\r\nv\r\n--X`, expected: "missing final boundary" },
    { what: "a final boundary without the CRLF before it", input: `--XyZ\r\n${cd}\r\n\r\nv--XyZ--`, expected: "missing final boundary" },
    { what: "a body that ends mid-part", input: `--XyZ\r\n${cd}\r\n\r\nv\r\n--XyZ\r\n${cd}\r\n\r\nhalf`, expected: "missing final boundary" },
    { what: "a body that ends mid-headers", input: `--XyZ\r\n${cd}\r\nContent-Ty`, expected: "truncated part headers" },
    { what: "a body that ends after a boundary line", input: "--XyZ\r\n", expected: "truncated part headers" },
    { what: "an empty body", input: "", expected: "no parts" },
    { what: "a body without any boundary", input: '{"xml": "<a/>"}', expected: "no parts" },
    { what: "only a close delimiter", input: "--XyZ--\r\n", expected: "no parts" },
    { what: "another boundary", input: `--XYZ\r\n${cd}\r\n\r\nv\r\n--XYZ--`, expected: "no parts" },
  ];
  for (const { what, input, expected } of cases) {
    assert.deepEqual(assertEverySplit(raw(input), b), { status: 400, code: "BAD_REQUEST", details: { field: "body", issue: expected } }, what);
  }
});

test("MultipartParser allows exactly `parts` parts and refuses one more", () => {
  const body = (n: number) => raw(Array.from({ length: n }, (_, i) => `--b\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\n${i}\r\n`).join("") + "--b--");
  assert.equal(parseChunks([body(3)], "b", { parts: 3 }).length, 3);
  assert.deepEqual(outcome([body(4)], "b", { parts: 3 }), { status: 400, code: "BAD_REQUEST", details: { field: "body", issue: "too many parts" } });
  assert.equal(parseChunks([body(DEFAULT_MULTIPART_LIMITS.parts)], "b").length, DEFAULT_MULTIPART_LIMITS.parts);
  assert.throws(() => parseChunks([body(DEFAULT_MULTIPART_LIMITS.parts + 1)], "b"), /too many parts/);
});

test("MultipartParser allows part headers of exactly `headerBytes` and refuses one byte more", () => {
  const head = 'Content-Disposition: form-data; name="a"\r\nX-Pad: ppp\r\n\r\n';
  const body = raw(`--b\r\n${head}v\r\n--b--`);
  assert.equal(parseChunks([body], "b", { headerBytes: head.length }).length, 1);
  const over = { status: 400, code: "BAD_REQUEST", details: { field: "body", issue: "part headers over limit" } };
  assert.deepEqual(assertEverySplit(body, "b", { headerBytes: head.length - 1 }), over);
  // A header line that never ends is refused at the limit, not buffered.
  const endless = raw(`--b\r\nX-Long: ${"a".repeat(DEFAULT_MULTIPART_LIMITS.headerBytes)}`);
  assert.deepEqual(outcome([endless], "b"), over);
});

test("MultipartParser allows a body of exactly `bodyBytes` and answers 413 with limit_bytes one byte over", () => {
  const body = raw('--b\r\nContent-Disposition: form-data; name="xml"\r\n\r\n<a/>\r\n--b--\r\n');
  assert.equal(parseChunks([body], "b", { bodyBytes: body.length }).length, 1);
  assert.equal(parseChunks(bytewise(body), "b", { bodyBytes: body.length }).length, 1);
  const tooLarge = { status: 413, code: "PAYLOAD_TOO_LARGE", details: { limit_bytes: body.length - 1 } };
  assert.deepEqual(outcome([body], "b", { bodyBytes: body.length - 1 }), tooLarge);
  assert.deepEqual(outcome(bytewise(body), "b", { bodyBytes: body.length - 1 }), tooLarge);
});

test("parseMultipart() refuses a Content-Length over the limit before reading anything", async () => {
  const pulled = { count: 0 };
  await assert.rejects(parseMultipart(iterate([raw("--b--")], pulled), "b", { bodyBytes: 100 }, 101), (raw: unknown) => {
    const err = toApiError(raw);
    assert.ok(err instanceof ApiError);
    assert.deepEqual([err.status, err.details], [413, { limit_bytes: 100 }]);
    return true;
  });
  assert.equal(pulled.count, 0);
  // At the limit it reads on (and here fails on the content, not the length).
  await assert.rejects(parseMultipart(iterate([raw("--b--")], pulled), "b", { bodyBytes: 100 }, 100), /no parts/);
  assert.equal(pulled.count, 1);
});

test("parseMultipart() stops pulling chunks once a streamed body passes the limit, whatever Content-Length said", async () => {
  const chunk = new Uint8Array(1000).fill(0x61);
  let pulls = 0;
  const endless = {
    [Symbol.asyncIterator]() {
      return { next: async () => (pulls++, { done: false as const, value: chunk }) };
    },
  };
  await assert.rejects(parseMultipart(endless, "b", { bodyBytes: 10_000 }, 50), (err: unknown) => { const e = toApiError(err); return e instanceof ApiError && e.status === 413; });
  assert.equal(pulls, 11);
});

test("parseMultipart() stops pulling at the first malformed byte and leaves the iterator open", async () => {
  const pulled = { count: 0 };
  let returned = false;
  const chunks = [raw("--b\r\n bad\r\n\r\n"), raw("more"), raw("\r\n--b--")];
  const body = {
    [Symbol.asyncIterator]() {
      const inner = iterate(chunks, pulled);
      return { next: () => inner.next(), return: async () => ((returned = true), { done: true as const, value: undefined }) };
    },
  };
  await assert.rejects(parseMultipart(body, "b"), /continuation line without a header/);
  assert.equal(pulled.count, 1);
  assert.equal(returned, false);
});

test("MultipartParser keeps failing with the same error after the first", () => {
  const parser = new MultipartParser("b", () => {});
  assert.throws(() => parser.push(raw("--b\r\n\r\n\r\n")), /missing Content-Disposition/);
  assert.throws(() => parser.push(raw("--b--")), /missing Content-Disposition/);
  assert.throws(() => parser.end(), /missing Content-Disposition/);
});

test("MultipartParser and resolveMultipartLimits() refuse programmer mistakes with RangeError", () => {
  assert.throws(() => new MultipartParser("", () => {}), RangeError);
  assert.throws(() => new MultipartParser("a\r\nb", () => {}), RangeError);
  assert.throws(() => new MultipartParser("x".repeat(71), () => {}), RangeError);
  assert.throws(() => resolveMultipartLimits({ bodyBytes: 0 }), RangeError);
  assert.throws(() => resolveMultipartLimits({ parts: 1.5 }), RangeError);
  assert.throws(() => resolveMultipartLimits({ headerBytes: Infinity }), RangeError);
  assert.deepEqual(resolveMultipartLimits({ parts: 2 }), { ...DEFAULT_MULTIPART_LIMITS, parts: 2 });
  for (const value of Object.values(DEFAULT_MULTIPART_LIMITS)) assert.ok(Number.isSafeInteger(value) && value > 0);
});


test("MultipartParser throws nothing but MultipartError on thousands of mutated bodies, and chunking never changes the outcome", async () => {
  const form = new FormData();
  form.append("note", "hello\r\nworld");
  form.append("xml", new File(["<Faktura>\r\n<P_2>FV/1</P_2>\r\n</Faktura>"], "f.xml", { type: "application/xml" }));
  const { bytes, boundary } = await encode(form);
  const tokens = ["\r\n", "\r", "\n", "--", `--${boundary}`, `\r\n--${boundary}`, " ", "\t", ":", ";", '"', "\\", "=", "name=", "filename*=UTF-8''%", "%", "\u00ff"].map(raw);
  const random = createRandom(20261121);
  const int = (n: number) => Math.floor(random() * n);
  let accepted = 0;
  for (let round = 0; round < 3000; round++) {
    const limits = { headerBytes: 64 + int(200), parts: 1 + int(4) };
    let b: Uint8Array = bytes;
    for (let m = 1 + int(4); m > 0; m--) {
      const at = int(b.length + 1);
      const op = int(5);
      const token = tokens[int(tokens.length)] ?? new Uint8Array(0);
      if (op === 0) {
        b = new Uint8Array(b);
        if (b.length > 0) b[Math.min(at, b.length - 1)] = int(256);
      } else if (op === 1) {
        b = concat(b.subarray(0, at), token, b.subarray(at));
      } else if (op === 2) {
        b = concat(b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + int(8))));
      } else if (op === 3) {
        b = b.subarray(0, at);
      } else {
        b = concat(b.subarray(0, at), b.subarray(int(b.length), int(b.length) + 20), b.subarray(at));
      }
    }
    const whole = outcome([b], boundary, limits);
    if (Array.isArray(whole)) accepted++;
    const cuts = Array.from({ length: int(6) }, () => int(b.length + 1)).sort((x, y) => x - y);
    assert.deepEqual(outcome(splitAt(b, ...cuts), boundary, limits), whole, `round ${round}`);
    // A body limit may be hit before or after a 400, depending on the chunks; it must not crash either.
    outcome(splitAt(b, ...cuts), boundary, { ...limits, bodyBytes: bytes.length - 20 + int(40) });
  }
  // The mutations must leave some bodies valid, or the fuzz tests only the error paths.
  assert.ok(accepted > 100, `only ${accepted} mutated bodies parsed`);
});

function concat(...pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
