/**
 * The conventions of the reference page (lib/api/docs/conventions.ts): the Node
 * verification snippet a reader copies really verifies what the server's own
 * signer (lib/jobs/webhooks/signature.ts) produces, and refuses tampered, foreign,
 * stale and unsigned messages.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { WEBHOOK_VERIFY_SNIPPET } from "../../../lib/api/docs/conventions.ts";
import { generateWebhookSecret, webhookHeaders } from "../../../lib/jobs/webhooks/signature.ts";

type Verify = (secret: string, headers: Record<string, string>, body: string, toleranceSeconds?: number) => boolean;

describe("the webhook verification snippet", () => {
  let dir: string;
  let verify: Verify;
  before(async () => {
    // Run as a reader would: the snippet alone, as an ES module file.
    dir = mkdtempSync(join(tmpdir(), "docs-snippet-"));
    const file = join(dir, "verify.mjs");
    writeFileSync(file, WEBHOOK_VERIFY_SNIPPET);
    verify = ((await import(pathToFileURL(file).href)) as { verifyWebhook: Verify }).verifyWebhook;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: "document.created", timestamp: "2026-11-21T23:25:01.123Z", data: { id: "doc_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", name: "Zażółć" } });
  const now = Math.floor(Date.now() / 1000);
  const signed = (): Record<string, string> => ({ ...webhookHeaders(secret, "evt_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", now, body) });

  test("accepts a delivery signed by the server", () => {
    assert.equal(verify(secret, signed(), body), true);
  });

  test("accepts one matching signature among several", () => {
    const h = signed();
    h["webhook-signature"] = `v1,${Buffer.alloc(32).toString("base64")} ${h["webhook-signature"]}`;
    assert.equal(verify(secret, h, body), true);
  });

  test("refuses a changed body, another secret, a stale timestamp and missing headers", () => {
    assert.equal(verify(secret, signed(), body.replace("Zażółć", "Zazolc")), false);
    assert.equal(verify(generateWebhookSecret(), signed(), body), false);
    const stale = { ...webhookHeaders(secret, "evt_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", now - 301, body) };
    assert.equal(verify(secret, stale, body), false);
    assert.equal(verify(secret, stale, body, 600), true);
    const { "webhook-signature": _, ...unsigned } = signed();
    assert.equal(verify(secret, unsigned, body), false);
    assert.equal(verify(secret, { ...signed(), "webhook-signature": "v2,abc" }, body), false);
  });
});
