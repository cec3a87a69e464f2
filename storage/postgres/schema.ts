/**
 * The Postgres store's schema, as numbered migrations that the store applies
 * itself at open. A migration is never edited once released: changes come as a
 * new version. Applying them is idempotent (versions already in
 * `schema_migrations` are skipped) and safe when several nodes start at once:
 * one transaction under `pg_advisory_xact_lock` applies what is missing.
 * @module
 */
import { inTransaction, numberOf, type PgPool } from "./client.ts";

/** One schema version: statements run in order, in one transaction. */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

/**
 * Fills the kept document counts from the documents table (`$WHERE` narrows it, e.g. to a tenant): used by
 * migration 3 and by bulk loads that insert documents directly.
 */
export const COUNTS_BACKFILL: readonly string[] = [
  `INSERT INTO document_counts (tenant, type, format, xml_available, n)
    SELECT tenant, coalesce(type, ''), coalesce(format, ''), xml_available, count(*) FROM documents $WHERE GROUP BY 1, 2, 3, 4`,
  `INSERT INTO document_tax_counts (tenant, role, tax_id, type, format, xml_available, n)
    SELECT tenant, role, tax_id, coalesce(type, ''), coalesce(format, ''), xml_available, count(*)
    FROM (SELECT tenant, 'seller' AS role, seller_tax_id AS tax_id, type, format, xml_available FROM documents $WHERE
      UNION ALL SELECT tenant, 'buyer', buyer_tax_id, type, format, xml_available FROM documents $WHERE) p
    WHERE tax_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6`,
  `INSERT INTO document_day_counts (tenant, issue_day, type, format, xml_available, n)
    SELECT tenant, issue_day, coalesce(type, ''), coalesce(format, ''), xml_available, count(*)
    FROM (SELECT * FROM documents $WHERE) d WHERE issue_day IS NOT NULL GROUP BY 1, 2, 3, 4, 5`,
];

/**
 * The trigger function that moves a row's summary counters from its old version's keys to its new one's;
 * `documentKeys` gives a documents row's keys (as the document_count_keys of the migration's time).
 */
