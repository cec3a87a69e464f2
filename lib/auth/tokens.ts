/**
 * API tokens (README “Security model”): `itk_<key id>_<secret>`, 32 random bytes of secret.
 * Only the SHA-256 of the secret is ever stored; a token is looked up by its key
 * id and the digests are compared in constant time. Scopes are a closed list.
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, timingSafeEqual } from "node:crypto";
import { SCOPES, type Scope } from "../contracts/tokens.ts";

import type { TokenRecord } from "../contracts/tokens.ts";

export { SCOPES, type Scope, type TokenRecord } from "../contracts/tokens.ts";

const SECRET_BYTES = 32; // README “Security model”: at least 32 random bytes
const KEY_ID_BYTES = 9; // 72 bits: collision-free for any realistic number of tokens
const TOKEN_RE = /^itk_([A-Za-z0-9]{8,32})_([A-Za-z0-9_-]{43,128})$/;

function _base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Hex SHA-256 of a token secret. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A new token: the string to hand out once, and its key id and secret hash to store. */
export function generateToken(): { token: string; keyId: string; secretSha256: string } {
  const keyId = Array.from(crypto.getRandomValues(new Uint8Array(KEY_ID_BYTES)), (b) => b.toString(16).padStart(2, "0")).join("");
  const secret = _base64url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
  return { token: `itk_${keyId}_${secret}`, keyId, secretSha256: hashSecret(secret) };
}

/** Splits a presented token into key id and secret, or null when it is not shaped like one. */
export function parseToken(value: string | null): { keyId: string; secret: string } | null {
  if (!value) return null;
  const m = TOKEN_RE.exec(value);
  return m ? { keyId: m[1]!, secret: m[2]! } : null;
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(secret: string, storedSha256: string): boolean {
  const a = createHash("sha256").update(secret).digest();
  const b = Buffer.from(storedSha256, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Parses a comma-separated scope list; throws RangeError naming an unknown scope. */
export function parseScopes(csv: string): Scope[] {
  const out: Scope[] = [];
  for (const s of csv.split(",").map((x) => x.trim()).filter(Boolean)) {
    if (!(SCOPES as readonly string[]).includes(s)) throw new RangeError(`Unknown scope: ${s} (known: ${SCOPES.join(", ")})`);
    if (!out.includes(s as Scope)) out.push(s as Scope);
  }
  if (out.length === 0) throw new RangeError("At least one scope is required");
  return out;
}

/** True when the token is neither revoked nor expired at `nowMs`. */
export function isTokenUsable(t: TokenRecord, nowMs: number): boolean {
  return t.revoked_at === null && (t.expires_at === null || Date.parse(t.expires_at) > nowMs);
}

/** A new token for `tenant` at `nowMs`: the string to hand out once, and the record to store (expiring after `expiresInMs`, or never). */
export function mintToken(tenant: string, scopes: Scope[], nowMs: number, expiresInMs: number | null): { token: string; record: TokenRecord } {
  const t = generateToken();
  return {
    token: t.token,
    record: {
      key_id: t.keyId, tenant, secret_sha256: t.secretSha256, scopes,
      created_at: new Date(nowMs).toISOString(),
      expires_at: expiresInMs === null ? null : new Date(nowMs + expiresInMs).toISOString(),
      revoked_at: null,
    },
  };
}
