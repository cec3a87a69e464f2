/**
 * `xmllint --schema` (Debian's libxml2-utils) as an independent oracle for the XML Schema
 * validator: a temporary copy of storage/schemas whose imports libxml2 can follow (KSeF's
 * http:// locations pointed at the local files, UBL's location-less imports given one),
 * a serializer for mutated element trees, and one xmllint run per schema over many files.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { XmlElement } from "../../lib/formats/xml/tree.ts";

/** True when xmllint is installed (CI installs libxml2-utils; .ci/run). */
export function hasXmllint(): boolean {
  return spawnSync("xmllint", ["--version"]).status === 0;
}

const UBL_LOCATIONS: Record<string, string> = {
  "urn:un:unece:uncefact:data:specification:CoreComponentTypeSchemaModule:2": "../imported/CCTS_CCT_SchemaModule-2.1.xsd",
  "http://www.w3.org/2000/09/xmldsig#": "../imported/UBL-xmldsig-core-schema-2.1.xsd",
  "http://uri.etsi.org/01903/v1.3.2#": "../imported/UBL-XAdESv132-2.1.xsd",
  "http://uri.etsi.org/01903/v1.4.1#": "../imported/UBL-XAdESv141-2.1.xsd",
};

function _walk(dir: string, visit: (path: string) => void): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) _walk(p, visit);
    else if (name.endsWith(".xsd")) visit(p);
  }
}

/** A temporary copy of the shipped schemas that xmllint resolves offline; `dispose()` removes it. */
export function oracleSchemas(root: string): { dir: string; entry: Record<"fa2" | "fa3" | "faRr" | "pefInvoice" | "pefCreditNote" | "ublInvoice" | "ublCreditNote" | "cii", string>; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), "xsd-oracle-"));
  cpSync(root, dir, { recursive: true });
  _walk(dir, (p) => {
    let text = readFileSync(p, "utf8");
    // FA_RR(1) imports the base types that lie beside the FA schemas.
    const base = p.includes(`${join("ksef-rr", "")}`) ? "../ksef-fa/" : "";
    text = text.replace(/schemaLocation="http:\/\/crd\.gov\.pl\/[^"]*\/([^"/]+\.xsd)"/g, `schemaLocation="${base}$1"`);
    text = text.replace(/<xsd:import namespace="([^"]+)"\s*\/>/g, (m, ns: string) => (UBL_LOCATIONS[ns] ? `<xsd:import namespace="${ns}" schemaLocation="${UBL_LOCATIONS[ns]}"/>` : m));
    writeFileSync(p, text);
  });
  return {
    dir,
    entry: {
      fa2: join(dir, "ksef-fa", "schemat_FA(2)_v1-0E.xsd"),
      fa3: join(dir, "ksef-fa", "schemat_FA(3)_v1-0E.xsd"),
      faRr: join(dir, "ksef-rr", "schemat_FA_RR(1)_v1-1E.xsd"),
      pefInvoice: join(dir, "ksef-pef", "Schemat_PEF(3)_v2-1.xsd"),
      pefCreditNote: join(dir, "ksef-pef", "Schemat_PEF_KOR(3)_v2-1.xsd"),
      ublInvoice: join(dir, "ubl-2.1", "maindoc", "UBL-Invoice-2.1.xsd"),
      ublCreditNote: join(dir, "ubl-2.1", "maindoc", "UBL-CreditNote-2.1.xsd"),
      cii: join(dir, "cii-d16b", "CII", "uncefact", "data", "standard", "CrossIndustryInvoice_100pD16B.xsd"),
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** xmllint's verdict on each file (true = validates), from one run that parses the schema once. */
export function xmllintVerdicts(schema: string, files: readonly string[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (let i = 0; i < files.length; i += 200) {
    const batch = files.slice(i, i + 200);
    const res = spawnSync("xmllint", ["--noout", "--schema", schema, ...batch], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    for (const f of batch) out.set(f, res.stderr.includes(`${f} validates`));
    for (const f of batch) if (!res.stderr.includes(`${f} validates`) && !res.stderr.includes(`${f} fails to validate`)) throw new Error(`xmllint gave no verdict on ${f}: ${res.stderr.slice(0, 500)}`);
  }
  return out;
}

/** xmllint's version line, for the report. */
export function xmllintVersion(): string {
  const res = spawnSync("xmllint", ["--version"], { encoding: "utf8" });
  return `${res.stdout}${res.stderr}`.split("\n")[0] ?? "";
}

const _esc = (s: string, attr: boolean): string => {
  let r = s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (attr) r = r.replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
  else r = r.replace(/\r/g, "&#13;");
  return r;
};

/** The element tree as XML text (element-only content keeps no text; a leaf keeps its text). */
export function serializeXml(el: XmlElement): string {
  const name = el.prefix ? `${el.prefix}:${el.local}` : el.local;
  const attrs = el.attrs.map((a) => ` ${a.prefix ? `${a.prefix}:` : ""}${a.local}="${_esc(a.value, true)}"`).join("");
  if (el.children.length === 0) return `<${name}${attrs}>${_esc(el.text, false)}</${name}>`;
  const text = /[^ \t\r\n]/.test(el.text) ? _esc(el.text, false) : "";
  return `<${name}${attrs}>${text}${el.children.map(serializeXml).join("")}</${name}>`;
}
