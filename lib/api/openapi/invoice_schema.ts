/**
 * The JSON Schemas of the `invoice` object (README “The invoice object”), one component per record
 * of lib/formats/invoice/model.ts. The descriptions (each field's EN 16931 business term and/or
 * KSeF element) come from lib/formats/invoice/descriptions.ts, the model's own table; this module
 * adds only the JSON types. Closed objects: the HTTP tests validate every served invoice against
 * them, so the two cannot drift.
 * @module
 */
import { ref, type Json } from "./schemas.ts";
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../../formats/invoice/vocabulary.ts";
import * as D from "../../formats/invoice/descriptions.ts";

const R = D.RECORD_DESCRIPTIONS;

const DECIMAL_PATTERN = "^-?\\d+(\\.\\d+)?$";

function _str(description: string): Json {
  return { type: ["string", "null"], description };
}
function _dec(description: string): Json {
  return { type: ["string", "null"], pattern: DECIMAL_PATTERN, description: `${description}. A decimal string` };
}
function _date(description: string): Json {
  return { type: ["string", "null"], pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: `${description}. YYYY-MM-DD` };
}
function _bool(description: string): Json {
  return { type: "boolean", description };
}
function _nbool(description: string): Json {
  return { type: ["boolean", "null"], description };
}
function _list(items: Json, description: string): Json {
  return { type: "array", items, description };
}
function _strs(description: string): Json {
  return _list({ type: "string" }, description);
}
/** A component that may be null. */
function _ref(name: string, description: string): Json {
  return { oneOf: [ref(name), { type: "null" }], description };
}
function _object(description: string, properties: Record<string, Json>): Json {
  return { type: "object", description, required: Object.keys(properties), additionalProperties: false, properties };
}
function _kv(description: string, fields: { readonly key: string; readonly value: string }): Json {
  return _list(_object(R.attachment_meta, { key: _str(fields.key), value: _str(fields.value) }), description);
}

const CODE = (description: string): Json => _ref("InvoiceCode", description);

const P = D.PARTY_FIELDS;
const PARTY_FIELDS: Record<string, Json> = {
  name: _str(P.name),
  trading_name: _str(P.trading_name),
  tax_id: _ref("InvoiceTaxId", P.tax_id),
  other_tax_ids: _list(ref("InvoiceTaxId"), P.other_tax_ids),
  no_tax_id: _bool(P.no_tax_id),
  identifiers: _list(ref("InvoiceIdentifier"), P.identifiers),
  electronic_address: _ref("InvoiceIdentifier", P.electronic_address),
  registers: _list(ref("InvoiceIdentifier"), P.registers),
  legal_info: _str(P.legal_info),
  address: _ref("InvoiceAddress", P.address),
  correspondence_address: _ref("InvoiceAddress", P.correspondence_address),
  contacts: _list(ref("InvoiceContact"), P.contacts),
  vat_prefix: _str(P.vat_prefix),
  status: CODE(P.status),
  customer_number: _str(P.customer_number),
  supplier_number: _str(P.supplier_number),
  buyer_id: _str(P.buyer_id),
  jst: _nbool(P.jst),
  gv: _nbool(P.gv),
};

