import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { loadConfig, parseArgs, parseSize } from "../lib/config.ts";

const flagsOf = (...argv: string[]): Map<string, string> => parseArgs(argv).flags;

describe("parseArgs()", () => {
  test("reads positional words, --flag value, --flag=value and bare --flag", () => {
    const cases = [
      { what: "nothing", input: [], expected: { positional: [], flags: {} } },
      { what: "a subcommand", input: ["token", "list"], expected: { positional: ["token", "list"], flags: {} } },
      { what: "a spaced value", input: ["--port", "9000"], expected: { positional: [], flags: { "--port": "9000" } } },
      { what: "an = value", input: ["--port=9000"], expected: { positional: [], flags: { "--port": "9000" } } },
      { what: "an = value holding =", input: ["--data=/tmp/a=b"], expected: { positional: [], flags: { "--data": "/tmp/a=b" } } },
      { what: "a bare flag at the end", input: ["--demo"], expected: { positional: [], flags: { "--demo": "true" } } },
      { what: "a bare flag before another", input: ["--demo", "--port", "1"], expected: { positional: [], flags: { "--demo": "true", "--port": "1" } } },
      {
        what: "a whole token command",
        input: ["token", "create", "--tenant", "acme", "--scopes", "documents:read,documents:write", "--expires-in", "30d"],
        expected: { positional: ["token", "create"], flags: { "--tenant": "acme", "--scopes": "documents:read,documents:write", "--expires-in": "30d" } },
      },
      { what: "a revoke with its key id after a flag", input: ["token", "revoke", "--data", "d", "KEY"], expected: { positional: ["token", "revoke", "KEY"], flags: { "--data": "d" } } },
    ];
    for (const { what, input, expected } of cases) {
      const got = parseArgs(input);
      assert.deepEqual({ positional: got.positional, flags: Object.fromEntries(got.flags) }, expected, what);
    }
  });
});

describe("parseSize()", () => {
  test("reads bytes with decimal and binary units", () => {
    const cases = [
      { input: "1048576", expected: 1_048_576 },
      { input: "0", expected: 0 },
      { input: "10MiB", expected: 10 * 1024 * 1024 },
      { input: "10mib", expected: 10 * 1024 * 1024 },
      { input: "512KiB", expected: 512 * 1024 },
      { input: "64 KiB", expected: 64 * 1024 },
      { input: "1MB", expected: 1_000_000 },
      { input: "1kb", expected: 1000 },
      { input: "1GiB", expected: 1024 ** 3 },
      { input: "1GB", expected: 1e9 },
      { input: "1.5KiB", expected: 1536 },
      { input: "100b", expected: 100 },
      { input: " 2MiB ", expected: 2 * 1024 * 1024 },
    ];
    for (const { input, expected } of cases) assert.equal(parseSize(input), expected, input);
  });

  test("throws a RangeError on anything else", () => {
    for (const input of ["", "ten", "10 MiBs", "-1", "1e6", "MiB", "10TB", "0x100", "1,5MiB"]) {
      assert.throws(() => parseSize(input), RangeError, JSON.stringify(input));
    }
  });
});

