/**
 * Token parts as the server reads them (lib/auth/tokens.ts): the key id runs up
 * to the second `_`, the secret is the rest, and may itself hold `_`. Tests that
 * check a secret never leaks take it from here, never from `split("_")`.
 */
import { parseToken } from "../../lib/auth/tokens.ts";

/** The secret of a token string; throws when it is not shaped like a token. */
export function secretOf(token: string): string {
  const parts = parseToken(token);
  if (!parts) throw new TypeError(`Not a token: ${token.slice(0, 8)}…`);
  return parts.secret;
}
