# Sourced by scripts/backup.sh and scripts/restore.sh, the thin wrappers of the CLI's file commands.
# run_cli_on_file COMMAND FILE [ARG...] runs `npm run cli -- COMMAND FILE [ARG...]` from the
# repository; DATA_DIR and FILE are taken relative to where the caller ran the script, not to the
# repository.
run_cli_on_file() {
  local command="$1" file="$2" root
  shift 2
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  DATA_DIR="$(realpath -m "${DATA_DIR:-./data}")"
  export DATA_DIR
  file="$(realpath -m "$file")"
  cd "$root"
  exec node --import tsx apps/server/src/cli.ts "$command" "$file" "$@"
}
