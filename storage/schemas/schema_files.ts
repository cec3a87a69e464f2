/**
 * Reads the XML Schemas shipped with the project (README.md here names their sources and
 * licences) for validation: KSeF FA(2)/FA(3) with their base types, KSeF FA_RR(1) (which imports
 * the same base types), KSeF PEF(3)/PEF_KOR(3) with their own UBL copies, OASIS UBL 2.1 and
 * UN/CEFACT CII D16B. lib/ gets the bytes from here, as it does no I/O itself; it compiles
 * them once (lib/formats/validation/schema_set.ts).
 * @module
 */

import { readdirSync, readFileSync } from "node:fs";
import type { SchemaFile } from "../../lib/formats/xsd/compile.ts";
import type { SchemaFiles } from "../../lib/formats/validation/schema_set.ts";

let _read: SchemaFiles | null = null;

/** The shipped schema files of each family; read synchronously once per process (start-up), then shared. */
export function readSchemaFiles(): SchemaFiles {
  if (_read) return _read;
  const ksef = _folder(new URL("./ksef-fa/", import.meta.url));
  _read = {
    ksef,
    // FA_RR(1) imports StrukturyDanych_v10-0E.xsd by namespace: the FA folder's base types serve it too.
    ksef_rr: [..._folder(new URL("./ksef-rr/", import.meta.url)), ...ksef.filter((f) => !f.path.startsWith("schemat_"))],
    ksef_pef: _folder(new URL("./ksef-pef/", import.meta.url)),
    ubl: _folder(new URL("./ubl-2.1/", import.meta.url)),
    cii: _folder(new URL("./cii-d16b/", import.meta.url)),
  };
  return _read;
}

function _folder(dir: URL, prefix = ""): SchemaFile[] {
  const out: SchemaFile[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(..._folder(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`));
    else if (e.name.endsWith(".xsd")) out.push({ path: prefix + e.name, bytes: readFileSync(new URL(e.name, dir)) });
  }
  return out;
}