const L = D.LINE_FIELDS;
const LINE_FIELDS: Record<string, Json> = {
  number: _str(L.number),
  uu_id: _str(L.uu_id),
  notes: _strs(L.notes),
  object_id: _ref("InvoiceIdentifier", L.object_id),
  order_line_reference: _str(L.order_line_reference),
  accounting_reference: _str(L.accounting_reference),
  period: _ref("InvoicePeriod", L.period),
  delivery_date: _date(L.delivery_date),
  name: _str(L.name),
  description: _str(L.description),
  seller_item_id: _str(L.seller_item_id),
  buyer_item_id: _str(L.buyer_item_id),
  standard_item_id: _ref("InvoiceIdentifier", L.standard_item_id),
  classifications: _list(ref("InvoiceClassification"), L.classifications),
  origin_country: _str(L.origin_country),
  attributes: _list(ref("InvoiceItemAttribute"), L.attributes),
  quantity: _dec(L.quantity),
  unit: _str(L.unit),
  net_price: _dec(L.net_price),
  price_with_vat: _dec(L.price_with_vat),
  price_discount: _dec(L.price_discount),
  list_price: _dec(L.list_price),
  price_base_quantity: _dec(L.price_base_quantity),
  price_base_unit: _str(L.price_base_unit),
  discount: _dec(L.discount),
  net_amount: _dec(L.net_amount),
  amount_with_vat: _dec(L.amount_with_vat),
  vat_amount: _dec(L.vat_amount),
  vat_category: CODE(L.vat_category),
  vat_rate: _str(L.vat_rate),
  vat_rate_text: _str(L.vat_rate_text),
  vat_rate_oss: _dec(L.vat_rate_oss),
  annex_15: _bool(L.annex_15),
  excise_amount: _dec(L.excise_amount),
  gtu: _str(L.gtu),
  procedure: _str(L.procedure),
  quality_class: _str(L.quality_class),
  exchange_rate: _dec(L.exchange_rate),
  before_correction: _bool(L.before_correction),
  parent_number: _str(L.parent_number),
  status_reason: _str(L.status_reason),
  vat_exemption_reason: _str(L.vat_exemption_reason),
  item_seller: _ref("InvoiceParty", L.item_seller),
  allowances_charges: _list(ref("InvoiceAllowanceCharge"), L.allowances_charges),
};

const AT = D.ATTACHMENT_TABLE_FIELDS;
const ATTACHMENT_TABLE: Json = _object(R.attachment_table, {
  meta: _kv(AT.meta, D.ATTACHMENT_TABLE_META_FIELDS),
  description: _str(AT.description),
  columns: _list(_object(R.attachment_column, { type: _str(D.ATTACHMENT_COLUMN_FIELDS.type), name: _str(D.ATTACHMENT_COLUMN_FIELDS.name) }), AT.columns),
  rows: _list({ type: "array", items: { type: "string" } }, AT.rows),
  summary: _strs(AT.summary),
});

const PP = D.PARTIAL_PAYMENT_FIELDS;
const PARTIAL_PAYMENT: Json = _object(R.partial_payment, {
  amount: _dec(PP.amount),
  date: _date(PP.date),
  means: CODE(PP.means),
  exchange_rate: _dec(PP.exchange_rate),
});

/** Obciazenia or Odliczenia rows of KSeF Rozliczenie. */
function _settlementRows(description: string): Json {
  const F = D.SETTLEMENT_ROW_FIELDS;
  return _list(_object(description, { amount: _dec(F.amount), reason: _str(F.reason) }), description);
}

