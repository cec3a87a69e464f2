/**
 * A code list as the EN 16931 rules use it: a title for messages and the set of codes.
 * The lists themselves are the sibling modules, one per code list, with the codes exactly as the
 * CEN/TC 434 validation artefacts 1.3.16 carry them (ConnectingEurope/eInvoicing-EN16931 @ b6c9e06a5981,
 * `{ubl,cii}/schematron/preprocessed/`, EUPL-1.2); the tests compare them with the artefacts when at hand.
 * @module
 */

/** A named set of codes. */
export interface CodeList {
  /** What a code of this list is, for messages ("ISO 4217 alpha-3 currency code"). */
  readonly title: string;
  readonly codes: ReadonlySet<string>;
}

/** Builds a code list from its codes written one after another, separated by single spaces. */
export function codeList(title: string, codes: string): CodeList {
  return { title, codes: new Set(codes.split(" ")) };
}
