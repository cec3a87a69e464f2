import assert from "node:assert/strict";
import { test } from "node:test";
import { parseFilter } from "../../lib/api/list_query.ts";

/** URLSearchParams that notes the names read from it. */
class Recording extends URLSearchParams {
  read = new Set<string>();
  override get(name: string): string | null {
    this.read.add(name);
    return super.get(name);
  }
  override getAll(name: string): string[] {
    this.read.add(name);
    return super.getAll(name);
  }
  override has(name: string): boolean {
    this.read.add(name);
    return super.has(name);
  }
}

test("parseFilter() looks at every filter it reads when that filter is the only parameter", () => {
  // A request with a filter reads them all: those are the names a request without filters must be checked for.
  const q = new Recording("type=invoice");
  parseFilter(q);
  assert.ok(q.read.size >= 8, [...q.read].join(", "));
  for (const name of q.read) {
    for (const value of ["invoice", "2024-01-01", "true", "x"]) {
      let key: string | null = null;
      try {
        key = parseFilter(new URLSearchParams({ [name]: value })).filterKey;
      } catch {
        continue; // refused: it was read
      }
      assert.notEqual(key, "[]", `${name}=${value} was ignored`);
    }
  }
});
