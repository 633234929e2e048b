#!/usr/bin/env bash
# Backs up the database to one file.
#   PostgreSQL (DATABASE_URL set): pg_dump in its custom format (restore with scripts/restore.sh).
#   PGlite (the default): a tar.gz of DATA_DIR (database, session secret, dev outbox), taken while no
#   server or CLI holds the directory: the script takes the same DATA_DIR/pglite.lock the server
#   takes (an atomic mkdir, refreshed while held), so none can open the files during the copy.
# Usage: scripts/backup.sh <output file>
set -euo pipefail
out="${1:?usage: scripts/backup.sh <output file>}"

if [ -n "${DATABASE_URL:-}" ]; then
  pg_dump --format=custom --no-owner --no-privileges --file="$out" "$DATABASE_URL"
  echo "Backed up PostgreSQL to $out ($(wc -c <"$out") bytes)"
  exit 0
fi

data_dir="${DATA_DIR:-./data}"
[ -d "$data_dir/pglite" ] || { echo "No PGlite database in $data_dir (set DATA_DIR, or DATABASE_URL for PostgreSQL)" >&2; exit 1; }
lock="$data_dir/pglite.lock"
stale_seconds=10

take_lock() {
  mkdir "$lock" 2>/dev/null && return 0
  # A holder refreshes the lock's mtime every 2 s; one older than 10 s was left by a killed process.
  local age=$(( $(date +%s) - $(stat -c %Y "$lock" 2>/dev/null || date +%s) ))
  if [ "$age" -gt "$stale_seconds" ]; then rmdir "$lock" 2>/dev/null || true; mkdir "$lock" 2>/dev/null && return 0; fi
  return 1
}
busy() {
  echo "DATA_DIR $data_dir is in use by a running server or CLI command; stop it before a PGlite backup (or use PostgreSQL and pg_dump online)" >&2
  exit 1
}
take_lock || busy
( while sleep 2; do touch "$lock" 2>/dev/null || exit 0; done ) &
refresher=$!
trap 'kill "$refresher" 2>/dev/null || true; rmdir "$lock" 2>/dev/null || true' EXIT
# A listening server also leaves control.json with its pid (the CLI hands commands to it).
if [ -f "$data_dir/control.json" ]; then
  pid="$(sed -n 's/.*"pid":\([0-9][0-9]*\).*/\1/p' "$data_dir/control.json")"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then busy; fi
fi

tar -czf "$out" -C "$data_dir" --exclude=./pglite.lock --exclude=./pglite.lock.json --exclude=./control.json .
echo "Backed up PGlite data directory $data_dir to $out ($(wc -c <"$out") bytes)"
