/**
 * The built-in builders of the signed sign-in request: lib/ksef/auth_token_request.ts and lib/formats/xades.
 * @module
 */
import type { XadesTools } from "./xades_signin.ts";

/** lib's `authTokenRequestXml` and `signEnveloped`. */
export function defaultXadesTools(): XadesTools {
  // Until lib/formats/xades lands on this branch (merge of c14n-xades), only given tools sign.
  throw new TypeError("XAdES signing is not built in yet: pass xadesTools");
}
