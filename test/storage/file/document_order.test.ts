import assert from "node:assert/strict";
import { test } from "node:test";
import { BLOCK_BITS, CODE_SPACE, DocumentOrder } from "../../../storage/file/document_order.ts";
import { createRandom } from "../../support/random.ts";

test("DocumentOrder counts and cursors skip blocks exactly as a walk of every rank would", () => {
  const rand = createRandom(5);
  const n = (3 << BLOCK_BITS) + 123; // blocks, and a partial one at the end
  const ords = Uint32Array.from({ length: n }, (_, i) => (i * 7919) % n); // a permutation
  const codeOf = Uint8Array.from({ length: n }, () => (rand() < 0.9 ? 0 : 1 + Math.floor(rand() * (CODE_SPACE - 1))));
  const order = new DocumentOrder({ ords, codeOf, groupsOf: [], nullFrom: n });
  const killed = new Set<number>();
  for (let i = 0; i < 300; i++) {
    const o = Math.floor(rand() * n);
    order.kill(o);
    killed.add(o);
  }
  const live = (r: number): boolean => !killed.has(ords[r]!);
  for (let trial = 0; trial < 60; trial++) {
    const mask = new Uint8Array(CODE_SPACE + 1);
    const codes: number[] = [];
    for (let c = 0; c < CODE_SPACE; c++) if (rand() < (trial % 3 === 0 ? 0.05 : 0.5)) (mask[c] = 1, codes.push(c));
    const a = Math.floor(rand() * n), b = Math.floor(rand() * n);
    const seg = { from: Math.min(a, b), to: Math.max(a, b), desc: rand() < 0.5 };
    const expected: number[] = [];
    for (let r = seg.from; r < seg.to; r++) if (live(r) && mask[codeOf[ords[r]!]!]) expected.push(r);
    if (seg.desc) expected.reverse();
    assert.equal(order.count(seg.from, seg.to, mask, codes), expected.length);
    const k = Math.floor(rand() * (expected.length + 2));
    const cursor = order.cursor(seg, k, mask, codes);
    const got: number[] = [];
    for (let r = cursor(); r >= 0 && got.length < 40; r = cursor()) got.push(r);
    assert.deepEqual(got, expected.slice(k, k + 40), `trial ${trial}`);
  }
  const all = new Uint8Array(CODE_SPACE + 1).fill(1);
  all[CODE_SPACE] = 0;
  assert.equal(order.countAll(all), n - killed.size);
});
