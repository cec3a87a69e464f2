/**
 * A large invoice for tests of large reads: an FA(3) of minimal lines just over the large-read threshold
 * (lib/api/invoice_reader.ts), as a sync imports it (KSeF's 1 MB upload limit does not apply to imports).
 * @module
 */
import assert from "node:assert/strict";
import { LARGE_XML_BYTES } from "../../lib/api/invoice_reader.ts";
import type { TestServer } from "./server.ts";

/** An FA(3) of minimal lines just over the large-read threshold. */
export function largeKsef(): Uint8Array {
  return minimalLinesKsef(LARGE_XML_BYTES + 4096, "BIG/1");
}

/** An FA(3) of minimal lines of about `bytes` bytes, numbered `number`. */
export function minimalLinesKsef(bytes: number, number: string): Uint8Array<ArrayBuffer> {
  const rows: string[] = [];
  let size = 600;
  for (let i = 1; size < bytes; i++) {
    const row = `<FaWiersz><NrWierszaFa>${i}</NrWierszaFa><P_7>T</P_7><P_8B>1</P_8B><P_11>1</P_11></FaWiersz>`;
    rows.push(row);
    size += row.length;
  }
  const n = rows.length;
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">` +
    `<Podmiot1><DaneIdentyfikacyjne><NIP>5260250274</NIP><Nazwa>S</Nazwa></DaneIdentyfikacyjne></Podmiot1>` +
    `<Fa><KodWaluty>PLN</KodWaluty><P_1>2026-01-01</P_1><P_2>${number}</P_2><P_13_1>${n}.00</P_13_1><P_14_1>0.00</P_14_1>` +
    `<P_15>${n}.00</P_15><RodzajFaktury>VAT</RodzajFaktury>${rows.join("")}</Fa></Faktura>`);
}

/** Drops `xml` into the tenant's inbox of `s` (acme by default), syncs it, and gives the token and the one document's id. */
export async function importLargeInvoice(s: TestServer, xml: Uint8Array, tenant = "acme"): Promise<{ token: string; id: string }> {
  const token = (await s.token(tenant)).token;
  s.drop(tenant, "big.xml", xml);
  await s.sync(token);
  const list = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] };
  assert.equal(list.data.length, 1, "the large invoice was imported");
  return { token, id: list.data[0]!.id };
}
