/**
 * The XMP metadata packet of a PDF/A file (ISO 19005-3 clause 6.6, which takes XMP from ISO 16684-1): the PDF/A
 * identification (`pdfaid:part`, `pdfaid:conformance`), Dublin Core title and creator, `pdf:Producer` and the xmp
 * dates, each equal to its /Info counterpart as ISO 19005-3 clause 6.6.2.3 requires, and any extension schema with the
 * description that clause 6.6.2.3.2 asks for (the `pdfaExtension:schemas` bag). Writes; never reads or merges packets.
 * @module
 */

import { escapeText } from "../xml/write.ts";

/** One property of an extension schema (ISO 19005-3 clause 6.6.2.3.2, the pdfaProperty value type). */
export interface XmpExtensionProperty {
  name: string;
  value: string;
  /** What it means, for the schema's description. */
  description: string;
}

/** A schema outside those XMP predefines: its properties, and the description PDF/A readers check them against. */
export interface XmpExtensionSchema {
  /** Human-readable name of the schema (pdfaSchema:schema). */
  schema: string;
  namespace: string;
  prefix: string;
  properties: readonly XmpExtensionProperty[];
}

/** What the packet says. `title`, `creator` and `producer` are the /Info entries Title, Author, Producer. */
export interface XmpOptions {
  title: string;
  creator: string | null;
  producer: string;
  /** ISO 8601 with a time zone (`2026-12-06T10:00:00Z`): xmp:CreateDate, ModifyDate and MetadataDate. */
  date: string;
  /** ISO 19005-3 conformance level: "B" (visual appearance). */
  conformance: "B";
  extensions: readonly XmpExtensionSchema[];
}

/** Characters XML 1.0 does not allow, dropped from free text (an invoice's title) before it goes into the packet. */
const _NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** The packet's bytes, UTF-8 with the xpacket wrapper (ISO 16684-1 clause 7.3) writable in place (`end="w"`). */
export function xmpPacket(o: XmpOptions): Uint8Array {
  const t = (s: string) => escapeText(s.replace(_NOT_XML, ""));
  const desc = (ns: string, body: string) => `  <rdf:Description rdf:about="" ${ns}>\n${body}  </rdf:Description>\n`;
  let rdf = desc('xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"',
    `   <pdfaid:part>3</pdfaid:part>\n   <pdfaid:conformance>${o.conformance}</pdfaid:conformance>\n`);
  rdf += desc('xmlns:dc="http://purl.org/dc/elements/1.1/"',
    "   <dc:format>application/pdf</dc:format>\n" +
    `   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${t(o.title)}</rdf:li></rdf:Alt></dc:title>\n` +
    (o.creator === null ? "" : `   <dc:creator><rdf:Seq><rdf:li>${t(o.creator)}</rdf:li></rdf:Seq></dc:creator>\n`));
  rdf += desc('xmlns:pdf="http://ns.adobe.com/pdf/1.3/"', `   <pdf:Producer>${t(o.producer)}</pdf:Producer>\n`);
  rdf += desc('xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    `   <xmp:CreateDate>${o.date}</xmp:CreateDate>\n   <xmp:ModifyDate>${o.date}</xmp:ModifyDate>\n   <xmp:MetadataDate>${o.date}</xmp:MetadataDate>\n`);
  if (o.extensions.length > 0) rdf += _extensionDescriptions(o.extensions);
  for (const x of o.extensions) {
    rdf += desc(`xmlns:${x.prefix}="${t(x.namespace)}"`, x.properties.map((p) => `   <${x.prefix}:${p.name}>${t(p.value)}</${x.prefix}:${p.name}>\n`).join(""));
  }
  const packet = '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n<x:xmpmeta xmlns:x="adobe:ns:meta/">\n' +
    ` <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n${rdf} </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end="w"?>`;
  return new TextEncoder().encode(packet);
}

/** The PDF/A extension schema container schema (ISO 19005-3 clause 6.6.2.3.2, from ISO 19005-1 Technical Corrigendum 2). */
function _extensionDescriptions(schemas: readonly XmpExtensionSchema[]): string {
  const t = (s: string) => escapeText(s);
  const items = schemas.map((x) =>
    "     <rdf:li rdf:parseType=\"Resource\">\n" +
    `      <pdfaSchema:schema>${t(x.schema)}</pdfaSchema:schema>\n` +
    `      <pdfaSchema:namespaceURI>${t(x.namespace)}</pdfaSchema:namespaceURI>\n` +
    `      <pdfaSchema:prefix>${x.prefix}</pdfaSchema:prefix>\n` +
    "      <pdfaSchema:property>\n       <rdf:Seq>\n" +
    x.properties.map((p) =>
      "        <rdf:li rdf:parseType=\"Resource\">\n" +
      `         <pdfaProperty:name>${p.name}</pdfaProperty:name>\n` +
      "         <pdfaProperty:valueType>Text</pdfaProperty:valueType>\n" +
      "         <pdfaProperty:category>external</pdfaProperty:category>\n" +
      `         <pdfaProperty:description>${t(p.description)}</pdfaProperty:description>\n` +
      "        </rdf:li>\n").join("") +
    "       </rdf:Seq>\n      </pdfaSchema:property>\n     </rdf:li>\n").join("");
  return '  <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"' +
    ' xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">\n' +
    `   <pdfaExtension:schemas>\n    <rdf:Bag>\n${items}    </rdf:Bag>\n   </pdfaExtension:schemas>\n  </rdf:Description>\n`;
}
