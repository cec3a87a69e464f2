/**
 * A code list as the EN 16931 rules use it: a title for messages and the set of codes.
 * The lists themselves are the sibling modules, one per code list, taken from the CEN/TC 434 artefacts.
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
