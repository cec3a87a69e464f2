/**
 * The storage contract suite (test/support/storage_contract.ts, README "Writing a storage adapter or a document
 * source") calls every method of `Storage`, `TokenStore` and `TenantStore`: it runs against a memory store whose
 * calls are recorded, and the methods it never called are listed. The methods come from a real store's prototypes,
 * so a method added to the contract (which the memory store must then implement) shows up here at once.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Storage, TenantStore, TokenStore } from "../../lib/contracts/storage.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { storageContract } from "../support/storage_contract.ts";

/** The method names of an object: those of its own and of its classes, as `Prefix.name`. */
function methodsOf(prefix: string, o: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = o; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const key of Object.getOwnPropertyNames(p)) {
      if (key !== "constructor" && typeof (o as Record<string, unknown>)[key] === "function") names.add(`${prefix}.${key}`);
    }
  }
  return [...names].sort();
}

/** `o` with each method call recorded in `called` as `Prefix.name`; `wrapResult` wraps what a method returns. */
function recorded<T extends object>(prefix: string, o: T, called: Set<string>, wrapResult?: (key: string, value: unknown) => unknown): T {
  return new Proxy(o, {
    get(target, key) {
      // Read and called on the target itself: its #private fields are not reachable through a proxy.
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args: unknown[]) => {
        called.add(`${prefix}.${key}`);
        const out: unknown = value.apply(target, args);
        return wrapResult ? wrapResult(key, out) : out;
      };
    },
  });
}

/** A storage whose calls (and those of its token store and tenant stores) are recorded in `called`. */
function recordedStorage(storage: Storage, called: Set<string>): Storage {
  const tokens = recorded<TokenStore>("TokenStore", storage.tokens, called);
  const wrapped = recorded("Storage", storage, called, (key, out) => (key === "tenant" ? recorded("TenantStore", out as TenantStore, called) : out));
  return new Proxy(wrapped, { get: (target, key) => (key === "tokens" ? tokens : Reflect.get(target, key)) });
}

const called = new Set<string>();
storageContract("memory, calls recorded", async () => recordedStorage(new MemoryStorage(), called));

test("the storage contract suite calls every method of Storage, TokenStore and TenantStore", () => {
  const store = new MemoryStorage();
  const methods = [...methodsOf("Storage", store), ...methodsOf("TokenStore", store.tokens), ...methodsOf("TenantStore", store.tenant("acme"))];
  assert.ok(methods.includes("TenantStore.upsertDocument") && methods.includes("Storage.close"), "the methods are found");
  assert.deepEqual(methods.filter((m) => !called.has(m)), [], "methods the contract suite never calls");
});
