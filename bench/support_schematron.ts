/**
 * The reference side of bench/en16931_rules.bench.ts: the official CEN/TC 434
 * Schematron (read from where the caller says, never from this repository) turned
 * into an XSLT 3.0 stylesheet, compiled by SaxonJS's own compiler (`xslt3`) and run
 * by SaxonJS. No Schematron compiler is published on npm, so this file does the
 * small part of one that the preprocessed artefacts need: `ns`, `pattern`, `rule`,
 * `assert` (they use no `let`, `report`, abstract patterns or includes). It follows
 * ISO Schematron's processing model as the ISO skeleton implements it: each pattern
 * walks every element, and the first rule of a pattern whose context matches an
 * element fires. The stylesheet prints one line per failed assertion
 * (`id flag path`; flag `error` when evaluating the test raised a dynamic error, which
 * would stop the skeleton's whole run, as a few tests do on some documents) instead of SVRL with fired-rule records, so SaxonJS does a little
 * less work here than with the skeleton's output: the ratios are conservative.
 * SaxonJS's compiler takes tens of seconds on these stylesheets, so the SEF is kept in
 * the system's temporary folder under a hash of the stylesheet text (`--fresh` in the
 * bench ignores it); nothing derived from the artefacts is written to the repository.
 * @module
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseXml } from "../lib/formats/xml/parse.ts";
import type { XmlElement } from "../lib/formats/xml/tree.ts";

const SCH = "http://purl.oclc.org/dsdl/schematron";
const require = createRequire(import.meta.url);

/** One failed assertion as SaxonJS reported it. */
export interface SaxonFinding {
  rule: string;
  flag: string;
  path: string;
}

/** A compiled artefact, ready to run on documents. */
export interface CompiledSchematron {
  /** Patterns compiled, by their ids. */
  patterns: string[];
  /** Assertions compiled. */
  asserts: number;
  /** Milliseconds SaxonJS's compiler took (xslt3 -export), null when the SEF came from the cache. */
  compileMs: number | null;
  /** Runs the rules of every pattern (or of those at the positions given) on a document SaxonJS parses from text. */
  runText(xml: string, patterns?: number[]): SaxonFinding[];
  /** The same on a document SaxonJS parsed before (see `parse`). */
  runNode(doc: unknown, patterns?: number[]): SaxonFinding[];
  /** Parses a document into SaxonJS's tree. */
  parse(xml: string): Promise<unknown>;
}

interface SaxonApi {
  transform(options: Record<string, unknown>, mode: "sync"): { principalResult: string | null };
  getResource(options: Record<string, unknown>): Promise<unknown>;
  getProcessorInfo(): { productVersion: string };
}

/** SaxonJS, loaded lazily (a devDependency for the benches only). */
export function saxon(): SaxonApi {
  return require("saxon-js") as SaxonApi;
}

function _attr(el: XmlElement, name: string): string | null {
  for (const a of el.attrs) if (a.ns === "" && a.local === name) return a.value;
  return null;
}

function _esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}

function _kids(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.ns === SCH && c.local === local);
}

/**
 * The XSLT 3.0 text for the patterns of a Schematron document that `keep` accepts
 * (by position in the file and id). Rules take decreasing template priorities so that
 * the first matching rule of a pattern wins, as the skeleton's do. The parameter
 * `patterns` (e.g. " 0 2 ", positions among those kept) runs some patterns only;
 * by default all of them run.
 */
