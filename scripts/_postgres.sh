# Sourced by scripts/test: a throwaway PostgreSQL server for the storage, service, outbox and
# scheduler tests, which then run against it as well as against SQLite
# (tests/persistence/fixtures.py reads CAEDES_TEST_POSTGRES_URL).
#
# * CAEDES_TEST_POSTGRES_URL already set: that server is used as it is (nothing started).
# * CAEDES_TEST_POSTGRES=0: no server; the PostgreSQL runs are skipped.
# * otherwise, if PostgreSQL's programs are installed (Debian's postgresql package, or initdb
#   on the PATH), a server is made in a new temporary folder, listening on 127.0.0.1 only, on a
#   free port, and stopped and removed when the calling script exits (even on failure). As
#   root it runs as the unprivileged `postgres` user (PostgreSQL refuses to run as root).
# * not installed: says so plainly and the PostgreSQL runs are skipped.
pg_stop() {
  if [ -n "${_CAEDES_PG_DIR:-}" ] && [ -d "$_CAEDES_PG_DIR" ]; then
    $_CAEDES_PG_AS "$_CAEDES_PG_BIN/pg_ctl" -D "$_CAEDES_PG_DIR/data" -m immediate -w stop \
      >/dev/null 2>&1 || true
    rm -rf "$_CAEDES_PG_DIR"
  fi
  _CAEDES_PG_DIR=""
}

pg_start() {
  if [ -n "${CAEDES_TEST_POSTGRES_URL:-}" ]; then
    echo "== PostgreSQL: using the server in CAEDES_TEST_POSTGRES_URL"
    return 0
  fi
  if [ "${CAEDES_TEST_POSTGRES:-1}" = "0" ]; then
    echo "== PostgreSQL: CAEDES_TEST_POSTGRES=0, SKIPPING the PostgreSQL runs of the tests"
    return 0
  fi
  _CAEDES_PG_BIN=""
  local found
  for found in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$found/initdb" ]; then _CAEDES_PG_BIN="$found"; break; fi
  done
  if [ -z "$_CAEDES_PG_BIN" ] && command -v initdb >/dev/null 2>&1; then
    _CAEDES_PG_BIN="$(dirname "$(command -v initdb)")"
  fi
  if [ -z "$_CAEDES_PG_BIN" ]; then
    echo "== PostgreSQL is not installed: SKIPPING the PostgreSQL runs of the storage, service," \
      "outbox and scheduler tests (install Debian's postgresql package to run them)"
    return 0
  fi
  _CAEDES_PG_AS=""
  _CAEDES_PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/caedes-pg.XXXXXX")"
  trap pg_stop EXIT
  if [ "$(id -u)" = "0" ]; then
    local user=postgres
    id -u "$user" >/dev/null 2>&1 || user=nobody
    chown "$user" "$_CAEDES_PG_DIR"
    _CAEDES_PG_AS="runuser -u $user --"
  fi
  local port
  port="$("${PYTHON:-python3}" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  $_CAEDES_PG_AS "$_CAEDES_PG_BIN/initdb" -D "$_CAEDES_PG_DIR/data" -U caedes -A trust \
    -E UTF8 --no-sync >"$_CAEDES_PG_DIR/initdb.log" 2>&1 \
    || { cat "$_CAEDES_PG_DIR/initdb.log"; return 1; }
  # fsync off: the data is thrown away; max_connections for the stress test's processes
  $_CAEDES_PG_AS "$_CAEDES_PG_BIN/pg_ctl" -D "$_CAEDES_PG_DIR/data" -w -t 60 \
    -l "$_CAEDES_PG_DIR/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $_CAEDES_PG_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null || { cat "$_CAEDES_PG_DIR/server.log"; return 1; }
  export CAEDES_TEST_POSTGRES_URL="postgresql+psycopg://caedes@127.0.0.1:$port/postgres"
  echo "== PostgreSQL: a throwaway server ($("$_CAEDES_PG_BIN/postgres" --version)) on 127.0.0.1:$port"
}
