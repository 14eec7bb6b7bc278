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
"""
import hashlib
import json
import sys


def es_number(value):
    """A number as ECMAScript's Number.prototype.toString writes it."""
    if isinstance(value, bool):
        raise ValueError("not a number")
    if isinstance(value, int):
        value = float(value) if abs(value) >= 2**53 else value
        if isinstance(value, int):
            return str(value)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("RFC 8785 has no NaN or Infinity")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr gives the shortest digits that read back as the same double.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    digits = mantissa.replace(".", "")
    point = mantissa.index(".") if "." in mantissa else len(mantissa)
    point += int(exponent or 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k, n = len(digits), point  # value = 0.digits × 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + text


def es_string(text):
    """A string as ECMAScript's JSON.stringify writes it."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\b\f\n\r\t":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif code < 0x20 or 0xD800 <= code <= 0xDFFF:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def utf16_key(text):
    return text.encode("utf-16-be")


def canonical(value):
    """RFC 8785 text of a parsed JSON value."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return es_number(value)
    if isinstance(value, str):
        return es_string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=utf16_key)
        return "{" + ",".join(es_string(k) + ":" + canonical(value[k]) for k in keys) + "}"
    raise ValueError("not JSON: %r" % (value,))


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
