/**
 * KoSIT's XMute expectations, applied to the text of a test instance: each `<?xmute …?>` processing
 * instruction names a mutation of the element after it and the schematron rules the mutated document
 * must pass or fail. Mutators: identity, empty (no content), remove, code (each of `values`, in the text
 * or in `attribute`). Instructions inside comments are KoSIT's switched-off cases and are skipped.
 */

/** One mutated document and what it must show. */
export interface XmuteCase {
  id: string;
  xml: string;
  /** Rule ids that must not fire (`schematron-valid`) and that must fire (`schematron-invalid`). */
  valid: string[];
  invalid: string[];
}

function _attr(data: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(data);
  return m === null ? null : (m[1] as string);
}

function _rules(list: string | null): string[] {
  return list === null ? [] : list.split(/[\s,]+/).map((x) => x.trim().replace(/^[a-z]+:/, "")).filter((x) => x !== "");
}

/** The element starting at `start` (a `<`): the end of its start tag and of the whole element. */
function _extent(xml: string, start: number): { tagEnd: number; end: number } {
  const tagEnd = xml.indexOf(">", start) + 1;
  if (xml[tagEnd - 2] === "/") return { tagEnd, end: tagEnd };
  let depth = 1;
  const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<(\/?)[^\s>/]+[^>]*?(\/?)>/g;
  re.lastIndex = tagEnd;
  for (let m = re.exec(xml); m !== null; m = re.exec(xml)) {
    if (m[0].startsWith("<!--") || m[0].startsWith("<?") || m[0].startsWith("<![")) continue;
    if (m[1] === "/") depth--;
    else if (m[2] !== "/") depth++;
    if (depth === 0) return { tagEnd, end: m.index + m[0].length };
  }
  throw new Error("Cannot find the end of the element");
}

/** Every case the instance declares. */
export function xmuteCases(xml: string): XmuteCase[] {
  const comments: [number, number][] = [];
  for (const m of xml.matchAll(/<!--[\s\S]*?-->/g)) comments.push([m.index, m.index + m[0].length]);
  const inComment = (i: number) => comments.some(([a, b]) => i >= a && i < b);
  const cases: XmuteCase[] = [];
  const strip = (s: string) => s.replace(/<\?xmute[\s\S]*?\?>/g, "");
  for (const m of xml.matchAll(/<\?xmute([\s\S]*?)\?>/g)) {
    if (inComment(m.index)) continue;
    const data = m[1] as string;
    const mutator = _attr(data, "mutator");
    const id = _attr(data, "id") ?? `at ${m.index}`;
    const valid = _rules(_attr(data, "schematron-valid"));
    const invalid = _rules(_attr(data, "schematron-invalid"));
    // The target: the next element start tag after the instruction (skipping other instructions and comments).
    const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<[^!?/]/g;
    re.lastIndex = m.index + m[0].length;
    let start = -1;
    for (let t = re.exec(xml); t !== null; t = re.exec(xml)) {
      if (t[0].startsWith("<!--") || t[0].startsWith("<?")) continue;
      start = t.index;
      break;
    }
    if (start < 0) throw new Error(`xmute ${id}: no element follows`);
    const { tagEnd, end } = _extent(xml, start);
    const variants: string[] = [];
    if (mutator === "identity") variants.push(xml);
    else if (mutator === "remove") variants.push(xml.slice(0, start) + xml.slice(end));
    else if (mutator === "empty") {
      const attribute = _attr(data, "attribute");
      if (attribute !== null) variants.push(xml.slice(0, start) + xml.slice(start, tagEnd).replace(new RegExp(`(\\s${attribute}=")[^"]*"`), '$1"') + xml.slice(tagEnd));
      else {
        const open = xml.slice(start, tagEnd);
        const name = /^<([^\s>/]+)/.exec(open)?.[1] as string;
        const selfClosing = open.endsWith("/>");
        variants.push(xml.slice(0, start) + (selfClosing ? open : `${open}</${name}>`) + xml.slice(end));
      }
    } else if (mutator === "code") {
      const separator = _attr(data, "separator") ?? ",";
      const values = (_attr(data, "values") ?? "").split(separator).map((v) => v.trim());
      const attribute = _attr(data, "attribute");
      const open = xml.slice(start, tagEnd);
      const name = /^<([^\s>/]+)/.exec(open)?.[1] as string;
      for (const v of values) {
        const escaped = v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
        if (attribute !== null) {
          const re = new RegExp(`(\\s${attribute}=")[^"]*"`);
          const next = re.test(open) ? open.replace(re, `$1${escaped}"`) : open.replace(/(\/?>)$/, ` ${attribute}="${escaped}"$1`);
          variants.push(xml.slice(0, start) + next + xml.slice(tagEnd));
        } else {
          const openTag = open.endsWith("/>") ? `${open.slice(0, -2)}>` : open;
          variants.push(xml.slice(0, start) + `${openTag}${escaped}</${name}>` + xml.slice(end));
        }
      }
    } else throw new Error(`xmute ${id}: unknown mutator ${mutator}`);
    variants.forEach((v, i) => cases.push({ id: variants.length > 1 ? `${id} [${i + 1}]` : id, xml: strip(v), valid, invalid }));
  }
  return cases;
}
