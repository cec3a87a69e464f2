import { parseXml } from "./lib/xml/parse.ts";
import { ublInvoice } from "./test/fixtures/ubl_invoice.ts";
const t = ublInvoice(3700);
for (let i = 0; i < 300; i++) parseXml(t);
