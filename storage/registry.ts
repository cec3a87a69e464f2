/**
 * What the process can open by name: the storage backend that DATABASE_URL's
 * scheme names (none: the file store in DATA_DIR), and the document source
 * types that `sources.json` entries name by `type`. The one place that knows
 * every implementation; a new backend or source type is one entry here
 * (README, "Writing a storage adapter or a document source"). Anything not
 * listed is refused at startup with the list of what is.
 * @module
 */
import { join } from "node:path";
import { SourceError, type DocumentSource, type SourceType } from "../lib/contracts/document_source.ts";
import type { Storage } from "../lib/contracts/storage.ts";
import { FileStorage } from "./file/store.ts";
import { PostgresStorage, type PgPool } from "./postgres/store.ts";
import { httpSource, parseHttpSourceConfig, type HttpSourceConfig } from "./sources/http.ts";
import { ksefQrEnvironmentOf, parseKsefSourceConfig, type KsefSourceConfig } from "./ksef/connection/config.ts";
import { KSEF_ERROR } from "./ksef/connection/errors.ts";
import { ksefSource } from "./ksef/receive/source.ts";
import { configuredSignIn } from "./ksef/connection/sign_in_choice.ts";
import { CredentialsError } from "./ksef/connection/credentials.ts";
import { SignerLoading } from "./ksef/connection/signer_cache.ts";
import { readSourcesFile } from "./sources/sources_file.ts";

const PG_POOL_SIZE = 10; // connections per process: requests are short, and PostgreSQL's default limit is 100

/** Where storage is and how the process uses it. */
export interface StorageOptions {
  /** The data directory (the file store's root when there is no URL). */
  dataDir: string;
  /** DATABASE_URL, or null for the file store. */
  databaseUrl: string | null;
  /** Several processes share the storage (WORKERS > 1). */
  shared: boolean;
}

/** Opens a backend from its URL. */
export type StorageOpener = (url: string, options: StorageOptions) => Promise<Storage>;

/**
 * PostgreSQL: the driver `pg` is loaded only here and only then (the project does not depend on it), and the
 * store is given its pool.
 */
const _openPostgres: StorageOpener = async (url) => {
  let pg: { default: { Pool: new (options: { connectionString: string; max?: number }) => PgPool } };
  try {
    pg = (await import("pg" as string)) as typeof pg;
  } catch {
    throw new RangeError("DATABASE_URL is set but the PostgreSQL driver is missing: run `npm install pg` next to server.ts");
  }
  return PostgresStorage.open(new pg.default.Pool({ connectionString: url, max: PG_POOL_SIZE }));
};

/** Storage backends by DATABASE_URL scheme (libpq accepts both spellings of PostgreSQL's). */
export const STORAGE_SCHEMES: Readonly<Record<string, StorageOpener>> = {
  "postgres:": _openPostgres,
  "postgresql:": _openPostgres,
};

/** The storage the options name: the backend of DATABASE_URL's scheme, else the file store in the data directory. */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (!options.databaseUrl) return new FileStorage(options.dataDir, { shared: options.shared });
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(options.databaseUrl)?.[0].toLowerCase() ?? "";
  const open = Object.hasOwn(STORAGE_SCHEMES, scheme) ? STORAGE_SCHEMES[scheme] : undefined;
  // The URL is not echoed: it may hold a password.
  if (!open) throw new RangeError(`DATABASE_URL has ${scheme ? `the scheme ${scheme}` : "no scheme"}, which no storage backend serves (known: ${Object.keys(STORAGE_SCHEMES).join(", ")})`);
  return open(options.databaseUrl, options);
}

/** A source type from its parser and its constructor (typed together, so each entry's config fits its source). */
function _sourceType<C extends { name: string }>(t: SourceType<C>): SourceType<{ name: string }> {
  return t as unknown as SourceType<{ name: string }>;
}

