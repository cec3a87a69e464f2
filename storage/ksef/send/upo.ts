/**
 * What the sender reads from a UPO (`Potwierdzenie`, faktury/upo/, schema upo-v4-3.xsd): the hash of the
 * accepted document (`Dokument/SkrotDokumentu`, Base64 SHA-256) and when its KSeF number was assigned
 * (`Dokument/DataNadaniaNumeruKSeF`). The UPO itself is stored and served as KSeF sent it, byte for byte.
 * @module
 */
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";

/** The fields of a UPO's first `Dokument`. */
export interface UpoFacts {
  documentHash: string | null;
  ksefNumber: string | null;
  acquiredAt: string | null;
}

/** Reads a UPO; fields it lacks (or a UPO that does not parse) are null. */
export function readUpo(bytes: Uint8Array): UpoFacts {
  let root: XmlElement;
  try {
    root = parseXml(bytes).root;
  } catch {
    return { documentHash: null, ksefNumber: null, acquiredAt: null };
  }
  const doc = root.children.find((c) => c.local === "Dokument");
  const text = (name: string): string | null => doc?.children.find((c) => c.local === name)?.text.trim() || null;
  const at = text("DataNadaniaNumeruKSeF");
  const ms = at === null ? NaN : Date.parse(at);
  return { documentHash: text("SkrotDokumentu"), ksefNumber: text("NumerKSeFDokumentu"), acquiredAt: Number.isNaN(ms) ? null : new Date(ms).toISOString() };
}

/** Every `Dokument` of a UPO (a session's collective UPO lists many): its hash and KSeF number. */
export function readUpoDocuments(bytes: Uint8Array): { documentHash: string | null; ksefNumber: string | null }[] {
  let root: XmlElement;
  try {
    root = parseXml(bytes).root;
  } catch {
    return [];
  }
  return root.children.filter((c) => c.local === "Dokument").map((doc) => {
    const text = (name: string): string | null => doc.children.find((c) => c.local === name)?.text.trim() || null;
    return { documentHash: text("SkrotDokumentu"), ksefNumber: text("NumerKSeFDokumentu") };
  });
}
