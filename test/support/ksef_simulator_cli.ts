/**
 * Starts the KSeF simulator for a demo: `node --import tsx test/support/ksef_simulator_cli.ts`
 * prints a `sources.json` entry to point `npm start` at it, signing in with a self-signed certificate it makes in
 * a temporary directory (README "KSeF"). It holds the real FA(2)/FA(3) samples of
 * test/fixtures/samples as invoices of NIP 5265877635 (as seller and as buyer). Not KSeF; never for production.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeKsefCertificate } from "./ksef_certificates.ts";
import { startKsefSimulator } from "./ksef_simulator.ts";
import { fixturePath } from "./server.ts";

const NIP = "5265877635";
const PARTNER = "7762811692";
const TOKEN = `20251010-EC-0000000000-0000000000-00|nip-${NIP}|${"0".repeat(64)}`;
const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }], certificates: [{ nip: NIP, permissions: ["InvoiceRead"] }] });
const cert = makeKsefCertificate(mkdtempSync(join(tmpdir(), "ksef-demo-")), "ksef", { nip: NIP, key: "ec" });
let n = 0;
for (const dir of ["ksef-fa2", "ksef-fa3"]) {
  for (const name of readdirSync(fixturePath("samples", dir)).filter((f) => f.endsWith(".xml"))) {
    const mine = n++ % 2 === 0;
    sim.add({ seller: mine ? NIP : PARTNER, buyer: mine ? PARTNER : NIP, xml: readFileSync(fixturePath("samples", dir, name)), invoiceNumber: name });
  }
}
console.log(`KSeF simulator with ${n} invoices at ${sim.url}\nPut into data/sources.json:`);
console.log(JSON.stringify({ demo: [{ name: "ksef", type: "ksef", environment: sim.url, nip: NIP, certificate: cert.certificateFile, key: cert.keyFile, subjects: ["Subject1", "Subject2"] }] }, null, 2));
