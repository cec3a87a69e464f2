import assert from "node:assert/strict";
import { test } from "node:test";
import { checkKsefFile, KSEF_MAX_BYTES, KSEF_MAX_BYTES_WITH_ATTACHMENTS } from "../../../lib/formats/validation/ksef_file.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const rules = (bytes: Uint8Array, encoding = "utf-8", attachments = false) => checkKsefFile(bytes, encoding, attachments).map((v) => `${v.line ?? "-"}:${v.column ?? "-"} ${v.message}`);

test("checkKsefFile() accepts UTF-8 without a BOM, with a declaration, comments and CDATA", () => {
  assert.deepEqual(rules(enc('<?xml version="1.0" encoding="UTF-8"?>\n<!-- <?not-a-pi?> -->\n<a><![CDATA[<?x?>]]></a>')), []);
  assert.deepEqual(rules(enc("<a/>")), []);
});

test("checkKsefFile() refuses a byte-order mark", () => {
  const found = rules(new Uint8Array([0xef, 0xbb, 0xbf, ...enc("<a/>")]));
  assert.equal(found.length, 1);
  assert.match(found[0]!, /byte-order mark/);
});

test("checkKsefFile() refuses another encoding", () => {
  assert.match(rules(enc("<a/>"), "iso-8859-2")[0]!, /iso-8859-2.*UTF-8/);
});

test("checkKsefFile() refuses processing instructions, with their line and column (the parser drops them)", () => {
  const found = rules(enc('<?xml version="1.0"?>\n<!-- one\ntwo -->\n<a>\n  <?xml-stylesheet href="x"?></a>'));
  assert.deepEqual(found, ["5:3 The file contains a processing instruction; KSeF allows none besides the XML declaration"]);
  assert.equal(rules(enc("<?pi?><a/>")).length, 1, "a PI first is not the declaration");
  assert.equal(rules(enc('<a/><?xml-stylesheet href="x"?>')).length, 1);
  assert.deepEqual(rules(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('<?xml-stylesheet href="x"?><a>?</a>')])).slice(1), ["1:4 The file contains a processing instruction; KSeF allows none besides the XML declaration"], "after a BOM, a PI that is not the declaration");
  assert.deepEqual(rules(enc('<?xml version="1.0"?><a b="?">?<!-- ? --></a>')), [], "question marks outside `<?` are no instruction");
});

test("checkKsefFile() limits the size: 1,000,000 bytes, 3,000,000 with attachments", () => {
  const at = (n: number) => enc(`<a>${"x".repeat(n - 7)}</a>`);
  assert.deepEqual(rules(at(KSEF_MAX_BYTES)), []);
  assert.match(rules(at(KSEF_MAX_BYTES + 1))[0]!, /1000001 bytes; KSeF accepts at most 1000000/);
  assert.deepEqual(rules(at(KSEF_MAX_BYTES + 1), "utf-8", true), []);
  assert.match(rules(at(KSEF_MAX_BYTES_WITH_ATTACHMENTS + 1), "utf-8", true)[0]!, /with attachments/);
});
