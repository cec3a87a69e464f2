/**
 * Large and hostile inputs built from real samples (test/fixtures/samples), for the tests that no input within the
 * limits makes validation, reading or rendering fail with anything but a verdict or a 4xx: invoices with a
 * multi-megabyte embedded attachment (base64 as real encoders write it, with and without line breaks), a KSeF
 * `Zalacznik` of many rows, one very long text node, deep nesting and many attributes. Deterministic: the same
 * bytes on every run.
 * @module
 */
import { readFileSync } from "node:fs";
import { createRandom } from "./random.ts";
import { fixturePath } from "./server.ts";

/** The default upload limit (README "Limits"): a "9 MB" input is one just under it, multipart framing included. */
export const UPLOAD_LIMIT = 10 * 1024 * 1024;
/** Room left under the upload limit for the multipart framing of one part. */
const FRAMING = 4096;
/** The largest XML document that an upload of one part can carry. */
export const LARGEST_UPLOAD = UPLOAD_LIMIT - FRAMING;

const _sample = (dir: string, file: string): string => readFileSync(fixturePath("samples", dir, file), "utf8");
/** A UBL invoice with a PDF embedded in cbc:EmbeddedDocumentBinaryObject (CEN's example 2), valid. */
const UBL = _sample("ubl", "en16931_ubl-tc434-example2_NOK.xml");
const UBL_BINARY = "VGVzdGluZyBCYXNlNjQgZW5jb2Rpbmc=";
/** A CII invoice with a PDF in ram:AttachmentBinaryObject (CEN's business example 1), valid. */
const CII = _sample("cii", "en16931_CII_business_example_01_NOK.xml");
const CII_BINARY = "SlZCRVJpMHhMalVOQ2lVTkNqRWdNQ0J2WW1vT3k2SlRaWDliY2dSVnhJVkcuLi50Ykxvc0NoVTJYUmY5eGIvb21zY2dUWS9sWEVoVWI=";
/** An FA(3) with a Zalacznik of a table (the Ministry of Finance's example). */
const KSEF = _sample("ksef-fa3", "FA_3_Zalacznik_Przyklad_1.xml");
const KSEF_ROW = "<Wiersz><WKom>Dystrybucyjna zmienna</WKom><WKom>W-4_TA</WKom><WKom>01.01.2026</WKom><WKom>31.01.2026</WKom>" +
  "<WKom>43529</WKom><WKom>47595</WKom><WKom>4066</WKom><WKom>11.112</WKom></Wiersz>\n";

/** The formats of the samples above. */
export type SampleFormat = "ubl" | "cii" | "ksef-fa3";

const _encoder = new TextEncoder();

/**
 * The base64 of a PDF-like file (a PDF header, then seeded pseudo-random bytes, so that every base64 letter, `+`
 * and `/` occur) of about `chars` characters; `wrapped`: broken into lines of 76 characters, as MIME encoders do.
 */
export function base64Text(chars: number, wrapped: boolean): string {
  const perLine = wrapped ? 77 : 76; // 76 characters and a line feed
  const bytes = new Uint8Array(Math.max(1, Math.floor((chars * 76) / perLine / 4) * 3 - 1)); // -1: ends in one '='
  bytes.set(_encoder.encode("%PDF-1.7\n%âãÏÓ\n"));
  const random = createRandom(chars);
  for (let i = 16; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  const text = Buffer.from(bytes).toString("base64");
  if (!wrapped) return text;
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += 76) lines.push(text.slice(i, i + 76));
  return lines.join("\n");
}

/** A UBL or CII invoice of about `bytes` bytes, most of them its embedded attachment's base64 text. */
export function withAttachment(format: "ubl" | "cii", bytes: number, wrapped: boolean): Uint8Array {
  const [xml, binary] = format === "ubl" ? [UBL, UBL_BINARY] : [CII, CII_BINARY];
  return _encoder.encode(xml.replace(binary, base64Text(bytes - xml.length + binary.length, wrapped)));
}

/** An FA(3) of about `bytes` bytes, most of them the rows of its Zalacznik's table. */
export function withKsefAttachment(bytes: number): Uint8Array {
  const rows = Math.max(1, Math.floor((bytes - KSEF.length) / KSEF_ROW.length));
  return _encoder.encode(KSEF.replace("</Tabela>", `${KSEF_ROW.repeat(rows)}</Tabela>`));
}

/** `chars` characters of `unit` repeated. */
export function repeated(unit: string, chars: number): string {
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

/** A sample whose note (a KSeF line's name) starts with `text`: one text node that long. */
export function withLongText(format: SampleFormat, text: string): Uint8Array {
  if (format === "ubl") return _encoder.encode(UBL.replace("<cbc:Note>", `<cbc:Note>${text}`));
  if (format === "cii") return _encoder.encode(CII.replace("<ram:Content>", `<ram:Content>${text}`));
  return _encoder.encode(KSEF.replace("<P_7>", `<P_7>${text}`));
}

/** A sample with the first `from` replaced by `to`. */
export function withReplaced(format: SampleFormat, from: string, to: string): Uint8Array {
  const xml = format === "ubl" ? UBL : format === "cii" ? CII : KSEF;
  if (!xml.includes(from)) throw new TypeError(`The ${format} sample has no ${from}`);
  return _encoder.encode(xml.replace(from, to));
}

/** A sample with `depth` elements nested inside its root. */
export function withNesting(format: SampleFormat, depth: number): Uint8Array {
  const [xml, at] = _afterRoot(format);
  return _encoder.encode(`${xml.slice(0, at)}${"<x>".repeat(depth)}${"</x>".repeat(depth)}${xml.slice(at)}`);
}

/**
 * A sample with `count` attributes on its root element, or on empty elements inside it, `per` each. Each attribute
 * takes more characters than the parser's node budget allows per node (lib/formats/xml/parse.ts), so that only
 * their number on one element can refuse the document.
 */
export function withAttributes(format: SampleFormat, count: number, per = count): Uint8Array {
  const [xml, at] = _afterRoot(format);
  const attrs = (n: number, from: number): string => Array.from({ length: n }, (_, i) => ` a${from + i}="value ${i % 10} of ten"`).join("");
  if (per >= count) return _encoder.encode(`${xml.slice(0, at - 1)}${attrs(count, 0)}>${xml.slice(at)}`);
  const elements: string[] = [];
  for (let i = 0; i < count; i += per) elements.push(`<x${attrs(Math.min(per, count - i), i)}/>`);
  return _encoder.encode(`${xml.slice(0, at)}${elements.join("")}${xml.slice(at)}`);
}

/** The sample of `format` and the offset just after its root element's start tag (past the declaration and comments). */
function _afterRoot(format: SampleFormat): [string, number] {
  const xml = format === "ubl" ? UBL : format === "cii" ? CII : KSEF;
  let at = xml.indexOf("<");
  while (xml[at + 1] === "?" || xml[at + 1] === "!") at = xml.indexOf("<", xml.indexOf(xml[at + 1] === "?" ? "?>" : "-->", at));
  return [xml, xml.indexOf(">", at) + 1];
}
