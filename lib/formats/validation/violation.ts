/**
 * One finding of a validation: which rule, how bad, where in the document.
 * Shared by the XML Schema validator, KSeF's file rules and the EN 16931 rules,
 * so one answer can list all of them.
 * @module
 */

/** `error` refuses an upload; `warning` never does (the EN 16931 artefacts' `fatal` and `warning`). */
export type Severity = "error" | "warning";

/** A rule broken at a place in the document. */
export interface Violation {
  /** `XSD`, `KSEF-FILE`, or the EN 16931 artefacts' own id (`BR-CO-10`, `UBL-SR-01`, …). */
  rule: string;
  severity: Severity;
  /** Element path such as `/Faktura/Fa/P_2`, or an XPath of the element; `/` for the whole file. */
  path: string;
  /** 1-based line and column of the element, `null` when the finding is about the whole file. */
  line: number | null;
  column: number | null;
  message: string;
  /**
   * For an invoice created from JSON (README "Creating invoices"): the JSON path of the value at fault
   * (`invoice.lines[2].net_price`), beside the XML path where it went or would have gone.
   */
  field?: string;
}
