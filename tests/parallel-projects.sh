#!/usr/bin/env bash
# Runs vitest projects at the same time, one vitest process each: `bash tests/parallel-projects.sh unit
# unit-dom [fast] [-- vitest's arguments]`. `npm run test:unit` and `npm run test:fast` use it.
# Why processes and not one run: vitest 4.1 runs a group of projects (sequence.groupOrder) at the worker
# count of its projects, and gives a project its files as one task (one worker start, each module
# imported once) only when that count is one (`groupSpecs`); two such projects in one group share a
# pool of one worker and run one after the other, and groups run one after the other too. Two
# processes run the two unit projects on the two cores at once, each on its one worker as before; a
# vitest process of its own costs about half a second of CPU (its config, Vite's server, the cached
# transforms read back).
# The arguments after `--` go to every process (a file filter, a reporter); a filter that matches no
# file of a project passes for that project (a report written to a file, `--outputFile`, would be
# written by each: for one report of both, run `vitest run --project unit --project unit-dom` itself,
# the projects one after the other). Each process's lines are printed as they come, prefixed
# by its project; the run fails if any process failed. Coverage is measured in one process
# (`npm run coverage`, tests/run.sh), where the floor is held over both projects.
set -uo pipefail
cd "$(dirname "$0")/.."

projects=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  projects+=("$1")
  shift
done
[ $# -gt 0 ] && shift
[ ${#projects[@]} -gt 0 ] || { echo "usage: $0 project... [-- vitest arguments]" >&2; exit 2; }

# The processes write through a pipe, not the terminal: keep the colours a terminal would get.
[ -t 1 ] && export FORCE_COLOR="${FORCE_COLOR:-1}"
# vitest refuses an option given twice.
pass=(--passWithNoTests)
for arg in "$@"; do [[ "$arg" == --passWithNoTests* ]] && pass=(); done
pids=()
for project in "${projects[@]}"; do
  (node node_modules/vitest/vitest.mjs run --project "$project" ${pass[@]+"${pass[@]}"} "$@" 2>&1 |
    sed -u "s/^/[$project] /") &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"
