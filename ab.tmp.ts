import { parseXml as A } from "/tmp/abA/lib/xml/parse.ts";
import { parseXml as B } from "/tmp/abB/lib/xml/parse.ts";
import { ublInvoice } from "/work/main/test/fixtures/ubl_invoice.ts";
const docs = [ublInvoice(50), ublInvoice(3700)];
for (const t of docs) {
  const res: Record<string, number[]> = { A: [], B: [] };
  for (let round = 0; round < 16; round++) {
    for (const [name, f] of [["A", A], ["B", B]] as const) {
      const n = Math.max(3, Math.floor(2e7 / t.length));
      const st = process.cpuUsage();
      for (let i = 0; i < n; i++) f(t);
      const u = process.cpuUsage(st);
      res[name]!.push(t.length * n / ((u.user + u.system) / 1e6) / 1e6);
    }
  }
  const q = (a: number[], f: number) => a.sort((x, y) => x - y)[Math.floor(a.length * f)]!.toFixed(0);
  console.log(t.length, "A", q(res.A!, 0.5), "max", q(res.A!, 0.99), " B", q(res.B!, 0.5), "max", q(res.B!, 0.99));
}
