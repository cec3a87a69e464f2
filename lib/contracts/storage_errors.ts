/**
 * How a storage backend says "unavailable, try again later" rather than "bug":
 * it throws StorageUnavailableError (README, "Writing a storage adapter or a
 * document source"). Which of its own failures mean that (a full disk, a
 * database restarting) is the backend's knowledge, not the core's: the core
 * only answers 503 SERVICE_UNAVAILABLE with Retry-After for this class.
 * @module
 */

/** Storage cannot serve now (disk full, database gone); `code` is the backend's own (e.g. `ENOSPC`, `57P01`), for the log. */
export class StorageUnavailableError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageUnavailableError";
    this.code = code;
  }
}

/** The code of an unavailable-storage error, or null when `e` is something else. */
export function storageUnavailableCode(e: unknown): string | null {
  return e instanceof StorageUnavailableError ? e.code : null;
}

/**
 * `target` with every method's failures that `classify` recognises (it returns their code) rethrown as
 * StorageUnavailableError, the original as its cause. Each method of its class gets a wrapper once, an own
 * property of `target` (no Proxy, whose trap every call would pass through) that runs the class's method of
 * the moment on `target` itself, so #private fields work. Accessors are left as they are.
 */
export function signalUnavailable<T extends object>(target: T, classify: (e: unknown) => string | null): T {
  const rethrow = (e: unknown): never => {
    const code = e instanceof StorageUnavailableError ? null : classify(e);
    throw code === null ? e : new StorageUnavailableError(code, (e as Error).message ?? String(e), { cause: e });
  };
  for (let proto = Object.getPrototypeOf(target) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    const methods = proto as Record<string, (...a: unknown[]) => unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === "constructor" || typeof Object.getOwnPropertyDescriptor(proto, name)!.value !== "function" || Object.hasOwn(target, name)) continue;
      const wrapper = (...args: unknown[]): unknown => {
        try {
          const r = methods[name]!.apply(target, args); // looked up per call: a method replaced later is the one run
          return r instanceof Promise ? r.catch(rethrow) : r;
        } catch (e) {
          return rethrow(e);
        }
      };
      Object.defineProperty(target, name, { value: wrapper, writable: true, configurable: true, enumerable: false });
    }
  }
  return target;
}
