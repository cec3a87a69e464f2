import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, describe, test } from "node:test";
import type { Invoice } from "../../../lib/formats/invoice/model.ts";
import { blankPayment, blankReferences } from "../../../lib/formats/invoice/blank.ts";
import { partyTaxId, readInvoice } from "../../../lib/formats/invoice/read.ts";
import { PdfFonts } from "../../../lib/formats/pdf/pdf_fonts.ts";
import { addDecimals, formatDecimal, formatMoney, formatRate } from "../../../lib/formats/pdf/format.ts";
import { renderInvoicePdf } from "../../../lib/formats/pdf/invoice_pdf.ts";
import { ksefVerificationLink, sha256Base64Url } from "../../../lib/formats/pdf/ksef_link.ts";
import { wrapText } from "../../../lib/formats/pdf/layout.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";
import { pdfInvoice, pdfLine, pdfVatRow } from "../../fixtures/pdf_invoice.ts";

const run = promisify(execFile);
const fonts = new PdfFonts(readPdfFontFiles());
const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");
const TOOLS = ["qpdf", "pdftotext", "pdftoppm", "zbarimg", "pdffonts"];
const missingTools = TOOLS.filter((t) => spawnSync(t, ["--version"]).error !== undefined);
// Tests that need the tools fail when they are missing, unless PDF_TOOLS=skip says to skip them.
const skipTools = missingTools.length > 0 && process.env.PDF_TOOLS === "skip" ? `not installed: ${missingTools.join(", ")}` : false;

