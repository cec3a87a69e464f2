/**
 * The compiled fast path must never accept what checkSimple refuses: every simple type reachable from the FA(2),
 * FA(3), UBL and CII schemas is tried with the values of the sample invoices, the schemas' own enumerations and
 * bounds, edge cases of each built-in, and variants of all of these (signs, zeros, whitespace, truncation).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { SchemaSet } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";
import { accepts } from "../../../lib/formats/xsd/accept.ts";
import type { ComplexType, Particle, SimpleType } from "../../../lib/formats/xsd/model.ts";
import { checkSimple } from "../../../lib/formats/xsd/simple.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { fixturePath } from "../../support/server.ts";

const EDGES = [
  "", " ", "0", "-0", "+0", "00", "0.0", "1.", ".5", "-.5", "+1", "1e5", "INF", "-INF", "NaN", "1.5E2", "123456789012345", "1234567890123456",
  "999999999999999.99", "9999999999999999.99", "0.000000000000001", "0.0000000000000001", "100.001", "99.999", "-100", "-1", "1", "2", "23", "256", "-129",
  "32768", "65536", "2147483648", "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
  "2026-02-29", "2024-02-29", "2026-13-01", "2026-01-32", "2026-01-01Z", "2026-01-01+14:00", "2026-01-01+14:01", "1899-12-31", "2050-12-31", "2051-01-01",
  "0000-01-01", "1900-02-29", "2000-02-29", "2026-04-31", "2026-04-30", "2026-00-10", "2026-1-01", "2016-06-30", "2016-07-01", "2050-01-01", "2050-01-02", "2026-01-01T24:00:00", "2026-01-01T23:59:60", "2026-01-01T12:00:00.5+01:00", "2026-06", "2026", "--06-15", "12:00:00", "true", "false",
  "a  b", " a", "a ", "\ta", "a\r\nb", "x".repeat(300), "ą".repeat(256), "😀".repeat(128), "😀".repeat(129), "\uD800", "\uD800\uD800", "\uD800a", "a\uD800", "QUJD", "QQ==", "0A1b", "en-GB", "1 2 3", "@", "a@b",
];

function _variants(v: string): string[] {
  return [v, ` ${v}`, `${v} `, `${v}\n`, `+${v}`, `-${v}`, `0${v}`, `${v}0`, `${v}.0`, `${v}1`, v.slice(1), v.slice(0, -1), v.replace(" ", "  "), `${v}${v}`];
}

/** Every simple type reachable from the global elements (element, attribute, union member and list item types). */
function _simpleTypes(schema: ReturnType<SchemaSet["forFormat"]>): Set<SimpleType> {
  const out = new Set<SimpleType>();
  const seen = new Set<ComplexType>();
  const simple = (t: SimpleType): void => {
    if (out.has(t)) return;
    out.add(t);
    for (const m of t.members) simple(m);
    if (t.item) simple(t.item);
  };
  const particle = (p: Particle): void => {
    if (p.kind === "element") type(p.decl.type);
    else if (p.kind !== "any") for (const i of p.items) particle(i);
  };
  const type = (t: SimpleType | ComplexType): void => {
    if (t.kind === "simple") return simple(t);
    if (seen.has(t)) return;
    seen.add(t);
    for (const a of t.attributes.values()) simple(a.type);
    if (t.simple) simple(t.simple);
    if (t.particle) particle(t.particle);
  };
  for (const d of schema.elements.values()) type(d.type);
  return out;
}

function _values(types: Set<SimpleType>): string[] {
  const edges = new Set(EDGES);
  for (const t of types) {
    const f = t.facets;
    for (const e of f.enumeration ?? []) edges.add(e);
    for (const b of [f.minInclusive, f.maxInclusive, f.minExclusive, f.maxExclusive]) if (b !== null) edges.add(b);
  }
  // The samples' own values as they are (their variants would multiply the run time for little).
  const samples = new Set<string>();
  const leaf = (el: XmlElement): void => {
    if (el.children.length === 0) samples.add(el.text);
    for (const a of el.attrs) samples.add(a.value);
    el.children.forEach(leaf);
  };
  for (const dir of ["ksef-fa2", "ksef-fa3", "ubl", "cii"]) {
    for (const f of readdirSync(fixturePath("samples", dir))) leaf(parseXml(readFileSync(fixturePath("samples", dir, f))).root);
  }
  return [...new Set([...[...edges].flatMap(_variants), ...samples])];
}

test("the compiled fast path accepts only what checkSimple accepts, and accepts most valid values", () => {
  const set = new SchemaSet(readSchemaFiles());
  const types = new Set([...(["ksef-fa3", "ubl", "cii"] as const).flatMap((f) => [..._simpleTypes(set.forFormat(f))])]);
  const values = _values(types);
  let valid = 0, fast = 0;
  const wrong: string[] = [];
  for (const t of types) {
    for (const v of values) {
      const ok = checkSimple(t, v) === null;
      if (ok) valid++;
      if (accepts(t, v)) {
        fast++;
        if (!ok) wrong.push(`${t.name}: ${JSON.stringify(v)}`);
      }
    }
  }
  assert.deepEqual(wrong.slice(0, 20), []);
  console.log(`# ${types.size} types × ${values.length} values: ${valid} valid, ${fast} accepted fast`);
  assert.ok(types.size > 150, `${types.size} types`);
  // Whitespace to normalise, lists and 16-digit numbers are left to checkSimple; nearly everything else is answered fast.
  assert.ok(fast > valid * 0.6, `${fast} of ${valid} valid values accepted fast`);
});
