import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkSyntaxRules } from "../../../../../lib/formats/validation/en16931/syntax.ts";
import type { XmlElement } from "../../../../../lib/formats/xml/tree.ts";
import { BASE, chain, descend, loadSample, only, setAttr } from "../syntax_cases.ts";

type Case = { what: string; mutate: (root: XmlElement) => void; fires: boolean };

const TX = "rsm:SupplyChainTradeTransaction";
const LINE = `${TX}/ram:IncludedSupplyChainTradeLineItem`;
const AGREEMENT = `${TX}/ram:ApplicableHeaderTradeAgreement`;
const SETTLEMENT = `${TX}/ram:ApplicableHeaderTradeSettlement`;
const line = (r: XmlElement, path: string): XmlElement => descend(r, `${LINE}/${path}`);

function partyIds(party: string, where: string, id: string): Case[] {
  const mutate = (ids: string[]) => (r: XmlElement) => {
    const p = chain(descend(r, where), party);
    for (const n of ids) chain(p, `ram:${n}`, "1", n === "GlobalID" ? { schemeID: "0088" } : {});
  };
  return [
    { what: `${id} with both ID and GlobalID`, mutate: mutate(["ID", "GlobalID"]), fires: true },
    { what: `${id} with a GlobalID only`, mutate: mutate(["GlobalID"]), fires: false },
  ];
}

function contact(party: string): Case[] {
  const mutate = (names: string[]) => (r: XmlElement) => {
    const c = chain(descend(r, `${AGREEMENT}/${party}`), "ram:DefinedTradeContact");
    for (const n of names) chain(c, `ram:${n}`, "x");
  };
  return [
    { what: "a contact with a person and a department", mutate: mutate(["PersonName", "DepartmentName"]), fires: true },
    { what: "a contact with a person only", mutate: mutate(["PersonName"]), fires: false },
  ];
}

function onlyIn(el: string, allowed: (r: XmlElement) => XmlElement, denied: (r: XmlElement) => XmlElement): Case[] {
  return [
    { what: `${el} where it is not allowed`, mutate: (r) => void chain(denied(r), `ram:${el}`, "1"), fires: true },
    { what: `${el} where it is allowed`, mutate: (r) => void chain(allowed(r), `ram:${el}`, "1"), fires: false },
  ];
}

const ard = (code: string) => (r: XmlElement): XmlElement => {
  const d = chain(descend(r, AGREEMENT), "ram:AdditionalReferencedDocument");
  chain(d, "ram:IssuerAssignedID", "1");
  chain(d, "ram:TypeCode", code);
  return d;
};
const order = (r: XmlElement): XmlElement => chain(descend(r, AGREEMENT), "ram:BuyerOrderReferencedDocument");
const lineTax = (r: XmlElement): XmlElement => line(r, "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax");
const headerTax = (r: XmlElement): XmlElement => descend(r, `${SETTLEMENT}/ram:ApplicableTradeTax`);

