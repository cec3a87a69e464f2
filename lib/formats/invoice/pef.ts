/**
 * Tells KSeF's PEF(3)/PEF_KOR(3) documents from other UBL 2.1 ones. Schemat_PEF(3)_v2-1.xsd and
 * Schemat_PEF_KOR(3)_v2-1.xsd declare the same root elements, in the same namespaces and with the same content
 * models, as OASIS UBL 2.1's Invoice and CreditNote; what they add is the Polish extension: the
 * `urn:pl:extended:CommonAggregateComponents-2` and `urn:pl:extended:CommonBasicComponents-2` components
 * (20241206_PEFPL-*-2.1-v1.4.34.xsd), which a document carries inside `ext:UBLExtensions`. A UBL document with
 * such an extension is PEF; one without cannot be told from plain UBL by its XML, and reads as `ubl`.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";

/** The namespaces of KSeF's Polish UBL extension (the PEFPL component schemas' targetNamespace). */
export const PEF_EXTENSION_NAMESPACES: ReadonlySet<string> = new Set([
  "urn:pl:extended:CommonAggregateComponents-2",
  "urn:pl:extended:CommonBasicComponents-2",
]);

const _EXT_NS = "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2";

/** True when a UBL Invoice or CreditNote root carries KSeF's Polish extension in its UBLExtensions. */
export function hasPefExtension(root: XmlElement): boolean {
  for (const exts of root.children) {
    if (exts.ns !== _EXT_NS || exts.local !== "UBLExtensions") continue;
    for (const ext of exts.children) {
      for (const content of ext.children) {
        if (content.ns !== _EXT_NS || content.local !== "ExtensionContent") continue;
        if (content.children.some((apex) => PEF_EXTENSION_NAMESPACES.has(apex.ns))) return true;
      }
    }
  }
  return false;
}
