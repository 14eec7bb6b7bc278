#!/usr/bin/env python3
"""Recomputes the SHA-256 of an approved version's snapshot (GET v1/inventory/{year}/versions/{n}/)
as a verifier would, with Python 3's standard library only.

The snapshot is stored in the canonical form of RFC 8785 (JSON Canonicalization Scheme): UTF-8,
object keys sorted by their UTF-16 code units, no whitespace, strings escaped as ECMAScript's
JSON.stringify escapes them (non-ASCII characters as they are), numbers in ECMAScript's form
(shortest round-trip digits; 1e21 and above, and below 1e-6, in exponent form). This script
parses the file, writes it again in that form, and prints the SHA-256 of the result; it exits 1
when the file's bytes are not already that form (its hash would then not be the listed one).

    python3 snapshot_hash.py v1.json

Run it where it stands, beside verify.py (functions/src/export/verify/), which writes the form.
"""
import hashlib
import json
import sys

# The canonical form is verify.py's, beside this file: the verification pack carries verify.py
# alone (its SHA-256 is published), so the form is written there once and read from there. No
# __pycache__ is left beside it.
sys.dont_write_bytecode = True
from verify import canonical  # noqa: E402


def main(path):
    raw = open(path, "rb").read()
    text = canonical(json.loads(raw.decode("utf-8")))
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    print(digest)
    if text.encode("utf-8") != raw:
        print("differ: the file is not in the canonical form (RFC 8785)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
