/**
 * authTokenRequestXml against KSeF's schema (storage/schemas/ksef-auth/schemat_auth_v2-1.xsd) as
 * `xmllint --schema` reads it: every output validates, and each value it refuses the schema refuses too.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { AUTH_TOKEN_REQUEST_NS, type AuthTokenRequestInput, authTokenRequestXml } from "../../lib/ksef/auth_token_request.ts";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "../..");
const DIR = mkdtempSync(join(tmpdir(), "auth-token-request-test-"));
after(() => rmSync(DIR, { recursive: true, force: true }));

/**
 * The schema as published, less one defect: TNipVatUE's pattern ends in '$', which XML Schema regular
 * expressions take as a literal character (XSD 1.1 Part 2 §G: no anchors), so no NIP-VAT UE value valid in
 * KSeF's sense matches it. Read it as the end anchor its authors meant, the only change made.
 */
const SCHEMA = (() => {
  const text = readFileSync(join(ROOT, "storage/schemas/ksef-auth/schemat_auth_v2-1.xsd"), "utf8");
  const fixed = text.replace(/(\(GD\|HA\)\(\\d\{3\}\)\)\)\))\$"/, '$1"');
  assert.notEqual(fixed, text, "the TNipVatUE pattern ends in '$' no longer: drop this fix");
  const file = join(DIR, "schemat_auth_v2-1.xsd");
  writeFileSync(file, fixed);
  return file;
})();

let _n = 0;
function _validates(xml: Uint8Array | string): boolean {
  const file = join(DIR, `request${_n++}.xml`);
  writeFileSync(file, xml);
  const r = spawnSync("xmllint", ["--noout", "--schema", SCHEMA, file], { encoding: "utf8" });
  if (r.error) throw r.error;
  if (/failed to compile/.test(r.stderr)) throw new Error(r.stderr);
  return r.status === 0;
}

const CHALLENGE = "20250625-CR-20F5EE4000-DA48AE4124-46";
const CONTEXTS: AuthTokenRequestInput["context"][] = [
  { type: "Nip", value: "5265877635" },
  { type: "InternalId", value: "5265877635-12345" },
  { type: "NipVatUe", value: "5265877635-DE123456789" },
  { type: "NipVatUe", value: "5265877635-FRXX123456789" },
  { type: "NipVatUe", value: "5265877635-XIGD123" },
];

describe("authTokenRequestXml()", () => {
  test("writes the document of KSeF's example, UTF-8", () => {
    const xml = authTokenRequestXml({ challenge: CHALLENGE, context: { type: "Nip", value: "5265877635" }, subjectIdentifierType: "certificateSubject" });
    assert.equal(
      new TextDecoder().decode(xml),
      `<?xml version="1.0" encoding="utf-8"?>\n<AuthTokenRequest xmlns="${AUTH_TOKEN_REQUEST_NS}"><Challenge>${CHALLENGE}</Challenge>` +
        "<ContextIdentifier><Nip>5265877635</Nip></ContextIdentifier><SubjectIdentifierType>certificateSubject</SubjectIdentifierType></AuthTokenRequest>",
    );
  });

  for (const context of CONTEXTS) {
    for (const subjectIdentifierType of ["certificateSubject", "certificateFingerprint"] as const) {
      test(`validates against the schema: ${context.type} ${context.value}, ${subjectIdentifierType}`, () => {
        assert.ok(_validates(authTokenRequestXml({ challenge: CHALLENGE, context, subjectIdentifierType })));
      });
    }
  }

  const REFUSED: { what: string; input: AuthTokenRequestInput; field: "challenge" | "value" | "type" | "subject" }[] = [
    { what: "a challenge with lower-case hex", input: _input({ challenge: CHALLENGE.toLowerCase() }), field: "challenge" },
    { what: "a challenge one character short", input: _input({ challenge: CHALLENGE.slice(0, -1) }), field: "challenge" },
    { what: "a challenge with a space around it", input: _input({ challenge: ` ${CHALLENGE}x` }), field: "challenge" },
    { what: "a NIP starting with 0", input: _input({ context: { type: "Nip", value: "0265877635" } }), field: "value" },
    { what: "a NIP of 9 digits", input: _input({ context: { type: "Nip", value: "526587763" } }), field: "value" },
    { what: "a NIP with markup", input: _input({ context: { type: "Nip", value: "52658<b/>7" } }), field: "value" },
    { what: "an internal id without its suffix", input: _input({ context: { type: "InternalId", value: "5265877635" } }), field: "value" },
    { what: "an internal id with a 4-digit suffix", input: _input({ context: { type: "InternalId", value: "5265877635-1234" } }), field: "value" },
    { what: "a NIP-VAT UE of a country outside the list", input: _input({ context: { type: "NipVatUe", value: "5265877635-US123456789" } }), field: "value" },
    { what: "a NIP-VAT UE of the wrong length for its country", input: _input({ context: { type: "NipVatUe", value: "5265877635-DE12345678" } }), field: "value" },
    { what: "a PeppolId context (not offered)", input: _input({ context: { type: "PeppolId", value: "PPL123456" } as unknown as AuthTokenRequestInput["context"] }), field: "type" },
    { what: "an inherited property as a context type", input: _input({ context: { type: "toString", value: "5265877635" } as unknown as AuthTokenRequestInput["context"] }), field: "type" },
    { what: "an unknown subject identifier type", input: _input({ subjectIdentifierType: "certificateSerial" as AuthTokenRequestInput["subjectIdentifierType"] }), field: "subject" },
  ];
  for (const { what, input, field } of REFUSED) {
    test(`refuses ${what}${field === "type" ? "" : ", as the schema does"}`, () => {
      assert.throws(() => authTokenRequestXml(input), RangeError);
      // A context type not offered (the schema's PeppolId is for Peppol service providers) has no schema check.
      if (field === "type") return;
      // The same value written into a valid request by hand: the schema refuses it too.
      const ok = new TextDecoder().decode(authTokenRequestXml(_input({})));
      const xml = field === "challenge"
        ? ok.replace(CHALLENGE, _escape(input.challenge))
        : field === "subject"
        ? ok.replace(">certificateSubject<", `>${input.subjectIdentifierType}<`)
        : ok.replace("<Nip>5265877635</Nip>", `<${input.context.type}>${_escape(input.context.value)}</${input.context.type}>`);
      assert.equal(_validates(xml), false, xml);
    });
  }
});

function _input(o: Partial<AuthTokenRequestInput>): AuthTokenRequestInput {
  return { challenge: CHALLENGE, context: { type: "Nip", value: "5265877635" }, subjectIdentifierType: "certificateSubject", ...o };
}

function _escape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}