describe("loadConfig()", () => {
  test("has the defaults of README “Configuration”", () => {
    assert.deepEqual(loadConfig({}, new Map()), {
      host: "127.0.0.1",
      port: 8080,
      dataDir: "./data",
      databaseUrl: null,
      workers: 1,
      demo: null,
      uploadLimit: 10 * 1024 * 1024,
      rateLimit: "600/min,burst=100",
      webhookAllowPrivate: false,
      webhookRetrySchedule: "5s,5m,30m,2h,5h,10h,14h,20h,24h",
      ksefDeadlineNearMs: 12 * 3_600_000,
      logLevel: "info",
      shutdownGraceMs: 10_000,
      maxConnections: 1000,
      opsAllow: "127.0.0.0/8,::1",
      opsToken: null,
      trustProxy: "",
    });
  });

  test("reads every setting from its environment variable", () => {
    const env = {
      HOST: "0.0.0.0", PORT: "0", DATA_DIR: "/srv/data", DATABASE_URL: "postgres://db/x", WORKERS: "4", DEMO: "off", UPLOAD_LIMIT: "1MiB",
      RATE_LIMIT: "off", WEBHOOK_ALLOW_PRIVATE: "on", WEBHOOK_RETRY_SCHEDULE: "1s,2s", KSEF_DEADLINE_NEAR: "6h", LOG_LEVEL: "debug", SHUTDOWN_GRACE: "30s",
      MAX_CONNECTIONS: "50", OPS_ALLOW: "10.0.0.0/8", OPS_TOKEN: "ops-0123456789abcdef", TRUST_PROXY: "192.0.2.1",
    };
    assert.deepEqual(loadConfig(env, new Map()), {
      host: "0.0.0.0", port: 0, dataDir: "/srv/data", databaseUrl: "postgres://db/x", workers: 4, demo: false, uploadLimit: 1024 * 1024,
      rateLimit: "off", webhookAllowPrivate: true, webhookRetrySchedule: "1s,2s", ksefDeadlineNearMs: 6 * 3_600_000, logLevel: "debug", shutdownGraceMs: 30_000,
      maxConnections: 50, opsAllow: "10.0.0.0/8", opsToken: "ops-0123456789abcdef", trustProxy: "192.0.2.1",
    });
  });

  test("a flag wins over its environment variable, for every setting", () => {
    const cases = [
      { env: { HOST: "0.0.0.0" }, flags: ["--host", "::1"], key: "host", expected: "::1" },
      { env: { PORT: "1111" }, flags: ["--port", "2222"], key: "port", expected: 2222 },
      { env: { DATA_DIR: "/env" }, flags: ["--data", "/flag"], key: "dataDir", expected: "/flag" },
      { env: { DATABASE_URL: "postgres://env/a" }, flags: ["--database-url", "postgres://flag/b"], key: "databaseUrl", expected: "postgres://flag/b" },
      { env: { WORKERS: "8" }, flags: ["--workers=2"], key: "workers", expected: 2 },
      { env: { DEMO: "on" }, flags: ["--demo", "off"], key: "demo", expected: false },
      { env: { DEMO: "off" }, flags: ["--demo"], key: "demo", expected: true },
      { env: { UPLOAD_LIMIT: "1MiB" }, flags: ["--upload-limit", "2MiB"], key: "uploadLimit", expected: 2 * 1024 * 1024 },
      { env: { RATE_LIMIT: "off" }, flags: ["--rate-limit", "10/s,burst=5"], key: "rateLimit", expected: "10/s,burst=5" },
      { env: { WEBHOOK_ALLOW_PRIVATE: "off" }, flags: ["--webhook-allow-private"], key: "webhookAllowPrivate", expected: true },
      { env: { WEBHOOK_RETRY_SCHEDULE: "1s" }, flags: ["--webhook-retry-schedule", "2s,4s"], key: "webhookRetrySchedule", expected: "2s,4s" },
      { env: { LOG_LEVEL: "error" }, flags: ["--log-level", "warn"], key: "logLevel", expected: "warn" },
      { env: { SHUTDOWN_GRACE: "1s" }, flags: ["--shutdown-grace", "250ms"], key: "shutdownGraceMs", expected: 250 },
      { env: { MAX_CONNECTIONS: "10" }, flags: ["--max-connections", "20"], key: "maxConnections", expected: 20 },
      { env: { OPS_ALLOW: "10.0.0.0/8" }, flags: ["--ops-allow", "none"], key: "opsAllow", expected: "none" },
      { env: { OPS_TOKEN: "env-0123456789abcdef" }, flags: ["--ops-token", "flag-0123456789abcdef"], key: "opsToken", expected: "flag-0123456789abcdef" },
      { env: { TRUST_PROXY: "192.0.2.1" }, flags: ["--trust-proxy=fd00::/8"], key: "trustProxy", expected: "fd00::/8" },
    ] as const;
    for (const { env, flags, key, expected } of cases) {
      assert.equal(loadConfig(env, flagsOf(...flags))[key], expected, `${flags.join(" ")} over ${JSON.stringify(env)}`);
    }
  });

  test("on/off settings read the usual words", () => {
    const cases = [
      { input: "1", expected: true }, { input: "true", expected: true }, { input: "ON", expected: true }, { input: "yes", expected: true },
      { input: "0", expected: false }, { input: "false", expected: false }, { input: "Off", expected: false }, { input: "no", expected: false },
      { input: "", expected: null },
    ];
    for (const { input, expected } of cases) assert.equal(loadConfig({ DEMO: input }, new Map()).demo, expected, JSON.stringify(input));
  });

  test("bad values throw a RangeError naming the setting", () => {
    const cases = [
      { what: "a port that is not a number", env: { PORT: "http" }, name: /PORT/ },
      { what: "a port over 65535", env: { PORT: "70000" }, name: /PORT/ },
      { what: "a negative port", env: { PORT: "-1" }, name: /PORT/ },
      { what: "a fractional port", env: { PORT: "80.5" }, name: /PORT/ },
      { what: "zero workers", env: { WORKERS: "0" }, name: /WORKERS/ },
      { what: "too many workers", env: { WORKERS: "65" }, name: /WORKERS/ },
      { what: "workers that are not a number", env: { WORKERS: "many" }, name: /WORKERS/ },
      { what: "an unknown log level", env: { LOG_LEVEL: "verbose" }, name: /LOG_LEVEL/ },
      { what: "a demo that is neither on nor off", env: { DEMO: "maybe" }, name: /DEMO/ },
      { what: "webhooks allowed 'sometimes'", env: { WEBHOOK_ALLOW_PRIVATE: "sometimes" }, name: /WEBHOOK_ALLOW_PRIVATE/ },
      { what: "an upload limit without a number", env: { UPLOAD_LIMIT: "big" }, name: /size|UPLOAD_LIMIT/i },
      { what: "a grace without a unit", env: { SHUTDOWN_GRACE: "10" }, name: /duration|SHUTDOWN_GRACE/i },
      { what: "an allow-list range missing an octet", env: { OPS_ALLOW: "127.0.0.0/8,10.0.0/8" }, name: /^OPS_ALLOW .*10\.0\.0\/8/ },
      { what: "an allow-list prefix too long for IPv4", env: { OPS_ALLOW: "10.0.0.0/33" }, name: /^OPS_ALLOW/ },
      { what: "a host name among the proxies", env: { TRUST_PROXY: "proxy.internal" }, name: /^TRUST_PROXY/ },
      { what: "an ops token short enough to guess", env: { OPS_TOKEN: "secret" }, name: /^OPS_TOKEN/ },
      { what: "an ops token with a space", env: { OPS_TOKEN: "two words 0123456789" }, name: /^OPS_TOKEN/ },
    ];
    for (const { what, env, name } of cases) {
      assert.throws(() => loadConfig(env, new Map()), (e: unknown) => e instanceof RangeError && name.test(e.message), what);
    }
  });

  test("a bad flag value throws even when the environment is fine", () => {
    assert.throws(() => loadConfig({ PORT: "8080" }, flagsOf("--port", "eighty")), RangeError);
  });

  test("a blank PORT is refused rather than read as port 0 (any free port)", () => {
    for (const port of ["", " "]) assert.throws(() => loadConfig({}, flagsOf(`--port=${port}`)), RangeError, JSON.stringify(port));
  });

  test("a bad rate limit or retry schedule is refused at startup, not when first used", () => {
    assert.throws(() => loadConfig({ RATE_LIMIT: "lots" }, new Map()), RangeError, "RATE_LIMIT");
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: "soon,later" }, new Map()), RangeError, "WEBHOOK_RETRY_SCHEDULE");
  });
});
