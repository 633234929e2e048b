#!/usr/bin/env bash
# Backs up the database to one file: a thin wrapper of `npm run cli -- backup FILE` (apps/server/src/ops/backup.ts).
#   PostgreSQL (DATABASE_URL set): pg_dump in its custom format, online (restore with scripts/restore.sh).
#   PGlite (the default): a tar.gz of DATA_DIR (database, session secret, dev outbox), taken under the
#   DATA_DIR lock the server and every CLI command take: it waits for a CLI command that holds the
#   directory (up to CLI_WAIT_SECONDS) and refuses while a server runs.
# The archive is written under a temporary name and renamed to FILE only once complete.
# Usage: scripts/backup.sh <output file>
set -euo pipefail
out="${1:?usage: scripts/backup.sh <output file>}"
source "$(dirname "${BASH_SOURCE[0]}")/cli-on-file.sh"
run_cli_on_file backup "$out"