/** Party, line and payment components are built above; the small records here. */
function _basicSchemas(): Record<string, Json> {
  const TX = D.TAX_ID_FIELDS, A = D.ADDRESS_FIELDS, C = D.CONTACT_FIELDS, T3 = D.THIRD_PARTY_FIELDS;
  const PE = D.PERIOD_FIELDS, DE = D.DELIVERY_FIELDS, X = D.EXCHANGE_RATE_FIELDS, AC = D.ALLOWANCE_CHARGE_FIELDS;
  return {
    InvoiceCode: _object(R.code, { code: { type: "string" }, text: _str(D.CODE_FIELDS.text) }),
    InvoiceIdentifier: _object(R.identifier, { value: { type: "string" }, scheme: _str(D.IDENTIFIER_FIELDS.scheme) }),
    InvoiceTaxId: _object(R.tax_id, {
      value: { type: "string", description: TX.value }, country: _str(TX.country), scheme: _str(TX.scheme),
    }),
    InvoiceAddress: _object(R.address, {
      lines: _strs(A.lines), city: _str(A.city), postal_code: _str(A.postal_code), subdivision: _str(A.subdivision),
      country_code: _str(A.country_code), gln: _str(A.gln),
    }),
    InvoiceContact: _object(R.contact, {
      name: _str(C.name), phone: _str(C.phone), email: _str(C.email), fax: _str(C.fax), department: _str(C.department),
    }),
    InvoiceParty: _object(R.party, PARTY_FIELDS),
    InvoiceThirdParty: _object(R.third_party, {
      ...PARTY_FIELDS, role: CODE(T3.role), role_description: _str(T3.role_description), share: _dec(T3.share),
    }),
    InvoicePeriod: _object(R.period, { start: _date(PE.start), end: _date(PE.end), description: _str(PE.description) }),
    InvoiceDelivery: _object(R.delivery, {
      date: _date(DE.date), period: _ref("InvoicePeriod", DE.period), party_name: _str(DE.party_name),
      location_id: _ref("InvoiceIdentifier", DE.location_id), address: _ref("InvoiceAddress", DE.address),
    }),
    InvoiceExchangeRate: _object(R.exchange_rate, {
      applies_to: { type: "string", enum: ["invoice", "line", "advance", "before_correction", "contract"] },
      line_number: _str(X.line_number), from_currency: _str(X.from_currency), to_currency: _str(X.to_currency),
      rate: { type: "string", pattern: DECIMAL_PATTERN }, date: _date(X.date),
    }),
    InvoiceAllowanceCharge: _object(R.allowance_charge, {
      charge: _bool(AC.charge), amount: _dec(AC.amount), base_amount: _dec(AC.base_amount), percentage: _dec(AC.percentage),
      vat_category: CODE(AC.vat_category), vat_rate: _dec(AC.vat_rate), reason: _str(AC.reason), reason_code: CODE(AC.reason_code),
    }),
    InvoiceClassification: _object(R.classification, {
      value: { type: "string" }, scheme: _str(D.CLASSIFICATION_FIELDS.scheme), version: _str(D.CLASSIFICATION_FIELDS.version),
    }),
    InvoiceItemAttribute: _object(R.item_attribute, { name: _str(D.ITEM_ATTRIBUTE_FIELDS.name), value: _str(D.ITEM_ATTRIBUTE_FIELDS.value) }),
    InvoiceLine: _object(R.line, LINE_FIELDS),
  };
}

function _amountSchemas(): Record<string, Json> {
  const V = D.VAT_BREAKDOWN_FIELDS, T = D.TOTALS_FIELDS, S = D.SETTLEMENT_FIELDS, PA = D.PAYMENT_ACCOUNT_FIELDS, DD = D.DUE_DATE_FIELDS;
  return {
    InvoiceVatBreakdown: _object(R.vat_breakdown, {
      category: CODE(V.category), rate: _str(V.rate), taxable_amount: _dec(V.taxable_amount), tax_amount: _dec(V.tax_amount),
      tax_amount_tax_currency: _dec(V.tax_amount_tax_currency), exemption_reason: _str(V.exemption_reason),
      exemption_reason_code: _str(V.exemption_reason_code), tax_scheme: _str(V.tax_scheme),
      line_total_basis_amount: _dec(V.line_total_basis_amount), allowance_charge_basis_amount: _dec(V.allowance_charge_basis_amount),
      ksef_field: _str(V.ksef_field),
    }),
    InvoiceTotals: _object(R.totals, {
      line_net: _dec(T.line_net), allowances: _dec(T.allowances), charges: _dec(T.charges), net: _dec(T.net), tax: _dec(T.tax),
      tax_in_tax_currency: _dec(T.tax_in_tax_currency), net_in_tax_currency: _dec(T.net_in_tax_currency), gross: _dec(T.gross),
      gross_in_tax_currency: _dec(T.gross_in_tax_currency), gross_in_words: _str(T.gross_in_words), prepaid: _dec(T.prepaid),
      rounding: _dec(T.rounding), payable: _dec(T.payable),
    }),
    InvoiceSettlement: _object(R.settlement, {
      charges: _settlementRows(S.charges), charges_total: _dec(S.charges_total),
      deductions: _settlementRows(S.deductions), deductions_total: _dec(S.deductions_total),
      to_pay: _dec(S.to_pay), to_settle: _dec(S.to_settle),
    }),
    InvoicePaymentAccount: _object(R.payment_account, {
      number: _str(PA.number), name: _str(PA.name), bic: _str(PA.bic), bank_name: _str(PA.bank_name),
      description: _str(PA.description), bank_own_account: CODE(PA.bank_own_account), factor: _bool(PA.factor),
      held_by: { type: ["string", "null"], enum: ["seller", "buyer", null], description: PA.held_by },
    }),
    InvoiceDueDate: _object(R.due_date, {
      date: _date(DD.date), description: _str(DD.description), quantity: _str(DD.quantity), unit: _str(DD.unit),
      start_event: _str(DD.start_event),
    }),
    InvoicePartialPayment: PARTIAL_PAYMENT,
  };
}

