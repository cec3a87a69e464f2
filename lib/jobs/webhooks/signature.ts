/**
 * Webhook secrets and signatures as the Standard Webhooks specification defines
 * them (https://www.standardwebhooks.com, "Signature scheme"): `v1,` + base64
 * HMAC-SHA256 over `{id}.{timestamp}.{body}`, keyed with the secret's decoded bytes.
 * Only the symmetric `v1` scheme; asymmetric `v1a` (ed25519) is not produced.
 * @module
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";

/** Prefix of every secret, as in the Standard Webhooks libraries. */
export const SECRET_PREFIX = "whsec_";

/** Random bytes in a new secret: the spec asks for 24 to 64 bytes; 32 matches the HMAC-SHA256 block strength. */
const SECRET_BYTES = 32;

/** How far a receiver's clock may be from the timestamp: 5 minutes, the reference libraries' default. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** Headers of one delivery attempt. */
export interface WebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

const _BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const _DIGITS = /^[0-9]{1,15}$/;

/** A new secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  const bytes = new Uint8Array(SECRET_BYTES);
  crypto.getRandomValues(bytes);
  return SECRET_PREFIX + Buffer.from(bytes).toString("base64");
}

/** The `webhook-signature` value `v1,<base64 HMAC-SHA256>` for one message. */
export function signWebhook(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  return "v1," + _digest(_secretKey(secret), msgId, timestampSeconds, body);
}

/** The three Standard Webhooks headers for one delivery attempt (fresh timestamp, same id). */
export function webhookHeaders(secret: string, msgId: string, timestampSeconds: number, body: string): WebhookHeaders {
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signWebhook(secret, msgId, timestampSeconds, body),
  };
}

/**
 * Whether a received message is authentic: the timestamp is within the tolerance of
 * `nowSeconds` and one of the space-separated `v1,` signatures matches (constant time).
 */
export function verifyWebhook(
  secret: string,
  msgId: string,
  timestampHeader: string,
  signatureHeader: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  if (!_DIGITS.test(timestampHeader)) return false;
  const timestamp = Number(timestampHeader);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(_digest(_secretKey(secret), msgId, timestamp, body));
  let matched = false;
  for (const entry of signatureHeader.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma === -1 || entry.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(entry.slice(comma + 1));
    // Compare the base64 text, not decoded bytes: Buffer's decoder skips junk characters.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

function _secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded.length === 0 || !_BASE64.test(encoded)) throw new TypeError("Cannot use webhook secret: not base64");
  return Buffer.from(encoded, "base64");
}

function _digest(key: Buffer, msgId: string, timestampSeconds: number, body: string): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError("Cannot sign webhook: timestamp must be whole unix seconds");
  }
  return createHmac("sha256", key).update(`${msgId}.${timestampSeconds}.`).update(body).digest("base64");
}
