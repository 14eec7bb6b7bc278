#!/usr/bin/env bash
# The Lambda functions run on Node 24 (infra/lib/stack.ts LAMBDA_RUNTIME) while the machine may have
# another Node: run the server-side tests (unit, integration on dynalite, infra) on that major too.
# The Node binary comes from the npm registry (the node-linux-<arch> package ships it), cached under
# node_modules/.cache so a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${LAMBDA_NODE_VERSION:-24.21.0}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no Node package for $(uname -m)" >&2; exit 1 ;;
esac
prefix="node_modules/.cache/node-$version-$arch"
if [ ! -x "$prefix/node_modules/node-linux-$arch/bin/node" ]; then
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock "node-linux-$arch@$version" >/dev/null
fi
node_bin="$(cd "$prefix/node_modules/node-linux-$arch/bin" && pwd)"
echo "server-side tests on Node $("$node_bin/node" --version)"
PATH="$node_bin:$PATH" node node_modules/vitest/vitest.mjs run functions wasm-core/src tests/integration tests/infra "$@"