function _paymentSchema(): Json {
  const PY = D.PAYMENT_FIELDS, CA = D.CARD_FIELDS, DB = D.DIRECT_DEBIT_FIELDS, SK = D.PAYMENT_DISCOUNT_FIELDS;
  return _object(R.payment, {
    means: CODE(PY.means), means_text: _str(PY.means_text), remittance_info: _str(PY.remittance_info), terms: _str(PY.terms),
    due_dates: _list(ref("InvoiceDueDate"), PY.due_dates), accounts: _list(ref("InvoicePaymentAccount"), PY.accounts),
    card: { oneOf: [_object(R.card, { pan: _str(CA.pan), holder: _str(CA.holder) }), { type: "null" }] },
    direct_debit: {
      oneOf: [_object(R.direct_debit, { mandate: _str(DB.mandate), creditor_id: _str(DB.creditor_id), debited_account: _str(DB.debited_account) }), { type: "null" }],
    },
    paid: _bool(PY.paid), paid_date: _date(PY.paid_date),
    partial_status: CODE(PY.partial_status), partial_payments: _list(ref("InvoicePartialPayment"), PY.partial_payments),
    discount: { oneOf: [_object(R.payment_discount, { conditions: _str(SK.conditions), amount: _str(SK.amount) }), { type: "null" }] },
    link: _str(PY.link), ksef_payment_id: _str(PY.ksef_payment_id),
    proof_documents: _list(
      _object(R.proof_document, { number: _str(D.PROOF_DOCUMENT_FIELDS.number), date: _date(D.PROOF_DOCUMENT_FIELDS.date) }),
      PY.proof_documents,
    ),
  });
}

function _referenceSchemas(): Record<string, Json> {
  const IR = D.INVOICE_REFERENCE_FIELDS, RF = D.REFERENCES_FIELDS, AI = D.ADVANCE_INVOICE_FIELDS, CO = D.CORRECTION_FIELDS;
  return {
    InvoiceReference: _object(R.invoice_reference, {
      number: _str(IR.number), issue_date: _date(IR.issue_date), ksef_number: _str(IR.ksef_number), in_ksef: _nbool(IR.in_ksef),
    }),
    InvoiceReferences: _object(R.references, {
      buyer_reference: _str(RF.buyer_reference), project: _str(RF.project), contract: _str(RF.contract), order: _str(RF.order),
      sales_order: _str(RF.sales_order), receiving_advice: _str(RF.receiving_advice), despatch_advice: _str(RF.despatch_advice),
      tender: _str(RF.tender), invoiced_object: _ref("InvoiceIdentifier", RF.invoiced_object),
      accounting_reference: _str(RF.accounting_reference),
      preceding_invoices: _list(ref("InvoiceReference"), RF.preceding_invoices),
      advance_invoices: _list(_object(R.advance_invoice, { number: _str(AI.number), ksef_number: _str(AI.ksef_number) }), RF.advance_invoices),
      delivery_notes: _strs(RF.delivery_notes),
    }),
    InvoiceCorrection: _object(R.correction, {
      reason: _str(CO.reason), type: CODE(CO.type), corrected_number: _str(CO.corrected_number), period: _str(CO.period),
      seller_before: _ref("InvoiceParty", CO.seller_before), buyers_before: _list(ref("InvoiceParty"), CO.buyers_before),
      amount_before: _dec(CO.amount_before), exchange_rate_before: _dec(CO.exchange_rate_before),
    }),
    InvoiceNote: _object(R.note, { subject_code: _str(D.NOTE_FIELDS.subject_code), text: { type: "string", description: D.NOTE_FIELDS.text } }),
  };
}

