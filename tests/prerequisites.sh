#!/usr/bin/env bash
# The Debian programs the tests drive, for the tiers named as arguments (all four when none is): the unit tier needs
# none, the browser tier needs Chromium, the integration tier checks the models the core trains with the real XGBoost
# (python3-xgboost) and reads exports back with LibreOffice (xls) and pdftotext (the report's PDF), and both render
# Cyrillic with DejaVu; both make a self-signed certificate with openssl for the HTTPS tests, and GOST keys and
# signatures with its GOST engine (libengine-gost-openssl) for a climate period's КЭП.
# Missing ones are installed when this user can run apt-get; otherwise the run stops here with the
# one command to run, so a missing program never turns into skipped tests. `.ci/run` calls it too.
set -euo pipefail

tiers=("$@")
[ ${#tiers[@]} -gt 0 ] || tiers=(unit integration e2e infra)
wants() { local tier; for tier in "${tiers[@]}"; do [ "$tier" = "$1" ] && return 0; done; return 1; }

need=()
if wants e2e; then
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need+=(chromium)
fi
if wants integration; then
  # Found, not imported: importing XGBoost (numpy, scipy) takes seconds on a cold disk at each run.
  /usr/bin/python3 -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('xgboost') is None)" >/dev/null 2>&1 ||
    need+=(python3-xgboost)
  [ -x /usr/bin/soffice ] || [ -x /usr/bin/libreoffice ] || need+=(libreoffice-calc-nogui)
  command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
fi
if wants e2e || wants integration; then
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
  # The HTTPS tests make a self-signed certificate.
  command -v openssl >/dev/null 2>&1 || need+=(openssl)
  # A climate period's КЭП: the tests make GOST R 34.10-2012 keys and signatures, and the server checks
  # them, with OpenSSL's GOST engine.
  openssl engine gost -t >/dev/null 2>&1 || need+=(libengine-gost-openssl)
fi
[ ${#need[@]} -gt 0 ] || exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing what the tests need: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  exit 0
fi
echo "The tests need ${need[*]}; install them and run npm test again: sudo apt-get install -y ${need[*]}" >&2
exit 1
