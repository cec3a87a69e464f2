import { parseXml } from "./lib/xml/parse.ts";
import { ublInvoice } from "./test/fixtures/ubl_invoice.ts";
const t = ublInvoice(3700);
const g = (globalThis as any).gc;
g(); const before = process.memoryUsage().heapUsed;
const d = parseXml(t);
g(); const after = process.memoryUsage().heapUsed;
let n = 0; const st = [d.root]; while (st.length) { const e = st.pop()!; n++; st.push(...e.children); }
console.log("elements", n, "heap MB", ((after - before) / 1e6).toFixed(1), "bytes/element", ((after - before) / n).toFixed(0), "input chars", t.length);
