#!/usr/bin/env bash
# Restores a backup made by scripts/backup.sh: a thin wrapper of `npm run cli -- restore FILE [--clean]`.
#   PostgreSQL (DATABASE_URL set): pg_restore in one transaction into that database, meant to be a
#   fresh, empty one (createdb first); with --clean it replaces the objects of an existing one instead.
#   PGlite (the default): unpacks into DATA_DIR, which must not hold a database yet (move the old
#   one away first), under the DATA_DIR lock.
# Then check it: npm run cli -- ledger:verify
# Usage: scripts/restore.sh <backup file> [--clean]
set -euo pipefail
in="${1:?usage: scripts/restore.sh <backup file> [--clean]}"
source "$(dirname "${BASH_SOURCE[0]}")/cli-on-file.sh"
run_cli_on_file restore "$in" ${2:+"$2"}
