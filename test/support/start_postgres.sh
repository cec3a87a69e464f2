#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests and prints its DATABASE_URL
# (alone, on stdout): initdb in a temp dir, trust auth, 127.0.0.1 only, then waits
# until it accepts connections and creates the database `integrator_test`.
#
#   export DATABASE_URL=$(bash test/support/start_postgres.sh)
#
# As root (CI) the server runs as the `postgres` user (it refuses to run as root).
# PGPORT picks the port (default 5432); a busy port that does not take a trusted
# connection as `postgres` is skipped for the next one. PG_BIN overrides the
# server's bin directory (default: the newest /usr/lib/postgresql/*/bin).
# The cluster runs with fsync=off: it is for tests, its data is thrown away.
set -euo pipefail

bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "start_postgres: no PostgreSQL server found (apt-get install postgresql, or set PG_BIN)" >&2
  exit 1
fi

as_pg=()
if [ "$(id -u)" = 0 ]; then
  as_pg=(runuser -u postgres --)
fi

db=integrator_test
port=${PGPORT:-5432}

# Connects as the trusted `postgres` user: the one thing the tests need from a server.
usable() {
  PGCONNECT_TIMEOUT=5 \
  "$bin/psql" -X -q -h 127.0.0.1 -p "$1" -U postgres -d postgres -c 'select 1' >/dev/null 2>&1
}

ensure_db() {
  "$bin/psql" -X -q -h 127.0.0.1 -p "$1" -U postgres -d postgres -tAc "select 1 from pg_database where datname = '$db'" | grep -q 1 \
    || "$bin/createdb" -h 127.0.0.1 -p "$1" -U postgres "$db"
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

for _ in $(seq 1 10); do
  if ! port_open "$port"; then
    break # free: start ours here
  fi
  if usable "$port"; then
    # A trusted server is already there (e.g. started by an earlier run): reuse it.
    ensure_db "$port" >&2
    echo "postgres://postgres@127.0.0.1:$port/$db"
    exit 0
  fi
  echo "start_postgres: port $port is taken by something we cannot use, trying $((port + 1))" >&2
  port=$((port + 1))
done

dir=$(mktemp -d /tmp/integrator-pg-XXXXXX)
chmod 755 "$dir"
if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
if ! "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-k $dir -c listen_addresses=127.0.0.1 -p $port -c fsync=off -c full_page_writes=off -c max_connections=200" start >&2; then
  cat "$dir/server.log" >&2
  exit 1
fi

for _ in $(seq 1 300); do
  "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" && break
  sleep 0.1
done
usable "$port" || { echo "start_postgres: the server did not accept connections" >&2; cat "$dir/server.log" >&2; exit 1; }
ensure_db "$port" >&2
echo "start_postgres: cluster in $dir (stop: ${as_pg[*]} $bin/pg_ctl -D $dir/data stop)" >&2
echo "postgres://postgres@127.0.0.1:$port/$db"