const dir = mkdtempSync(join(tmpdir(), "pdf-test-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function save(bytes: Uint8Array): string {
  const path = join(dir, `${++files}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

async function qpdfCheck(path: string): Promise<void> {
  const r = await run("qpdf", ["--check", path]).catch((e: { stdout?: string; stderr?: string }) => {
    throw new Error(`qpdf --check failed: ${e.stdout ?? ""}${e.stderr ?? ""}`);
  });
  assert.match(r.stdout, /No syntax or stream encoding errors found/);
}

/** Text of each page, in content order, with whitespace runs (and no-break spaces) as one space. */
async function pageTexts(path: string): Promise<string[]> {
  const r = await run("pdftotext", ["-raw", "-enc", "UTF-8", path, "-"], { maxBuffer: 64 << 20 });
  const pages = r.stdout.split("\f").map(norm);
  if (pages[pages.length - 1] === "") pages.pop();
  return pages;
}

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

async function decodeQr(path: string, page: number): Promise<string> {
  const png = join(dir, `qr${++files}`);
  await run("pdftoppm", ["-r", "200", "-gray", "-png", "-f", String(page), "-l", String(page), "-singlefile", path, png]);
  const r = await run("zbarimg", ["--raw", "-q", `${png}.png`]);
  return r.stdout.replace(/\n$/, "");
}

function sha(bytes: Uint8Array | string): Buffer {
  return createHash("sha256").update(bytes).digest();
}

/** Every letter the primary encoding adds to WinAnsi, the WinAnsi ones we rely on, and a few secondary ones. */
const LETTERS = "ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ äöüß ÄÖÜ čďěňřšťůž ČĎĚŇŘŠŤŮŽ ĺľŕ ĹĽŔ éèêëàâîïôùûüçœÿ ÉÈÊËÀÂÎÏÔÙÛÜÇŒŸ " +
  "€ „quoted” “quoted” ‘single’ – — … ő ű Ő Ű ș ț Ș Ț ğ ı";

describe("renderInvoicePdf()", () => {
  test("the PDF tools are installed (set PDF_TOOLS=skip to skip the tests that need them)", { skip: skipTools }, () => {
    assert.deepEqual(missingTools, [], "apt-get install qpdf poppler-utils zbar-tools");
  });

  const cases: { what: string; input: Invoice; lang?: "pl" | "en"; expected: string[] }[] = [
    {
      what: "a Polish KSeF invoice",
      input: pdfInvoice(8),
      expected: [
        "Faktura VAT", "Nr FV/2026/11/001", "Data wystawienia: 2026-11-20", "Data sprzedaży: 2026-11-19",
        "Przykładowa Spółka z o.o. Łódź-Śródmieście", "NIP: 5260250274", "Prefiks VAT UE: PL", "Příliš žluťoučký kůň s.r.o.", "Nr VAT UE: CZ12345678",
        "602 00 Brno CZ", "1 234,50 2 469,00 23%", "Razem brutto: 60 787,40 PLN", "Do zapłaty: 60 787,40 PLN",
        "zw 50,00 50,00", "przelew (6)", "PL61 1090 1014 0000 0712 1981 2874", "Dziękujemy za zakupy.",
        ...pdfInvoice(8).lines.map((l) => l.name ?? ""),
      ],
    },
    {
      what: "a KSeF invoice in English",
      input: pdfInvoice(2),
      lang: "en",
      expected: ["VAT invoice", "No. FV/2026/11/001", "Tax ID (NIP): 5260250274", "EU VAT number: CZ12345678", "Total gross: 60,787.40 PLN", "bank transfer (6)"],
    },
    {
      what: "a UBL credit note (English by default, unit codes named)",
      input: pdfInvoice(3, {
        format: "ubl", type: "credit_note", kind: { code: "381", text: "Credit note" }, number: "CN-0042", currency: "EUR",
        vat_breakdown: [pdfVatRow("19.00", "S", "100.00", "19.00"), pdfVatRow("0", "AE", "5", "0")],
        totals: { ...pdfInvoice(0).totals, net: "105.00", tax: "19.00", gross: "124.00", payable: "124.00" },
        lines: [pdfLine(1, { unit: "C62", vat_rate: "19.00", vat_category: { code: "S", text: null } }), pdfLine(2, { unit: "HUR" }), pdfLine(3, { unit: "XYZ" })],
        payment: {
          ...blankPayment(), means: { code: "58", text: null }, terms: "Net 30 days",
          due_dates: [{ date: "2026-12-20", description: null, quantity: null, unit: null, start_event: null }],
          accounts: [{ number: "DE89370400440532013000", name: null, bic: null, bank_name: null, description: null, bank_own_account: null, factor: false, held_by: null }],
        },
      }),
      expected: [
        "Credit note", "No. CN-0042", "2 pcs (C62) 1,234.50 2,469.00 19% S", "2 h (HUR)", "2 XYZ", "0% AE 5.00 0.00 5.00",
        "Amount due: 124.00 EUR", "SEPA credit transfer (58)", "Net 30 days",
      ],
    },
    {
      what: "every letter of Polish, German, Czech, Slovak and French, and more",
      input: pdfInvoice(1, { lines: [pdfLine(1, { name: LETTERS })], buyer: { ...pdfInvoice(0).buyer, name: LETTERS } }),
      expected: [LETTERS],
    },
  ];
  for (const { what, input, lang, expected } of cases) {
    test(`renderInvoicePdf() prints ${what} with exact, extractable text`, { skip: skipTools }, async () => {
      const r = renderInvoicePdf(input, lang === undefined ? { fonts } : { fonts, lang });
      assert.deepEqual(r.missingGlyphs, []);
      const path = save(r.bytes);
      await qpdfCheck(path);
      const text = (await pageTexts(path)).join(" ");
      for (const s of expected) assert.ok(text.includes(norm(s)), `missing ${JSON.stringify(s)} in ${text}`);
    });
  }

  test("renderInvoicePdf() breaks 300 lines over pages with the header repeated and pages numbered n / N", { skip: skipTools }, async () => {
    const inv = pdfInvoice(300);
    const path = save(renderInvoicePdf(inv, { fonts }).bytes);
    await qpdfCheck(path);
    const pages = await pageTexts(path);
    const n = pages.length;
    assert.ok(n >= 5, `only ${n} pages`);
    let all = "";
    pages.forEach((text, i) => {
      assert.ok(text.endsWith(`Faktura VAT FV/2026/11/001 ${i + 1} / ${n}`), `page ${i + 1} footer: ${text.slice(-80)}`);
      if (/Towar \d+:/.test(text)) assert.ok(text.includes("Lp. Nazwa towaru lub usługi Ilość J.m. Cena jedn. netto Wartość netto Stawka VAT"), `page ${i + 1} has no header`);
      all += ` ${text}`;
    });
    // Every line once, in order.
    let at = 0;
    for (const line of inv.lines) {
      const next = all.indexOf(norm(line.name ?? ""), at);
      assert.ok(next > at, `line ${line.number} missing or out of order`);
      at = next;
    }
  });

  test("renderInvoicePdf() draws the KSeF QR code that decodes to the verification link", { skip: skipTools }, async () => {
    const xml = "<Faktura>zażółć</Faktura>";
    const expected = `https://qr.ksef.mf.gov.pl/invoice/5260250274/20-11-2026/${sha(xml).toString("base64url")}`;
    const ksefNumber = "5260250274-20261120-0100A0B4A8E7-A5";
    for (const xmlSha256 of [sha(xml), sha(xml).toString("hex"), sha(xml).toString("base64url")]) {
      const path = save(renderInvoicePdf(pdfInvoice(3), { fonts, xmlSha256, ksefNumber }).bytes);
      const pages = await pageTexts(path);
      assert.equal(await decodeQr(path, pages.length), expected);
      const text = pages.join(" ");
      // kody-qr.md: the KSeF number under the code (drawn first), then the caption and the link beside it.
      assert.ok(text.includes(`${ksefNumber} Zeskanuj kod lub otwórz link poniżej, aby zweryfikować fakturę w KSeF. ${expected}`), text);
      assert.ok(text.includes("Kod weryfikujący KSeF (KOD I)"));
    }
  });

  test("renderInvoicePdf() prints no QR code without the XML hash, for UBL and CII, or for a seller NIP too long for one", { skip: skipTools }, async () => {
    const seller = pdfInvoice(1).seller;
    const longNip = pdfInvoice(1, { seller: { ...seller, tax_id: { value: "1".repeat(3000), country: null, scheme: null } } });
    for (const [inv, opts] of [[pdfInvoice(1), {}], [pdfInvoice(1, { format: "ubl" }), { xmlSha256: sha("x") }], [longNip, { xmlSha256: sha("x") }]] as const) {
      const text = (await pageTexts(save(renderInvoicePdf(inv, { fonts, ...opts }).bytes))).join(" ");
      assert.ok(!text.includes("qr.ksef.mf.gov.pl"));
    }
  });

  test("renderInvoicePdf() embeds subsets of both faces and keeps a one-page invoice under 100 KB", { skip: skipTools }, async () => {
    const bytes = renderInvoicePdf(pdfInvoice(8), { fonts, xmlSha256: sha("x") }).bytes;
    const path = save(bytes);
    assert.equal((await pageTexts(path)).length, 1);
    assert.ok(bytes.length < 100 * 1024, String(bytes.length));
    const rows = (await run("pdffonts", [path])).stdout.trim().split("\n").slice(2);
    assert.equal(rows.length, 2);
    for (const row of rows) assert.match(row, /^[A-Z]{6}\+LiberationSans(-Bold)?\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  test("renderInvoicePdf() gives the same bytes for the same invoice, with no dates in /Info", () => {
    const a = renderInvoicePdf(pdfInvoice(40), { fonts, xmlSha256: sha("x") }).bytes;
    const b = renderInvoicePdf(structuredClone(pdfInvoice(40)), { fonts, xmlSha256: sha("x") }).bytes;
    assert.deepEqual(a, b);
    const head = Buffer.from(a).toString("latin1");
    assert.ok(!head.includes("/CreationDate") && !head.includes("/ModDate"));
    assert.match(head, /\/ID \[<[0-9A-F]{32}> <[0-9A-F]{32}>\]/);
    const c = renderInvoicePdf(pdfInvoice(40, { number: "FV/2026/11/002" }), { fonts, xmlSha256: sha("x") }).bytes;
    assert.notDeepEqual(a, c);
  });

  test("renderInvoicePdf() prints characters no font has as ? and reports each once", { skip: skipTools }, async () => {
    const inv = pdfInvoice(1, { lines: [pdfLine(1, { name: "Tea 茶 ☕ 😀 and 茶 again" })], notes: [{ subject_code: null, text: "Bell\u0007 end" }] });
    const r = renderInvoicePdf(inv, { fonts });
    assert.deepEqual(r.missingGlyphs, ["茶", "☕", "😀", "\u0007"]);
    const text = (await pageTexts(save(r.bytes))).join(" ");
    assert.ok(text.includes("Tea ? ? ? and ? again"));
    assert.ok(text.includes("Bell? end"));
  });

  test("renderInvoicePdf() prints a correction: references, reason and marked before rows", { skip: skipTools }, async () => {
    const refs = Array.from({ length: 283 }, (_, i) => ({
      number: `FV/2026/10/${String(i + 1).padStart(4, "0")}`, issue_date: "2026-10-15", ksef_number: `5260250274-20261015-0100A0B4A8E${i % 10}-A5`,
      in_ksef: true,
    }));
    const inv = pdfInvoice(0, {
      type: "correction", kind: { code: "KOR", text: null }, references: { ...blankReferences(), preceding_invoices: refs },
      correction: {
        reason: "Błędna ilość\nRabat", type: null, corrected_number: null, period: null, seller_before: null,
        buyers_before: [], amount_before: null, exchange_rate_before: null,
      },
      lines: [pdfLine(1, { before_correction: true }), pdfLine(1, { quantity: "1", net_amount: "1234.50" })],
    });
    const path = save(renderInvoicePdf(inv, { fonts }).bytes);
    await qpdfCheck(path);
    const pages = await pageTexts(path);
    const text = pages.join(" ");
    assert.ok(text.includes("Faktura korygująca"));
    assert.ok(text.includes("Faktury korygowane (283)"));
    for (const r of refs) assert.ok(text.includes(`${r.number} · 2026-10-15 · ${r.ksef_number}`), r.number);
    assert.ok(text.includes("Przyczyna korekty: Błędna ilość Rabat"));
    assert.ok(text.includes("1 Towar 1: zażółć gęślą jaźń 2 szt. 1 234,50 2 469,00 23% przed korektą"));
    assert.ok(text.includes("1 Towar 1: zażółć gęślą jaźń 1 szt. 1 234,50 1 234,50 23% po korekcie"));
    assert.ok(pages.length >= 2);
  });

  test("renderInvoicePdf() splits a line taller than a page and keeps every word", { skip: skipTools }, async () => {
    const name = Array.from({ length: 900 }, (_, i) => `słowo${i}`).join(" ");
    const path = save(renderInvoicePdf(pdfInvoice(1, { lines: [pdfLine(1, { name })] }), { fonts }).bytes);
    await qpdfCheck(path);
    const pages = await pageTexts(path);
    assert.ok(pages.length >= 2);
    // The other cells and the footer come between the parts; the words stay whole and in order.
    const words = pages.join(" ").split(" ").filter((w) => w.startsWith("słowo"));
    assert.deepEqual(words, name.split(" "));
    assert.ok(pages[0]?.includes("słowo0"), "the row starts on the first page");
  });

  test("renderInvoicePdf() rejects an unknown language and a malformed hash", () => {
    assert.throws(() => renderInvoicePdf(pdfInvoice(1), { fonts, lang: "de" as "en" }), RangeError);
    assert.throws(() => renderInvoicePdf(pdfInvoice(1), { fonts, xmlSha256: "abc" }), TypeError);
    assert.throws(() => renderInvoicePdf(pdfInvoice(1), { fonts, xmlSha256: new Uint8Array(31) }), TypeError);
  });
});

describe("sample invoices", () => {
  const found: string[] = [];
  for (const format of ["ksef-fa2", "ksef-fa3", "ubl", "cii"]) {
    for (const f of readdirSync(join(SAMPLES, format)).filter((x) => x.endsWith(".xml")).sort()) found.push(`${format}/${f}`);
  }
  test("the samples are there", () => assert.ok(found.length >= 40, `${found.length} samples`));

  for (const file of found) {
    test(`renderInvoicePdf() renders ${file} readably`, { skip: skipTools }, async () => {
      const xml = readFileSync(join(SAMPLES, file));
      const inv = readInvoice(parseXml(xml));
      const r = renderInvoicePdf(inv, { fonts, xmlSha256: sha(xml) });
      // The mojibake sample's attachment holds C1 control characters (UTF-8 read as CP1250): no glyph, printed as "?".
      assert.deepEqual(r.missingGlyphs.filter((c) => !/[\u0080-\u009f]/.test(c)), []);
      const path = save(r.bytes);
      await qpdfCheck(path);
      const pages = await pageTexts(path);
      const text = pages.join(" ");
      const lang = inv.format.startsWith("ksef") ? "pl" : "en";
      const want = [inv.number, inv.seller.name, inv.buyer.name, partyTaxId(inv.seller), partyTaxId(inv.buyer), ...inv.lines.map((l) => l.name)];
      if (inv.totals.gross !== null) want.push(formatMoney(inv.totals.gross, inv.currency, lang));
      for (const s of want) if (s !== null && s.trim() !== "") assert.ok(text.includes(norm(s)), `missing ${JSON.stringify(s)}`);
      if (inv.format.startsWith("ksef")) {
        const [y, m, d] = (inv.issue_date ?? "").split("-");
        const link = `https://qr.ksef.mf.gov.pl/invoice/${encodeURIComponent(inv.seller.tax_id?.value ?? "")}/${d}-${m}-${y}/${sha(xml).toString("base64url")}`;
        assert.equal(await decodeQr(path, pages.length), link);
      }
    });
  }
});

describe("PDF text and number helpers", () => {
  const decimals = [
    { what: "groups thousands with a no-break space in Polish", input: ["1234567.5", "pl", 2], expected: "1\u00a0234\u00a0567,50" },
    { what: "groups thousands with commas in English", input: ["1234567.5", "en", 2], expected: "1,234,567.50" },
    { what: "trims zeros down to the minimum", input: ["2.000", "pl", 0], expected: "2" },
    { what: "keeps significant decimals", input: ["53.5993543", "en", 2], expected: "53.5993543" },
    { what: "keeps the sign of negatives", input: ["-109.98", "pl", 2], expected: "-109,98" },
    { what: "drops the sign of zero", input: ["-0.00", "en", 2], expected: "0.00" },
    { what: "normalizes leading zeros and a bare point", input: ["007.", "en", 0], expected: "7" },
    { what: "returns text that is not a number as is", input: ["n/a", "en", 2], expected: "n/a" },
  ] as const;
  for (const { what, input, expected } of decimals) {
    test(`formatDecimal() ${what}`, () => assert.equal(formatDecimal(input[0], input[1], input[2]), expected));
  }

  const rates = [
    { what: "a whole percentage", input: ["23", null], expected: "23%" },
    { what: "a decimal percentage with its category", input: ["19.00", "S"], expected: "19% S" },
    { what: "a KSeF rate code as written", input: ["0 KR", null], expected: "0 KR" },
    { what: "an exemption word", input: ["zw", null], expected: "zw" },
    { what: "a reverse-charge category", input: ["0", "AE"], expected: "0% AE" },
    { what: "a category without a rate", input: [null, "O"], expected: "O" },
  ] as const;
  for (const { what, input, expected } of rates) {
    test(`formatRate() prints ${what}`, () => assert.equal(formatRate(input[0], input[1], "en"), expected));
  }

  test("addDecimals() adds exactly across scales and signs", () => {
    assert.equal(addDecimals("0.1", "0.2"), "0.3");
    assert.equal(addDecimals("1000", "230.00"), "1230.00");
    assert.equal(addDecimals("-5.5", "2.25"), "-3.25");
    assert.equal(addDecimals("10", null), null);
  });

  test("wrapText() wraps at spaces and splits a word longer than the width after a slash", () => {
    assert.deepEqual(wrapText(fonts, "aaa bbb ccc", fonts.textWidth("aaa bbb", false, 10), 10), ["aaa bbb", "ccc"]);
    const url = "https://qr.ksef.mf.gov.pl/invoice/5260250274/20-11-2026/abc";
    const lines = wrapText(fonts, url, fonts.textWidth("https://qr.ksef.mf.gov.pl/invoice/", false, 10) + 5, 10);
    assert.equal(lines[0], "https://qr.ksef.mf.gov.pl/invoice/");
    assert.equal(lines.join(""), url);
  });

  test("ksefVerificationLink() formats the date and hash, and needs both NIP and date", () => {
    // 32 zero bytes are 43 "A"s in unpadded base64url; 0xFF bytes are "_"s with a final "8".
    const zeros = new Uint8Array(32);
    assert.equal(ksefVerificationLink(pdfInvoice(0), zeros), `https://qr.ksef.mf.gov.pl/invoice/5260250274/20-11-2026/${"A".repeat(43)}`);
    assert.equal(ksefVerificationLink(pdfInvoice(0, { issue_date: null }), zeros), null);
    assert.equal(sha256Base64Url("ff".repeat(32)), `${"_".repeat(42)}8`);
    assert.equal(sha256Base64Url(`${"/".repeat(42)}8=`), `${"_".repeat(42)}8`);
  });
});
