/**
 * What a token is to storage (README “Security model”): its key id, tenant, scopes, expiry
 * and revocation, and the SHA-256 of its secret, never the secret itself.
 * Making, parsing and checking tokens is lib/auth's job.
 * @module
 */

/** Every scope of README “Security model” */
export const SCOPES = [
  "documents:read",
  "documents:write",
  "submissions:read",
  "submissions:write",
  "webhooks:read",
  "webhooks:write",
] as const;

/** A scope of README “Security model” */
export type Scope = (typeof SCOPES)[number];

/** What storage keeps of a token: never the secret. */
export interface TokenRecord {
  key_id: string;
  tenant: string;
  /** Hex SHA-256 of the secret. */
  secret_sha256: string;
  scopes: Scope[];
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}
