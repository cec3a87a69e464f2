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
 * StorageUnavailableError, the original as its cause. Methods run on `target` itself, so #private fields work;
 * wrapped methods are made once per method.
 */
export function signalUnavailable<T extends object>(target: T, classify: (e: unknown) => string | null): T {
  const rethrow = (e: unknown): never => {
    const code = e instanceof StorageUnavailableError ? null : classify(e);
    throw code === null ? e : new StorageUnavailableError(code, (e as Error).message ?? String(e), { cause: e });
  };
  const wrapped = new Map<PropertyKey, { method: unknown; wrapper: unknown }>();
  return new Proxy(target, {
    get(t, name) {
      const value: unknown = Reflect.get(t, name, t);
      if (typeof value !== "function") return value;
      let w = wrapped.get(name);
      if (w?.method !== value) {
        const method = value as (...args: unknown[]) => unknown;
        const wrapper = (...args: unknown[]): unknown => {
          try {
            const r = method.apply(t, args);
            return r instanceof Promise ? r.catch(rethrow) : r;
          } catch (e) {
            return rethrow(e);
          }
        };
        wrapped.set(name, (w = { method, wrapper }));
      }
      return w.wrapper;
    },
  });
}
