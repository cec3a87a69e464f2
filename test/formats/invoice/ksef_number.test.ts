import { test } from "node:test";
import assert from "node:assert/strict";
import { formatKsefNumber, isKsefNumber, ksefChecksum } from "../../../lib/formats/invoice/ksef_number.ts";

test("ksefChecksum() gives the checksum of the example in KSeF's guide", () => {
  assert.equal(ksefChecksum("5265877635-20250826-0100001AF629"), "AF");
});

test("isKsefNumber() accepts well-formed numbers and refuses the rest", () => {
  const good = formatKsefNumber("5260250274", "20261120", "0100001af629");
  for (const { what, input, expected } of [
    { what: "the guide's example", input: "5265877635-20250826-0100001AF629-AF", expected: true },
    { what: "a built number", input: good, expected: true },
    { what: "a wrong checksum", input: "5265877635-20250826-0100001AF629-AE", expected: false },
    { what: "lower-case hex", input: "5265877635-20250826-0100001af629-AF", expected: false },
    { what: "one character short", input: "5265877635-20250826-0100001AF62-AF", expected: false },
    { what: "a path", input: "../../etc/passwd-20250826-0100001A-AF", expected: false },
    { what: "empty", input: "", expected: false },
  ]) assert.equal(isKsefNumber(input), expected, what);
});
