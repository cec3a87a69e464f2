/**
 * The built-in builders of the signed sign-in request: lib/ksef/auth_token_request.ts (AuthTokenRequest, schema
 * 2.1) and lib/formats/xades/sign_enveloped.ts (enveloped XAdES-BES). No I/O: the Signer signs.
 * @module
 */
import { signEnveloped } from "../../../lib/formats/xades/sign_enveloped.ts";
import { authTokenRequestXml } from "../../../lib/ksef/auth_token_request.ts";
import type { XadesTools } from "./xades_signin.ts";

/** lib's `authTokenRequestXml` and `signEnveloped`. */
export function defaultXadesTools(): XadesTools {
  return { authTokenRequestXml, signEnveloped };
}
