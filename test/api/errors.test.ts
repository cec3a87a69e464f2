import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { API_ERROR_STATUS, apiError, ERROR_STATUS, toApiError } from "../../lib/api/errors.ts";
import { InvoiceError } from "../../lib/formats/invoice/errors.ts";
import { MultipartError, multipartBodyError, multipartTooLarge } from "../../lib/formats/multipart/errors.ts";
import { XmlError } from "../../lib/formats/xml/errors.ts";
import { ApiError, errorEnvelope, HTTP_ERROR_STATUS } from "../../lib/http/errors.ts";

function api(err: unknown): ApiError {
  const e = toApiError(err);
  assert.ok(e instanceof ApiError, `not mapped: ${String(err)}`);
  return e;
}

describe("toApiError() maps the formats' own errors to the envelope of the error envelope in the OpenAPI document", () => {
  const cases: { what: string; input: Error; status: number; code: string; details: Record<string, unknown> }[] = [
    {
      what: "an XmlError is 422 on field xml with the position in the issue",
      input: new XmlError("End tag 'c' does not match start tag 'b' of line 2", 2, 8),
      status: 422, code: "VALIDATION_ERROR",
      details: { field: "xml", issue: "End tag 'c' does not match start tag 'b' of line 2 at line 2, column 8" },
    },
    {
      what: "an InvoiceError is 422 on its XML path",
      input: new InvoiceError("xml:/Faktura/Fa/P_2", "required", "The invoice number is required (/Faktura/Fa/P_2)"),
      status: 422, code: "VALIDATION_ERROR", details: { field: "xml:/Faktura/Fa/P_2", issue: "required" },
    },
    { what: "a body over the limit is 413 with the limit", input: multipartTooLarge(1024), status: 413, code: "PAYLOAD_TOO_LARGE", details: { limit_bytes: 1024 } },
    {
      what: "a Content-Type that is not multipart is 415",
      input: new MultipartError("media_type", "Content-Type", "not multipart/form-data", "Content-Type must be multipart/form-data"),
      status: 415, code: "UNSUPPORTED_MEDIA_TYPE", details: { expected: "multipart/form-data" },
    },
    { what: "a malformed body is 400 on field body", input: multipartBodyError("no parts"), status: 400, code: "BAD_REQUEST", details: { field: "body", issue: "no parts" } },
  ];
  for (const c of cases) {
    test(c.what, () => {
      const e = api(c.input);
      assert.equal(e.status, c.status);
      assert.equal(e.code, c.code);
      assert.deepEqual(e.details, c.details);
    });
  }

  test("any other value is returned as it is", () => {
    const bug = new TypeError("a bug");
    assert.equal(toApiError(bug), bug);
    const already = new ApiError("NOT_FOUND", "x");
    assert.equal(toApiError(already), already);
  });
});

describe("the API's own error codes", () => {
  test("live in lib/api/errors.ts: the HTTP layer knows none of them, and the closed list holds both", () => {
    for (const code of ["DUPLICATE_SUBMISSION", "XML_NOT_AVAILABLE", "IDEMPOTENCY_KEY_IN_USE", "IDEMPOTENCY_KEY_MISMATCH", "UPSTREAM_ERROR"]) {
      assert.ok(code in API_ERROR_STATUS, code);
      assert.ok(!(code in HTTP_ERROR_STATUS), `${code} is not HTTP's`);
    }
    assert.deepEqual(Object.keys(ERROR_STATUS).sort(), [...Object.keys(HTTP_ERROR_STATUS), ...Object.keys(API_ERROR_STATUS)].sort());
  });

  test("apiError() gives the code its status, and the envelope carries both", () => {
    const e = apiError("DUPLICATE_SUBMISSION", "This invoice was already submitted", { existing_id: "sub_1" });
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 409);
    const env = errorEnvelope(e, "req_1");
    assert.equal(env.status, 409);
    assert.deepEqual(JSON.parse(env.body), { error: { code: "DUPLICATE_SUBMISSION", message: "This invoice was already submitted", details: { existing_id: "sub_1" }, request_id: "req_1" } });
  });
});