/** Each hand-written CII rule, broken and satisfied by mutations of a valid sample. */
const CASES: Record<string, Case[]> = {
  "CII-SR-046": [
    { what: "a product GlobalID without schemeID", mutate: (r) => void chain(line(r, "ram:SpecifiedTradeProduct"), "ram:GlobalID", "1"), fires: true },
    { what: "a product GlobalID with schemeID", mutate: (r) => void chain(line(r, "ram:SpecifiedTradeProduct"), "ram:GlobalID", "1", { schemeID: "0160" }), fires: false },
  ],
  "CII-SR-090": [
    { what: "an origin country without ID", mutate: (r) => void chain(line(r, "ram:SpecifiedTradeProduct"), "ram:OriginTradeCountry"), fires: true },
    { what: "an origin country with ID", mutate: (r) => void chain(line(r, "ram:SpecifiedTradeProduct"), "ram:OriginTradeCountry/ram:ID", "DE"), fires: false },
  ],
  "CII-SR-119": [
    {
      what: "a gross price charge",
      mutate: (r) => {
        const c = chain(line(r, "ram:SpecifiedLineTradeAgreement"), "ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge");
        chain(c, "ram:ChargeIndicator/udt:Indicator", "true");
        chain(c, "ram:ActualAmount", "1");
      },
      fires: true,
    },
    {
      what: "a gross price allowance with its amount",
      mutate: (r) => {
        const c = chain(line(r, "ram:SpecifiedLineTradeAgreement"), "ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge");
        chain(c, "ram:ChargeIndicator/udt:Indicator", "false");
        chain(c, "ram:ActualAmount", "1");
      },
      fires: false,
    },
  ],
  "CII-SR-449": partyIds("ram:ShipToTradeParty", `${TX}/ram:ApplicableHeaderTradeDelivery`, "a deliver-to party"),
  "CII-SR-450": [],
  "CII-SR-451": partyIds("ram:PayeeTradeParty", SETTLEMENT, "a payee"),
  "CII-SR-465": contact("ram:SellerTradeParty"),
  "CII-SR-466": contact("ram:BuyerTradeParty"),
  "CII-SR-462": [
    {
      what: "two different VAT point date codes",
      mutate: (r) => {
        chain(headerTax(r), "ram:DueDateTypeCode", "5");
        chain(chain(descend(r, SETTLEMENT), "ram:ApplicableTradeTax"), "ram:DueDateTypeCode", "29");
      },
      fires: true,
    },
    {
      what: "the same code twice",
      mutate: (r) => {
        chain(headerTax(r), "ram:DueDateTypeCode", "5");
        chain(chain(descend(r, SETTLEMENT), "ram:ApplicableTradeTax"), "ram:DueDateTypeCode", "5");
      },
      fires: false,
    },
  ],
  "CII-DT-015": onlyIn("URIID", ard("916"), order),
  "CII-DT-018": onlyIn("TypeCode", (r) => chain(descend(r, AGREEMENT), "ram:AdditionalReferencedDocument"), order).map((c, i) =>
    i === 0 ? c : { ...c, mutate: (r: XmlElement) => void ard("130")(r) },
  ),
  "CII-DT-021": onlyIn("Name", ard("916"), ard("130")),
  "CII-DT-022": onlyIn("AttachmentBinaryObject", ard("916"), order),
  "CII-DT-024": onlyIn("ReferenceTypeCode", ard("130"), ard("916")),
  "CII-DT-027": onlyIn("FormattedIssueDateTime", (r) => chain(descend(r, SETTLEMENT), "ram:InvoiceReferencedDocument"), order),
  "CII-DT-033": [
    {
      what: "a unit code when no invoiced quantity has one",
      mutate: (r) => {
        for (const li of descend(r, TX).children) {
          for (const d of li.children) for (const q of d.children) if (q.local === "BilledQuantity") q.attrs = [];
        }
      },
      fires: false,
    },
    {
      what: "a basis quantity's unit code when no invoiced quantity has one",
      mutate: (r) => {
        for (const li of descend(r, TX).children) {
          for (const d of li.children) for (const q of d.children) if (q.local === "BilledQuantity") q.attrs = [];
        }
        chain(line(r, "ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice"), "ram:BasisQuantity", "1", { unitCode: "H87" });
      },
      fires: true,
    },
  ],
  "CII-DT-037": [
    { what: "a tax type code GST", mutate: (r) => void (descend(headerTax(r), "ram:TypeCode").text = "GST"), fires: true },
    { what: "a tax type code VAT", mutate: (r) => void (descend(headerTax(r), "ram:TypeCode").text = "VAT"), fires: false },
  ],
  "CII-DT-041": onlyIn("BasisAmount", headerTax, lineTax),
  "CII-DT-054": onlyIn("TaxPointDate", headerTax, lineTax),
  "CII-DT-058": onlyIn("DueDateTypeCode", headerTax, lineTax),
  "CII-DT-052": onlyIn("ExemptionReasonCode", headerTax, (r) => chain(descend(r, SETTLEMENT), "ram:SpecifiedTradeAllowanceCharge/ram:CategoryTradeTax")),
  "CII-DT-098": onlyIn("ExemptionReason", headerTax, (r) => chain(descend(r, SETTLEMENT), "ram:SpecifiedTradeAllowanceCharge/ram:CategoryTradeTax")),
  "CII-DT-097": [
    { what: "a dashed date", mutate: (r) => void (descend(r, "rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString").text = "2015-01-09"), fires: true },
    { what: "month 13", mutate: (r) => void (descend(r, "rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString").text = "20151309"), fires: true },
    { what: "a date with surrounding spaces", mutate: (r) => void (descend(r, "rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString").text = " 20150131 "), fires: false },
    {
      what: "another format",
      mutate: (r) => {
        const d = descend(r, "rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString");
        setAttr(d, "format", "610");
        d.text = "201501";
      },
      fires: false,
    },
  ],
};
CASES["CII-SR-450"] = partyIds("ram:BuyerTradeParty", AGREEMENT, "the buyer").map((c) => ({
  ...c,
  // The buyer exists in the sample: add to it rather than adding a second buyer.
  mutate: (r: XmlElement) => {
    const b = descend(r, `${AGREEMENT}/ram:BuyerTradeParty`);
    if (c.fires) chain(b, "ram:ID", "1");
    else b.children = b.children.filter((k) => k.local !== "ID");
    chain(b, "ram:GlobalID", "1", { schemeID: "0088" });
  },
}));

describe("CII syntax rules checked by hand-written functions", () => {
  for (const [rule, cases] of Object.entries(CASES)) {
    for (const c of cases) {
      test(`${rule} ${c.fires ? "fires on" : "accepts"} ${c.what}`, () => {
        const root = loadSample("cii", BASE.cii);
        assert.deepEqual(only(checkSyntaxRules(root, "cii"), rule), [], "the sample satisfies it");
        c.mutate(root);
        const found = only(checkSyntaxRules(root, "cii"), rule);
        assert.equal(found.length > 0, c.fires, JSON.stringify(found));
      });
    }
  }
});
