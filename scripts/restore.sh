#!/usr/bin/env bash
# Restores a backup made by scripts/backup.sh.
#   PostgreSQL (DATABASE_URL set): pg_restore into that database, meant to be a fresh, empty one
#   (createdb first); with --clean it replaces the objects of an existing one instead.
#   PGlite (the default): unpacks into DATA_DIR, which must not hold a database yet (move the old
#   one away first), while no server or CLI holds it.
# Then check it: npm run cli -- ledger:verify
# Usage: scripts/restore.sh <backup file> [--clean]
set -euo pipefail
in="${1:?usage: scripts/restore.sh <backup file> [--clean]}"
[ -f "$in" ] || { echo "No such backup file: $in" >&2; exit 1; }

if [ -n "${DATABASE_URL:-}" ]; then
  clean=()
  [ "${2:-}" = "--clean" ] && clean=(--clean --if-exists)
  pg_restore --no-owner --no-privileges --single-transaction --exit-on-error "${clean[@]}" --dbname="$DATABASE_URL" "$in"
  echo "Restored $in into PostgreSQL"
  exit 0
fi

data_dir="${DATA_DIR:-./data}"
if [ -e "$data_dir/pglite" ]; then
  echo "$data_dir already holds a PGlite database; move it away (or point DATA_DIR at an empty directory) before restoring" >&2
  exit 1
fi
mkdir -p "$data_dir"
lock="$data_dir/pglite.lock"
mkdir "$lock" 2>/dev/null || { echo "DATA_DIR $data_dir is in use by a running server or CLI command" >&2; exit 1; }
trap 'rmdir "$lock" 2>/dev/null || true' EXIT
tar -xzf "$in" -C "$data_dir"
echo "Restored $in into $data_dir"
