/**
 * The official XML Schemas each format is checked against, compiled once per set of
 * schema files and kept: KSeF FA(2) and FA(3) with their `bazowe/` types, OASIS UBL 2.1
 * (Invoice and CreditNote) and UN/CEFACT CII D16B. The files come from the embedder
 * (storage/schemas/schema_files.ts reads the shipped ones), as lib/ does no I/O.
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
}

type Family = keyof SchemaFiles;

/** Entry documents of each family (the rest is reached through include and import). */
export const SCHEMA_ENTRIES: Record<Family, readonly string[]> = {
  ksef: ["schemat_FA(2)_v1-0E.xsd", "schemat_FA(3)_v1-0E.xsd"],
  ubl: ["maindoc/UBL-Invoice-2.1.xsd", "maindoc/UBL-CreditNote-2.1.xsd"],
  cii: ["CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd"],
};

/** The name of the schema check of a format, as listed in `checks`. */
export const SCHEMA_CHECK: Record<InvoiceFormat, string> = {
  "ksef-fa2": "XSD:FA(2) 1-0E",
  "ksef-fa3": "XSD:FA(3) 1-0E",
  ubl: "XSD:UBL 2.1",
  cii: "XSD:CII D16B",
};

const FAMILY: Record<InvoiceFormat, Family> = { "ksef-fa2": "ksef", "ksef-fa3": "ksef", ubl: "ubl", cii: "cii" };

/** Compiled schemas of one set of files; each family is compiled on first use, or all at once by `compileAll()`. */
export class SchemaSet {
  #files: SchemaFiles;
  #compiled = new Map<Family, CompiledSchema>();

  constructor(files: SchemaFiles) {
    this.#files = files;
  }

  /** The compiled schema that a format's documents are checked against. */
  forFormat(format: InvoiceFormat): CompiledSchema {
    const family = FAMILY[format];
    let s = this.#compiled.get(family);
    if (!s) {
      s = compileSchema(family, this.#files[family], SCHEMA_ENTRIES[family]);
      this.#compiled.set(family, s);
    }
    return s;
  }

  /** Compiles every family now (at start-up, so that no request pays for it). */
  compileAll(): void {
    for (const f of ["ksef-fa2", "ubl", "cii"] as const) this.forFormat(f);
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
