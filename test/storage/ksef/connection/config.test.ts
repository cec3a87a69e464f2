import assert from "node:assert/strict";
import { test } from "node:test";
import { KSEF_ENVIRONMENTS, ksefQrEnvironmentOf, parseKsefSourceConfig } from "../../../../storage/ksef/connection/config.ts";
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
