import { test } from "node:test";
import assert from "node:assert/strict";
import { InvoiceError } from "../../../lib/formats/invoice/errors.ts";
import { MultipartError } from "../../../lib/formats/multipart/errors.ts";
import { XmlError } from "../../../lib/formats/xml/errors.ts";
import { XsdRegexError } from "../../../lib/formats/xsd/regex.ts";
import { ZipError } from "../../../lib/formats/zip/read.ts";
import { StorageUnavailableError } from "../../../lib/contracts/storage_errors.ts";
import { describeThreadError, rebuildThreadError } from "../../../storage/process/thread_errors.ts";

/** What the main thread rebuilds of `e` after it crossed a thread (structured clone, as postMessage does). */
const across = (e: unknown): Error => rebuildThreadError(structuredClone(describeThreadError(e)));

test("an error rebuilt from a thread is of its class, with its message, fields, name and the thread's stack", () => {
  const cases: { what: string; error: Error; fields: Record<string, unknown> }[] = [
    { what: "XmlError", error: new XmlError("Expected '>'", 3, 14), fields: { line: 3, column: 14 } },
    { what: "InvoiceError", error: new InvoiceError("xml:/Faktura/Fa/P_2", "required", "P_2 is required"), fields: { field: "xml:/Faktura/Fa/P_2", issue: "required" } },
    { what: "MultipartError", error: new MultipartError("too_large", "body", "too_large", "Request body is larger than 10 bytes", 10), fields: { kind: "too_large", limitBytes: 10 } },
    { what: "StorageUnavailableError", error: new StorageUnavailableError("ENOSPC", "Disk full"), fields: { code: "ENOSPC" } },
    { what: "ZipError", error: new ZipError("Not a ZIP archive"), fields: {} },
    { what: "XsdRegexError (whose name is Error)", error: new XsdRegexError("Bad quantifier"), fields: {} },
    { what: "RangeError", error: new RangeError("Maximum call stack size exceeded"), fields: {} },
    { what: "TypeError", error: new TypeError("x is not a function"), fields: {} },
  ];
  for (const c of cases) {
    const e = across(c.error);
    assert.equal(Object.getPrototypeOf(e), Object.getPrototypeOf(c.error), c.what);
    assert.ok(e instanceof Error);
    assert.equal(e.name, c.error.name, c.what);
    assert.equal(e.message, c.error.message, c.what);
    assert.equal(e.stack, c.error.stack, `${c.what}: the stack is where the thread threw it`);
    for (const [k, v] of Object.entries(c.fields)) assert.deepEqual((e as unknown as Record<string, unknown>)[k], v, `${c.what}.${k}`);
  }
});

test("an error of a class not known here comes back as an Error with its name and message; a thrown non-error as its text", () => {
  class OddError extends Error {
    readonly detail = "kept";
    constructor() {
      super("odd");
      this.name = "OddError";
    }
  }
  const odd = across(new OddError());
  assert.equal(Object.getPrototypeOf(odd), Error.prototype);
  assert.equal(odd.name, "OddError");
  assert.equal(odd.message, "odd");
  assert.equal((odd as unknown as { detail: string }).detail, "kept");
  const text = across("plain text");
  assert.equal(text.message, "plain text");
});

test("a field that cannot cross a thread is left out, and the rest still comes back", () => {
  const e = Object.assign(new InvoiceError("xml", "invalid", "Not an invoice"), { callback: () => 1 });
  const back = across(e);
  assert.ok(back instanceof InvoiceError);
  assert.equal(back.field, "xml");
  assert.equal("callback" in back, false);
});
