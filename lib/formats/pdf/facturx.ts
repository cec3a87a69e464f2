/**
 * Factur-X 1.0 and ZUGFeRD 2.3: what makes a PDF/A-3b rendering a hybrid invoice (README "Getting a Factur-X
 * PDF"): the CII XML embedded under the name the specifications give, related to the document as its
 * `Alternative`, and the XMP extension schema `urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#` with
 * DocumentType, DocumentFileName, Version and ConformanceLevel. It neither writes nor checks the CII itself:
 * the caller hands over the bytes (the stored CII, or the CII writer's output for another format).
 * @module
 */

import type { Invoice } from "../invoice/model.ts";
import type { PdfA3Options } from "./pdfa3.ts";
import type { XmpExtensionSchema } from "./xmp.ts";

/** Whose names the file follows: Factur-X 1.0 (FNFE-MPE) or ZUGFeRD 2.3 (FeRD). */
export type FacturXFlavour = "factur-x" | "zugferd";

/** The flavours a request may ask for, for parameter checks. */
export const FACTURX_FLAVOURS: readonly FacturXFlavour[] = ["factur-x", "zugferd"];

/** What renderInvoicePdf() needs to make a Factur-X/ZUGFeRD file. */
export interface FacturXOptions {
  /** The invoice as CII D16B, embedded byte for byte. */
  ciiXml: Uint8Array;
  flavour: FacturXFlavour;
  /** When the document was made, ISO 8601: the PDF's and the embedded file's dates (the same date gives the same bytes). */
  date: string;
}

/** The XMP namespace of both: ZUGFeRD 2.1 and later took over Factur-X 1.0's (ZUGFeRD 2.3 specification, "XMP"). */
export const FACTURX_NAMESPACE = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";
/** The attachment's name; ZUGFeRD 2.3 gives the same one, except for its XRECHNUNG profile. */
export const FACTURX_FILE_NAME = "factur-x.xml";
const _XRECHNUNG_FILE_NAME = "xrechnung.xml";

/**
 * The conformance level named by the CII's guideline (BT-24), per the Factur-X 1.0 and ZUGFeRD 2.3 profile tables:
 * a plain EN 16931 invoice or an unknown CIUS of it is EN 16931. XRechnung's CIUS is ZUGFeRD 2.3's own profile
 * XRECHNUNG; Factur-X has no such profile, and an XRechnung invoice is a compliant EN 16931 one there.
 */
export function facturXLevel(profile: string | null, flavour: FacturXFlavour): string {
  const p = (profile ?? "").trim();
  if (/:minimum$/.test(p)) return "MINIMUM";
  if (/:basicwl$/.test(p)) return "BASIC WL";
  if (/:basic$/.test(p)) return "BASIC";
  if (/:extended$/.test(p) || p.startsWith("urn:cen.eu:en16931:2017#conformant#")) return "EXTENDED";
  if (flavour === "zugferd" && p.includes("urn:xeinkauf.de:kosit:xrechnung")) return "XRECHNUNG";
  return "EN 16931";
}

/** The PDF/A-3 parts of a Factur-X/ZUGFeRD rendering of `invoice`. */
export function facturXArchive(invoice: Invoice, o: FacturXOptions): PdfA3Options {
  const level = facturXLevel(invoice.profile, o.flavour);
  const fileName = level === "XRECHNUNG" ? _XRECHNUNG_FILE_NAME : FACTURX_FILE_NAME;
  const who = o.flavour === "zugferd" ? "ZUGFeRD" : "Factur-X";
  const schema: XmpExtensionSchema = {
    schema: `${who} PDFA Extension Schema`, namespace: FACTURX_NAMESPACE, prefix: "fx",
    properties: [
      { name: "DocumentType", value: "INVOICE", description: "INVOICE" },
      { name: "DocumentFileName", value: fileName, description: "name of the embedded XML invoice file" },
      { name: "Version", value: "1.0", description: `The actual version of the ${who} XML schema` },
      { name: "ConformanceLevel", value: level, description: `The conformance level of the embedded ${who} data` },
    ],
  };
  return {
    date: o.date,
    creator: invoice.seller?.name ?? null,
    attachment: { name: fileName, description: `${who} invoice`, mimeType: "text/xml", relationship: "Alternative", bytes: o.ciiXml },
    extensions: [schema],
  };
}
