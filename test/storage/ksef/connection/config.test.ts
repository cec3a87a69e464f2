import assert from "node:assert/strict";
import { test } from "node:test";
import { credentialFiles, KSEF_ENVIRONMENTS, ksefQrEnvironmentOf, parseKsefSourceConfig } from "../../../../storage/ksef/connection/config.ts";
import { ksefSpec } from "../../../support/ksef_conformance.ts";

const entry = (environment: string, more: Record<string, unknown> = {}) => ({ name: "ksef", type: "ksef", environment, nip: "5260250274", token: "20251010-EC-0000000000-0000000000-00|nip-5260250274|0000", ...more });

test("parseKsefSourceConfig() takes today's named environments, https base URLs, and plain http only on this machine", () => {
  // srodowiska.md: the api-*.ksef.mf.gov.pl/v2 hosts; the ksef-test.mf.gov.pl/api/v2 style ones are retired.
  assert.equal(parseKsefSourceConfig(entry("test"), "acme[0]").baseUrl, "https://api-test.ksef.mf.gov.pl/v2");
  assert.equal(parseKsefSourceConfig(entry("demo"), "acme[0]").baseUrl, "https://api-demo.ksef.mf.gov.pl/v2");
  assert.equal(parseKsefSourceConfig(entry("prod"), "acme[0]").baseUrl, "https://api.ksef.mf.gov.pl/v2");
  assert.equal(parseKsefSourceConfig(entry("https://ksef.example.com/v2/"), "acme[0]").baseUrl, "https://ksef.example.com/v2");
  assert.equal(parseKsefSourceConfig(entry("http://127.0.0.1:8099"), "acme[0]").baseUrl, "http://127.0.0.1:8099");
  // The token would travel in clear text to another host.
  assert.throws(() => parseKsefSourceConfig(entry("http://ksef.example.com/v2"), "acme[0]"), /https:\/\//);
});

test("the test environment is the server open-api.json names", () => {
  const servers = (ksefSpec() as unknown as { servers: { url: string }[] }).servers.map((s) => s.url);
  assert.ok(servers.includes(KSEF_ENVIRONMENTS.test), servers.join(", "));
});

test("parseKsefSourceConfig() takes `since` as a date or a date and time with offset, and names it when bad", () => {
  assert.equal(parseKsefSourceConfig(entry("test"), "acme[0]").since, undefined);
  assert.equal(parseKsefSourceConfig(entry("test", { since: "2025-02-01" }), "acme[0]").since, Date.parse("2025-02-01T00:00:00Z"));
  assert.equal(parseKsefSourceConfig(entry("test", { since: "2025-02-01T00:00:00+01:00" }), "acme[0]").since, Date.parse("2025-01-31T23:00:00Z"));
  for (const bad of ["yesterday", "2025-02-01T00:00:00", 20250201]) {
    assert.throws(() => parseKsefSourceConfig(entry("test", { since: bad }), "acme[0]"), /"since" must be/);
  }
});

test("parseKsefSourceConfig() takes `min_interval` as a duration: 15 minutes on production by default, none elsewhere", () => {
  const cases = [
    { what: "prod", input: entry("prod"), expected: 15 * 60_000 },
    { what: "the production root given as a base URL", input: entry("https://api.ksef.mf.gov.pl/v2/"), expected: 15 * 60_000 },
    { what: "test", input: entry("test"), expected: 0 },
    { what: "demo", input: entry("demo"), expected: 0 },
    { what: "another base URL", input: entry("https://ksef.example.com/v2"), expected: 0 },
    { what: "prod with 0s", input: entry("prod", { min_interval: "0s" }), expected: 0 },
    { what: "prod with 1h", input: entry("prod", { min_interval: "1h" }), expected: 3_600_000 },
    { what: "test with 15m", input: entry("test", { min_interval: "15m" }), expected: 15 * 60_000 },
    { what: "test with 90s", input: entry("test", { min_interval: "90s" }), expected: 90_000 },
  ];
  for (const c of cases) assert.equal(parseKsefSourceConfig(c.input, "acme[0]").minIntervalMs, c.expected, c.what);
  for (const bad of ["15", "15 minutes", "-5m", "", "400d", 15, null, true]) {
    assert.throws(() => parseKsefSourceConfig(entry("test", { min_interval: bad }), "acme[0]"), /^RangeError: sources\.json acme\[0\]: "min_interval" must be a duration/, JSON.stringify(bad));
  }
});

test("ksefQrEnvironmentOf() gives each public root its QR environment, a simulator on this machine test's, any other root production's", () => {
  const cases = [
    { what: "test", input: "https://api-test.ksef.mf.gov.pl/v2", expected: "test" },
    { what: "demo", input: "https://api-demo.ksef.mf.gov.pl/v2/", expected: "demo" },
    { what: "prod", input: "https://api.ksef.mf.gov.pl/v2", expected: "prod" },
    { what: "a simulator on 127.0.0.1", input: "http://127.0.0.1:8123/v2", expected: "test" },
    { what: "a simulator on localhost", input: "http://localhost:8123/v2", expected: "test" },
    { what: "a simulator on [::1]", input: "http://[::1]:8123/v2", expected: "test" },
    { what: "a gateway in front of KSeF", input: "https://ksef-gateway.example.com/v2", expected: "prod" },
    { what: "a retired root", input: "https://ksef-test.mf.gov.pl/api/v2", expected: "prod" },
  ];
  for (const { what, input, expected } of cases) assert.equal(ksefQrEnvironmentOf(input), expected, what);
  // The root a checked entry has maps the same way.
  assert.equal(ksefQrEnvironmentOf(parseKsefSourceConfig(entry("demo"), "acme[0]").baseUrl), "demo");
});

test("parseKsefSourceConfig() takes exactly one way to sign in: a token, a certificate with its key, or a PKCS#12", () => {
  const { token: _t, ...bare } = entry("test");
  const cert = { ...bare, certificate: "keys/auth.crt.pem", key: "keys/auth.key.pem" };
  assert.deepEqual(parseKsefSourceConfig(entry("test"), "acme[0]").credentials, { kind: "token", token: entry("test").token });
  const c = parseKsefSourceConfig(cert, "acme[0]");
  assert.deepEqual(c.credentials, { kind: "certificate", certificateFile: "keys/auth.crt.pem", keyFile: "keys/auth.key.pem", subjectIdentifier: "certificate_subject" });
  assert.equal(c.token, "");
  assert.deepEqual(parseKsefSourceConfig({ ...cert, key_passphrase_env: "KSEF_KEY_PASS", subject_identifier: "certificate_fingerprint" }, "acme[0]").credentials, {
    kind: "certificate", certificateFile: "keys/auth.crt.pem", keyFile: "keys/auth.key.pem", passphrase: { env: "KSEF_KEY_PASS" }, subjectIdentifier: "certificate_fingerprint",
  });
  assert.deepEqual(parseKsefSourceConfig({ ...bare, pkcs12: "/etc/ksef/auth.p12", key_passphrase_file: "pass.txt" }, "acme[0]").credentials, {
    kind: "pkcs12", pkcs12File: "/etc/ksef/auth.p12", passphrase: { file: "pass.txt" }, subjectIdentifier: "certificate_subject",
  });
  // null is a field not given: a certificate sign-in with "token": null and "pkcs12": null is one way, not three.
  assert.deepEqual(parseKsefSourceConfig({ ...cert, token: null, pkcs12: null, key_passphrase_file: null }, "acme[0]").credentials, c.credentials);
  const refused = [
    { what: "none", input: bare, expected: /sign-in is missing: give "certificate" and "key", or "pkcs12", or "token"/ },
    { what: "token and certificate", input: { ...cert, token: entry("test").token }, expected: /give exactly one/ },
    { what: "certificate and pkcs12", input: { ...cert, pkcs12: "a.p12", key_passphrase_env: "P" }, expected: /give exactly one/ },
    { what: "certificate alone", input: { ...bare, certificate: "a.pem" }, expected: /"certificate" and "key" go together/ },
    { what: "key alone", input: { ...bare, key: "a.pem" }, expected: /"certificate" and "key" go together/ },
    { what: "an empty key path", input: { ...cert, key: " " }, expected: /"key" must be the path/ },
    { what: "a certificate that is not a path", input: { ...cert, certificate: 7 }, expected: /"certificate" must be the path/ },
    { what: "pkcs12 without a passphrase", input: { ...bare, pkcs12: "a.p12" }, expected: /"pkcs12" needs its passphrase/ },
    { what: "both passphrase fields", input: { ...cert, key_passphrase_env: "P", key_passphrase_file: "p" }, expected: /give one/ },
    { what: "a passphrase in key_passphrase_env", input: { ...cert, key_passphrase_env: "correct horse battery" }, expected: /"key_passphrase_env" must be the name of the environment variable/ },
    { what: "a passphrase with a token and no offline key", input: entry("test", { key_passphrase_env: "P" }), expected: /"key_passphrase_env" is the passphrase of "key", "pkcs12" or "offline_key"/ },
    { what: "a bad subject_identifier", input: { ...cert, subject_identifier: "nip" }, expected: /"subject_identifier" must be "certificate_subject" or "certificate_fingerprint"/ },
    { what: "subject_identifier with a token", input: entry("test", { subject_identifier: "certificate_subject" }), expected: /"subject_identifier" goes with "certificate" or "pkcs12"/ },
  ];
  for (const { what, input, expected } of refused) {
    assert.throws(() => parseKsefSourceConfig(input, "acme[0]"), (e: unknown) => e instanceof RangeError && e.message.startsWith("sources.json acme[0]: ") && expected.test(e.message), what);
  }
  // The mistaken passphrase is not repeated in the message.
  assert.throws(() => parseKsefSourceConfig({ ...cert, key_passphrase_env: "correct horse battery" }, "acme[0]"), (e: unknown) => !(e as Error).message.includes("horse"));
});

test("credentialFiles() resolves a certificate sign-in's paths against the directory of sources.json", () => {
  const { token: _t, ...bare } = entry("test");
  const c = parseKsefSourceConfig({ ...bare, certificate: "keys/a.crt", key: "/abs/a.key", key_passphrase_file: "pass.txt" }, "acme[0]");
  assert.deepEqual(credentialFiles(c.credentials, "/data"), { certificateFile: "/data/keys/a.crt", keyFile: "/abs/a.key", passphrase: { file: "/data/pass.txt" } });
  const p = parseKsefSourceConfig({ ...bare, pkcs12: "a.p12", key_passphrase_env: "P" }, "acme[0]");
  assert.deepEqual(credentialFiles(p.credentials, "/data"), { pkcs12File: "/data/a.p12", passphrase: { env: "P" } });
  assert.equal(credentialFiles(parseKsefSourceConfig(entry("test"), "acme[0]").credentials, "/data"), null);
  // An encrypted offline key of a token source takes the passphrase fields too.
  const o = parseKsefSourceConfig(entry("test", { send: true, offline_certificate: "o.crt", offline_key: "o.key", key_passphrase_env: "P" }), "acme[0]");
  assert.deepEqual(o.keyPassphrase, { env: "P" });
});
