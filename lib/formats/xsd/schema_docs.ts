/**
 * Reading schema documents: attributes, XML Schema children, schemaLocation paths, and the
 * schema text without annotations (never read by the validator, most of UBL's bytes).
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";

/** The XML Schema namespace. */
export const XSD_NS = "http://www.w3.org/2001/XMLSchema";

/** The value of an unqualified attribute, or null. */
export function attrOf(el: XmlElement, local: string): string | null {
  for (const a of el.attrs) if (a.local === local && a.ns === "") return a.value;
  return null;
}

/**
 * The schema text without its annotations, which the validator never reads: UBL's common aggregates are
 * 2.4 MB, mostly documentation, and parsing them is most of the start-up cost. Schemas are UTF-8 (all shipped
 * ones declare it); any other declared encoding is left to the parser, annotations and all.
 */
export function withoutAnnotations(bytes: Uint8Array | string): Uint8Array | string {
  let text: string;
  if (typeof bytes === "string") text = bytes;
  else {
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, 100));
    if (/encoding=["'](?!utf-8)/i.test(head)) return bytes;
    text = new TextDecoder().decode(bytes);
  }
  return text.replace(/<([A-Za-z_][\w.-]*:)?annotation(\s[^>]*)?(?<!\/)>[\s\S]*?<\/\1annotation\s*>/g, "");
}

/** The XML Schema children of a schema element, annotations left out. */
export function xsdChildren(el: XmlElement): XmlElement[] {
  return el.children.filter((c) => c.ns === XSD_NS && c.local !== "annotation");
}

/** A schemaLocation resolved against the path of the document that names it. */
export function joinPath(base: string, rel: string): string {
  const parts = base.split("/").slice(0, -1);
  for (const p of rel.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  return parts.join("/");
}
