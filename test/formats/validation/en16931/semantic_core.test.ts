/**
 * The EN 16931 mandatory-term and structure rules (semantic_core.ts), each broken
 * by one edit of a valid UBL and CII invoice and satisfied by the original (or by
 * a document that has the rule's context and gets it right).
 */
import { describe } from "node:test";
import { after, before, drop, edit, runSyntaxCases, type SyntaxCase } from "./semantic_cases.ts";

const UBL_TAX_REP = (name: string, postal: string, vat: string) =>
  `<cac:TaxRepresentativeParty>${name}${postal}${vat}</cac:TaxRepresentativeParty>`;
const UBL_REP_NAME = "<cac:PartyName><cbc:Name>Rep Ltd</cbc:Name></cac:PartyName>";
const UBL_REP_POSTAL = "<cac:PostalAddress><cac:Country><cbc:IdentificationCode>GB</cbc:IdentificationCode></cac:Country></cac:PostalAddress>";
const UBL_REP_VAT = "<cac:PartyTaxScheme><cbc:CompanyID>GB999</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>";
const ubl_rep = (xml: string, name = UBL_REP_NAME, postal = UBL_REP_POSTAL, vat = UBL_REP_VAT) =>
  before(xml, "<cac:Delivery>", UBL_TAX_REP(name, postal, vat));

const UBL_ALLOWANCE = (inner: string) => `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator>${inner}</cac:AllowanceCharge>`;
const UBL_AMOUNT = '<cbc:Amount currencyID="EUR">10</cbc:Amount>';
const UBL_REASON = "<cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason>";
const UBL_S = "<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25.0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>";
const ubl_allowance = (xml: string, inner = UBL_REASON + UBL_AMOUNT + UBL_S) => before(xml, "<cac:TaxTotal>", UBL_ALLOWANCE(inner));
const ubl_line_ac = (xml: string, charge: boolean, inner: string) =>
  before(xml, "<cac:Item>", `<cac:AllowanceCharge><cbc:ChargeIndicator>${charge}</cbc:ChargeIndicator>${inner}</cac:AllowanceCharge>`);
const ubl_period = (xml: string, inner: string) => after(xml, "<cbc:BuyerReference>0150abc</cbc:BuyerReference>", `<cac:InvoicePeriod>${inner}</cac:InvoicePeriod>`);
const ubl_line_period = (xml: string, inner: string) => before(xml, "<cac:OrderLineReference>", `<cac:InvoicePeriod>${inner}</cac:InvoicePeriod>`);

