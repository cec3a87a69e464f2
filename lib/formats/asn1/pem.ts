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

const _BEGIN = "-----BEGIN ";
const _DASHES = "-----";
const _LABEL = /^[A-Z0-9 ]{1,64}$/;

/**
 * Every PEM block of `text`, in order; blocks whose base64 is broken are skipped. A scan with indexOf, each
 * character looked at a bounded number of times: a BEGIN line without its END ends the scan, since no END found
 * after it could be found after a later BEGIN of the same label either (a regular expression would search to the
 * end again from every such line: quadratic in the file). `steps`, when given, counts the searches (tests).
 */
export function decodePem(text: string, steps?: { count: number }): PemBlock[] {
  const out: PemBlock[] = [];
  const find = (what: string, from: number): number => {
    if (steps) steps.count++;
    return text.indexOf(what, from);
  };
  for (let pos = 0; ;) {
    const begin = find(_BEGIN, pos);
    if (begin < 0) break;
    const labelStart = begin + _BEGIN.length;
    const labelEnd = find(_DASHES, labelStart);
    if (labelEnd < 0) break;
    const label = text.slice(labelStart, labelEnd);
    if (!_LABEL.test(label)) {
      pos = labelStart;
      continue;
    }
    const bodyStart = labelEnd + _DASHES.length;
    const end = find(`-----END ${label}-----`, bodyStart);
    if (end < 0) break;
    pos = end + label.length + 14; // "-----END " + label + "-----"
    const block = _decodeBlock(label, text.slice(bodyStart, end));
    if (block !== null) out.push(block);
  }
  return out;
}

function _decodeBlock(label: string, text: string): PemBlock | null {
  let body = text;
  const hasHeaders = /^[\t ]*[A-Za-z-]+:/m.test(body);
  if (hasHeaders) body = body.replace(/^[\t ]*[A-Za-z-]+:.*$/gm, "");
  const b64 = body.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return null;
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    return null;
  }
  const der = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) der[i] = bin.charCodeAt(i);
  return { label, der, hasHeaders };
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
