import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { readInvoiceXml } from "../../../lib/formats/invoice/read_xml.ts";
import { FACTURX_NAMESPACE, facturXLevel, type FacturXOptions } from "../../../lib/formats/pdf/facturx.ts";
import { renderInvoicePdf } from "../../../lib/formats/pdf/invoice_pdf.ts";
import { srgbIccProfile } from "../../../lib/formats/pdf/srgb_icc.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { testFonts } from "../../support/pdf_text.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples", "cii");
const EN16931_CII = readFileSync(join(SAMPLES, "mustang_factur-x.xml"));
const XRECHNUNG_CII = readFileSync(join(SAMPLES, "xrechnung_01.01a-INVOICE_uncefact.xml"));
const DATE = "2026-12-06T10:15:30.123Z";
const TOOLS = ["qpdf", "pdfdetach", "pdffonts"];
const missingTools = TOOLS.filter((t) => spawnSync(t, ["--version"]).error !== undefined);
// Tests that need the tools fail when they are missing, unless PDF_TOOLS=skip says to skip them.
const skipTools = missingTools.length > 0 && process.env.PDF_TOOLS === "skip" ? `not installed: ${missingTools.join(", ")}` : false;

const dir = mkdtempSync(join(tmpdir(), "facturx-test-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function render(xml: Uint8Array, flavour: FacturXOptions["flavour"] = "factur-x"): Uint8Array {
  return renderInvoicePdf(readInvoiceXml(xml), { fonts: testFonts, facturX: { ciiXml: xml, flavour, date: DATE } }).bytes;
}

function save(bytes: Uint8Array): string {
  const path = join(dir, `${++files}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** The file's objects as qpdf reads them (`qpdf --json`), streams decoded and inline as base64. */
interface PdfObjects {
  trailer: Record<string, unknown>;
  get(ref: unknown): Record<string, unknown>;
  stream(ref: unknown): { dict: Record<string, unknown>; data: Buffer };
  all: unknown[];
}

function objects(pdf: Uint8Array): PdfObjects {
  const out = execFileSync("qpdf", ["--json=2", "--json-key=qpdf", "--json-stream-data=inline", "--decode-level=generalized", save(pdf)], { maxBuffer: 64 << 20 });
  const objs = (JSON.parse(out.toString("utf8")) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown>; data: string } }>] }).qpdf[1];
  const entry = (ref: unknown) => {
    const o = objs[`obj:${String(ref)}`];
    assert.ok(o, `object ${String(ref)} exists`);
    return o;
  };
  return {
    trailer: objs["trailer"]!.value!,
    get: (ref) => entry(ref).value ?? assert.fail(`${String(ref)} is not a plain object`),
    stream(ref) {
      const s = entry(ref).stream ?? assert.fail(`${String(ref)} is not a stream`);
      return { dict: s.dict, data: Buffer.from(s.data, "base64") };
    },
    all: Object.values(objs),
  };
}

/** The children of `el` named `local` (any namespace), or its first one. */
function kids(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local);
}

function descendants(el: XmlElement, ns: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (e.ns === ns && e.local === local) out.push(e);
    e.children.forEach(walk);
  };
  walk(el);
  return out;
}

describe("A Factur-X rendering passes the tools of other PDF readers", { skip: skipTools }, () => {
  const pdf = render(EN16931_CII);

  test("qpdf --check finds no error and no warning", () => {
    const r = spawnSync("qpdf", ["--check", save(pdf)], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /No syntax or stream encoding errors found/);
    assert.equal(r.stderr, "");
  });

  test("pdfdetach -list names factur-x.xml as the one embedded file", () => {
    const out = execFileSync("pdfdetach", ["-list", save(pdf)], { encoding: "utf8" });
    assert.deepEqual(out.trim().split("\n"), ["1 embedded files", "1: factur-x.xml"]);
  });

  test("pdfdetach -save gives back exactly the CII bytes that were embedded", () => {
    const out = join(dir, "detached.xml");
    execFileSync("pdfdetach", ["-save", "1", "-o", out, save(pdf)]);
    assert.deepEqual(readFileSync(out), EN16931_CII);
  });

  test("pdffonts shows every font embedded", () => {
    const lines = execFileSync("pdffonts", [save(pdf)], { encoding: "utf8" }).trim().split("\n").slice(2);
    assert.ok(lines.length >= 1);
    for (const line of lines) assert.match(line, /CID TrueType\s+Identity-H\s+yes yes yes/, line);
  });
});

describe("A Factur-X rendering meets the PDF/A-3 requirements it relies on (ISO 19005-3, ISO 19005-2)", { skip: skipTools }, () => {
  const pdf = render(EN16931_CII);
  const text = Buffer.from(pdf).toString("latin1");
  const o = objects(pdf);
  const catalog = o.get(o.trailer["/Root"]);
  const info = o.get(o.trailer["/Info"]);

  test("the header is %PDF-1.n followed by a comment of four bytes of 128 or more (ISO 19005-2 6.1.2)", () => {
    assert.match(text.slice(0, 9), /^%PDF-1\.[0-7]\n/);
    assert.equal(pdf[9], 0x25);
    for (let i = 10; i < 14; i++) assert.ok((pdf[i] ?? 0) >= 128, `byte ${i} is ${pdf[i]}`);
  });

  test("the file ends with %%EOF and every cross-reference offset points at its object (ISO 19005-2 6.1.3)", () => {
    assert.match(text, /%%EOF\n?$/);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n?$/.exec(text)?.[1]);
    assert.equal(text.slice(startxref, startxref + 5), "xref\n");
    const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref)) ?? [];
    assert.equal(Number(first), 0);
    const table = startxref + `xref\n0 ${count}\n`.length;
    for (let n = 1; n < Number(count); n++) {
      const entry = text.slice(table + 20 * n, table + 20 * n + 20);
      assert.match(entry, /^\d{10} 00000 n \n$/, `entry ${n}`);
      assert.equal(text.slice(Number(entry.slice(0, 10)), Number(entry.slice(0, 10)) + `${n} 0 obj`.length), `${n} 0 obj`);
    }
  });

  test("the trailer has an /ID of two strings and no /Encrypt (ISO 19005-2 6.1.3)", () => {
    const id = o.trailer["/ID"] as string[];
    assert.equal(id.length, 2);
    for (const s of id) assert.match(s, /^b:[0-9a-f]{32}$/);
    assert.equal(o.trailer["/Encrypt"], undefined);
  });

  test("the catalog's /Metadata is an unfiltered XMP stream of /Type /Metadata /Subtype /XML (ISO 19005-3 6.6.2.1)", () => {
    const { dict } = o.stream(catalog["/Metadata"]);
    assert.equal(dict["/Type"], "/Metadata");
    assert.equal(dict["/Subtype"], "/XML");
    assert.equal(dict["/Filter"], undefined);
    const raw = text.indexOf("<?xpacket begin=");
    assert.ok(raw > 0, "the packet is readable in the file as it is");
  });

  const xmp = parseXml(o.stream(catalog["/Metadata"]).data);
  const rdf = kids(xmp.root, "RDF")[0]!;
  const value = (ns: string, local: string) => descendants(rdf, ns, local).map((e) => e.text);

  test("the XMP parses and identifies the file as PDF/A-3b (pdfaid:part 3, pdfaid:conformance B)", () => {
    assert.equal(xmp.root.ns, "adobe:ns:meta/");
    assert.deepEqual(value("http://www.aiim.org/pdfa/ns/id/", "part"), ["3"]);
    assert.deepEqual(value("http://www.aiim.org/pdfa/ns/id/", "conformance"), ["B"]);
  });

  test("the XMP repeats /Info: dc:title, dc:creator, pdf:Producer and the dates (ISO 19005-3 6.6.2.3.1)", () => {
    const dc = "http://purl.org/dc/elements/1.1/";
    assert.deepEqual(descendants(rdf, dc, "title").map((t) => descendants(t, "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "li")[0]?.text), [String(info["/Title"]).slice(2)]);
    assert.deepEqual(descendants(rdf, dc, "creator").map((t) => descendants(t, "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "li")[0]?.text), [String(info["/Author"]).slice(2)]);
    assert.equal(info["/Author"], "u:Bei Spiel GmbH");
    assert.deepEqual(value("http://ns.adobe.com/pdf/1.3/", "Producer"), [String(info["/Producer"]).slice(2)]);
    assert.equal(info["/CreationDate"], "u:D:20261206101530+00'00'");
    assert.equal(info["/ModDate"], "u:D:20261206101530+00'00'");
    assert.deepEqual(value("http://ns.adobe.com/xap/1.0/", "CreateDate"), ["2026-12-06T10:15:30Z"]);
    assert.deepEqual(value("http://ns.adobe.com/xap/1.0/", "ModifyDate"), ["2026-12-06T10:15:30Z"]);
  });

  test("the XMP has the Factur-X fields: INVOICE, factur-x.xml, 1.0, EN 16931", () => {
    assert.deepEqual(value(FACTURX_NAMESPACE, "DocumentType"), ["INVOICE"]);
    assert.deepEqual(value(FACTURX_NAMESPACE, "DocumentFileName"), ["factur-x.xml"]);
    assert.deepEqual(value(FACTURX_NAMESPACE, "Version"), ["1.0"]);
    assert.deepEqual(value(FACTURX_NAMESPACE, "ConformanceLevel"), ["EN 16931"]);
    assert.equal(descendants(rdf, FACTURX_NAMESPACE, "DocumentType")[0]?.prefix, "fx");
  });

  test("the XMP describes the fx schema and each of its properties in a PDF/A extension schema (ISO 19005-3 6.6.2.3.2)", () => {
    const schemas = descendants(rdf, "http://www.aiim.org/pdfa/ns/extension/", "schemas");
    assert.equal(schemas.length, 1);
    const s = "http://www.aiim.org/pdfa/ns/schema#";
    assert.deepEqual(descendants(schemas[0]!, s, "namespaceURI").map((e) => e.text), [FACTURX_NAMESPACE]);
    assert.deepEqual(descendants(schemas[0]!, s, "prefix").map((e) => e.text), ["fx"]);
    const p = "http://www.aiim.org/pdfa/ns/property#";
    assert.deepEqual(descendants(schemas[0]!, p, "name").map((e) => e.text).sort(), ["ConformanceLevel", "DocumentFileName", "DocumentType", "Version"]);
    assert.deepEqual(new Set(descendants(schemas[0]!, p, "valueType").map((e) => e.text)), new Set(["Text"]));
    assert.deepEqual(new Set(descendants(schemas[0]!, p, "category").map((e) => e.text)), new Set(["external"]));
  });

  test("the output intent is GTS_PDFA1 with an ICC profile whose /N matches its RGB colour space (ISO 19005-3 6.2.3)", () => {
    const intents = catalog["/OutputIntents"] as string[];
    assert.equal(intents.length, 1);
    const intent = o.get(intents[0]);
    assert.equal(intent["/Type"], "/OutputIntent");
    assert.equal(intent["/S"], "/GTS_PDFA1");
    assert.equal(intent["/OutputConditionIdentifier"], "u:sRGB IEC61966-2.1");
    const icc = o.stream(intent["/DestOutputProfile"]);
    assert.equal(icc.dict["/N"], 3);
    assert.equal(icc.data.subarray(16, 20).toString("latin1"), "RGB ");
    assert.deepEqual(new Uint8Array(icc.data), srgbIccProfile());
  });

  test("every font has its font program embedded (ISO 19005-2 6.2.11.4)", () => {
    const descriptors = o.all.filter((x) => (x as { value?: Record<string, unknown> }).value?.["/Type"] === "/FontDescriptor") as { value: Record<string, unknown> }[];
    assert.ok(descriptors.length >= 1);
    for (const d of descriptors) assert.ok(d.value["/FontFile2"] ?? d.value["/FontFile"] ?? d.value["/FontFile3"], String(d.value["/FontName"]));
  });

  test("no object names JavaScript, a Launch action or a transparency group (ISO 19005-2 6.6.1, 6.2.10)", () => {
    const json = JSON.stringify(o.all.map((x) => (x as { value?: unknown; stream?: { dict: unknown } }).value ?? (x as { stream: { dict: unknown } }).stream.dict));
    assert.doesNotMatch(json, /"\/JavaScript"|"\/JS"|"\/Launch"|"\/Transparency"|"\/SMask"|"\/Group"/);
  });

  test("the embedded file is an Alternative of the document, text/xml with /Params, listed in /EmbeddedFiles and /AF (ISO 19005-3 6.8)", () => {
    const af = catalog["/AF"] as string[];
    assert.equal(af.length, 1);
    const names = ((catalog["/Names"] as Record<string, Record<string, unknown[]>>)["/EmbeddedFiles"]!["/Names"])!;
    assert.deepEqual(names, ["u:factur-x.xml", af[0]]);
    const spec = o.get(af[0]);
    assert.equal(spec["/Type"], "/Filespec");
    assert.equal(spec["/F"], "u:factur-x.xml");
    assert.equal(spec["/UF"], "u:factur-x.xml");
    assert.equal(spec["/AFRelationship"], "/Alternative");
    const ef = spec["/EF"] as Record<string, string>;
    assert.equal(ef["/UF"], ef["/F"]);
    const file = o.stream(ef["/F"]);
    assert.equal(file.dict["/Type"], "/EmbeddedFile");
    assert.equal(file.dict["/Subtype"], "/text/xml");
    assert.match(text, /\/Subtype \/text#2Fxml/);
    const params = file.dict["/Params"] as Record<string, unknown>;
    assert.equal(params["/Size"], EN16931_CII.length);
    assert.equal(params["/ModDate"], "u:D:20261206101530+00'00'");
    assert.equal(params["/CheckSum"], `b:${createHash("md5").update(EN16931_CII).digest("hex")}`);
    assert.deepEqual(file.data, EN16931_CII);
  });
});

describe("Factur-X and ZUGFeRD names", { skip: skipTools }, () => {
  const fx = (pdf: Uint8Array) => {
    const o = objects(pdf);
    const rdf = kids(parseXml(o.stream(o.get(o.trailer["/Root"])["/Metadata"]).data).root, "RDF")[0]!;
    const v = (local: string) => descendants(rdf, FACTURX_NAMESPACE, local)[0]?.text;
    return { file: v("DocumentFileName"), level: v("ConformanceLevel"), version: v("Version"), attached: execFileSync("pdfdetach", ["-list", save(pdf)], { encoding: "utf8" }).trim().split("\n")[1] };
  };

  test("an EN 16931 invoice has the same names in ZUGFeRD 2.3 as in Factur-X 1.0", () => {
    assert.deepEqual(fx(render(EN16931_CII, "zugferd")), { file: "factur-x.xml", level: "EN 16931", version: "1.0", attached: "1: factur-x.xml" });
  });

  test("an XRechnung invoice is ZUGFeRD 2.3's profile XRECHNUNG in xrechnung.xml, and EN 16931 in factur-x.xml for Factur-X", () => {
    assert.deepEqual(fx(render(XRECHNUNG_CII, "zugferd")), { file: "xrechnung.xml", level: "XRECHNUNG", version: "1.0", attached: "1: xrechnung.xml" });
    assert.deepEqual(fx(render(XRECHNUNG_CII, "factur-x")), { file: "factur-x.xml", level: "EN 16931", version: "1.0", attached: "1: factur-x.xml" });
  });
});

describe("facturXLevel()", () => {
  const table = [
    { what: "EN 16931 itself", profile: "urn:cen.eu:en16931:2017", expected: "EN 16931" },
    { what: "Factur-X MINIMUM", profile: "urn:factur-x.eu:1p0:minimum", expected: "MINIMUM" },
    { what: "Factur-X BASIC WL", profile: "urn:factur-x.eu:1p0:basicwl", expected: "BASIC WL" },
    { what: "Factur-X BASIC", profile: "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic", expected: "BASIC" },
    { what: "Factur-X EXTENDED", profile: "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended", expected: "EXTENDED" },
    { what: "another extension", profile: "urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr", expected: "EXTENDED" },
    { what: "Peppol BIS Billing, a CIUS", profile: "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0", expected: "EN 16931" },
    { what: "no guideline", profile: null, expected: "EN 16931" },
  ];
  for (const { what, profile, expected } of table) {
    test(`names ${what} ${expected} for both flavours`, () => {
      assert.equal(facturXLevel(profile, "factur-x"), expected);
      assert.equal(facturXLevel(profile, "zugferd"), expected);
    });
  }
});

test("renderInvoicePdf() with facturX gives the same bytes for the same invoice and date, and other bytes for another date", () => {
  const inv = readInvoiceXml(EN16931_CII);
  const a = renderInvoicePdf(inv, { fonts: testFonts, facturX: { ciiXml: EN16931_CII, flavour: "factur-x", date: DATE } }).bytes;
  const b = renderInvoicePdf(inv, { fonts: testFonts, facturX: { ciiXml: EN16931_CII, flavour: "factur-x", date: DATE } }).bytes;
  const c = renderInvoicePdf(inv, { fonts: testFonts, facturX: { ciiXml: EN16931_CII, flavour: "factur-x", date: "2026-12-07T00:00:00Z" } }).bytes;
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
});

test("renderInvoicePdf() without facturX writes no metadata, output intent or embedded file", () => {
  const text = Buffer.from(renderInvoicePdf(readInvoiceXml(EN16931_CII), { fonts: testFonts }).bytes).toString("latin1");
  assert.doesNotMatch(text, /\/Metadata|\/OutputIntents|\/EmbeddedFiles|\/AF /);
});

test("a seller name with letters beyond ASCII and XML's special characters is the same in /Info /Author and dc:creator", { skip: skipTools }, () => {
  const inv = readInvoiceXml(readFileSync(join(SAMPLES, "..", "ksef-fa3", "FA_3_complex.xml")));
  const seller = "Przykład & Syn <Spółka> \"Ż\" 😀";
  const pdf = renderInvoicePdf({ ...inv, seller: { ...inv.seller!, name: seller } }, { fonts: testFonts, facturX: { ciiXml: EN16931_CII, flavour: "factur-x", date: DATE } }).bytes;
  const o = objects(pdf);
  const rdf = kids(parseXml(o.stream(o.get(o.trailer["/Root"])["/Metadata"]).data).root, "RDF")[0]!;
  const creator = descendants(descendants(rdf, "http://purl.org/dc/elements/1.1/", "creator")[0]!, "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "li")[0]?.text;
  assert.equal(creator, seller);
  assert.equal(o.get(o.trailer["/Info"])["/Author"], `u:${seller}`);
  const title = descendants(descendants(rdf, "http://purl.org/dc/elements/1.1/", "title")[0]!, "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "li")[0]?.text;
  assert.equal(`u:${title}`, o.get(o.trailer["/Info"])["/Title"]);
});
