/**
 * The official XML Schemas each format is checked against, compiled once per set of
 * schema files and kept: KSeF FA(2) and FA(3) with their `bazowe/` types, KSeF FA_RR(1) (with
 * the same base types), KSeF PEF(3) and PEF_KOR(3) (UBL 2.1 with the Polish extension, their own
 * `bazowe/`), OASIS UBL 2.1 (Invoice and CreditNote) and UN/CEFACT CII D16B. The files come from
 * the embedder (storage/schemas/schema_files.ts reads the shipped ones), as lib/ does no I/O.
 * @module
 */

import { compileSchema, type SchemaFile } from "../xsd/compile.ts";
import type { CompiledSchema } from "../xsd/model.ts";
import type { InvoiceFormat } from "../invoice/vocabulary.ts";

/** The schema files of each family, paths relative to the family's folder. */
export interface SchemaFiles {
  ksef: readonly SchemaFile[];
  ubl: readonly SchemaFile[];
  cii: readonly SchemaFile[];
  /** FA_RR(1) and the base types it imports; without it FA_RR invoices get no schema check. */
  ksef_rr?: readonly SchemaFile[];
  /** PEF(3) and PEF_KOR(3) with their `bazowe/`; without it PEF documents get no schema check. */
  ksef_pef?: readonly SchemaFile[];
}

type Family = keyof SchemaFiles;

/** The families an embedder may leave out (added after the first three). */
const _OPTIONAL: ReadonlySet<Family> = new Set(["ksef_rr", "ksef_pef"]);

/** Entry documents of each family (the rest is reached through include and import). */
export const SCHEMA_ENTRIES: Record<Family, readonly string[]> = {
  ksef: ["schemat_FA(2)_v1-0E.xsd", "schemat_FA(3)_v1-0E.xsd"],
  ubl: ["maindoc/UBL-Invoice-2.1.xsd", "maindoc/UBL-CreditNote-2.1.xsd"],
  cii: ["CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd"],
  ksef_rr: ["schemat_FA_RR(1)_v1-1E.xsd"],
  ksef_pef: ["Schemat_PEF(3)_v2-1.xsd", "Schemat_PEF_KOR(3)_v2-1.xsd"],
};

/** The name of the schema check of a format, as listed in `checks`. */
export const SCHEMA_CHECK: Record<InvoiceFormat, string> = {
  "ksef-fa2": "XSD:FA(2) 1-0E",
  "ksef-fa3": "XSD:FA(3) 1-0E",
  ubl: "XSD:UBL 2.1",
  cii: "XSD:CII D16B",
  "ksef-fa-rr1": "XSD:FA_RR(1) 1-1E",
  "ksef-pef3": "XSD:PEF(3) 2-1",
};

const FAMILY: Record<InvoiceFormat, Family> = {
  "ksef-fa2": "ksef", "ksef-fa3": "ksef", ubl: "ubl", cii: "cii", "ksef-fa-rr1": "ksef_rr", "ksef-pef3": "ksef_pef",
};

/** Compiled schemas of one set of files; each family is compiled on first use, or all at once by `compileAll()`. */
export class SchemaSet {
  #files: SchemaFiles;
  #compiled = new Map<Family, CompiledSchema>();

  constructor(files: SchemaFiles) {
    this.#files = files;
  }

  /** False for a format whose (optional) family of schema files the embedder did not give. */
  covers(format: InvoiceFormat): boolean {
    const family = FAMILY[format];
    return !_OPTIONAL.has(family) || (this.#files[family]?.length ?? 0) > 0;
  }

  /** The compiled schema that a format's documents are checked against (a TypeError when not `covers(format)`). */
  forFormat(format: InvoiceFormat): CompiledSchema {
    const family = FAMILY[format];
    let s = this.#compiled.get(family);
    if (!s) {
      if (!this.covers(format)) throw new TypeError(`No schema files were given for ${format}`);
      s = compileSchema(family, this.#files[family] ?? [], SCHEMA_ENTRIES[family]);
      this.#compiled.set(family, s);
    }
    return s;
  }

  /** Compiles every family now (at start-up, so that no request pays for it). */
  compileAll(): void {
    for (const f of ["ksef-fa2", "ubl", "cii", "ksef-fa-rr1", "ksef-pef3"] as const) if (this.covers(f)) this.forFormat(f);
  }
}

const _sets = new WeakMap<SchemaFiles, SchemaSet>();

/** The one SchemaSet of a files object, so that apps built from the same files share their compiled schemas. */
export function schemaSetOf(files: SchemaFiles): SchemaSet {
  let set = _sets.get(files);
  if (!set) {
    set = new SchemaSet(files);
    _sets.set(files, set);
  }
  return set;
}