function _annotationsSchema(): Json {
  const AN = D.ANNOTATIONS_FIELDS, EX = D.EXEMPTION_FIELDS, NT = D.NEW_TRANSPORT_FIELDS, NV = D.NEW_VEHICLE_FIELDS, M = D.MARGIN_FIELDS;
  return _object(R.annotations, {
    cash_accounting: _bool(AN.cash_accounting), self_billing: _bool(AN.self_billing),
    reverse_charge: _bool(AN.reverse_charge), split_payment: _bool(AN.split_payment),
    exemption: _object(R.exemption, { applies: _bool(EX.applies), act: _str(EX.act), directive: _str(EX.directive), other: _str(EX.other) }),
    new_transport: _object(R.new_transport, {
      applies: _bool(NT.applies), art_42_5: _bool(NT.art_42_5),
      vehicles: _list(_object(R.new_vehicle, {
        first_use_date: _date(NV.first_use_date), line_number: _str(NV.line_number), make: _str(NV.make), model: _str(NV.model),
        colour: _str(NV.colour), registration: _str(NV.registration), year: _str(NV.year),
        usage: _list(_object(R.vehicle_usage, { field: { type: "string" }, value: { type: "string" } }), NV.usage),
      }), NT.vehicles),
    }),
    triangular: _bool(AN.triangular),
    margin: _object(R.margin, { applies: _bool(M.applies), scheme: CODE(M.scheme) }),
  });
}

function _ksefSchemas(): Record<string, Json> {
  const AD = D.ADDITIONAL_INFO_FIELDS, TR = D.TRANSPORT_FIELDS, TT = D.TRANSACTION_TERMS_FIELDS, CT = D.CONTRACT_FIELDS, OR = D.ORDER_REF_FIELDS;
  const AT = D.ATTACHMENT_FIELDS, RG = D.REGISTERS_FIELDS;
  return {
    InvoiceAnnotations: _annotationsSchema(),
    InvoiceAdditionalInfo: _object(R.additional_info, { line_number: _str(AD.line_number), key: _str(AD.key), value: _str(AD.value) }),
    InvoiceTransport: _object(R.transport, {
      kind: CODE(TR.kind), kind_description: _str(TR.kind_description), carrier: _ref("InvoiceParty", TR.carrier),
      order_number: _str(TR.order_number), cargo: CODE(TR.cargo), cargo_description: _str(TR.cargo_description),
      packaging: _str(TR.packaging), start: _str(TR.start), end: _str(TR.end),
      from: _ref("InvoiceAddress", TR.from), via: _list(ref("InvoiceAddress"), TR.via), to: _ref("InvoiceAddress", TR.to),
    }),
    InvoiceTransactionTerms: _object(R.transaction_terms, {
      contracts: _list(_object(R.contract, { date: _date(CT.date), number: _str(CT.number) }), TT.contracts),
      orders: _list(_object(R.order_ref, { date: _date(OR.date), number: _str(OR.number) }), TT.orders),
      batch_numbers: _strs(TT.batch_numbers), delivery_terms: _str(TT.delivery_terms),
      contract_rate: _dec(TT.contract_rate), contract_currency: _str(TT.contract_currency),
      transports: _list(ref("InvoiceTransport"), TT.transports), intermediary: _bool(TT.intermediary),
    }),
    InvoiceOrder: _object(R.order, { value: _dec(D.ORDER_FIELDS.value), lines: _list(ref("InvoiceLine"), D.ORDER_FIELDS.lines) }),
    InvoiceAttachmentTable: ATTACHMENT_TABLE,
    InvoiceAttachment: _object(R.attachment, {
      id: _str(AT.id), description: _str(AT.description), url: _str(AT.url), filename: _str(AT.filename),
      mime_code: _str(AT.mime_code), meta: _kv(AT.meta, D.ATTACHMENT_META_FIELDS), paragraphs: _strs(AT.paragraphs),
      tables: _list(ref("InvoiceAttachmentTable"), AT.tables),
    }),
    InvoiceRegisters: _object(R.registers, { full_name: _str(RG.full_name), krs: _str(RG.krs), regon: _str(RG.regon), bdo: _str(RG.bdo) }),
  };
}

