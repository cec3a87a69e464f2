import assert from "node:assert/strict";
import { test } from "node:test";
import { parseKsefSourceConfig } from "../../../../storage/sources/ksef/config.ts";

const entry = (environment: string) => ({ name: "ksef", type: "ksef", environment, nip: "5260250274", token: "20251010-EC-0000000000-0000000000-00|nip-5260250274|0000" });

test("parseKsefSourceConfig() takes the named environments, https base URLs, and plain http only on this machine", () => {
  assert.equal(parseKsefSourceConfig(entry("test"), "acme[0]").baseUrl, "https://ksef-test.mf.gov.pl/api/v2");
  assert.equal(parseKsefSourceConfig(entry("https://ksef.example.com/api/v2/"), "acme[0]").baseUrl, "https://ksef.example.com/api/v2");
  assert.equal(parseKsefSourceConfig(entry("http://127.0.0.1:8099"), "acme[0]").baseUrl, "http://127.0.0.1:8099");
  // The token would travel in clear text to another host.
  assert.throws(() => parseKsefSourceConfig(entry("http://ksef.example.com/api/v2"), "acme[0]"), /https:\/\//);
});