function _summaryCountsMove(create: "CREATE" | "CREATE OR REPLACE", documentKeys: (row: "OLD" | "NEW") => string): string {
  return `${create} FUNCTION summary_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          tenant_id text;
          before text[] := ARRAY[]::text[];
          after text[] := ARRAY[]::text[];
        BEGIN
          IF TG_OP <> 'INSERT' THEN
            tenant_id := OLD.tenant;
            IF TG_TABLE_NAME = 'documents' THEN before := ${documentKeys("OLD")};
            ELSE before := submission_count_keys(OLD.json::jsonb); END IF;
          END IF;
          IF TG_OP <> 'DELETE' THEN
            tenant_id := NEW.tenant;
            IF TG_TABLE_NAME = 'documents' THEN after := ${documentKeys("NEW")};
            ELSE after := submission_count_keys(NEW.json::jsonb); END IF;
          END IF;
          INSERT INTO summary_counts AS c (tenant, key, n)
            SELECT tenant_id, k, sum(d) FROM (SELECT unnest(before) AS k, -1 AS d UNION ALL SELECT unnest(after), 1) x
            GROUP BY k HAVING sum(d) <> 0
            ON CONFLICT (tenant, key) DO UPDATE SET n = c.n + EXCLUDED.n;
          RETURN NULL;
        END $$`;
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "initial schema",
    statements: [
      `CREATE TABLE tenants (
        id text PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      // Token records hold the secret's SHA-256 only (README “Security model”), never the secret.
      `CREATE TABLE tokens (
        key_id text PRIMARY KEY,
        tenant text NOT NULL,
        secret_sha256 text NOT NULL,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        ord bigint GENERATED ALWAYS AS IDENTITY
      )`,
      `CREATE INDEX tokens_by_tenant ON tokens (tenant, ord)`,
      `CREATE TABLE installation (
        name text PRIMARY KEY,
        value bytea NOT NULL
      )`,
      // One row per (tenant, collection): the feed's length, and the lock that orders its writers.
      `CREATE TABLE feeds (
        tenant text NOT NULL,
        collection text NOT NULL CHECK (collection IN ('documents', 'submissions', 'runs')),
        length bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant, collection)
      )`,
      // Every version of every record, at its feed position (the webhook outbox).
      `CREATE TABLE changes (
        tenant text NOT NULL,
        collection text NOT NULL,
        seq bigint NOT NULL,
        first boolean NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (tenant, collection, seq)
      )`,
      // The latest version of each document: its JSON as sent, and index columns for filters and sorts.
      `CREATE TABLE documents (
        tenant text NOT NULL,
        id text NOT NULL,
        source text NOT NULL,
        external_id text NOT NULL,
        seq bigint NOT NULL,
        ord bigint NOT NULL,
        type text,
        format text,
        issue_day integer,
        seller_tax_id text,
        buyer_tax_id text,
        xml_available boolean NOT NULL,
        sha256 text,
        synced_at timestamptz NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (tenant, id),
        CONSTRAINT documents_external_id UNIQUE (tenant, source, external_id),
        CONSTRAINT documents_feed UNIQUE (tenant, seq)
      )`,
      // Page mode: a btree read backwards gives DESC NULLS FIRST, so "nulls last" both ways needs two.
      `CREATE INDEX documents_issue_asc ON documents (tenant, issue_day ASC NULLS LAST, ord ASC)`,
      `CREATE INDEX documents_issue_desc ON documents (tenant, issue_day DESC NULLS LAST, ord DESC)`,
      `CREATE INDEX documents_synced ON documents (tenant, synced_at, ord)`,
      `CREATE INDEX documents_seller ON documents (tenant, seller_tax_id)`,
      `CREATE INDEX documents_buyer ON documents (tenant, buyer_tax_id)`,
      // Duplicates (the OpenAPI document) are refused by these constraints, not by a check before the insert.
      `CREATE TABLE submissions (
        tenant text NOT NULL,
        id text NOT NULL,
        seq bigint NOT NULL,
        sha256 text NOT NULL,
        business_key bytea NOT NULL,
        created_at timestamptz NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (tenant, id),
        CONSTRAINT submissions_feed UNIQUE (tenant, seq),
        CONSTRAINT submissions_same_bytes UNIQUE (tenant, sha256),
        CONSTRAINT submissions_same_business_key UNIQUE (tenant, business_key)
      )`,
      `CREATE TABLE runs (
        tenant text NOT NULL,
        id text NOT NULL,
        ord bigint NOT NULL,
        source text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        json text NOT NULL,
        PRIMARY KEY (tenant, id)
      )`,
      // At most one queued or running run per tenant and source (README “Documents and the inbox”: requests coalesce).
      `CREATE UNIQUE INDEX runs_one_active ON runs (tenant, source) WHERE status IN ('queued', 'running')`,
      `CREATE TABLE idempotency (
        tenant text NOT NULL,
        key text NOT NULL,
        created_at timestamptz NOT NULL,
        record text NOT NULL,
        PRIMARY KEY (tenant, key)
      )`,
      `CREATE INDEX idempotency_age ON idempotency (tenant, created_at)`,
      // Keys whose first request is executing, on any node: a lease, so that a node that dies mid-request frees them.
      `CREATE TABLE idempotency_claims (
        tenant text NOT NULL,
        key text NOT NULL,
        owner text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, key)
      )`,
      `CREATE TABLE webhooks (
        tenant text NOT NULL,
        id text NOT NULL,
        ord bigint GENERATED ALWAYS AS IDENTITY,
        status text NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (tenant, id)
      )`,
      `CREATE TABLE deliveries (
        tenant text NOT NULL,
        webhook_id text NOT NULL,
        state text NOT NULL,
        PRIMARY KEY (tenant, webhook_id)
      )`,
      `CREATE TABLE blobs (
        tenant text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('content', 'derived')),
        key text NOT NULL,
        size integer NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (tenant, kind, key)
      )`,
      // Uncompressed out-of-line storage: substring() then reads only the TOAST chunks of the range
      // (PostgreSQL docs, "ALTER TABLE … SET STORAGE": EXTERNAL makes substring on bytea faster).
      `ALTER TABLE blobs ALTER COLUMN data SET STORAGE EXTERNAL`,
    ],
  },
  {
    version: 2,
    name: "leases for work with one executor among nodes (sync runs, webhook endpoints)",
    statements: [
      `CREATE TABLE leases (
        tenant text NOT NULL,
        name text NOT NULL,
        owner text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, name)
      )`,
    ],
  },
  {
    version: 3,
    name: "webhook attempt logs and retry-now requests",
    statements: [
      // Bounded by delivery_log.ts: each append deletes what is past the retention (README “Webhooks”).
      `CREATE TABLE webhook_attempts (
        tenant text NOT NULL,
        webhook_id text NOT NULL,
        seq bigint NOT NULL,
        attempted_at timestamptz NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (tenant, webhook_id, seq)
      )`,
      `CREATE TABLE webhook_redeliveries (
        tenant text NOT NULL,
        webhook_id text NOT NULL,
        event_id text NOT NULL,
        requested_at timestamptz NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (tenant, webhook_id, event_id)
      )`,
    ],
  },
  {
    version: 4,
    name: "documents.ksef_number for the ksef_number filter (README “Parameters”)",
    statements: [
      `ALTER TABLE documents ADD COLUMN ksef_number text`,
      `CREATE INDEX documents_ksef_number ON documents (tenant, ksef_number)`,
    ],
  },
  {
    version: 5,
    name: "page mode and filtered feeds as index walks",
    statements: [
      // Covering indexes: a page's keys come from an index-only scan, and only its own rows are fetched.
      `DROP INDEX documents_issue_asc`,
      `DROP INDEX documents_issue_desc`,
      `DROP INDEX documents_synced`,
      `DROP INDEX documents_seller`,
      `DROP INDEX documents_buyer`,
      `CREATE INDEX documents_issue_asc ON documents (tenant, issue_day ASC NULLS LAST, ord ASC) INCLUDE (type, format, xml_available, id)`,
      `CREATE INDEX documents_issue_desc ON documents (tenant, issue_day DESC NULLS LAST, ord DESC) INCLUDE (type, format, xml_available, id)`,
      `CREATE INDEX documents_synced ON documents (tenant, synced_at, ord) INCLUDE (type, format, xml_available, issue_day, id)`,
      // A tax id's pages: in sync-time order, and in issue-date order both ways (nulls last both ways needs two).
      `CREATE INDEX documents_seller ON documents (tenant, seller_tax_id, synced_at, ord) INCLUDE (type, format, xml_available, issue_day, buyer_tax_id, id)`,
      `CREATE INDEX documents_buyer ON documents (tenant, buyer_tax_id, synced_at, ord) INCLUDE (type, format, xml_available, issue_day, seller_tax_id, id)`,
      `CREATE INDEX documents_seller_issue_asc ON documents (tenant, seller_tax_id, issue_day ASC NULLS LAST, ord ASC) INCLUDE (type, format, xml_available, buyer_tax_id, id)`,
      `CREATE INDEX documents_seller_issue_desc ON documents (tenant, seller_tax_id, issue_day DESC NULLS LAST, ord DESC) INCLUDE (type, format, xml_available, buyer_tax_id, id)`,
      `CREATE INDEX documents_buyer_issue_asc ON documents (tenant, buyer_tax_id, issue_day ASC NULLS LAST, ord ASC) INCLUDE (type, format, xml_available, seller_tax_id, id)`,
      `CREATE INDEX documents_buyer_issue_desc ON documents (tenant, buyer_tax_id, issue_day DESC NULLS LAST, ord DESC) INCLUDE (type, format, xml_available, seller_tax_id, id)`,
      // Filtered feeds: the feed order with every filter column, and a tax id's own feed order.
      `CREATE INDEX documents_feed_filters ON documents (tenant, seq) INCLUDE (type, format, xml_available, issue_day, seller_tax_id, buyer_tax_id, id)`,
      `CREATE INDEX documents_seller_feed ON documents (tenant, seller_tax_id, seq) INCLUDE (type, format, xml_available, issue_day, buyer_tax_id, id)`,
      `CREATE INDEX documents_buyer_feed ON documents (tenant, buyer_tax_id, seq) INCLUDE (type, format, xml_available, issue_day, seller_tax_id, id)`,
      // Counts kept by the upserts that change them ('' stands for a null type or format), so that a page's total
      // is a sum of a few rows, not a count of up to every document: per (type, format, xml_available); the same
      // per seller or buyer tax id; the same per issue day (a date range sums its days).
      `CREATE TABLE document_counts (
        tenant text NOT NULL,
        type text NOT NULL,
        format text NOT NULL,
        xml_available boolean NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (tenant, type, format, xml_available)
      )`,
      `CREATE TABLE document_tax_counts (
        tenant text NOT NULL,
        role text NOT NULL CHECK (role IN ('seller', 'buyer')),
        tax_id text NOT NULL,
        type text NOT NULL,
        format text NOT NULL,
        xml_available boolean NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (tenant, role, tax_id, type, format, xml_available)
      )`,
      `CREATE TABLE document_day_counts (
        tenant text NOT NULL,
        issue_day integer NOT NULL,
        type text NOT NULL,
        format text NOT NULL,
        xml_available boolean NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (tenant, issue_day, type, format, xml_available)
      )`,
      ...COUNTS_BACKFILL.map((sql) => sql.replaceAll("$WHERE", "")),
    ],
  },
  {
    version: 6,
    name: "submissions sent to KSeF: ksef_status, type and format filters, the send queue",
    statements: [
      `ALTER TABLE submissions ADD COLUMN ksef_status text CHECK (ksef_status IN ('queued', 'sending', 'accepted', 'rejected'))`,
      `ALTER TABLE submissions ADD COLUMN type text`,
      `ALTER TABLE submissions ADD COLUMN format text`,
      // The feed position a submission was created at: acceptance order, which the send queue follows.
      `ALTER TABLE submissions ADD COLUMN created_seq bigint`,
      `UPDATE submissions SET created_seq = seq, type = json::jsonb->>'type', format = json::jsonb->>'format'`,
      `ALTER TABLE submissions ALTER COLUMN created_seq SET NOT NULL`,
      `CREATE INDEX submissions_feed_filters ON submissions (tenant, seq) INCLUDE (ksef_status, type, format, id)`,
      `CREATE INDEX submissions_send_queue ON submissions (tenant, created_seq) WHERE ksef_status IN ('queued', 'sending')`,
    ],
  },
  {
    version: 7,
    name: "the summary's counters, kept by triggers; runs by source",
    statements: [
      // Counters per tenant and name (lib/contracts/summary_counts.ts names them): the summary reads a few rows,
      // never the records (README "Summary"). Triggers move them in the transaction that writes the record, so they
      // are exactly as durable as it; the same rules as the TypeScript functions, in SQL.
      `CREATE TABLE summary_counts (
        tenant text NOT NULL,
        key text NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (tenant, key)
      )`,
      `CREATE FUNCTION summary_hour(t text) RETURNS text STABLE LANGUAGE sql AS
        $$ SELECT to_char(t::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') $$`,
      `CREATE FUNCTION document_count_keys(synced timestamptz, xml boolean) RETURNS text[] STABLE LANGUAGE sql AS
        $$ SELECT ARRAY['doc:total', 'doc:synced:' || to_char(synced AT TIME ZONE 'UTC', 'YYYY-MM-DD')]
          || CASE WHEN xml THEN ARRAY[]::text[] ELSE ARRAY['doc:xml_missing'] END $$`,
      `CREATE FUNCTION submission_count_keys(j jsonb) RETURNS text[] STABLE LANGUAGE sql AS
        $$ SELECT array_remove(ARRAY[
          'sub:received:' || summary_hour(j->>'created_at'),
          'sub:status:' || coalesce(j->'ksef'->>'status', 'not_sent'),
          CASE WHEN jsonb_typeof(j->'ksef') = 'object' THEN 'sub:mode:' || coalesce(j->'ksef'->>'mode', 'online') END,
          CASE WHEN j->'ksef'->>'status' = 'accepted' THEN 'sub:accepted:' || summary_hour(j->'ksef'->>'updated_at') END,
          CASE WHEN j->'ksef'->>'status' = 'rejected' THEN 'sub:rejected:' || summary_hour(j->'ksef'->>'updated_at') END,
          CASE WHEN j->'ksef'->>'mode' = 'offline' AND j->'ksef'->>'status' <> 'accepted' AND j->'ksef'->>'deadline' IS NOT NULL
            THEN 'sub:offline_open:' || (j->'ksef'->>'deadline') END
        ], NULL) $$`,
      _summaryCountsMove("CREATE", (row) => `document_count_keys(${row}.synced_at, ${row}.xml_available)`),
      `CREATE TRIGGER documents_summary_counts AFTER INSERT OR UPDATE OR DELETE ON documents FOR EACH ROW EXECUTE FUNCTION summary_counts_move()`,
      `CREATE TRIGGER submissions_summary_counts AFTER INSERT OR UPDATE OR DELETE ON submissions FOR EACH ROW EXECUTE FUNCTION summary_counts_move()`,
      `INSERT INTO summary_counts (tenant, key, n)
        SELECT tenant, k, count(*) FROM documents, unnest(document_count_keys(synced_at, xml_available)) AS k GROUP BY 1, 2`,
      `INSERT INTO summary_counts (tenant, key, n)
        SELECT tenant, k, count(*) FROM submissions, unnest(submission_count_keys(json::jsonb)) AS k GROUP BY 1, 2
        ON CONFLICT (tenant, key) DO UPDATE SET n = summary_counts.n + EXCLUDED.n`,
      // The newest run of a source (the summary's last_run), without reading the tenant's other runs.
      `CREATE INDEX runs_by_source ON runs (tenant, source, ord)`,
    ],
  },
  {
    version: 8,
    name: "the notices feed (webhook events that belong to no record)",
    statements: [
      // The column's CHECK of migration 1 has PostgreSQL's default name, <table>_<column>_check.
      `ALTER TABLE feeds DROP CONSTRAINT feeds_collection_check`,
      `ALTER TABLE feeds ADD CONSTRAINT feeds_collection_check CHECK (collection IN ('documents', 'submissions', 'runs', 'notices'))`,
    ],
  },
  {
    version: 9,
    name: "the verdict on a document's XML at import, counted as the summary's documents.invalid",
    statements: [
      // Null: not judged (no XML, or stored before this version); the document JSON never carries it.
      `ALTER TABLE documents ADD COLUMN valid boolean`,
      `CREATE FUNCTION document_count_keys(synced timestamptz, xml boolean, valid boolean) RETURNS text[] STABLE LANGUAGE sql AS
        $$ SELECT document_count_keys(synced, xml) || CASE WHEN valid IS FALSE THEN ARRAY['doc:invalid'] ELSE ARRAY[]::text[] END $$`,
      _summaryCountsMove("CREATE OR REPLACE", (row) => `document_count_keys(${row}.synced_at, ${row}.xml_available, ${row}.valid)`),
    ],
  },
  {
    version: 10,
    name: "the documents stored without a verdict, which the background judge walks",
    statements: [
      // Holds only documents with XML and no verdict: those stored before migration 9, emptied as they are judged.
      `CREATE INDEX documents_unjudged ON documents (tenant, ord) WHERE valid IS NULL AND xml_available`,
    ],
  },
];

/** Applies the migrations that the database lacks; returns the versions applied now. */
export async function migrate(pool: PgPool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return inTransaction(pool, async (c) => {
    // Per schema, so that test runs in separate schemas of one database do not queue behind each other.
    await c.query("SELECT pg_advisory_xact_lock(hashtext('integrator-api schema ' || current_schema()))");
    await c.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await c.query("SELECT version FROM schema_migrations")).rows.map((r) => numberOf(r.version)));
    const known = Math.max(0, ...migrations.map((m) => m.version));
    const newest = Math.max(0, ...done);
    if (newest > known) throw new RangeError(`The database schema is at version ${newest}, newer than this code knows (${known})`);
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const sql of m.statements) await c.query(sql);
      await c.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