export function schematronToXslt(schText: string, keep: (index: number, id: string) => boolean): { xslt: string; patterns: string[]; asserts: number } {
  const root = parseXml(schText).root;
  const ns = _kids(root, "ns").map((n) => ` xmlns:${_attr(n, "prefix")}="${_esc(_attr(n, "uri") ?? "")}"`).join("");
  const patterns = _kids(root, "pattern").filter((p, i) => keep(i, _attr(p, "id") ?? ""));
  const out: string[] = [];
  let asserts = 0;
  out.push(`<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"${ns}>`);
  out.push(`<xsl:output method="text"/>`);
  out.push(`<xsl:param name="patterns" select="'${patterns.map((_, i) => ` ${i}`).join("")} '"/>`);
  const apply = patterns.map((_, i) => `<xsl:if test="contains($patterns, ' ${i} ')"><xsl:apply-templates select="/" mode="p${i}"/></xsl:if>`);
  out.push(`<xsl:template match="/">${apply.join("")}</xsl:template>`);
  patterns.forEach((p, i) => {
    const mode = `p${i}`;
    out.push(`<xsl:template match="/|*" mode="${mode}" priority="-10"><xsl:apply-templates select="*" mode="${mode}"/></xsl:template>`);
    const rules = _kids(p, "rule");
    rules.forEach((r, j) => {
      const body = _kids(r, "assert").map((a) => {
        asserts++;
        const flag = _attr(a, "flag") ?? _attr(r, "flag") ?? "fatal";
        const id = _attr(a, "id") ?? "";
        const report = (f: string): string => `<xsl:value-of select="'${id} ${f} ', path(), '&#10;'" separator=""/>`;
        const test = `<xsl:if test="not(${_esc(_attr(a, "test") ?? "true()")})">${report(flag)}</xsl:if>`;
        return `<xsl:try>${test}<xsl:catch>${report("error")}</xsl:catch></xsl:try>`;
      });
      out.push(`<xsl:template match="${_esc(_attr(r, "context") ?? "")}" mode="${mode}" priority="${rules.length - j}">${body.join("")}<xsl:apply-templates select="*" mode="${mode}"/></xsl:template>`);
    });
  });
  out.push(`</xsl:stylesheet>`);
  return { xslt: out.join("\n"), patterns: patterns.map((p) => _attr(p, "id") ?? ""), asserts };
}

function _findings(text: string): SaxonFinding[] {
  const found: SaxonFinding[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [rule, flag, path] = line.split(" ");
    found.push({ rule: rule!, flag: flag!, path: path ?? "" });
  }
  return found;
}

/** Compiles the patterns `keep` accepts of the Schematron file at `schPath` for SaxonJS. */
export function compileSchematron(schPath: string, keep: (index: number, id: string) => boolean, fresh = false): CompiledSchematron {
  const { xslt, patterns, asserts } = schematronToXslt(readFileSync(schPath, "utf8"), keep);
  const s = saxon();
  const key = createHash("sha256").update(s.getProcessorInfo().productVersion).update(xslt).digest("hex").slice(0, 16);
  const sef = join(tmpdir(), `en16931-saxon-${key}.sef.json`);
  let compileMs: number | null = null;
  if (fresh || !existsSync(sef)) {
    const dir = mkdtempSync(join(tmpdir(), "en16931-saxon-"));
    try {
      const xsl = join(dir, "rules.xsl");
      writeFileSync(xsl, xslt);
      const start = performance.now();
      const r = spawnSync(process.execPath, [require.resolve("xslt3/xslt3.js"), `-xsl:${xsl}`, `-export:${join(dir, "rules.sef.json")}`, "-nogo", "-relocate:on"], { encoding: "utf8" });
      compileMs = performance.now() - start;
      if (r.status !== 0) throw new Error(`xslt3 could not compile ${schPath}: ${r.stderr || r.stdout}`);
      renameSync(join(dir, "rules.sef.json"), sef);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const stylesheet = JSON.parse(readFileSync(sef, "utf8")) as unknown;
  const run = (source: Record<string, unknown>, only: number[] | undefined): SaxonFinding[] => {
    const stylesheetParams = only === undefined ? {} : { patterns: ` ${only.join(" ")} ` };
    return _findings(s.transform({ stylesheetInternal: stylesheet, destination: "serialized", stylesheetParams, ...source }, "sync").principalResult ?? "");
  };
  return {
    patterns,
    asserts,
    compileMs,
    runText: (text, only) => run({ sourceText: text }, only),
    runNode: (doc, only) => run({ sourceNode: doc }, only),
    parse: (text) => s.getResource({ text, type: "xml" }),
  };
}
