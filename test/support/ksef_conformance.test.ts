import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatKsefNumber } from "../../lib/formats/invoice/ksef_number.ts";
import { checkRequest, checkResponse, ksefSpec, type CheckedRequest } from "./ksef_conformance.ts";
import { startKsefSimulator } from "./ksef_simulator.ts";

const spec = ksefSpec();
const json = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
const NUMBER = formatKsefNumber("5265877635", "20261125", "000000000001");
const BEARER = { authorization: "Bearer abc" };
const KEY = "A".repeat(43) + "=";

function exportRequest(dateRange: Record<string, unknown>, extra: Record<string, unknown> = {}): CheckedRequest {
  return {
    method: "POST", path: "/invoices/exports", headers: { ...BEARER, "content-type": "application/json" },
    body: json({ encryption: { encryptedSymmetricKey: KEY, initializationVector: "AAAAAAAAAAAAAAAAAAAAAA==", publicKeyId: KEY }, filters: { subjectType: "Subject2", dateRange: { dateType: "PermanentStorage", ...dateRange } }, ...extra }),
  };
}

describe("checkRequest() against KSeF's open-api.json", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  const cases: { what: string; req: CheckedRequest; expect: RegExp | null }[] = [
    { what: "a conformant export", req: exportRequest({ from: "2026-09-01T00:00:00.000Z", restrictToPermanentStorageHwmDate: true }), expect: null },
    { what: "an export of 729 days", req: exportRequest({ from: "2024-11-27T00:00:00.000Z" }), expect: /longer than 3 months/ },
    { what: "a closed window of exactly 3 months", req: exportRequest({ from: "2026-01-31T00:00:00.000Z", to: "2026-04-30T00:00:00.000Z" }), expect: null },
    { what: "a closed window a day past 3 months", req: exportRequest({ from: "2026-01-31T00:00:00.000Z", to: "2026-05-01T00:00:00.000Z" }), expect: /longer than 3 months/ },
    { what: "a misspelt field", req: exportRequest({ from: "2026-09-01T00:00:00.000Z" }, { onlyMetadta: true }), expect: /onlyMetadta is a property the schema does not name/ },
    { what: "a wrong enum", req: { ...exportRequest({ from: "2026-09-01T00:00:00.000Z" }), body: json({ encryption: { encryptedSymmetricKey: KEY, initializationVector: KEY }, filters: { subjectType: "Seller", dateRange: { dateType: "PermanentStorage", from: "2026-09-01T00:00:00Z" } } }) }, expect: /subjectType is not one of/ },
    { what: "a publicKeyId of the wrong length", req: { ...exportRequest({}), body: json({ encryption: { encryptedSymmetricKey: KEY, initializationVector: KEY, publicKeyId: "abc=" }, filters: { subjectType: "Subject1", dateRange: { dateType: "PermanentStorage", from: "2026-09-01T00:00:00Z" } } }) }, expect: /publicKeyId is shorter than 44/ },
    { what: "an invoice download asking for JSON", req: { method: "GET", path: `/invoices/ksef/${NUMBER}`, headers: { ...BEARER, accept: "application/json" }, body: null }, expect: /Accept application\/json matches none/ },
    { what: "an invoice download asking for XML", req: { method: "GET", path: `/invoices/ksef/${NUMBER}`, headers: { ...BEARER, accept: "application/xml" }, body: null }, expect: null },
    { what: "a malformed KSeF number", req: { method: "GET", path: "/invoices/ksef/123", headers: BEARER, body: null }, expect: /path parameter ksefNumber/ },
    { what: "no Bearer token", req: { method: "GET", path: `/invoices/ksef/${NUMBER}`, headers: {}, body: null }, expect: /no Authorization: Bearer/ },
    { what: "a page size over 250", req: { method: "POST", path: "/invoices/query/metadata?pageSize=500", headers: { ...BEARER, "content-type": "application/json" }, body: json({ subjectType: "Subject1", dateRange: { dateType: "PermanentStorage", from: "2026-09-01T00:00:00Z" } }) }, expect: /pageSize is above the maximum 250/ },
    { what: "an undeclared query parameter", req: { method: "GET", path: "/security/public-key-certificates?all=1", headers: {}, body: null }, expect: /query parameter all is not declared/ },
    { what: "an operation that does not exist", req: { method: "GET", path: "/invoices/export", headers: BEARER, body: null }, expect: /no such operation/ },
  ];
  for (const c of cases) {
    test(c.what, () => {
      const out = checkRequest(spec, c.req, now);
      if (c.expect === null) assert.deepEqual(out, []);
      else assert.ok(out.some((v) => c.expect!.test(v)), out.join("\n") || "no violation");
    });
  }
});

