/**
 * Reads the KSeF FA(2)/FA(3) parties (Podmiot1, Podmiot2, Podmiot3,
 * PodmiotUpowazniony, Podmiot1K, Podmiot2K, the carrier of a transport) into the
 * model's Party: identifiers (NIP, KodUE + NrVatUE, KodKraju + NrID, BrakID, IDWew),
 * addresses (TAdres), contacts and the role-specific fields. Nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankAddress, blankParty } from "./blank.ts";
import {
  codeOf, KSEF_AUTHORIZED_ROLES, KSEF_TAXPAYER_STATUS, KSEF_THIRD_PARTY_ROLES,
} from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import type { Address, Party, ThirdParty } from "./model.ts";
import { compact, field, fieldsOf, textOf } from "./query.ts";

/** Any KSeF party element: the fields it has are read, the others stay null. */
export function readKsefParty(el: XmlElement, ns: string): Party {
  const p = blankParty();
  _fill(p, el, ns);
  return p;
}

/** Podmiot3 or PodmiotUpowazniony: a party with its role (Rola / RolaInna + OpisRoli / RolaPU) and share. */
export function readKsefThirdParty(el: XmlElement, ns: string): ThirdParty {
  const t: ThirdParty = { ...blankParty(), role: null, role_description: null, share: null };
  _fill(t, el, ns);
  const f = fieldsOf(el, ns);
  const rola = field(f, "Rola");
  const rolaPu = field(f, "RolaPU");
  t.role = rola !== null ? codeOf(KSEF_THIRD_PARTY_ROLES, rola) : codeOf(KSEF_AUTHORIZED_ROLES, rolaPu);
  t.role_description = field(f, "OpisRoli");
  t.share = parseDecimal(field(f, "Udzial"));
  return t;
}

function _fill(p: Party, el: XmlElement, ns: string): void {
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "PrefiksPodatnika": p.vat_prefix = textOf(c); break;
      case "NrEORI": _push(p, textOf(c), "EORI"); break;
      case "DaneIdentyfikacyjne": _identity(p, c, ns); break;
      case "Adres":
      case "AdresPrzewoznika":
        p.address ??= readKsefAddress(c, ns);
        break;
      case "AdresKoresp": p.correspondence_address ??= readKsefAddress(c, ns); break;
      case "DaneKontaktowe": {
        const f = fieldsOf(c, ns);
        p.contacts.push({
          name: null,
          phone: field(f, "Telefon") ?? field(f, "TelefonPU"),
          email: field(f, "Email") ?? field(f, "EmailPU"),
          fax: null,
          department: null,
        });
        break;
      }
      case "StatusInfoPodatnika": p.status = codeOf(KSEF_TAXPAYER_STATUS, textOf(c)); break;
      case "NrKlienta": p.customer_number = textOf(c); break;
      case "NrKontrahenta": p.supplier_number = textOf(c); break; // FA_RR(1) Podmiot1
      case "IDNabywcy": p.buyer_id = textOf(c); break;
      case "JST": p.jst = _yesNo(textOf(c)); break;
      case "GV": p.gv = _yesNo(textOf(c)); break;
    }
  }
}

/** DaneIdentyfikacyjne: NIP, or KodUE + NrVatUE (kept with its prefix), or KodKraju + NrID, or BrakID. */
function _identity(p: Party, el: XmlElement, ns: string): void {
  const f = fieldsOf(el, ns);
  p.name = field(f, "Nazwa");
  const nip = field(f, "NIP");
  const euCountry = field(f, "KodUE");
  const euNumber = field(f, "NrVatUE");
  const idCountry = field(f, "KodKraju");
  const id = field(f, "NrID");
  if (nip !== null) p.tax_id = { value: nip, country: "PL", scheme: "NIP" };
  else if (euNumber !== null) {
    const glued = euCountry !== null && !euNumber.startsWith(euCountry) ? euCountry + euNumber : euNumber;
    p.tax_id = { value: glued, country: euCountry, scheme: "VAT" };
  } else if (id !== null) p.tax_id = { value: id, country: idCountry, scheme: "NrID" };
  p.no_tax_id = field(f, "BrakID") === "1";
  _push(p, field(f, "IDWew"), "IDWew");
}

function _push(p: Party, value: string | null, scheme: string): void {
  if (value !== null) p.identifiers.push({ value, scheme });
}

/** TAdres: KodKraju, AdresL1, AdresL2, GLN (FA(2) and FA(3)). */
export function readKsefAddress(el: XmlElement, ns: string): Address {
  const f = fieldsOf(el, ns);
  const a = blankAddress();
  a.lines = compact([field(f, "AdresL1"), field(f, "AdresL2")]);
  a.country_code = field(f, "KodKraju");
  a.gln = field(f, "GLN");
  return a;
}

/** KSeF "1" yes / "2" no; null for anything else. */
function _yesNo(v: string | null): boolean | null {
  return v === "1" ? true : v === "2" ? false : null;
}