function _invoiceSchema(): Json {
  const I = D.INVOICE_FIELDS, MK = D.MARKERS_FIELDS;
  return _object(R.invoice, {
    format: { type: "string", enum: [...INVOICE_FORMATS] },
    profile: _str(I.profile), business_process: _str(I.business_process),
    type: { type: "string", enum: [...DOCUMENT_TYPES] },
    kind: CODE(I.kind),
    number: _str(I.number), issue_date: _date(I.issue_date), issue_place: _str(I.issue_place),
    tax_point_date: _date(I.tax_point_date), tax_point_date_code: _str(I.tax_point_date_code),
    created_at: _str(I.created_at), system_info: _str(I.system_info),
    delivery: _ref("InvoiceDelivery", I.delivery),
    currency: _str(I.currency), tax_currency: _str(I.tax_currency),
    exchange_rates: _list(ref("InvoiceExchangeRate"), I.exchange_rates),
    seller: { ...ref("InvoiceParty"), description: I.seller },
    buyer: { ...ref("InvoiceParty"), description: I.buyer },
    payee: _ref("InvoiceParty", I.payee), tax_representative: _ref("InvoiceParty", I.tax_representative),
    third_parties: _list(ref("InvoiceThirdParty"), I.third_parties),
    authorized_party: _ref("InvoiceThirdParty", I.authorized_party),
    lines: _list(ref("InvoiceLine"), I.lines),
    allowances_charges: _list(ref("InvoiceAllowanceCharge"), I.allowances_charges),
    vat_breakdown: _list(ref("InvoiceVatBreakdown"), I.vat_breakdown),
    totals: { ...ref("InvoiceTotals"), description: I.totals },
    settlement: _ref("InvoiceSettlement", I.settlement), payment: _ref("InvoicePayment", I.payment),
    advance_payments: _list(ref("InvoicePartialPayment"), I.advance_payments),
    references: { ...ref("InvoiceReferences"), description: I.references },
    correction: _ref("InvoiceCorrection", I.correction),
    notes: _list(ref("InvoiceNote"), I.notes), annotations: _ref("InvoiceAnnotations", I.annotations),
    additional_info: _list(ref("InvoiceAdditionalInfo"), I.additional_info),
    transaction_terms: _ref("InvoiceTransactionTerms", I.transaction_terms),
    orders: _list(ref("InvoiceOrder"), I.orders),
    attachments: _list(ref("InvoiceAttachment"), I.attachments),
    registers: _list(ref("InvoiceRegisters"), I.registers), footer: _strs(I.footer),
    markers: { oneOf: [_object(R.markers, {
      receipt_invoice: _bool(MK.receipt_invoice), related_parties: _bool(MK.related_parties), excise_refund: _bool(MK.excise_refund),
    }), { type: "null" }] },
  });
}

/** The `components.schemas` entries of the invoice object, as answered and (`…Input`) as a request gives it. */
export function invoiceSchemas(): Record<string, Json> {
  const answered: Record<string, Json> = {
    ..._basicSchemas(), ..._amountSchemas(), InvoicePayment: _paymentSchema(), ..._referenceSchemas(),
    ..._ksefSchemas(), Invoice: _invoiceSchema(),
  };
  const input: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(answered)) input[`${name}Input`] = _asInput(schema) as Json;
  return { ...answered, ...input };
}

/**
 * A schema as a request may give it (README "Creating invoices"): no field required (an absent value is null, an
 * absent list empty, an absent flag false), references to the input forms. The answer's schemas stay exact.
 */
function _asInput(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(_asInput);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "required") continue;
    out[k] = k === "$ref" && typeof v === "string" ? `${v}Input` : _asInput(v);
  }
  return out;
}
