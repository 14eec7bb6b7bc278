#!/usr/bin/env bash
# `npm test`: installs the Debian programs the asked tiers drive (or stops with the command to run),
# builds and type-checks side by side, lints, then runs the vitest tiers: all four, or those named by `--project`
# (`npm test -- --project unit`, the one way to leave a tier out). Its last line names the tiers run.
set -euo pipefail
cd "$(dirname "$0")/.."

tiers=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --project) tiers+=("${args[i + 1]:-}") ;;
    --project=*) tiers+=("${args[i]#--project=}") ;;
  esac
done
[ ${#tiers[@]} -gt 0 ] || tiers=(unit integration e2e infra)

bash tests/prerequisites.sh "${tiers[@]}"
# The build and the type check are each mostly one thread: on two cores they run side by side, the
# type check's output printed once both are done.
typecheck_log=$(mktemp)
npm run typecheck >"$typecheck_log" 2>&1 &
typecheck=$!
npm run build
typecheck_status=0
wait "$typecheck" || typecheck_status=$?
cat "$typecheck_log"
rm -f "$typecheck_log"
[ "$typecheck_status" -eq 0 ] || exit "$typecheck_status"
npm run lint
node node_modules/vitest/vitest.mjs run "$@"
echo "tiers run: ${tiers[*]}"