const ubl: SyntaxCase[] = [
  { rule: "BR-01", what: "blank specification identifier", breaks: (x) => edit(x, /<cbc:CustomizationID>[^<]*/, "<cbc:CustomizationID> ") },
  { rule: "BR-02", what: "blank invoice number", breaks: (x) => edit(x, "<cbc:ID>Snippet1</cbc:ID>", "<cbc:ID></cbc:ID>") },
  { rule: "BR-03", what: "no issue date", breaks: (x) => drop(x, "cbc:IssueDate") },
  { rule: "BR-04", what: "no type code", breaks: (x) => drop(x, "cbc:InvoiceTypeCode") },
  { rule: "BR-05", what: "no currency", breaks: (x) => drop(x, "cbc:DocumentCurrencyCode") },
  { rule: "BR-06", what: "no seller name", breaks: (x) => drop(x, "cbc:RegistrationName") },
  { rule: "BR-07", what: "no buyer name", breaks: (x) => drop(x, "cbc:RegistrationName", 2) },
  { rule: "BR-08", what: "no seller address", breaks: (x) => drop(x, "cac:PostalAddress") },
  { rule: "BR-09", what: "no seller country", breaks: (x) => drop(x, "cac:Country") },
  { rule: "BR-10", what: "no buyer address", breaks: (x) => drop(x, "cac:PostalAddress", 2) },
  { rule: "BR-11", what: "blank buyer country", breaks: (x) => edit(x, "<cbc:IdentificationCode>SE</cbc:IdentificationCode>", "<cbc:IdentificationCode> </cbc:IdentificationCode>") },
  { rule: "BR-12", what: "no line net sum", breaks: (x) => edit(x, '<cbc:LineExtensionAmount currencyID="EUR">1300</cbc:LineExtensionAmount>', "") },
  { rule: "BR-13", what: "no total without VAT", breaks: (x) => drop(x, "cbc:TaxExclusiveAmount") },
  { rule: "BR-14", what: "no total with VAT", breaks: (x) => drop(x, "cbc:TaxInclusiveAmount") },
  { rule: "BR-15", what: "no amount due", breaks: (x) => drop(x, "cbc:PayableAmount") },
  { rule: "BR-16", what: "no lines", breaks: (x) => drop(drop(x, "cac:InvoiceLine"), "cac:InvoiceLine") },
  {
    rule: "BR-17", what: "a payee without a name",
    breaks: (x) => before(x, "<cac:Delivery>", "<cac:PayeeParty><cac:PartyIdentification><cbc:ID>P1</cbc:ID></cac:PartyIdentification></cac:PayeeParty>"),
    holds: (x) => before(x, "<cac:Delivery>", "<cac:PayeeParty><cac:PartyName><cbc:Name>Factor AG</cbc:Name></cac:PartyName></cac:PayeeParty>"),
  },
  { rule: "BR-18", what: "a tax representative without a name", breaks: (x) => ubl_rep(x, ""), holds: (x) => ubl_rep(x) },
  { rule: "BR-19", what: "a tax representative without an address", breaks: (x) => ubl_rep(x, UBL_REP_NAME, ""), holds: (x) => ubl_rep(x) },
  { rule: "BR-20", what: "a tax representative address without a country", breaks: (x) => ubl_rep(x, UBL_REP_NAME, "<cac:PostalAddress><cbc:CityName>X</cbc:CityName></cac:PostalAddress>"), holds: (x) => ubl_rep(x) },
  { rule: "BR-56", what: "a tax representative without a VAT identifier", breaks: (x) => ubl_rep(x, UBL_REP_NAME, UBL_REP_POSTAL, ""), holds: (x) => ubl_rep(x) },
  { rule: "BR-21", what: "blank line id", breaks: (x) => edit(x, "<cbc:ID>1</cbc:ID>", "<cbc:ID/>") },
  { rule: "BR-22", what: "no quantity", breaks: (x) => drop(x, "cbc:InvoicedQuantity") },
  { rule: "BR-23", what: "no unit code", breaks: (x) => edit(x, 'unitCode="DAY">7', ">7") },
  { rule: "BR-24", what: "no line net amount", breaks: (x) => edit(x, '<cbc:LineExtensionAmount currencyID= "EUR">2800</cbc:LineExtensionAmount>', "") },
  { rule: "BR-DEC-23", what: "a line net amount with 3 decimals", breaks: (x) => edit(x, ">2800</cbc:LineExtensionAmount>", ">2800.000</cbc:LineExtensionAmount>") },
  { rule: "BR-25", what: "blank item name", breaks: (x) => edit(x, "<cbc:Name>item name</cbc:Name>", "<cbc:Name/>") },
  { rule: "BR-26", what: "no net price", breaks: (x) => drop(x, "cbc:PriceAmount") },
  { rule: "BR-27", what: "a negative net price", breaks: (x) => edit(x, ">400</cbc:PriceAmount>", ">-400</cbc:PriceAmount>") },
  {
    rule: "BR-28", what: "a negative gross price",
    breaks: (x) => after(x, '<cbc:PriceAmount currencyID="EUR">400</cbc:PriceAmount>', '<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">0</cbc:Amount><cbc:BaseAmount currencyID="EUR">-1</cbc:BaseAmount></cac:AllowanceCharge>'),
    holds: (x) => after(x, '<cbc:PriceAmount currencyID="EUR">400</cbc:PriceAmount>', '<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">0</cbc:Amount><cbc:BaseAmount currencyID="EUR">400</cbc:BaseAmount></cac:AllowanceCharge>'),
  },
  {
    rule: "BR-29", what: "an invoicing period ending before it starts",
    breaks: (x) => ubl_period(x, "<cbc:StartDate>2017-11-02</cbc:StartDate><cbc:EndDate>2017-11-01</cbc:EndDate>"),
    holds: (x) => ubl_period(x, "<cbc:StartDate>2017-11-01</cbc:StartDate><cbc:EndDate>2017-11-01</cbc:EndDate>"),
  },
  {
    rule: "BR-30", what: "a line period ending before it starts",
    breaks: (x) => ubl_line_period(x, "<cbc:StartDate>2017-11-02</cbc:StartDate><cbc:EndDate>2017-10-01</cbc:EndDate>"),
    holds: (x) => ubl_line_period(x, "<cbc:StartDate>2017-10-01</cbc:StartDate><cbc:EndDate>2017-11-02</cbc:EndDate>"),
  },
  { rule: "BR-CO-19", what: "an empty invoicing period", breaks: (x) => ubl_period(x, ""), holds: (x) => ubl_period(x, "<cbc:DescriptionCode>35</cbc:DescriptionCode>") },
  { rule: "BR-CO-20", what: "an empty line period", breaks: (x) => ubl_line_period(x, ""), holds: (x) => ubl_line_period(x, "<cbc:EndDate>2017-11-02</cbc:EndDate>") },
  { rule: "BR-31", what: "an allowance without amount", breaks: (x) => ubl_allowance(x, UBL_REASON + UBL_S), holds: (x) => ubl_allowance(x) },
  { rule: "BR-32", what: "an allowance without VAT category", breaks: (x) => ubl_allowance(x, UBL_REASON + UBL_AMOUNT), holds: (x) => ubl_allowance(x) },
  { rule: "BR-33", what: "an allowance without reason", breaks: (x) => ubl_allowance(x, UBL_AMOUNT + UBL_S), holds: (x) => ubl_allowance(x) },
  { rule: "BR-CO-21", what: "an allowance without reason", breaks: (x) => ubl_allowance(x, UBL_AMOUNT + UBL_S), holds: (x) => ubl_allowance(x, "<cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode>" + UBL_AMOUNT + UBL_S) },
  { rule: "BR-DEC-01", what: "an allowance amount with 3 decimals", breaks: (x) => ubl_allowance(x, UBL_REASON + '<cbc:Amount currencyID="EUR">10.001</cbc:Amount>' + UBL_S), holds: (x) => ubl_allowance(x) },
  { rule: "BR-DEC-02", what: "an allowance base with 3 decimals", breaks: (x) => ubl_allowance(x, UBL_REASON + UBL_AMOUNT + '<cbc:BaseAmount currencyID="EUR">1.001</cbc:BaseAmount>' + UBL_S), holds: (x) => ubl_allowance(x) },
  { rule: "BR-36", what: "a charge without amount", breaks: (x) => drop(x, "cbc:Amount") },
  { rule: "BR-37", what: "a charge without VAT category", breaks: (x) => drop(x, "cac:TaxCategory") },
  { rule: "BR-38", what: "a charge without reason", breaks: (x) => drop(x, "cbc:AllowanceChargeReason") },
  { rule: "BR-CO-22", what: "a charge without reason", breaks: (x) => drop(x, "cbc:AllowanceChargeReason") },
  { rule: "BR-DEC-05", what: "a charge amount with 3 decimals", breaks: (x) => edit(x, ">25</cbc:Amount>", ">25.000</cbc:Amount>") },
  { rule: "BR-DEC-06", what: "a charge base with 3 decimals", breaks: (x) => after(x, '<cbc:Amount currencyID="EUR">25</cbc:Amount>', '<cbc:BaseAmount currencyID="EUR">100.125</cbc:BaseAmount>') },
  { rule: "BR-41", what: "a line allowance without amount", breaks: (x) => ubl_line_ac(x, false, UBL_REASON), holds: (x) => ubl_line_ac(x, false, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-42", what: "a line allowance without reason", breaks: (x) => ubl_line_ac(x, false, UBL_AMOUNT), holds: (x) => ubl_line_ac(x, false, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-CO-23", what: "a line allowance without reason", breaks: (x) => ubl_line_ac(x, false, UBL_AMOUNT), holds: (x) => ubl_line_ac(x, false, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-DEC-24", what: "a line allowance amount with 3 decimals", breaks: (x) => ubl_line_ac(x, false, UBL_REASON + '<cbc:Amount currencyID="EUR">1.001</cbc:Amount>'), holds: (x) => ubl_line_ac(x, false, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-DEC-25", what: "a line allowance base with 3 decimals", breaks: (x) => ubl_line_ac(x, false, UBL_REASON + UBL_AMOUNT + '<cbc:BaseAmount currencyID="EUR">1.001</cbc:BaseAmount>'), holds: (x) => ubl_line_ac(x, false, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-43", what: "a line charge without amount", breaks: (x) => ubl_line_ac(x, true, UBL_REASON), holds: (x) => ubl_line_ac(x, true, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-44", what: "a line charge without reason", breaks: (x) => ubl_line_ac(x, true, UBL_AMOUNT), holds: (x) => ubl_line_ac(x, true, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-CO-24", what: "a line charge without reason", breaks: (x) => ubl_line_ac(x, true, UBL_AMOUNT), holds: (x) => ubl_line_ac(x, true, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-DEC-27", what: "a line charge amount with 3 decimals", breaks: (x) => ubl_line_ac(x, true, UBL_REASON + '<cbc:Amount currencyID="EUR">1.001</cbc:Amount>'), holds: (x) => ubl_line_ac(x, true, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-DEC-28", what: "a line charge base with 3 decimals", breaks: (x) => ubl_line_ac(x, true, UBL_REASON + UBL_AMOUNT + '<cbc:BaseAmount currencyID="EUR">1.001</cbc:BaseAmount>'), holds: (x) => ubl_line_ac(x, true, UBL_REASON + UBL_AMOUNT) },
  { rule: "BR-49", what: "a payment means without code", breaks: (x) => drop(x, "cbc:PaymentMeansCode") },
  { rule: "BR-50", what: "a blank account identifier", breaks: (x) => edit(x, "<cbc:ID>IBAN32423940</cbc:ID>", "<cbc:ID> </cbc:ID>") },
  { rule: "BR-61", what: "a credit transfer without account identifier", breaks: (x) => edit(x, "<cbc:ID>IBAN32423940</cbc:ID>", "") },
  {
    rule: "BR-51", what: "a full card number",
    breaks: (x) => after(x, "<cbc:PaymentID>Snippet1</cbc:PaymentID>", "<cac:CardAccount><cbc:PrimaryAccountNumberID>4111111111111111</cbc:PrimaryAccountNumberID><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount>"),
    holds: (x) => after(x, "<cbc:PaymentID>Snippet1</cbc:PaymentID>", "<cac:CardAccount><cbc:PrimaryAccountNumberID>1111</cbc:PrimaryAccountNumberID><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount>"),
  },
  {
    rule: "BR-52", what: "a supporting document without reference",
    breaks: (x) => after(x, "<cbc:BuyerReference>0150abc</cbc:BuyerReference>", "<cac:AdditionalDocumentReference><cbc:ID> </cbc:ID></cac:AdditionalDocumentReference>"),
    holds: (x) => after(x, "<cbc:BuyerReference>0150abc</cbc:BuyerReference>", "<cac:AdditionalDocumentReference><cbc:ID>doc-1</cbc:ID></cac:AdditionalDocumentReference>"),
  },
  {
    rule: "BR-53", what: "a VAT accounting currency without its VAT total",
    breaks: (x) => after(x, "<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>", "<cbc:TaxCurrencyCode>SEK</cbc:TaxCurrencyCode>"),
    holds: (x) => after(after(x, "<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>", "<cbc:TaxCurrencyCode>SEK</cbc:TaxCurrencyCode>"), "</cac:TaxTotal>", '<cac:TaxTotal><cbc:TaxAmount currencyID="SEK">3200.00</cbc:TaxAmount></cac:TaxTotal>'),
  },
  {
    rule: "BR-54", what: "an item attribute without value",
    breaks: (x) => before(x, "<cac:ClassifiedTaxCategory>", "<cac:AdditionalItemProperty><cbc:Name>Colour</cbc:Name></cac:AdditionalItemProperty>"),
    holds: (x) => before(x, "<cac:ClassifiedTaxCategory>", "<cac:AdditionalItemProperty><cbc:Name>Colour</cbc:Name><cbc:Value>Red</cbc:Value></cac:AdditionalItemProperty>"),
  },
  {
    rule: "BR-55", what: "a preceding invoice reference without number",
    breaks: (x) => after(x, "<cbc:BuyerReference>0150abc</cbc:BuyerReference>", "<cac:BillingReference><cac:InvoiceDocumentReference><cbc:IssueDate>2017-01-01</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>"),
    holds: (x) => after(x, "<cbc:BuyerReference>0150abc</cbc:BuyerReference>", "<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>INV-0</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>"),
  },
  { rule: "BR-57", what: "a deliver-to address without country", breaks: (x) => drop(x, "cac:Country", 3) },
  { rule: "BR-62", what: "a seller endpoint without scheme", breaks: (x) => edit(x, '<cbc:EndpointID schemeID="0088">', "<cbc:EndpointID>") },
  { rule: "BR-63", what: "a buyer endpoint without scheme", breaks: (x) => edit(x, '<cbc:EndpointID schemeID="0002">', "<cbc:EndpointID>") },
  { rule: "BR-64", what: "a standard item id without scheme", breaks: (x) => edit(x, '<cbc:ID schemeID="0088">21382183120983', "<cbc:ID>21382183120983") },
  { rule: "BR-65", what: "a classification without list id", breaks: (x) => edit(x, ' listID="SRV"', "") },
  {
    rule: "BR-CO-03", what: "both a VAT point date and a VAT point date code",
    breaks: (x) => ubl_period(after(x, "<cbc:IssueDate>2017-11-13</cbc:IssueDate>", "<cbc:TaxPointDate>2017-11-13</cbc:TaxPointDate>"), "<cbc:DescriptionCode>35</cbc:DescriptionCode>"),
    holds: (x) => after(x, "<cbc:IssueDate>2017-11-13</cbc:IssueDate>", "<cbc:TaxPointDate>2017-11-13</cbc:TaxPointDate>"),
  },
  { rule: "BR-CO-04", what: "a line without VAT category code", breaks: (x) => edit(x, /<cac:ClassifiedTaxCategory>\s*<cbc:ID>S<\/cbc:ID>/, "<cac:ClassifiedTaxCategory>") },
  { rule: "BR-CO-09", what: "a VAT identifier without country prefix", breaks: (x) => edit(x, "GB1232434", "QQ1232434") },
  {
    rule: "BR-CO-26", what: "a seller with no identifier at all",
    breaks: (x) => drop(drop(drop(x, "cac:PartyIdentification"), "cac:PartyTaxScheme"), "cbc:CompanyID"),
    holds: (x) => drop(drop(x, "cac:PartyTaxScheme"), "cbc:CompanyID"),
  },
];

const CII_REP = (inner: string) => `<ram:SellerTaxRepresentativeTradeParty>${inner}</ram:SellerTaxRepresentativeTradeParty>`;
const CII_REP_NAME = "<ram:Name>Rep GmbH</ram:Name>";
const CII_REP_POSTAL = "<ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>";
const CII_REP_VAT = '<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE999999999</ram:ID></ram:SpecifiedTaxRegistration>';
const cii_rep = (xml: string, name = CII_REP_NAME, postal = CII_REP_POSTAL, vat = CII_REP_VAT) =>
  before(xml, "</ram:ApplicableHeaderTradeAgreement>", CII_REP(name + postal + vat));
const CII_AC = (charge: boolean, inner: string) =>
  `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>${charge}</udt:Indicator></ram:ChargeIndicator>${inner}</ram:SpecifiedTradeAllowanceCharge>`;
const CII_AMOUNT = "<ram:ActualAmount>10</ram:ActualAmount>";
const CII_REASON = "<ram:Reason>Discount</ram:Reason>";
const CII_S = "<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>7</ram:RateApplicablePercent></ram:CategoryTradeTax>";
const cii_ac = (xml: string, charge: boolean, inner = CII_AMOUNT + CII_REASON + CII_S) => before(xml, "<ram:SpecifiedTradePaymentTerms>", CII_AC(charge, inner));
const cii_line_ac = (xml: string, charge: boolean, inner: string) => before(xml, "<ram:SpecifiedTradeSettlementLineMonetarySummation>", CII_AC(charge, inner));
const CII_DATE = (d: string) => `<udt:DateTimeString format="102">${d}</udt:DateTimeString>`;
const cii_period = (xml: string, inner: string) => before(xml, "<ram:SpecifiedTradePaymentTerms>", `<ram:BillingSpecifiedPeriod>${inner}</ram:BillingSpecifiedPeriod>`);
const CII_BAD_PERIOD = `<ram:StartDateTime>${CII_DATE("20161231")}</ram:StartDateTime><ram:EndDateTime>${CII_DATE("20160101")}</ram:EndDateTime>`;
const CII_PERIOD = `<ram:StartDateTime>${CII_DATE("20160101")}</ram:StartDateTime><ram:EndDateTime>${CII_DATE("20161231")}</ram:EndDateTime>`;

const cii: SyntaxCase[] = [
  { rule: "BR-01", what: "blank specification identifier", breaks: (x) => edit(x, /<ram:ID>urn:cen[^<]*/, "<ram:ID>") },
  { rule: "BR-02", what: "blank invoice number", breaks: (x) => edit(x, "<ram:ID>123456XX</ram:ID>", "<ram:ID/>") },
  { rule: "BR-03", what: "an issue date not in format 102", breaks: (x) => edit(x, 'format="102">20160404', 'format="203">20160404') },
  { rule: "BR-04", what: "no type code", breaks: (x) => edit(x, "<ram:TypeCode>380</ram:TypeCode>", "") },
  { rule: "BR-05", what: "no currency", breaks: (x) => drop(x, "ram:InvoiceCurrencyCode") },
  { rule: "BR-06", what: "no seller name", breaks: (x) => edit(x, "<ram:Name>[Seller name]</ram:Name>", "") },
  { rule: "BR-07", what: "no buyer name", breaks: (x) => edit(x, "<ram:Name>[Buyer name]</ram:Name>", "") },
  { rule: "BR-08", what: "no seller address", breaks: (x) => drop(x, "ram:PostalTradeAddress") },
  { rule: "BR-09", what: "no seller country", breaks: (x) => drop(x, "ram:CountryID") },
  { rule: "BR-10", what: "no buyer address", breaks: (x) => drop(x, "ram:PostalTradeAddress", 2) },
  { rule: "BR-11", what: "no buyer country", breaks: (x) => drop(x, "ram:CountryID", 2) },
  { rule: "BR-12", what: "no line net sum", breaks: (x) => edit(x, "<ram:LineTotalAmount>314.86</ram:LineTotalAmount>", "") },
  { rule: "BR-13", what: "no total without VAT", breaks: (x) => drop(x, "ram:TaxBasisTotalAmount") },
  { rule: "BR-14", what: "no total with VAT", breaks: (x) => drop(x, "ram:GrandTotalAmount") },
  { rule: "BR-15", what: "no amount due", breaks: (x) => drop(x, "ram:DuePayableAmount") },
  { rule: "BR-16", what: "no lines", breaks: (x) => drop(drop(x, "ram:IncludedSupplyChainTradeLineItem"), "ram:IncludedSupplyChainTradeLineItem") },
  {
    rule: "BR-17", what: "a payee named like the seller",
    breaks: (x) => after(x, "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>", "<ram:PayeeTradeParty><ram:Name>[Seller name]</ram:Name></ram:PayeeTradeParty>"),
    holds: (x) => after(x, "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>", "<ram:PayeeTradeParty><ram:Name>Factor AG</ram:Name></ram:PayeeTradeParty>"),
  },
  { rule: "BR-18", what: "a tax representative without a name", breaks: (x) => cii_rep(x, ""), holds: (x) => cii_rep(x) },
  { rule: "BR-19", what: "a tax representative without an address", breaks: (x) => cii_rep(x, CII_REP_NAME, ""), holds: (x) => cii_rep(x) },
  { rule: "BR-20", what: "a tax representative without a country", breaks: (x) => cii_rep(x, CII_REP_NAME, ""), holds: (x) => cii_rep(x) },
  { rule: "BR-56", what: "a tax representative without a VAT identifier", breaks: (x) => cii_rep(x, CII_REP_NAME, CII_REP_POSTAL, ""), holds: (x) => cii_rep(x) },
  { rule: "BR-21", what: "blank line id", breaks: (x) => edit(x, "<ram:LineID>Zeitschrift [...]</ram:LineID>", "<ram:LineID> </ram:LineID>") },
  { rule: "BR-22", what: "no quantity", breaks: (x) => drop(x, "ram:BilledQuantity") },
  { rule: "BR-23", what: "no unit code", breaks: (x) => edit(x, ' unitCode="XPP"', "") },
  { rule: "BR-24", what: "no line net amount", breaks: (x) => edit(x, "<ram:LineTotalAmount>288.79</ram:LineTotalAmount>", "") },
  { rule: "BR-DEC-23", what: "a line net amount with 3 decimals", breaks: (x) => edit(x, "<ram:LineTotalAmount>288.79</ram:LineTotalAmount>", "<ram:LineTotalAmount>288.790</ram:LineTotalAmount>") },
  { rule: "BR-25", what: "no item name", breaks: (x) => edit(x, "<ram:Name>Zeitschrift [...]</ram:Name>", "") },
  { rule: "BR-26", what: "no net price", breaks: (x) => drop(x, "ram:NetPriceProductTradePrice") },
  { rule: "BR-27", what: "a negative net price", breaks: (x) => edit(x, "<ram:ChargeAmount>288.79", "<ram:ChargeAmount>-288.79") },
  {
    rule: "BR-28", what: "a negative gross price",
    breaks: (x) => before(x, "<ram:NetPriceProductTradePrice>", "<ram:GrossPriceProductTradePrice><ram:ChargeAmount>-1</ram:ChargeAmount></ram:GrossPriceProductTradePrice>"),
    holds: (x) => before(x, "<ram:NetPriceProductTradePrice>", "<ram:GrossPriceProductTradePrice><ram:ChargeAmount>300</ram:ChargeAmount></ram:GrossPriceProductTradePrice>"),
  },
  { rule: "BR-29", what: "an invoicing period ending before it starts", breaks: (x) => cii_period(x, CII_BAD_PERIOD), holds: (x) => cii_period(x, CII_PERIOD) },
  { rule: "BR-30", what: "a line period ending before it starts", breaks: (x) => edit(x, CII_DATE("20161231"), CII_DATE("20151231")) },
  { rule: "BR-CO-19", what: "an empty invoicing period", breaks: (x) => cii_period(x, ""), holds: (x) => cii_period(x, CII_PERIOD) },
  { rule: "BR-CO-20", what: "an empty line period", breaks: (x) => drop(drop(x, "ram:StartDateTime"), "ram:EndDateTime") },
  { rule: "BR-31", what: "an allowance without amount", breaks: (x) => cii_ac(x, false, CII_REASON + CII_S), holds: (x) => cii_ac(x, false) },
  { rule: "BR-32", what: "an allowance without VAT category", breaks: (x) => cii_ac(x, false, CII_AMOUNT + CII_REASON), holds: (x) => cii_ac(x, false) },
  { rule: "BR-33", what: "an allowance without reason", breaks: (x) => cii_ac(x, false, CII_AMOUNT + CII_S), holds: (x) => cii_ac(x, false) },
  { rule: "BR-CO-21", what: "an allowance without reason", breaks: (x) => cii_ac(x, false, CII_AMOUNT + CII_S), holds: (x) => cii_ac(x, false, CII_AMOUNT + "<ram:ReasonCode>95</ram:ReasonCode>" + CII_S) },
  { rule: "BR-DEC-01", what: "an allowance amount with 3 decimals", breaks: (x) => cii_ac(x, false, "<ram:ActualAmount>1.001</ram:ActualAmount>" + CII_REASON + CII_S), holds: (x) => cii_ac(x, false) },
  { rule: "BR-DEC-02", what: "an allowance base with 3 decimals", breaks: (x) => cii_ac(x, false, "<ram:BasisAmount>1.001</ram:BasisAmount>" + CII_AMOUNT + CII_REASON + CII_S), holds: (x) => cii_ac(x, false) },
  { rule: "BR-36", what: "a charge without amount", breaks: (x) => cii_ac(x, true, CII_REASON + CII_S), holds: (x) => cii_ac(x, true) },
  { rule: "BR-37", what: "a charge without VAT category", breaks: (x) => cii_ac(x, true, CII_AMOUNT + CII_REASON), holds: (x) => cii_ac(x, true) },
  { rule: "BR-38", what: "a charge without reason", breaks: (x) => cii_ac(x, true, CII_AMOUNT + CII_S), holds: (x) => cii_ac(x, true) },
  { rule: "BR-CO-22", what: "a charge without reason", breaks: (x) => cii_ac(x, true, CII_AMOUNT + CII_S), holds: (x) => cii_ac(x, true) },
  { rule: "BR-DEC-05", what: "a charge amount with 3 decimals", breaks: (x) => cii_ac(x, true, "<ram:ActualAmount>1.001</ram:ActualAmount>" + CII_REASON + CII_S), holds: (x) => cii_ac(x, true) },
  { rule: "BR-DEC-06", what: "a charge base with 3 decimals", breaks: (x) => cii_ac(x, true, "<ram:BasisAmount>1.001</ram:BasisAmount>" + CII_AMOUNT + CII_REASON + CII_S), holds: (x) => cii_ac(x, true) },
  { rule: "BR-41", what: "a line allowance without amount", breaks: (x) => cii_line_ac(x, false, CII_REASON), holds: (x) => cii_line_ac(x, false, CII_AMOUNT + CII_REASON) },
  { rule: "BR-42", what: "a line allowance without reason", breaks: (x) => cii_line_ac(x, false, CII_AMOUNT), holds: (x) => cii_line_ac(x, false, CII_AMOUNT + CII_REASON) },
  { rule: "BR-CO-23", what: "a line allowance without reason", breaks: (x) => cii_line_ac(x, false, CII_AMOUNT), holds: (x) => cii_line_ac(x, false, CII_AMOUNT + CII_REASON) },
  { rule: "BR-DEC-24", what: "a line allowance amount with 3 decimals", breaks: (x) => cii_line_ac(x, false, "<ram:ActualAmount>1.001</ram:ActualAmount>" + CII_REASON), holds: (x) => cii_line_ac(x, false, CII_AMOUNT + CII_REASON) },
  { rule: "BR-DEC-25", what: "a line allowance base with 3 decimals", breaks: (x) => cii_line_ac(x, false, "<ram:BasisAmount>1.001</ram:BasisAmount>" + CII_AMOUNT + CII_REASON), holds: (x) => cii_line_ac(x, false, CII_AMOUNT + CII_REASON) },
  { rule: "BR-43", what: "a line charge without amount", breaks: (x) => cii_line_ac(x, true, CII_REASON), holds: (x) => cii_line_ac(x, true, CII_AMOUNT + CII_REASON) },
  { rule: "BR-44", what: "a line charge without reason", breaks: (x) => cii_line_ac(x, true, CII_AMOUNT), holds: (x) => cii_line_ac(x, true, CII_AMOUNT + CII_REASON) },
  { rule: "BR-CO-24", what: "a line charge without reason", breaks: (x) => cii_line_ac(x, true, CII_AMOUNT), holds: (x) => cii_line_ac(x, true, CII_AMOUNT + CII_REASON) },
  { rule: "BR-DEC-27", what: "a line charge amount with 3 decimals", breaks: (x) => cii_line_ac(x, true, "<ram:ActualAmount>1.001</ram:ActualAmount>" + CII_REASON), holds: (x) => cii_line_ac(x, true, CII_AMOUNT + CII_REASON) },
  { rule: "BR-DEC-28", what: "a line charge base with 3 decimals", breaks: (x) => cii_line_ac(x, true, "<ram:BasisAmount>1.001</ram:BasisAmount>" + CII_AMOUNT + CII_REASON), holds: (x) => cii_line_ac(x, true, CII_AMOUNT + CII_REASON) },
  { rule: "BR-49", what: "a payment means without code", breaks: (x) => edit(x, "<ram:TypeCode>58</ram:TypeCode>", "") },
  { rule: "BR-50", what: "a blank IBAN", breaks: (x) => edit(x, "<ram:IBANID>DE79000000001234567890</ram:IBANID>", "<ram:IBANID> </ram:IBANID>") },
  { rule: "BR-61", what: "a credit transfer account without identifier", breaks: (x) => edit(x, "<ram:IBANID>DE79000000001234567890</ram:IBANID>", "<ram:AccountName>X</ram:AccountName>") },
  {
    rule: "BR-51", what: "a full card number",
    breaks: (x) => before(x, "<ram:PayeePartyCreditorFinancialAccount>", "<ram:ApplicableTradeSettlementFinancialCard><ram:ID>4111111111111111</ram:ID></ram:ApplicableTradeSettlementFinancialCard>"),
    holds: (x) => before(x, "<ram:PayeePartyCreditorFinancialAccount>", "<ram:ApplicableTradeSettlementFinancialCard><ram:ID>1111</ram:ID></ram:ApplicableTradeSettlementFinancialCard>"),
  },
  {
    rule: "BR-52", what: "a supporting document without reference",
    breaks: (x) => before(x, "</ram:ApplicableHeaderTradeAgreement>", "<ram:AdditionalReferencedDocument><ram:TypeCode>916</ram:TypeCode></ram:AdditionalReferencedDocument>"),
    holds: (x) => before(x, "</ram:ApplicableHeaderTradeAgreement>", "<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>doc-1</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode></ram:AdditionalReferencedDocument>"),
  },
  {
    rule: "BR-53", what: "a VAT accounting currency without its VAT total",
    breaks: (x) => after(x, "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>", "<ram:TaxCurrencyCode>SEK</ram:TaxCurrencyCode>"),
    holds: (x) => after(after(x, "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>", "<ram:TaxCurrencyCode>SEK</ram:TaxCurrencyCode>"), '<ram:TaxTotalAmount currencyID="EUR">22.04</ram:TaxTotalAmount>', '<ram:TaxTotalAmount currencyID="SEK">220.40</ram:TaxTotalAmount>'),
  },
  {
    rule: "BR-54", what: "an item attribute without value",
    breaks: (x) => before(x, "<ram:DesignatedProductClassification>", "<ram:ApplicableProductCharacteristic><ram:Description>Colour</ram:Description></ram:ApplicableProductCharacteristic>"),
    holds: (x) => before(x, "<ram:DesignatedProductClassification>", "<ram:ApplicableProductCharacteristic><ram:Description>Colour</ram:Description><ram:Value>Red</ram:Value></ram:ApplicableProductCharacteristic>"),
  },
  {
    rule: "BR-55", what: "a preceding invoice reference without number",
    breaks: (x) => before(x, "<ram:SpecifiedTradeSettlementHeaderMonetarySummation>", "<ram:InvoiceReferencedDocument><ram:IssuerAssignedID> </ram:IssuerAssignedID></ram:InvoiceReferencedDocument>"),
    holds: (x) => before(x, "<ram:SpecifiedTradeSettlementHeaderMonetarySummation>", "<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>INV-0</ram:IssuerAssignedID></ram:InvoiceReferencedDocument>"),
  },
  {
    rule: "BR-57", what: "a deliver-to address without country",
    breaks: (x) => edit(x, "<ram:ApplicableHeaderTradeDelivery/>", "<ram:ApplicableHeaderTradeDelivery><ram:ShipToTradeParty><ram:PostalTradeAddress><ram:CityName>Kiel</ram:CityName></ram:PostalTradeAddress></ram:ShipToTradeParty></ram:ApplicableHeaderTradeDelivery>"),
    holds: (x) => edit(x, "<ram:ApplicableHeaderTradeDelivery/>", "<ram:ApplicableHeaderTradeDelivery><ram:ShipToTradeParty><ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:ShipToTradeParty></ram:ApplicableHeaderTradeDelivery>"),
  },
  { rule: "BR-62", what: "a seller electronic address without scheme", breaks: (x) => edit(x, '<ram:URIID schemeID="EM">seller@email.de', "<ram:URIID>seller@email.de") },
  { rule: "BR-63", what: "a buyer electronic address without scheme", breaks: (x) => edit(x, '<ram:URIID schemeID="EM">buyer@info.de', '<ram:URIID schemeID=" ">buyer@info.de') },
  {
    rule: "BR-64", what: "a standard item id without scheme",
    breaks: (x) => before(x, "<ram:SellerAssignedID>246</ram:SellerAssignedID>", "<ram:GlobalID>4000001123452</ram:GlobalID>"),
    holds: (x) => before(x, "<ram:SellerAssignedID>246</ram:SellerAssignedID>", '<ram:GlobalID schemeID="0160">4000001123452</ram:GlobalID>'),
  },
  { rule: "BR-65", what: "a classification without list id", breaks: (x) => edit(x, ' listID="IB"', "") },
  {
    rule: "BR-CO-03", what: "both a VAT point date and a due date code",
    breaks: (x) => after(x, "<ram:BasisAmount>314.86</ram:BasisAmount>", '<ram:TaxPointDate><udt:DateString format="102">20160404</udt:DateString></ram:TaxPointDate><ram:DueDateTypeCode>5</ram:DueDateTypeCode>'),
    holds: (x) => after(x, "<ram:BasisAmount>314.86</ram:BasisAmount>", "<ram:DueDateTypeCode>5</ram:DueDateTypeCode>"),
  },
  { rule: "BR-CO-04", what: "a line without VAT category code", breaks: (x) => edit(x, "<ram:CategoryCode>S</ram:CategoryCode>", "") },
  { rule: "BR-CO-09", what: "a VAT identifier without country prefix", breaks: (x) => edit(x, ">DE 123456789<", ">123456789<") },
  {
    rule: "BR-CO-26", what: "a seller with no identifier at all",
    breaks: (x) => drop(drop(x, "ram:SpecifiedLegalOrganization"), "ram:SpecifiedTaxRegistration"),
    holds: (x) => drop(x, "ram:SpecifiedTaxRegistration"),
  },
];

describe("EN 16931 mandatory terms and structure (UBL)", () => runSyntaxCases("ubl", ubl));
describe("EN 16931 mandatory terms and structure (CII)", () => runSyntaxCases("cii", cii));
