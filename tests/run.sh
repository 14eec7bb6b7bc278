#!/usr/bin/env bash
# `npm test`: installs the Debian programs the asked tiers drive (or stops with the command to run),
# builds, type-checks, lints, then runs the vitest tiers: all four, or those named by `--project`
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
npm run build
npm run typecheck
npm run lint
node node_modules/vitest/vitest.mjs run "$@"
echo "tiers run: ${tiers[*]}"