/** Document source types by the `type` of their `sources.json` entries; each checks its own fields. */
export const SOURCE_TYPES: Readonly<Record<string, SourceType<{ name: string }>>> = {
  http: _sourceType<HttpSourceConfig>({
    parse: parseHttpSourceConfig,
    create: (c, { stateDir, uploadLimit }) => httpSource({ ...c, positionFile: join(stateDir, `${c.name}.cursor`), maxXmlBytes: uploadLimit }),
  }),
  ksef: _sourceType<KsefSourceConfig>({
    parse: parseKsefSourceConfig,
    // A certificate sign-in's files are read (and checked: dates, key, passphrase) here, at startup and on every re-read.
    create: (c, { stateDir, configDir }) => ksefSource({ ...c, ...configuredSignIn(c, configDir ?? "."), stateFile: join(stateDir, `${c.name}.ksef.json`) }),
  }),
};

/**
 * The sources of `<data>/sources.json` by tenant, each tenant's positions in `tenants/<tenant>/sources/`; throws
 * RangeError naming the entry at fault (an unknown type among them). `uploadLimit` is the server's UPLOAD_LIMIT.
 * With `onEntryError` (a server after startup), an entry whose source cannot be made (a ksef certificate that
 * ended, a key file edited away) does not fail the file: it becomes a source whose runs fail with that message,
 * `onEntryError` hears of it, and every other entry, of every tenant, takes effect as usual. An entry whose key is
 * being read in the background (a file changed: its key derivation runs off the event loop) becomes a source
 * whose run first waits for that read.
 */
export function readConfiguredSources(dataDir: string, uploadLimit: number, types = SOURCE_TYPES, onEntryError?: (error: RangeError) => void): Record<string, DocumentSource[]> {
  const all = readSourcesFile(dataDir, types);
  return Object.fromEntries(Object.entries(all).map(([tenant, entries]) => {
    const context = { stateDir: join(dataDir, "tenants", tenant, "sources"), uploadLimit, configDir: dataDir };
    const make = (e: { type: string; config: { name: string } }): DocumentSource => {
      try {
        return types[e.type]!.create(e.config, context);
      } catch (error) {
        if (error instanceof SignerLoading) return _waitingSource(e, error.ready, () => make(e));
        if (onEntryError === undefined || !(error instanceof RangeError)) throw error;
        onEntryError(new RangeError(`sources.json ${tenant}: source "${e.config.name}": ${error.message}`));
        return _failingSource(e, tenant, error);
      }
    };
    return [tenant, entries.map(make)];
  }));
}

/**
 * A source that cannot be made, as a source whose runs fail saying why. A ksef source's certificate that ended (or
 * is not yet valid) is KSEF_CERTIFICATE_EXPIRED; any other file it cannot sign in with, KSEF_CREDENTIALS_UNUSABLE
 * (nothing was sent to KSeF; the message names the sources.json field and the file's base name, not its path, as
 * tenants read it). It keeps the entry's KSeF environment, which its documents' QR codes need.
 */
function _failingSource(e: { type: string; config: { name: string } }, tenant: string, error: RangeError): DocumentSource {
  const ksef = e.type === "ksef" ? e.config as KsefSourceConfig : null;
  const code = ksef === null ? "SOURCE_NOT_CONFIGURED" : error instanceof CredentialsError && error.expired ? KSEF_ERROR.certificateExpired : KSEF_ERROR.credentialsUnusable;
  const message = `sources.json ${tenant}: source "${e.config.name}": ${error instanceof CredentialsError ? error.publicMessage : error.message}`;
  return {
    ..._sourceInfo(e),
    // deno-lint-ignore require-yield
    async *pull() {
      throw new SourceError(code, message);
    },
  };
}

/**
 * A source whose sign-in files are being read in the background: its run waits for the read (`ready`), then is the
 * run of the source made from them (`make`: the source, or one that fails saying why).
 */
function _waitingSource(e: { type: string; config: { name: string } }, ready: Promise<void>, make: () => DocumentSource): DocumentSource {
  return {
    ..._sourceInfo(e),
    async *pull(signal, context) {
      await ready;
      signal.throwIfAborted();
      yield* make().pull(signal, context);
    },
  };
}

function _sourceInfo(e: { type: string; config: { name: string } }): Pick<DocumentSource, "name" | "type" | "ksef"> {
  const ksef = e.type === "ksef" ? e.config as KsefSourceConfig : null;
  return {
    name: e.config.name,
    type: e.type,
    ...(ksef === null ? {} : { ksef: { qrEnvironment: ksefQrEnvironmentOf(ksef.baseUrl), sends: ksef.send === true } }),
  };
}
