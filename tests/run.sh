#!/usr/bin/env bash
# `npm test`: installs the Debian programs the asked tiers drive (or stops with the command to run),
# type-checks beside the build and lint, then runs the vitest tiers: all four, or those named by `--project`
# (`npm test -- --project unit`, the one way to leave a tier out). Its last line names the tiers run.
# The unit tier is two vitest projects, `unit` (Node) and `unit-dom` (the component tests): the tier
# `unit` names both.
# `npm test -- --coverage` (.ci/run) measures the unit tier's coverage in the unit tier's own run and
# holds it to its floor (vitest.config.ts): the unit tier runs first with coverage, the other tiers
# after it without, so no tier runs twice.
set -euo pipefail
cd "$(dirname "$0")/.."

tiers=()
args=()
coverage=0
for arg in "$@"; do
  if [ "$arg" = "--coverage" ]; then coverage=1; else args+=("$arg"); fi
done
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --project) tiers+=("${args[i + 1]:-}") ;;
    --project=*) tiers+=("${args[i]#--project=}") ;;
  esac
done
[ ${#tiers[@]} -gt 0 ] || tiers=(unit integration e2e infra)
# The arguments for vitest: `--project unit` runs the tier's two projects.
vitest_args=()
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --project)
      vitest_args+=(--project "${args[i + 1]:-}")
      [ "${args[i + 1]:-}" = unit ] && vitest_args+=(--project unit-dom)
      i=$((i + 1))
      ;;
    --project=unit) vitest_args+=(--project=unit --project=unit-dom) ;;
    *) vitest_args+=("${args[i]}") ;;
  esac
done

bash tests/prerequisites.sh "${tiers[@]}"
# The core first: the type check reads the declarations its build writes (wasm-core/build.mjs), and
# two builds must not write build/ at once. The type check is one thread; the web's build and then
# lint run beside it on the second core. The type check's output is printed once all three are done,
# and the run stops if any of them failed.
npm run build:wasm
typecheck_log=$(mktemp)
npm run typecheck >"$typecheck_log" 2>&1 &
typecheck=$!
build_status=0
npm run build || build_status=$?
lint_status=0
npm run lint || lint_status=$?
typecheck_status=0
wait "$typecheck" || typecheck_status=$?
cat "$typecheck_log"
rm -f "$typecheck_log"
for status in "$build_status" "$lint_status" "$typecheck_status"; do
  [ "$status" -eq 0 ] || exit "$status"
done
with_coverage=0
[ "$coverage" -eq 1 ] && [[ " ${tiers[*]} " == *" unit "* ]] && with_coverage=1
if [ "$with_coverage" -eq 1 ]; then
  # The tiers' own arguments (a file filter, a reporter) go to both runs; the tiers are split.
  others=()
  rest=()
  for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
      --project) i=$((i + 1)) ;;
      --project=*) ;;
      *) rest+=("${args[i]}") ;;
    esac
  done
  for tier in "${tiers[@]}"; do [ "$tier" = unit ] || others+=(--project "$tier"); done
  node node_modules/vitest/vitest.mjs run --project unit --project unit-dom --coverage ${rest[@]+"${rest[@]}"}
  [ ${#others[@]} -eq 0 ] || node node_modules/vitest/vitest.mjs run "${others[@]}" ${rest[@]+"${rest[@]}"}
else
  node node_modules/vitest/vitest.mjs run ${vitest_args[@]+"${vitest_args[@]}"}
fi
if [ "$with_coverage" -eq 1 ]; then echo "tiers run: ${tiers[*]} (unit with coverage)"; else echo "tiers run: ${tiers[*]}"; fi
