/**
 * PEM (RFC 7468): the labelled base64 blocks certificates, keys and requests travel in. Reads the strict form
 * RFC 7468 §3 describes and tolerates what it calls lax (whitespace anywhere in the base64); explanatory text
 * around blocks is ignored. Headers inside a block (RFC 1421 `Proc-Type:`, OpenSSL's traditional encrypted keys)
 * are reported, not interpreted. Base64 is decoded with `atob`, which every runtime has.
 * @module
 */

/** One block: its label (`CERTIFICATE`, `PRIVATE KEY`, …), its bytes, and whether it had RFC 1421 headers. */
export interface PemBlock {
  label: string;
  der: Uint8Array;
  hasHeaders: boolean;
}

const _BLOCK = /-----BEGIN ([A-Z0-9 ]{1,64})-----([\s\S]*?)-----END \1-----/g;

/** Every PEM block of `text`, in order; blocks whose base64 is broken are skipped. */
export function decodePem(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  for (const m of text.matchAll(_BLOCK)) {
    let body = m[2]!;
    const hasHeaders = /^[\t ]*[A-Za-z-]+:/m.test(body);
    if (hasHeaders) body = body.replace(/^[\t ]*[A-Za-z-]+:.*$/gm, "");
    const b64 = body.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) continue;
    let bin: string;
    try {
      bin = atob(b64);
    } catch {
      continue;
    }
    const der = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) der[i] = bin.charCodeAt(i);
    out.push({ label: m[1]!, der, hasHeaders });
  }
  return out;
}

/** True when `bytes` look like PEM text rather than DER (DER of these formats starts with a SEQUENCE, 0x30). */
export function looksLikePem(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 8192)));
  return head.includes("-----BEGIN ");
}

/** `der` as a PEM block with `label`, lines of 64 characters (RFC 7468 §2). */
export function encodePem(label: string, der: Uint8Array): string {
  let bin = "";
  for (const b of der) bin += String.fromCharCode(b);
  const b64 = btoa(bin);
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}
