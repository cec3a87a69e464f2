/**
 * The children of a KSeF invoice's root that FA(2), FA(3) and FA_RR(1) share: the header, the parties
 * (Podmiot1 the seller, Podmiot2 the buyer, Podmiot3 third parties) and the footer.
 * @module
 */
import type { XmlElement } from "../xml/tree.ts";
import { readKsefFooter } from "./ksef_annex.ts";
import { readKsefParty, readKsefThirdParty } from "./ksef_party.ts";
import type { Invoice } from "./model.ts";
import { attr, field, fieldsOf } from "./query.ts";

/** Reads `c` into `inv` when it is one of the shared children; false for the form's own. */
export function readKsefRootChild(c: XmlElement, ns: string, inv: Invoice): boolean {
  switch (c.local) {
    case "Naglowek": {
      const f = fieldsOf(c, ns);
      inv.profile = attr(f.get("KodFormularza") ?? null, "kodSystemowy");
      inv.created_at = field(f, "DataWytworzeniaFa");
      inv.system_info = field(f, "SystemInfo");
      return true;
    }
    case "Podmiot1": inv.seller = readKsefParty(c, ns); return true;
    case "Podmiot2": inv.buyer = readKsefParty(c, ns); return true;
    case "Podmiot3": inv.third_parties.push(readKsefThirdParty(c, ns)); return true;
    case "Stopka": {
      const s = readKsefFooter(c, ns);
      for (const x of s.footer) inv.footer.push(x);
      for (const x of s.registers) inv.registers.push(x);
      return true;
    }
    default: return false;
  }
}
