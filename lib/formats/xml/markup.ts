/**
 * The markup that starts with `<!` (XML 1.0 §2.5 comments, §2.7 CDATA sections,
 * §2.8 document type declarations): a comment is skipped, a CDATA section's
 * extent is found, and a DOCTYPE is refused (no DTDs: no entities, no external
 * references). Elements, attributes and PIs are the reader's.
 * @module
 */
import { xmlErrorAt } from "./errors.ts";

const GT = 62;

/** Where `<!…` markup at `lt` ends, and for a CDATA section where its text ends (else -1). */
export function scanBangMarkup(s: string, lt: number, start: number, inElement: boolean): { end: number; cdataEnd: number } {
  if (s.startsWith("<!--", lt)) {
    // §2.5: '--' may appear only in the closing '-->'.
    const end = s.indexOf("--", lt + 4);
    if (end < 0 || end + 2 >= s.length) throw xmlErrorAt(s, lt, "Unterminated comment", start);
    if (s.charCodeAt(end + 2) !== GT) throw xmlErrorAt(s, end, "'--' is not allowed inside a comment", start);
    return { end: end + 3, cdataEnd: -1 };
  }
  if (s.startsWith("<![CDATA[", lt)) {
    if (!inElement) throw xmlErrorAt(s, lt, "CDATA section outside the root element", start);
    const end = s.indexOf("]]>", lt + 9);
    if (end < 0) throw xmlErrorAt(s, lt, "Unterminated CDATA section", start);
    return { end: end + 3, cdataEnd: end };
  }
  if (s.startsWith("<!DOCTYPE", lt)) {
    throw xmlErrorAt(s, lt, "DOCTYPE is not allowed: documents with a DTD are refused (no entity declarations, no external references)", start);
  }
  throw xmlErrorAt(s, lt, "Expected a comment or a CDATA section after '<!'", start);
}
