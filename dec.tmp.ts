import { ublInvoice } from "./test/fixtures/ubl_invoice.ts";
import { Buffer, isUtf8 } from "node:buffer";
const b = new TextEncoder().encode(ublInvoice(3700));
const fatal = new TextDecoder("utf-8", { fatal: true });
const lax = new TextDecoder("utf-8");
const fns: [string, () => unknown][] = [
  ["fatal", () => fatal.decode(b)],
  ["lax", () => lax.decode(b)],
  ["isUtf8+lax", () => isUtf8(b) && lax.decode(b)],
  ["Buffer", () => Buffer.from(b.buffer, b.byteOffset, b.length).toString("utf8")],
];
for (const [n, f] of fns) {
  for (let i = 0; i < 20; i++) f();
  const t = performance.now(); for (let i = 0; i < 100; i++) f();
  const ms = (performance.now() - t) / 100;
  console.log(n, ms.toFixed(2), "ms", (b.length / 1e6 / (ms / 1000)).toFixed(0), "MB/s");
}
