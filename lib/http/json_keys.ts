/**
 * Finds a key given twice in one object of a JSON text. `JSON.parse` keeps the last of duplicate keys
 * silently (RFC 8259 §4 leaves duplicates to the parser), so `{"status": "disabled", "status": "enabled"}`
 * would mean whatever the last one says while a proxy or log reader may see the first: a request body with
 * a duplicate key is refused instead. Runs over text that `JSON.parse` has already accepted.
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** The first key that appears twice in one object of valid JSON `text` (decoded), or null. */
export function duplicateJsonKey(text: string): string | null {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(start, i + 1)) as string; // escapes decoded: "a" and "\u0061" are one key
        if (keys.has(key)) return key;
        keys.add(key);
      }
      expectKey = false;
    } else if (c === OPEN_OBJECT) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      stack.push(null);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
    } else if (c === COMMA) {
      expectKey = stack[stack.length - 1] != null;
    } else if (c === COLON) {
      expectKey = false;
    }
  }
  return null;
}