describe("checkResponse() against KSeF's open-api.json", () => {
  const certificate = { certificate: "AAAA", certificateId: KEY, publicKeyId: KEY, validFrom: "2026-01-01T00:00:00Z", validTo: "2027-01-01T00:00:00Z", usage: ["KsefTokenEncryption"] };
  const ok = (status: number, body: unknown, type = "application/json", headers: Record<string, string> = {}) => ({ status, headers: { "content-type": type, ...headers }, body: json(body) });
  const cases: { what: string; method: string; path: string; res: ReturnType<typeof ok>; expect: RegExp | null }[] = [
    { what: "certificates with their ids", method: "GET", path: "/security/public-key-certificates", res: ok(200, [certificate]), expect: null },
    { what: "certificates without certificateId", method: "GET", path: "/security/public-key-certificates", res: ok(200, [{ ...certificate, certificateId: undefined }]), expect: /lacks the required property certificateId/ },
    { what: "a challenge without timestampMs and clientIp", method: "POST", path: "/auth/challenge", res: ok(200, { challenge: "20261125-CR-0000000000-0000000000-00", timestamp: "2026-11-25T12:00:00.0000000+00:00" }), expect: /lacks the required property (timestampMs|clientIp)/ },
    { what: "an auth status without authenticationMethodInfo", method: "GET", path: "/auth/20261125-AU-0000000000-0000000000-00", res: ok(200, { startDate: "2026-11-25T12:00:00Z", authenticationMethod: "Token", status: { code: 200, description: "OK" } }), expect: /authenticationMethodInfo/ },
    { what: "a 401 as plain JSON", method: "POST", path: "/invoices/exports", res: ok(401, {}), expect: /Content-Type application\/json is not one of application\/problem\+json/ },
    { what: "a 401 as Problem Details", method: "POST", path: "/invoices/exports", res: ok(401, { title: "Unauthorized", status: 401, detail: "x", timestamp: "2026-11-25T12:00:00Z" }, "application/problem+json"), expect: null },
    { what: "a 429 without Retry-After", method: "POST", path: "/invoices/exports", res: ok(429, { status: { code: 429, description: "Too Many Requests", details: [] } }), expect: /Retry-After/ },
    { what: "a 404 the operation does not document", method: "POST", path: "/invoices/exports", res: ok(404, {}), expect: /not documented/ },
    { what: "a 400 in the legacy format", method: "POST", path: "/invoices/exports", res: ok(400, { exception: { exceptionDetailList: [{ exceptionCode: 21470, exceptionDescription: "x" }] } }), expect: null },
    { what: "an invoice as XML", method: "GET", path: `/invoices/ksef/${NUMBER}`, res: { status: 200, headers: { "content-type": "application/xml" }, body: new TextEncoder().encode("<Faktura/>") }, expect: null },
  ];
  for (const c of cases) {
    test(c.what, () => {
      const out = checkResponse(spec, { method: c.method, path: c.path }, c.res);
      if (c.expect === null) assert.deepEqual(out, []);
      else assert.ok(out.some((v) => c.expect!.test(v)), out.join("\n") || "no violation");
    });
  }
});

test("the simulator answers a too-long range with 21405 and its reason, and a test that strays fails at close()", async () => {
  const sim = await startKsefSimulator({ tokens: [] });
  const body = JSON.parse(new TextDecoder().decode(exportRequest({ from: "2024-01-01T00:00:00Z" }).body!)) as unknown;
  const res = await fetch(`${sim.url}/invoices/exports`, { method: "POST", headers: { authorization: "Bearer x", "content-type": "application/json", "x-error-format": "problem-details" }, body: JSON.stringify(body) });
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  const problem = (await res.json()) as { errors: { code: number; details: string[] }[] };
  assert.equal(problem.errors[0]!.code, 21405);
  assert.match(problem.errors[0]!.details.join(" "), /longer than 3 months/);
  await assert.rejects(sim.close(), /departed from open-api\.json[\s\S]*longer than 3 months/);
});
