#!/usr/bin/env python3
"""Проверка пакета верификации утвержденной версии инвентаризации (Python 3, только стандартная библиотека).

Run in the unzipped pack:

    python3 verify.py                          (or: python3 verify.py path/to/pack)
    python3 verify.py --public-key platform.pem
                                               (the platform's public key, from GET /api/v1/signing-keys/;
                                               given twice when the pack was made after a key rotation)
    python3 verify.py --sha256 <SHA-256>       (the version's SHA-256 as the company published it)

Without an outside anchor (--public-key or --sha256) only the pack's self-consistency can be checked:
a forger who rewrites every file of it consistently passes that, so the run says so and exits 3.

Is this verify.py the published one? A replaced script can print anything. Before running it, take its
SHA-256 yourself (sha256sum verify.py; certutil -hashfile verify.py SHA256 on Windows) and compare it
with «verify_py_sha256» of GET /api/v1/signing-keys/ and with the one docs/security.md of the platform's
repository gives; or run the platform repository's own functions/src/export/verify/verify.py on the
unzipped pack instead of the pack's copy.

What it checks, from the pack's own files (D34, D44):
  1. the files a pack must hold, by a list of its own (the fixed files, a file per calculation of the
     snapshot, the evidence files its coefficients name), each present and in manifest.json, and
     every file's SHA-256 against manifest.json; no file the manifest does not list (issue 86 R9);
  1a. the platform's signature over manifest.json (manifest.sig.json, with --public-key): the
     manifest names the version and every file's SHA-256, so no file can be changed, added or left out
     with the manifest re-hashed. A pack without it is of the older format (made before 27.11.2026),
     said so; a version approved since then has no pack of the older format;
  2. the snapshot (snapshot.json) is in the canonical form of RFC 8785 (UTF-8, keys sorted by UTF-16
     code units, no whitespace, ECMAScript numbers) and its SHA-256 is the one the platform lists
     for the version (version.json), the one printed in both passports (passport.xlsx and the text of
     passport.pdf, read with zlib, «SHA-256 версии») and, when given, the one passed with --sha256;
     with --public-key, the platform's signature over that hash (version.json «signature»,
     RSASSA-PKCS1-v1_5 with SHA-256, checked with pow) and the key's fingerprint against the one the
     passports print («Отпечаток ключа подписи (SHA-256)»);
  2a. four eyes: who approved the version (approved_by) is not who sent it (sent_by);
  2b. what the readable files print, read back against the snapshot (issue 86 R9): version.json's
     year, version, approval and total; the passport's workbook (passport.xlsx, sheet «Выбросы»: the
     gases, every line, the facilities and the year's total); coefficients.csv (every coefficient of
     every calculation once: its value, unit and what the snapshot says of its source);
  3. each calculation's file (calculations/NNNN.json: inputs, results, coefficients) is the one the
     snapshot holds under that hash;
  4. each calculation's gases from its results (rules.json: which result is which gas), CH4 in
     CO2-eq at the year's GWP;
  5. the netting (D17, D26, D28, D35): per facility, the methane the flares and boilers destroyed
     (from their inputs: volume, contents, densities, efficiency) and the CO2 the burnt drained gas
     carried, taken off the gross figures of the drainage points that fed them (never off a
     ventilation shaft), and each calculation's share of it;
  6. every inventory line (Order 371 category, IPCC code, gas), the facilities' totals, the per-gas
     totals and the year's total;
  7. each month accepted from the mine's АГК (methodology D59–D63; a calculation whose evidence names
     «SHA-256 показаний»): the readings behind it (telemetry/NNNN.csv) are the ones whose SHA-256 the
     approved snapshot holds, and the month's volume, flow-weighted CH4 content and t CH4 recomputed
     from their minute values (minute means, quality flags, substitution as 40 CFR 98.325(b), the
     point's volume from telemetry/NNNN.json's sensors and window) are the calculation's; a channel's
     minutes «под сомнением» (D94: after a failed check, or out of verification; kept and used, never
     substituted) that telemetry/NNNN.json names are printed with their spans and readings, and their
     count recomputed from the spans.
It prints «сходится» or «РАСХОДИТСЯ» for each and exits 0 when everything agrees with an outside
anchor, 1 naming every check that differs, 2 when the pack is incomplete or unreadable (naming the
file), 3 when everything agrees but no outside anchor was given (only self-consistency checked).

A climate project's monitoring period's pack (issue 89 item 4; its manifest.json says
«"kind": "climate_period"»), in its folder or as its parts when it was split for the registry's
100 MB attachments (each part a zip; the zip the platform hands out holding them may be passed too):

    python3 verify.py --public-key platform.pem
    python3 verify.py "… часть 1 из 3.zip" "… часть 2 из 3.zip" "… часть 3 из 3.zip" --public-key platform.pem

checks the platform's signature over the manifest and every file's SHA-256 (a file missing, changed
or not listed differs), then recomputes from the readings of every meter of the monitoring plan
(minutes/*.csv; plan.json: each meter's kind and поверка instants) by methodology section 13
(rules 2026.7; D70 minutes, D71 substitution and the hour's validity, D72 and D73 efficiencies, D74–D78
emissions, baseline, reductions and carbon units, D79 deviations) every hour of every device against
its table (hours/*.csv), the period's totals and carbon units (totals.json, period.json) and the
deviations (period.json); the executor's КЭП over manifest.json (kep/manifest.json.N.sig, GOST R
34.10-2012) is named, to be checked in CryptoPro or КриптоАРМ; it exits 0 when all agree under the key, 1 naming each that differs (a
removed file too), 2 when the manifest cannot be read, 3 when all agree but no key was passed.

Either pack reconciled with the mine's own dispatch export (issue 95; a pack made since 28.11.2026 that
holds readings of the АГК carries readings-days.json):

    python3 verify.py --reconcile "АГК март.csv"              (in the unzipped pack, or naming it / its parts)

reads the export as the platform reads one (UTF-8 or Windows-1251, «;», a column per sensor code after the
time or a row per reading «Датчик;Время;Значение», «ДД.ММ.ГГГГ ЧЧ:ММ[:СС]» on the company's clock or ISO
8601 with a zone, decimal commas), checks readings-days.json against manifest.json and against the pack's
own readings files, and compares per meter and day on the company's clock, within each set's window, the
count and the SHA-256 of the readings (the canonical form readings-days.json states: per reading in time
order «<ISO 8601 UTC instant with ms>;<the value as ECMAScript writes it>\n»). It exits 0 when every
meter-day agrees, 1 naming the first meter-day that differs («РАСХОДИТСЯ: датчик ДГ-P, сутки 2026-03-11: в
пакете 1440 показаний (SHA-256 …), в выгрузке 1439 (…)»), 2 when the pack or the export cannot be read. Run
it with --public-key first: --reconcile checks the listing against manifest.json, not the signature.
"""
import argparse
import array
import base64
import binascii
import csv
import datetime
import hashlib
import io
import json
import math
import os
import re
import sys
import zipfile
import zlib
from xml.etree import ElementTree

TOLERANCE_T = 1e-6  # t: the snapshot's figures are rounded to 1e-9 t
FLARE_EFFICIENCY = 0.98  # IPCC flare form (methodology 4.6, 4.7)
CH4_DENSITY_20C = 0.668  # kg/m3 (methodology 1.1)
CO2_DENSITY_20C = 1.8393
# methodology 1.1: CH4 density by the row whose CO2 density a mine-gas fuel entry carries as its factor
CH4_BY_CO2_DENSITY = ((1.9768, 0.717), (1.8738, 0.6797), (1.8393, 0.668))
MINE_GAS_FUEL_ENTRY = 8  # «Каптированный шахтный метан» (100 % CH4)
POST_MINING_TYPE = "handling_underground_ch4"
NETTED_LINES = ("1.B.1.a.i.1", "1.B.1.a.i.2")  # D17: the destroyed gas comes off these, in order
CO2_NETTED_LINE = "1.B.1.a.i.1"  # D28
# D44: the files every pack holds, whatever its manifest lists (the calculations' and evidence files
# come from the snapshot).
PACK_FILES = ("snapshot.json", "version.json", "rules.json", "coefficients.csv", "passport.pdf", "passport.xlsx",
              "verify.py", "manifest.json", "comparison.json")
# Issue 109, methodology section 14: measured against estimated (D81-D85)
COMPARISON_FILE = "comparison.json"
# D94, D107: the instruments' record of the months taken from the АГК, the minutes «под сомнением» come from
INSTRUMENTS_FILE = "instruments.json"
MINING_LINE = "1.B.1.a.i.1"
MEASURED_TYPE = "underground"
ESTIMATE_TYPE = "underground_emission_ch4"
MEASURED_POINT_KINDS = ("ventilation_shaft", "drainage_station")
MIN_SCOPE_MONTHS = 9  # D93: fewer months in scope give no verdict
IMPLIED_FACTOR_DENSITY = 0.67  # kg/m3, D2 and D83
# Issue 86 R9: the platform's signature over manifest.json, and the day since which every pack has one.
MANIFEST_SIGNATURE = "manifest.sig.json"
SIGNED_MANIFEST_FORMAT = 2
SIGNED_MANIFEST_SINCE = "2026-11-27"
FIGURES_SHEET = "Выбросы"
# What a file manager leaves in a folder it shows (macOS Finder, Windows Explorer): no file of a pack,
# never read, so not refused.
SYSTEM_FILES = (".DS_Store", "Thumbs.db", "desktop.ini")
# Issue 89 item 5: a climate period's pack carries the executor's КЭП over manifest.json beside it.
KEP_SIGNATURE = re.compile(r"^kep/manifest\.json\.\d+\.sig$")
# wasm-core/src/coefficient-sources.ts: how coefficients.csv names a source other than a dictionary
SOURCE_LABELS = {
    "custom": "Фактическое значение",
    "fixed": "Фиксированное значение",
    "default": "Фиксированное значение (по умолчанию)",
    "order_default": "По умолчанию (Приказ № 371)",
    "input": "Введено пользователем",
    "periods": "Рассчитано по периодам",
}
PASSPORT_SHEET = "Паспорт"
PASSPORT_SHA_LABEL = "SHA-256 версии"
PASSPORT_KEY_LABEL = "Отпечаток ключа подписи (SHA-256)"
# RFC 8017 9.2, note 1: the DigestInfo of SHA-256 before the hash in a PKCS #1 v1.5 signature
SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


# ---- RFC 8785 (the same as snapshot_hash.py) ----

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
    mantissa, _, exponent = repr(abs(value)).partition("e")
    digits = mantissa.replace(".", "")
    point = mantissa.index(".") if "." in mantissa else len(mantissa)
    point += int(exponent or 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k, n = len(digits), point
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


def canonical(value):
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
        keys = sorted(value, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(es_string(k) + ":" + canonical(value[k]) for k in keys) + "}"
    raise ValueError("not JSON: %r" % (value,))


# ---- reading ----

class Report:
    def __init__(self):
        self.differ = []
        self.missing = []
        self.checked = 0

    def agree(self, what):
        self.checked += 1
        print("сходится:    " + what)

    def fail(self, what, detail):
        self.checked += 1
        self.differ.append(what)
        print("РАСХОДИТСЯ:  " + what + " — " + detail)

    def incomplete(self, what):
        """D44: a file the pack must hold is missing or unreadable: the pack cannot be verified (exit 2)."""
        self.missing.append(what)
        print("НЕПОЛОН:     " + what)

    def compare(self, what, computed, stated):
        if close(computed, stated):
            self.agree("%s: %s" % (what, fmt(stated)))
        else:
            self.fail(what, "пересчет %s, в пакете %s" % (fmt(computed), fmt(stated)))


def close(a, b):
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or isinstance(b, bool):
        return False
    return abs(a - b) <= TOLERANCE_T + 1e-12 * max(abs(a), abs(b))


def fmt(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ("%.9f" % value).rstrip("0").rstrip(".") or "0"
    return repr(value)


def num(record, name):
    value = (record or {}).get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value in (float("inf"), float("-inf")):
        return 0.0
    return value


def first_difference(a, b, path=""):
    """The first path where two JSON values differ, with both values; None when equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return (path + "." + key).lstrip("."), a.get(key), b.get(key)
            found = first_difference(a[key], b[key], path + "." + key)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return path.lstrip(".") or "[]", "%d элементов" % len(a), "%d элементов" % len(b)
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, "%s[%d]" % (path, i))
            if found:
                return found
        return None
    if a == b and type(a) is type(b) or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b and not isinstance(a, bool)):
        return None
    return path.lstrip("."), a, b


READINGS_SHA = re.compile(r"SHA-256 показаний ([0-9a-f]{64})")


def readings_sha_of(line):
    """The SHA-256 of the АГК readings a month accepted from them names in its evidence; None for any other line."""
    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)
    for text in strings(line.get("coefficients") or {}):
        found = READINGS_SHA.search(text)
        if found:
            return found.group(1)
    return None


def telemetry_files(lines):
    """The telemetry files a pack holds for each month accepted from the АГК: (csv, json, calculation file)."""
    return [("telemetry/%04d.csv" % (index + 1), "telemetry/%04d.json" % (index + 1), "calculations/%04d.json" % (index + 1))
            for index, line in enumerate(lines) if readings_sha_of(line)]


def evidence_files(lines):
    """The evidence files the snapshot's coefficients name, as the pack stores them."""
    names = []
    for index, line in enumerate(lines):
        for field, use in sorted((line.get("coefficients") or {}).items()):
            evidence = (use or {}).get("evidence")
            if evidence:
                names.append(("evidence/%04d-%s.%s" % (index + 1, field, evidence.get("format")),
                              "calculations/%04d.json" % (index + 1), field))
    return names


XLSX = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
        "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
        "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}


def sheet_rows(path, name):
    """The rows of the workbook's sheet `name` as {column letter: text}, read with zipfile and
    ElementTree; None when the workbook has no such sheet. Raises on a file that is no workbook."""
    with zipfile.ZipFile(path) as book:
        def xml(part):
            return ElementTree.fromstring(book.read(part.lstrip("/")))
        shared = []
        if "xl/sharedStrings.xml" in book.namelist():
            shared = ["".join(t.text or "" for t in si.iter("{%s}t" % XLSX["m"])) for si in xml("xl/sharedStrings.xml")]
        targets = {rel.get("Id"): rel.get("Target") for rel in xml("xl/_rels/workbook.xml.rels")}
        sheet = next((s for s in xml("xl/workbook.xml").iter("{%s}sheet" % XLSX["m"]) if s.get("name") == name), None)
        if sheet is None:
            return None
        target = targets[sheet.get("{%s}id" % XLSX["r"])]

        def text(cell):
            if cell.get("t") == "s":
                return shared[int(cell.find("{%s}v" % XLSX["m"]).text)]
            return "".join(t.text or "" for t in cell.iter("{%s}t" % XLSX["m"])) or (cell.findtext("{%s}v" % XLSX["m"]) or "")

        rows = []
        for row in xml(target if target.startswith("/") else "xl/" + target).iter("{%s}row" % XLSX["m"]):
            rows.append({re.sub(r"\d+$", "", c.get("r") or ""): text(c) for c in row.iter("{%s}c" % XLSX["m"])})
        return rows


def passport_sha(path, label=PASSPORT_SHA_LABEL):
    """The value the passport's workbook prints on its «Паспорт» sheet beside `label` («SHA-256
    версии»); None when the sheet has no such row. Raises on a file that is no workbook."""
    for row in sheet_rows(path, PASSPORT_SHEET) or []:
        if row.get("A") == label and "B" in row:
            return row["B"].strip()
    return None


# ---- the passport's PDF, read with zlib ----

PDF_OBJECT = re.compile(rb"(\d+)\s+0\s+obj\b(.*?)\bendobj", re.S)
PDF_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)
PDF_STREAM_START = re.compile(rb"stream\r?\n")
PDF_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")


def pdf_objects(data):
    """Each object of the PDF by its number: (dictionary text, stream bytes decompressed or None). A
    stream is its dictionary's /Length bytes after the keyword's end of line: compressed bytes may end
    in a carriage return, which a pattern up to «endstream» would take as the end of line and drop."""
    objects = {}
    for match in PDF_OBJECT.finditer(data):
        body = match.group(2)
        start = PDF_STREAM_START.search(body)
        head = body[:start.start()] if start else body
        content = None
        if start:
            length = PDF_LENGTH.search(head)
            if length:
                content = body[start.end():start.end() + int(length.group(1))]
            else:
                content = PDF_STREAM.search(body).group(1)
            if b"/FlateDecode" in head:
                content = zlib.decompress(content)
        objects[int(match.group(1))] = (head, content)
    return objects


def pdf_ref(head, name):
    found = re.search(rb"/" + name + rb"\s+(\d+)\s+0\s+R", head)
    return int(found.group(1)) if found else None


def pdf_cmap(text):
    """A ToUnicode CMap's codes (hex) → text: bfchar and bfrange entries."""
    codes = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
        for code, uni in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f\s]+)>", block):
            codes[code.decode().lower()] = bytes.fromhex(uni.decode()).decode("utf-16-be", "replace")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
        for low, high, rest in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]+>)", block):
            width = len(low)
            first, last = int(low, 16), int(high, 16)
            # A ligature's entry holds several code units apart by spaces («<0066 0066>», ff).
            targets = re.findall(rb"<([0-9A-Fa-f\s]+)>", rest)
            for i, code in enumerate(range(first, last + 1)):
                if rest.startswith(b"["):
                    uni = bytes.fromhex(targets[i].decode()) if i < len(targets) else b""
                else:
                    start = int(targets[0], 16) + i
                    uni = start.to_bytes(len(targets[0]) // 2, "big")
                codes[("%0*x" % (width, code))] = uni.decode("utf-16-be", "replace")
    return codes


def pdf_lines(data):
    """The text the PDF's pages show, one string per text object (BT … ET), decoded through each
    font's ToUnicode map (the passport's embedded fonts write glyph ids, not letters)."""
    objects = pdf_objects(data)
    lines = []
    for number, (head, _) in sorted(objects.items()):
        if not re.search(rb"/Type\s*/Page\b", head):
            continue
        resources = head
        ref = pdf_ref(head, b"Resources")
        if ref is not None:
            resources = objects.get(ref, (b"", None))[0]
        fonts_ref = pdf_ref(resources, b"Font")
        fonts_text = objects.get(fonts_ref, (b"", None))[0] if fonts_ref is not None else resources
        inline = re.search(rb"/Font\s*<<(.*?)>>", fonts_text, re.S)
        fonts = {}
        for name, font in re.findall(rb"/([A-Za-z0-9_.+-]+)\s+(\d+)\s+0\s+R", inline.group(1) if inline else fonts_text):
            to_unicode = pdf_ref(objects.get(int(font), (b"", None))[0], b"ToUnicode")
            stream = objects.get(to_unicode, (b"", None))[1] if to_unicode is not None else None
            fonts[name] = pdf_cmap(stream or b"")
        contents = re.search(rb"/Contents\s*(\[[^\]]*\]|\d+\s+0\s+R)", head)
        refs = [int(n) for n in re.findall(rb"(\d+)\s+0\s+R", contents.group(1))] if contents else []
        stream = b"\n".join(objects.get(n, (b"", b""))[1] or b"" for n in refs)
        for block in re.findall(rb"\bBT\b(.*?)\bET\b", stream, re.S):
            cmap, parts = {}, []
            for font, hexes in re.findall(rb"/([A-Za-z0-9_.+-]+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>", block):
                if font:
                    cmap = fonts.get(font, {})
                    continue
                text = hexes.decode().lower()
                width = min((len(k) for k in cmap), default=4)
                parts.append("".join(cmap.get(text[i:i + width], "") for i in range(0, len(text), width)))
            lines.append("".join(parts))
    return lines


def pdf_printed(path, label):
    """The hex value passport.pdf prints beside `label` (on its line or the lines after, when the
    cell wraps), 64 hex digits; None when it prints none."""
    lines = pdf_lines(open(path, "rb").read())
    for i, line in enumerate(lines):
        if line.strip() != label:
            continue
        value = ""
        for following in lines[i + 1:]:
            piece = following.strip()
            if not re.fullmatch(r"[0-9a-f]+", piece):
                break
            value += piece
            if len(value) >= 64:
                break
        return value or None
    return None


# ---- the platform's signature (RSASSA-PKCS1-v1_5, SHA-256), with pow ----

def der_read(data, at):
    """One DER element at `at`: (tag, content start, content end)."""
    tag = data[at]
    length = data[at + 1]
    at += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[at:at + count], "big")
        at += count
    return tag, at, at + length


def rsa_public_key(pem):
    """(n, e, DER) of a PEM public key: SubjectPublicKeyInfo («PUBLIC KEY») or PKCS #1 («RSA PUBLIC KEY»)."""
    body = re.search(r"-----BEGIN ([A-Z ]+)-----(.*?)-----END \1-----", pem, re.S)
    if not body:
        raise ValueError("в файле нет ключа PEM")
    der = base64.b64decode("".join(body.group(2).split()))
    rsa = der
    if body.group(1) == "PUBLIC KEY":
        _, start, end = der_read(der, 0)  # SubjectPublicKeyInfo
        _, a_start, a_end = der_read(der, start)  # AlgorithmIdentifier
        tag, b_start, b_end = der_read(der, a_end)  # BIT STRING
        if tag != 0x03:
            raise ValueError("ключ не RSA")
        rsa = der[b_start + 1:b_end]
    _, start, _ = der_read(rsa, 0)
    _, n_start, n_end = der_read(rsa, start)
    _, e_start, e_end = der_read(rsa, n_end)
    return int.from_bytes(rsa[n_start:n_end], "big"), int.from_bytes(rsa[e_start:e_end], "big"), der


def signature_holds(n, e, signature, digest):
    """RFC 8017 8.2.2: the signature raised to e mod n is 00 01 FF… 00 DigestInfo(SHA-256) digest."""
    k = (n.bit_length() + 7) // 8
    s = int.from_bytes(signature, "big")
    if len(signature) != k or s >= n:
        return False
    encoded = pow(s, e, n).to_bytes(k, "big")
    tail = SHA256_DIGEST_INFO + digest
    return encoded == b"\x00\x01" + b"\xff" * (k - len(tail) - 3) + b"\x00" + tail


# ---- the methodology, as the platform computes it ----

def basis_of(calc, rules):
    fallback = rules["types"].get(calc["type"], {}).get("basis")
    if not fallback:
        return None
    stored = (calc.get("inputs") or {}).get("basis")
    return stored if stored in ("gross", "net") else fallback


def methane_destroyed(calc):
    """(route, t CH4 sent, t CH4 destroyed) of a flare or boiler; None for any other calculation."""
    t, inputs = calc["type"], calc.get("inputs") or {}
    if t == "torch_composition":
        sent = num(inputs, "volume") * num(inputs, "w_ch4") * num(inputs, "p_ch4") / 100
        return "flared", sent, sent * (1 - num(inputs, "cf"))
    if t in ("torch_ch4", "disposal_co2_torch"):
        sent = num(inputs, "volume") * num(inputs, "koef_transform")
        return "flared", sent, sent * FLARE_EFFICIENCY
    if t == "disposal_co2_stat_sources":
        oxidised = 1 if "of" not in inputs else num(inputs, "of")
        density = next((ch4 for co2, ch4 in CH4_BY_CO2_DENSITY if abs(co2 - num(inputs, "ef")) < 1e-9), CH4_DENSITY_20C)
        gas = num(inputs, "volume") * (1 if "k" not in inputs else num(inputs, "k"))
        if num(inputs, "w_ch4") > 0:
            sent = gas * num(inputs, "w_ch4") * (num(inputs, "p_ch4") or density) / 100
            return "used", sent, sent * oxidised
        ef = (calc.get("coefficients") or {}).get("ef") or {}
        if ef.get("dictionary") != "get_disposal_co2_stat_sources" or ef.get("item_id") != MINE_GAS_FUEL_ENTRY:
            return None
        sent = gas * density
        return "used", sent, sent * oxidised
    return None


def co2_carried(calc):
    """D28: t CO2 the drained gas a flare or boiler burnt by composition carried."""
    inputs = calc.get("inputs") or {}
    if calc["type"] not in ("torch_composition", "disposal_co2_stat_sources") or not num(inputs, "w_ch4") > 0:
        return 0.0
    if calc["type"] == "disposal_co2_stat_sources":
        # The mine-gas entry's k × ef is ρ CO2, t per thousand m³ (4.8 with D28).
        k = 1 if "k" not in inputs else num(inputs, "k")
        return num(inputs, "volume") * k * (num(inputs, "ef") or CO2_DENSITY_20C) * num(inputs, "w_co2") / 100
    return num(inputs, "volume") * num(inputs, "w_co2") * (num(inputs, "p_co2") or CO2_DENSITY_20C) / 100


FIELDS = ("gross", "net", "post_mining", "flared", "used", "destroyed", "slip", "ipcc_co2_sent", "ipcc_co2_destroyed",
          "ipcc_ch4_sent", "ipcc_ch4_destroyed", "co2_gross", "co2_carried")


def balance_part(calc, rules):
    results = calc.get("results") or {}
    basis = basis_of(calc, rules)
    if basis:
        part = {("post_mining" if calc["type"] == POST_MINING_TYPE else basis): num(results, "res_ch4")}
        if basis == "gross" and num(results, "res_co2") > 0:
            part["co2_gross"] = num(results, "res_co2")
        return part
    destroyed = methane_destroyed(calc)
    if not destroyed:
        return None
    route, sent, burnt = destroyed
    if calc["type"] == "disposal_co2_torch":
        return {"ipcc_co2_sent": sent, "ipcc_co2_destroyed": burnt}
    if calc["type"] == "torch_ch4":
        return {"ipcc_ch4_sent": sent, "ipcc_ch4_destroyed": burnt}
    part = {route: sent, "destroyed": burnt}
    if co2_carried(calc) > 0:
        part["co2_carried"] = co2_carried(calc)
    if calc["type"] == "torch_composition":
        part["slip"] = sent - burnt
    return part


def destruction_of(sums):
    """(flared, sent, destroyed, slip) t CH4: the IPCC flare pair's larger half counts."""
    if sums["ipcc_co2_sent"] >= sums["ipcc_ch4_sent"]:
        ipcc_sent, ipcc_destroyed = sums["ipcc_co2_sent"], sums["ipcc_co2_destroyed"]
    else:
        ipcc_sent, ipcc_destroyed = sums["ipcc_ch4_sent"], sums["ipcc_ch4_destroyed"]
    flared = sums["flared"] + ipcc_sent
    destroyed = sums["destroyed"] + ipcc_destroyed
    slip = sums["slip"] + (sums["ipcc_ch4_sent"] - sums["ipcc_ch4_destroyed"])
    return flared, flared + sums["used"], destroyed, slip


ATMOSPHERE_KINDS = ("ventilation_shaft", "vam_oxidiser")


def netting_by_point(mining, destruction):
    """D35: mining is [(point, kind, sums)], destruction [(named drainage points, sums)]; the gas a
    destruction part sent comes off the points it names, else the facility's drainage stations, else
    its figures of the mine as a whole, never a ventilation shaft; several points share it by their
    drained CH4. Returns {point: (gross, netted, co2_gross, co2_netted)}."""
    fed = {}
    for names, sums in destruction:
        _, sent, destroyed, slip = destruction_of(sums)
        if names:
            feeders = [next((m for m in mining if m[0] == n), (n, "drainage_station", empty_sums())) for n in names]
        else:
            feeders = [m for m in mining if m[1] == "drainage_station"] or \
                [m for m in mining if m[1] not in ATMOSPHERE_KINDS and m[2]["gross"] > 0]
        weights = [m[2]["gross"] + m[2]["net"] for m in feeders]
        whole = sum(weights)
        for feeder, weight in zip(feeders, weights):
            share = weight / whole if whole > 0 else 1.0 / len(feeders)
            taken, co2 = fed.get(feeder[0], (0.0, 0.0))
            fed[feeder[0]] = (taken + (destroyed + slip) * share, co2 + sums["co2_carried"] * share)
    return {point: (sums["gross"], min(fed.get(point, (0.0, 0.0))[0], sums["gross"]),
                    sums["co2_gross"], min(fed.get(point, (0.0, 0.0))[1], sums["co2_gross"]))
            for point, _, sums in mining}


def empty_sums():
    return {f: 0.0 for f in FIELDS}


def balance_of(sums, parts=None):
    flared, _, destroyed, slip = destruction_of(sums)
    if parts is None:  # a version approved before D35: the facility's figures as one
        netted = min(destroyed + slip, sums["gross"]) if sums["gross"] > 0 else 0.0
        co2_netted = min(sums["co2_carried"], sums["co2_gross"])
        by_point = None
    else:
        by_point = netting_by_point(*parts)
        netted = sum(p[1] for p in by_point.values())
        co2_netted = sum(p[3] for p in by_point.values())
    return {
        "mining_gross_t": sums["gross"],
        "destroyed_t": destroyed,
        "slip_t": slip,
        "netted_t": netted,
        "co2_gross_t": sums["co2_gross"],
        "co2_netted_t": co2_netted,
        "flared_t": flared,
        "used_t": sums["used"],
        "by_point": by_point,
    }


def co2e(gas, t, gwp_ch4):
    return t * gwp_ch4 if gas == "CH4" else t


# ---- the checks ----

def main(folder, published=None, public_key=None):
    report = Report()
    public_keys = [public_key] if isinstance(public_key, str) else list(public_key or [])
    report.anchored = published is not None or len(public_keys) > 0
    path = lambda name: os.path.join(folder, name)
    try:
        manifest_raw = open(path("manifest.json"), "rb").read()
        manifest = json.loads(manifest_raw.decode("utf-8"))
    except (OSError, ValueError) as error:
        report.incomplete("manifest.json не читается: %s" % error)
        return finish(report, None)
    # Issue 86 R9: the manifest as the platform signed it; the files are checked against it.
    signed = read_signed_manifest(report, path)
    if signed is not None:
        manifest = as_signed(report, signed, manifest)
    where = "в подписанном манифесте" if signed is not None else "в манифесте"
    listed = {entry["name"] for entry in manifest.get("files", [])}
    required = set()

    def must_hold(names):
        """D44: the pack's own list, besides the manifest's: each file present and listed there."""
        for name in names:
            required.add(name)
            if not os.path.isfile(path(name)):
                if name not in listed:  # a listed one is named below
                    report.incomplete("файла %s нет в пакете" % name)
            elif name not in listed and name != "manifest.json":
                report.incomplete("файл %s не указан в manifest.json" % name)

    print("== Файлы пакета (свой список и manifest.json, SHA-256)")
    must_hold(PACK_FILES)
    for entry in manifest.get("files", []):
        try:
            digest = hashlib.sha256(open(path(entry["name"]), "rb").read()).hexdigest()
        except OSError:
            report.incomplete("файла %s нет в пакете" % entry["name"])
            continue
        if digest == entry["sha256"]:
            report.agree("файл %s" % entry["name"])
        else:
            report.fail("файл %s" % entry["name"], "SHA-256 %s, %s %s" % (digest, where, entry["sha256"]))
    gone = {(m["calculation"], m["coefficient"]) for m in manifest.get("evidence_missing", [])}
    for missing in manifest.get("evidence_missing", []):
        print("примечание: подтверждающий документ «%s» (%s, %s) удален после утверждения и в пакет не вошел"
              % (missing["name"], missing["calculation"], missing["coefficient"]))

    try:
        raw = open(path("snapshot.json"), "rb").read()
        snapshot = json.loads(raw.decode("utf-8"))
        version = json.load(open(path("version.json"), encoding="utf-8"))
        rules = json.load(open(path("rules.json"), encoding="utf-8"))
    except (OSError, ValueError) as error:
        report.incomplete("пакет не читается: %s" % error)
        return finish(report, None)
    lines = snapshot["inventory"]["calculations"]
    must_hold("calculations/%04d.json" % (index + 1) for index in range(len(lines)))
    must_hold(name for name, calculation, field in evidence_files(lines) if (calculation, field) not in gone)
    kept_before = {m["calculation"] for m in manifest.get("telemetry_missing", [])}
    for missing in manifest.get("telemetry_missing", []):
        print("примечание: показания АГК месяца %s («%s», %s) приняты до того, как платформа сохраняла их для пакета"
              % (missing["month"], missing["point"], missing["calculation"]))
    must_hold(name for csv, js, calculation in telemetry_files(lines) if calculation not in kept_before for name in (csv, js))
    # Issue 86 R9: a file the manifest does not list is no file of the platform's pack (the key the
    # verifier passed and saved beside the pack's files is the verifier's, issue 96 item 9).
    keys_inside = named_keys([folder], public_keys)
    note_named_keys(keys_inside)
    for name in pack_files(folder):
        if name not in listed and name not in required and name != MANIFEST_SIGNATURE and name not in keys_inside:
            if name.split("/")[-1] in SYSTEM_FILES or name.split("/")[-1].startswith("._"):
                print("примечание: служебный файл %s (его оставляет файловый менеджер) не проверяется" % name)
                continue
            report.fail("файл %s" % name, "его нет %s: в пакете платформы такого файла нет "
                        "(распакуйте пакет в пустую папку)" % where)

    print("== Снимок версии %s (RFC 8785, SHA-256)" % version.get("version"))
    text = canonical(snapshot).encode("utf-8")
    digest = hashlib.sha256(text).hexdigest()
    if text != raw:
        report.fail("снимок snapshot.json", "файл не в канонической форме RFC 8785")
    if digest == version["sha256"]:
        report.agree("SHA-256 снимка %s — тот, что платформа показывает для версии" % digest)
    else:
        report.fail("SHA-256 снимка", "пересчет %s, у версии %s" % (digest, version["sha256"]))
    # D44: a forger who rewrites the snapshot, version.json and the manifest together still meets
    # the hash the passport printed at approval, and the one the company published.
    if os.path.isfile(path("passport.xlsx")):
        try:
            printed = passport_sha(path("passport.xlsx"))
        except (KeyError, ValueError, IndexError, zipfile.BadZipFile, ElementTree.ParseError) as error:
            report.incomplete("паспорт passport.xlsx не читается: %s" % error)
        else:
            if printed is None:
                report.incomplete("в паспорте passport.xlsx нет строки «%s»" % PASSPORT_SHA_LABEL)
            else:
                printed_agrees(report, "SHA-256 снимка", "passport.xlsx", printed, digest, "пересчет")
    if os.path.isfile(path("passport.pdf")):
        try:
            printed_pdf = pdf_printed(path("passport.pdf"), PASSPORT_SHA_LABEL)
        except (ValueError, IndexError, zlib.error, UnicodeDecodeError) as error:
            report.incomplete("паспорт passport.pdf не читается: %s" % error)
        else:
            if printed_pdf is None:
                # A passport that prints no hash (replaced, or not the version's) disagrees with it.
                report.fail("SHA-256 снимка: паспорт passport.pdf", "не печатает строку «%s»" % PASSPORT_SHA_LABEL)
            else:
                printed_agrees(report, "SHA-256 снимка", "passport.pdf", printed_pdf, digest, "пересчет")
    # Four eyes (D33): the version was approved by someone other than its sender.
    if snapshot.get("sent_by"):
        if snapshot["sent_by"] != snapshot.get("approved_by"):
            report.agree("четыре глаза: отправил %s, утвердил %s" % (snapshot["sent_by"], snapshot.get("approved_by")))
        else:
            report.fail("четыре глаза", "версию утвердил тот же, кто ее отправил: %s" % snapshot["sent_by"])
    else:
        print("примечание: в снимке не указано, кто отправил версию на проверку (версия утверждена до того, как это сохранялось)")
    keys = load_keys(report, public_keys)
    if keys:
        check_signature(report, path, version, digest, keys)
    if published is not None:
        if published.strip().lower() == digest:
            report.agree("SHA-256 снимка — тот, что передан (--sha256)")
        else:
            report.fail("SHA-256 снимка: передан (--sha256) %s" % published.strip(), "пересчет %s" % digest)

    print("== Манифест пакета и его подпись (manifest.json, %s)" % MANIFEST_SIGNATURE)
    check_manifest(report, manifest, signed, snapshot, digest, keys)

    print("== Читаемые файлы пакета против снимка: version.json, passport.xlsx, coefficients.csv")
    check_version_file(report, version, snapshot, digest)
    if os.path.isfile(path("passport.xlsx")):
        check_passport_figures(report, path("passport.xlsx"), snapshot)
    if os.path.isfile(path("coefficients.csv")):
        check_coefficients(report, path("coefficients.csv"), snapshot["inventory"]["calculations"])

    inventory = snapshot["inventory"]
    gwp = inventory["gwp"]["gwp_ch4"]
    labels = {(c["category"], c["ipcc_code"], c["gas"]): c.get("ipcc_label", "") for c in inventory["categories"]}

    def line_name(ipcc, gas, category=None):
        label = next((v for (cat, code, g), v in labels.items() if code == ipcc and g == gas and (category is None or cat == category)), "")
        return "строка %s %s%s" % (ipcc, gas, " «%s»" % label if label else "")

    def calc_name(calc):
        label = next((v for (_, code, _), v in labels.items() if code == calc["ipcc_code"]), "")
        left_out = "" if calc.get("counted") else " (не входит в итог)"
        return "строка %s%s, расчет «%s»%s" % (calc["ipcc_code"], " «%s»" % label if label else "", calc["name"], left_out)

    print("== Расчеты (calculations/): входные данные, результаты, коэффициенты и газы")
    calcs = []
    for index, line in enumerate(lines):
        name = "calculations/%04d.json" % (index + 1)
        try:
            calc = json.load(open(path(name), encoding="utf-8"))
        except (OSError, ValueError) as error:
            report.fail(calc_name(line), "файл %s не читается: %s" % (name, error))
            calcs.append(line)
            continue
        for key in ("id", "type", "ipcc_code", "facility", "counted", "inputs", "results", "coefficients"):
            found = first_difference(calc.get(key), line.get(key), key)
            if found:
                report.fail(calc_name(calc), "%s: %s в %s, %s в утвержденном снимке" % (found[0], fmt(found[1]), name, fmt(found[2])))
                break
        else:
            report.agree("%s: файл %s совпадает со снимком" % (calc_name(calc), name))
        calcs.append(calc)
        rule = rules["types"].get(calc["type"])
        if not rule:
            continue
        stated = {g["gas"]: g for g in line.get("gases", [])}
        for gas_rule in rule["gases"]:
            gas = gas_rule["gas"]
            t = num(calc.get("results"), gas_rule["result"])
            figure = stated.get(gas, {})
            report.compare("%s: %s, т" % (calc_name(calc), gas), t, figure.get("t"))
            report.compare("%s: %s, т CO2-экв." % (calc_name(calc), gas), co2e(gas, t, gwp), figure.get("t_co2e"))

    print("== Сальдирование (D17, D26, D28): метан, уничтоженный на факелах и в котельных, и CO2 сожженного газа")
    counted = [c for c in calcs if c.get("counted")]
    facilities = []
    sums = {}
    # D35: each mining point's figures and the destruction by the drainage points it names, with the
    # points' kinds as the version froze them (a version approved before D35 nets the facility as one).
    by_point = any("by_point" in b for b in inventory.get("balance", []))
    kinds = {p["id"]: p.get("kind", "other") for p in (snapshot.get("legal_entity") or {}).get("points") or []}
    mining = {}
    destruction = {}
    for calc in counted:
        part = balance_part(calc, rules)
        if part is None:
            continue
        facility = calc.get("facility")
        if facility not in sums:
            facilities.append(facility)
            sums[facility] = empty_sums()
            mining[facility], destruction[facility] = {}, {}
        if basis_of(calc, rules):
            point = calc.get("point") or None
            into = mining[facility].setdefault(point, (point, kinds.get(point, "other") if point else "", empty_sums()))[2]
        else:
            names = tuple(sorted(calc.get("drainage_points") or []))
            into = destruction[facility].setdefault(names, (list(names), empty_sums()))[1]
        for field, value in part.items():
            sums[facility][field] += value
            into[field] += value
    balances = {f: balance_of(sums[f], (list(mining[f].values()), list(destruction[f].values())) if by_point else None)
                for f in facilities}
    stated_balances = {b.get("facility"): b for b in inventory.get("balance", [])}
    names = {f["id"]: f["name"] for f in inventory.get("facilities", [])}
    for facility, balance in balances.items():
        where = "баланс метана площадки «%s»" % names.get(facility, facility)
        stated = stated_balances.get(facility)
        if stated is None:
            report.fail(where, "в снимке нет баланса этой площадки")
            continue
        for field in ("destroyed_t", "netted_t", "mining_gross_t", "co2_netted_t"):
            if field in stated:
                report.compare("%s: %s" % (where, field), balance[field], stated[field])

    line_by_id = {line["id"]: line for line in lines}
    held_by = {}  # (facility, IPCC code) -> t CH4 of the counted calculations: what a netted line holds
    for calc in counted:
        key = (calc.get("facility"), calc["ipcc_code"])
        held_by[key] = held_by.get(key, 0.0) + num(calc.get("results"), "res_ch4")
    for calc in counted:
        balance = balances.get(calc.get("facility"))
        results = calc.get("results") or {}
        own = {}
        if balance and basis_of(calc, rules) == "gross":
            if balance["by_point"] is None:
                gross, netted, co2_gross, co2_netted = (balance["mining_gross_t"], balance["netted_t"],
                                                        balance["co2_gross_t"], balance["co2_netted_t"])
            else:
                gross, netted, co2_gross, co2_netted = balance["by_point"].get(calc.get("point") or None, (0, 0, 0, 0))
            if calc["type"] != POST_MINING_TYPE and netted > 0 and gross > 0:
                own["CH4"] = num(results, "res_ch4") * netted / gross
            if co2_netted > 0 and co2_gross > 0:
                own["CO2"] = num(results, "res_co2") * co2_netted / co2_gross
        stated = {n["gas"]: n for n in (line_by_id.get(calc["id"], {}).get("netting") or [])}
        for gas in sorted(set(own) | set(stated)):
            t = own.get(gas, 0.0)
            if t <= 0 and gas not in stated:
                continue
            report.compare("%s: − уничтожено (факел, котельная), %s, т" % (calc_name(calc), gas), t, stated.get(gas, {}).get("t", 0.0))

    print("== Строки инвентаризации (категория, код МГЭИК, газ)")
    computed = {}
    facility_t = {}
    for calc in counted:
        rule = rules["types"].get(calc["type"])
        if not rule:
            continue
        for gas_rule in rule["gases"]:
            key = (rule["category"], calc["ipcc_code"], gas_rule["gas"])
            t = num(calc.get("results"), gas_rule["result"])
            computed[key] = computed.get(key, 0.0) + t
            facility = calc.get("facility")
            facility_t[facility] = facility_t.get(facility, 0.0) + co2e(gas_rule["gas"], t, gwp)
    lines_co2e = {key: co2e(key[2], t, gwp) for key, t in computed.items()}
    for facility in facilities:
        balance = balances[facility]
        key = (3, CO2_NETTED_LINE, "CO2")
        if balance["co2_netted_t"] > 0 and key in computed:
            computed[key] -= balance["co2_netted_t"]
            lines_co2e[key] -= balance["co2_netted_t"]
            facility_t[facility] = facility_t.get(facility, 0.0) - balance["co2_netted_t"]
        rest = balance["netted_t"]
        for ipcc in NETTED_LINES:
            t = min(rest, held_by.get((facility, ipcc), 0.0))
            if t <= 0:
                continue
            computed[(3, ipcc, "CH4")] -= t
            lines_co2e[(3, ipcc, "CH4")] -= co2e("CH4", t, gwp)
            facility_t[facility] = facility_t.get(facility, 0.0) - co2e("CH4", t, gwp)
            rest -= t
    stated_lines = {(c["category"], c["ipcc_code"], c["gas"]): c for c in inventory["categories"]}
    for key in sorted(set(computed) | set(stated_lines), key=lambda k: (k[0], k[1], k[2])):
        what = "%s (категория %s)" % (line_name(key[1], key[2], key[0]), key[0])
        stated = stated_lines.get(key)
        if stated is None:
            report.fail(what, "пересчет %s т, строки в снимке нет" % fmt(computed[key]))
            continue
        if key not in computed:
            report.fail(what, "в снимке %s т, пересчет не дает этой строки" % fmt(stated["t"]))
            continue
        report.compare("%s, т" % what, computed[key], stated["t"])
        report.compare("%s, т CO2-экв." % what, lines_co2e[key], stated["t_co2e"])

    print("== Данные АГК: минутные значения принятых месяцев (D59–D63)")
    instruments = load_instruments(report, path, any(readings_sha_of(line) and "calculations/%04d.json" % (index + 1) not in kept_before
                                                     for index, line in enumerate(lines)))
    for index, line in enumerate(lines):
        stated_sha = readings_sha_of(line)
        if stated_sha and "calculations/%04d.json" % (index + 1) not in kept_before:
            check_telemetry(report, path, index, line, stated_sha, instruments)

    print("== Измерено и оценено (comparison.json, D81-D85)")
    check_comparison(report, path, snapshot)

    print("== Итоги по газам, площадкам и за год")
    for gas in ("CO2", "CH4"):
        t = sum(v for k, v in computed.items() if k[2] == gas)
        print("итого %s: %s т, %s т CO2-экв." % (gas, fmt(t), fmt(sum(v for k, v in lines_co2e.items() if k[2] == gas))))
    stated_facilities = {f["id"]: f for f in inventory.get("facilities", [])}
    for facility in sorted(set(facility_t) | set(stated_facilities), key=lambda f: str(f)):
        what = "итого площадки «%s», т CO2-экв." % names.get(facility, facility)
        if facility not in stated_facilities:
            report.fail(what, "пересчет %s, площадки в снимке нет" % fmt(facility_t[facility]))
        else:
            report.compare(what, facility_t.get(facility, 0.0), stated_facilities[facility]["t_co2e"])
    total = sum(facility_t.values())
    report.compare("итого за %s год, т CO2-экв." % snapshot.get("year"), total, inventory["total_t_co2e"])
    report.compare("итого за год по строкам, т CO2-экв.", sum(lines_co2e.values()), inventory["total_t_co2e"])

    return finish(report, version)


# ---- measured against estimated (methodology section 14), as measured-vs-estimated.ts computes it ----

def iso_day(text):
    return datetime.date.fromisoformat(text[:10])


def by_months(year, start, end, t):
    """D85: t of a span spread over the months of the year by days."""
    first, last = iso_day(start), iso_day(end)
    span = (last - first).days + 1
    out = {}
    for month in range(1, 13):
        m_first = datetime.date(year, month, 1)
        m_last = (datetime.date(year + (month == 12), month % 12 + 1, 1) - datetime.timedelta(days=1))
        a, b = max(first, m_first), min(last, m_last)
        if a > b:
            continue
        out["%d-%02d" % (year, month)] = t * ((b - a).days + 1) / span
    return out


def measured_parts(line):
    """Issue 115: a measured calculation's CH4 (formula 3.1, E = V × W_CH4 × ρ_CH4 × 10⁻²) recomputed from
    its inputs, not its stored results: each measurement period's volume (flow × hours × 60 / 1000
    thousand m3) and content, as typed (the period rows keep them beside their results), else its one
    volume and content; as (from, to, t CH4) spans."""
    inputs = line.get("inputs") or {}
    density = num(inputs, "p_ch4") or num((line.get("coefficients") or {}).get("p_ch4"), "value")
    periods = inputs.get("periods")
    if not isinstance(periods, list):
        periods = (line.get("results") or {}).get("periods")
    if isinstance(periods, list) and periods:
        return [(p["from"], p["to"], num(p, "flow_m3_min") * num(p, "hours") * 60 / 1000 * num(p, "w_ch4") * density / 100)
                for p in periods]
    return [(line["period"]["from"], line["period"]["to"], num(inputs, "volume") * num(inputs, "ef_ch4") * density / 100)]


# D91, D107: per emission type, its uncertain inputs as the core models a stored calculation
# (calculationModel and gasApproach1 of wasm-core/src/calculation-uncertainty.ts): the result its model
# needs, its number inputs and settings, those of its CH4 and its activity data. Written by `npm run verify-tables`.
# --- uncertainty fields ---
UNCERTAINTY_FIELDS = json.loads(r"""
{
 "handling_underground_ch4": {"co2e":"res_ch4_to_co2","fields":["volume","ef","koef_transform","gwp_ch4"],"ch4":["volume","ef","koef_transform","gwp_ch4"],"activity":["volume"]},
 "open_mining_ch4": {"co2e":"res_ch4_to_co2","fields":["volume","ef","koef_transform","gwp_ch4"],"ch4":["volume","ef","koef_transform","gwp_ch4"],"activity":["volume"]},
 "open_mining_co2": {"co2e":"res_co2","fields":["volume","ef"],"ch4":["volume","ef"],"activity":["volume"]},
 "underground": {"co2e":"sum_co2","fields":["volume","p_co2","p_ch4","ef_co2","ef_ch4","gwp_ch4"],"ch4":["volume","p_ch4","ef_ch4","gwp_ch4"],"activity":["volume"]},
 "underground_emission_ch4": {"co2e":"res_ch4_to_co2","fields":["volume","ef","koef_transform","gwp_ch4"],"ch4":["volume","ef","koef_transform","gwp_ch4"],"activity":["volume"]},
 "disposal_co2_torch": {"co2e":"res_co2","fields":["volume","ef","koef_transform"],"ch4":["volume","ef","koef_transform"],"activity":["volume"]},
 "disposal_co2_stat_sources": {"co2e":"res_co2","fields":["volume","ef","of","k","w_ch4","w_co2"],"ch4":["volume","ef","of","k","w_ch4","w_co2"],"activity":["volume"]},
 "torch_ch4": {"co2e":"res_ch4_to_co2","fields":["volume","koef_transform","gwp_ch4"],"ch4":["volume","koef_transform","gwp_ch4"],"activity":["volume"]},
 "torch_composition": {"co2e":"sum_co2","fields":["volume","w_ch4","w_co2","w_c2h6","w_c3h8","w_c4h10","w_c5h12","cf","p_co2","p_ch4","gwp_ch4"],"ch4":["volume","w_ch4","cf","p_ch4","gwp_ch4"],"activity":["volume"]},
 "ventilation_air_methane": {"co2e":"res_co2","fields":["volume","ef_ch4","p_ch4","eta","gwp_ch4"],"ch4":["volume","ef_ch4","p_ch4","eta","gwp_ch4"],"activity":["volume"]}
}
"""
)
# --- end of uncertainty fields ---


def finite_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value \
        and value not in (float("inf"), float("-inf"))


def typed_share(kind, field, use, unit):
    """D107: a value typed as the mine's own (`custom`) with its justification or evidence file is one source
    wherever the same input of the same type has the same value, unit, stated uncertainty and justification (or
    file); with neither it names no source and stays the calculation's own."""
    u = use.get("uncertainty")
    if use.get("source") != "custom" or not u:
        return None
    justification = (use.get("justification") or "").strip()
    evidence = use.get("evidence")
    filed = "%s|%s" % (evidence.get("name"), evidence.get("size")) if evidence else ""
    if not justification and not filed:
        return None
    return ("typed", kind, field, use.get("value"), unit, u.get("lower_pct"), u.get("upper_pct"), u.get("distribution"),
            justification, filed)


def share_of(line, field, use):
    """D91, D107: the source of error an input belongs to: a dictionary entry at one version, a value typed with
    one justification, one emission point's instruments, else the calculation's own."""
    u = use["uncertainty"]
    if use.get("source") == "dictionary" and u.get("origin") != "user" and use.get("dictionary") \
            and use.get("item_id") is not None:
        return ("dictionary", use["dictionary"], use["item_id"], use.get("item_version") or 0, field)
    typed = typed_share(line.get("type"), field, use, use.get("unit"))
    if typed:
        return typed
    if line.get("point"):
        return ("point", line["point"], field)
    return ("own", line.get("id"), field)


def ch4_parts(line):
    """D27, D91: the activity-data and factor uncertainties (%) of a calculation's CH4 by Eq. 3.1 over its inputs
    as it recorded them (an asymmetric one by its larger side), and the source of error of each part."""
    spec = UNCERTAINTY_FIELDS.get(line.get("type"))
    if not spec or not finite_number((line.get("results") or {}).get(spec["co2e"])):
        return None
    coefficients = line.get("coefficients") or {}
    ad, ef = [], []
    for field in spec["fields"]:
        use = coefficients.get(field)
        u = (use or {}).get("uncertainty")
        if not use or not u or not finite_number(use.get("value")) or (u.get("lower_pct") == 0 and u.get("upper_pct") == 0):
            continue
        if field not in spec["ch4"]:
            continue
        pct = max(num(u, "lower_pct"), num(u, "upper_pct"))
        activity = u.get("origin") == "activity" or field in spec["activity"]
        (ad if activity else ef).append((pct, share_of(line, field, use)))

    def part(inputs, name):
        group = tuple(sorted(set(share for _, share in inputs), key=repr)) or ((line.get("id"), name),)
        return math.sqrt(sum(pct * pct for pct, _ in inputs)), group

    return part(ad, "ad"), part(ef, "ef")


def line_u(lines):
    """D82, D91: Approach 1 of the calculations' CH4 as one gross line, %: within a source of error the absolute
    uncertainties add linearly, the sources by Eq. 3.2, the activity-data and factor parts by U = √(E² + F²)."""
    total = sum(num(_ch4_gas(l), "t") for l in lines)
    if total <= 0:
        return 0.0
    sums = ({}, {})
    for index, line in enumerate(lines):
        x = num(_ch4_gas(line), "t")
        parts = ch4_parts(line) or ((0.0, (index, "ad")), (0.0, (index, "ef")))
        for k, (pct, group) in enumerate(parts):
            sums[k][group] = sums[k].get(group, 0.0) + pct * x
    ad_u, ef_u = (math.sqrt(sum(v * v for v in by.values())) / abs(total) for by in sums)
    return math.hypot(ad_u, ef_u)


def _ch4_gas(line):
    return next((g for g in line.get("gases") or [] if g.get("gas") == "CH4"), None)


def check_comparison(report, path, snapshot):
    """D81-D85: each underground mine's measured gross CH4 (its shafts' and drainage stations' counted
    formula 3.1 calculations), by month, against its estimate from coal (the counted one, else the one kept
    for comparison, else a primary one left out beside the measured months), recomputed from the snapshot's
    calculations; each side's U by Approach 1 over their sources of error (D91, D107), the difference, the
    implied factor and the verdict from them."""
    try:
        stated = json.load(open(path(COMPARISON_FILE), encoding="utf-8"))
    except (OSError, ValueError) as error:
        report.incomplete("файл %s не читается: %s" % (COMPARISON_FILE, error))
        return
    year = snapshot.get("year")
    entity = snapshot.get("legal_entity") or {}
    kinds = {p["id"]: p.get("kind") for p in entity.get("points") or []}
    month_keys = ["%d-%02d" % (year, m) for m in range(1, 13)]
    lines = snapshot["inventory"]["calculations"]
    stated_by = {f.get("facility"): f for f in stated.get("facilities", [])}
    mines = [f for f in entity.get("facilities") or [] if f.get("kind") == "underground_mine"]
    for facility in mines:
        own = [l for l in lines if l.get("facility") == facility["id"] and l.get("ipcc_code") == MINING_LINE]
        measured = [l for l in own if l["type"] == MEASURED_TYPE and l.get("counted")
                    and kinds.get(l.get("point")) in MEASURED_POINT_KINDS]
        counted = [l for l in own if l["type"] == ESTIMATE_TYPE and l.get("counted")]
        # D81: the counted estimate, else the one kept for comparison, else a primary one the year leaves out
        # beside the measured months (a duplicate of them, D43): compared all the same.
        estimates = counted or [l for l in own if l["type"] == ESTIMATE_TYPE and l.get("inventory_role") == "alternative"] \
            or [l for l in own if l["type"] == ESTIMATE_TYPE and not l.get("counted") and l.get("inventory_role") == "primary"]
        if not measured and not estimates:
            continue
        where = "сравнение шахты «%s»" % facility.get("name")
        row = stated_by.get(facility["id"])
        if row is None:
            report.fail(where, "в %s этой шахты нет" % COMPARISON_FILE)
            continue
        months = {}
        by_point = {}
        m_t = 0.0
        for l in measured:
            parts = measured_parts(l)
            own = sum(t for _, _, t in parts)
            report.compare("%s: расчет «%s», т CH4 по его входным данным" % (where, l.get("name")), own, num(l.get("results"), "res_ch4"))
            m_t += own
            for start, end, t in parts:
                for month, share in by_months(year, start, end, t).items():
                    months[month] = months.get(month, 0.0) + share
                    by_point.setdefault(l.get("point"), set()).add(month)
        report.compare("%s: измерено, т CH4" % where, m_t, (row.get("measured") or {}).get("ch4_t"))
        stated_months = {m.get("month") for m in (row.get("measured") or {}).get("months", [])}
        for month in sorted(set(months) - stated_months):
            report.fail("%s: месяц %s" % (where, month), "пересчет %s т CH4, в файле месяца нет (удален)" % fmt(months[month]))
        # D93: the months in scope are those in which every shaft and drainage station in service has a measurement.
        own_points = [p for p in entity.get("points") or []
                      if p.get("facility") == facility["id"] and p.get("kind") in MEASURED_POINT_KINDS]
        scope = []
        for month in month_keys:
            m_first = month + "-01"
            m_last = str(datetime.date(year + (month.endswith("-12")), int(month[5:]) % 12 + 1, 1) - datetime.timedelta(days=1))
            serving = [p for p in own_points
                       if not (p.get("in_service_from") and p["in_service_from"] > m_last)
                       and not (p.get("in_service_to") and p["in_service_to"] < m_first)]
            if serving and all(month in by_point.get(p["id"], set()) for p in serving):
                scope.append(month)
        coverage = (row.get("measured") or {}).get("coverage") or {}
        if coverage.get("months") == len(scope):
            report.agree("%s: месяцев в сравнении %d" % (where, len(scope)))
        else:
            report.fail("%s: месяцев в сравнении" % where, "пересчет %d, в файле %s" % (len(scope), coverage.get("months")))
        for m in (row.get("measured") or {}).get("months", []):
            computed = months.get(m.get("month"))
            if computed is None and m.get("ch4_t") is None:
                continue
            if computed is None or m.get("ch4_t") is None:
                report.fail("%s: месяц %s" % (where, m.get("month")), "пересчет %s, в файле %s" % (fmt(computed), fmt(m.get("ch4_t"))))
            else:
                report.compare("%s: месяц %s, т CH4" % (where, m.get("month")), computed, m.get("ch4_t"))
        estimated = row.get("estimated")
        if not estimates:
            if estimated is not None:
                report.fail("%s: оценка" % where, "в снимке оценки нет, в файле %s т" % fmt(estimated.get("ch4_t")))
            continue
        e_t = sum(num(l.get("results"), "res_ch4") for l in estimates)
        coal = sum(num(l.get("inputs"), "volume") for l in estimates)
        if estimated is None:
            report.fail("%s: оценка" % where, "пересчет %s т, в файле оценки нет" % fmt(e_t))
            continue
        report.compare("%s: оценка, т CH4" % where, e_t, estimated.get("ch4_t"))
        report.compare("%s: добыча угля, т" % where, coal, row.get("coal_t"))
        if not measured:
            implied = m_t * 1000 / (coal * IMPLIED_FACTOR_DENSITY) if coal > 0 else None
            if implied is not None:
                report.compare("%s: коэффициент по измерению, м3/т" % where, implied, row.get("implied_ef_m3_per_t"))
            continue
        if not scope:
            if row.get("consistent") is not None or row.get("compared") is not None:
                report.fail("%s: вывод" % where, "ни один месяц не измерен на всех источниках, а в файле есть сравнение")
            continue
        # D93: the whole year, or the measured months against the estimate's share of them and their coal.
        if len(scope) == 12:
            c_m, c_e, c_coal = m_t, e_t, coal
        else:
            c_m = sum(months.get(month, 0.0) for month in scope)
            c_e = sum(t for l in estimates for month, t in by_months(year, l["period"]["from"], l["period"]["to"],
                                                                      num(l.get("results"), "res_ch4")).items()
                      if month in scope)
            c_coal = sum(t for l in estimates for month, t in by_months(year, l["period"]["from"], l["period"]["to"],
                                                                         num(l.get("inputs"), "volume")).items()
                         if month in scope)
        compared = row.get("compared") or {}
        report.compare("%s: измерено за сравниваемые месяцы, т CH4" % where, c_m, compared.get("measured_ch4_t"))
        report.compare("%s: доля оценки за них, т CH4" % where, c_e, compared.get("estimated_ch4_t"))
        implied = c_m * 1000 / (c_coal * IMPLIED_FACTOR_DENSITY) if c_coal > 0 else None
        if implied is not None:
            report.compare("%s: коэффициент по измерению, м3/т" % where, implied, row.get("implied_ef_m3_per_t"))
        difference = c_m - c_e
        report.compare("%s: разница, т CH4" % where, difference, row.get("difference_t"))
        # D107: U_M and U_E recomputed from the snapshot's calculations, grouped by their sources of error
        # (D91), never read from the file: a file rewritten with another U is named here.
        u_m, u_e = line_u(measured), line_u(estimates)
        report.compare("%s: неопределенность измерения U_M, %%" % where, u_m, (row.get("measured") or {}).get("u_pct"))
        report.compare("%s: неопределенность оценки U_E, %%" % where, u_e, estimated.get("u_pct"))
        combined = math.hypot(u_m * c_m / 100, u_e * c_e / 100)
        report.compare("%s: суммарная неопределенность, т CH4" % where, combined, row.get("combined_t"))
        consistent = abs(difference) <= combined if len(scope) >= MIN_SCOPE_MONTHS else None
        if consistent == row.get("consistent"):
            report.agree("%s: вывод «%s»" % (where, {True: "согласуются", False: "расходятся",
                                                     None: "судить рано: измерено %d из 12 месяцев" % len(scope)}[consistent]))
        else:
            report.fail("%s: вывод" % where, "пересчет %s, в файле %s" % (consistent, row.get("consistent")))
    known = {f["id"] for f in mines}
    for facility in stated_by:
        if facility not in known:
            report.fail("сравнение: площадка %s" % facility, "в файле есть, в снимке подземной шахты с таким id нет")


# ---- the mine's АГК readings (methodology D57–D62), as wasm-core/src/monitoring.ts computes them ----

MINUTE_MS = 60000
MAX_SUBSTITUTED_GAP_MIN = 1440  # D60: a longer run is «нет данных»
STUCK_MINUTES = 60  # D58
STANDARD_PRESSURE_KPA = 101.325
STANDARD_TEMPERATURE_K = 293.15
ZERO_CELSIUS_K = 273.15
TELEMETRY_REL_TOL = 1e-9
INF = float("inf")
NAN = float("nan")
# D58: each sensor kind's physical range (min, max, whether min itself is outside) and plausible step per
# minute, the mine's meters' and a climate project's alike, as the core holds them (SENSOR_KINDS of
# wasm-core/src/monitoring.ts). Written by `npm run verify-tables`.
# --- sensor kinds ---
SENSOR_KINDS = {
    "methane": (0.0, 4.0, False, 1.0),
    "methane_high": (0.0, 100.0, False, None),
    "air_velocity": (0.0, INF, False, None),
    "flow": (0.0, INF, False, None),
    "pressure": (0.0, INF, True, None),
    "temperature": (-273.15, INF, True, None),
    "methane_flow": (0.0, INF, False, None),
    "carbon_monoxide": (0.0, 1000000.0, False, None),
    "oxygen": (0.0, 100.0, False, None),
    "carbon_dioxide": (0.0, 100.0, False, None),
    "flame": (0.0, 1.0, False, None),
    "exhaust_temperature": (-273.15, 2000.0, True, None),
    "run_status": (0.0, 1.0, False, None),
    "shearer_position": (0.0, 1000.0, False, None),
    "destruction_efficiency": (0.0, 1.0, False, None),
    "electricity": (0.0, 10000.0, False, None),
    "heat": (0.0, 100000.0, False, None),
}
# --- end of sensor kinds ---
OK, VALID, SUBSTITUTED, MISSING = 0, 0, 1, 2


def iso_ms(text):
    """ms since the epoch of «2026-03-01T05:00:00.000Z» (the instants the platform writes)."""
    found = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z", text)
    if not found:
        raise ValueError("время «%s» не в формате ISO 8601 UTC" % text)
    y, mo, d, h, mi, sec = (int(found.group(i)) for i in range(1, 7))
    days = datetime.date(y, mo, d).toordinal() - datetime.date(1970, 1, 1).toordinal()
    return (((days * 24 + h) * 60 + mi) * 60 + sec) * 1000 + int((found.group(7) or "0").ljust(3, "0"))


def in_range(kind, value):
    low, high, exclusive, _ = SENSOR_KINDS[kind]
    if value != value or value in (INF, -INF) or value > high:
        return False
    return value > low if exclusive else value >= low


def sensor_minutes(kind, readings, start, minutes, paired=None):
    """D59 minute means of the valid readings, D58's flags, D60's substitution: (values, states)."""
    sums = [0.0] * minutes
    counts = [0] * minutes
    refused = [False] * minutes
    for t, value in sorted(readings):
        minute = (t - start) // MINUTE_MS
        if minute < 0 or minute >= minutes:
            continue
        if not in_range(kind, value):
            refused[minute] = True
            continue
        sums[minute] += value
        counts[minute] += 1
    means = [sums[m] / counts[m] if counts[m] > 0 else NAN for m in range(minutes)]
    flags = [OK if counts[m] > 0 else 1 for m in range(minutes)]
    step = SENSOR_KINDS[kind][3]
    if step is not None:
        for m in range(1, minutes):
            before = means[m - 1]
            if flags[m] == OK and before == before and abs(means[m] - before) > step:
                flags[m] = 3
    if paired is not None:
        m = 0
        while m < minutes:
            if means[m] != means[m]:
                m += 1
                continue
            end = m + 1
            while end < minutes and means[end] == means[m]:
                end += 1
            if end - m >= STUCK_MINUTES:
                first = None
                for k in range(m, end):
                    if paired[k] != paired[k]:
                        continue
                    if first is None:
                        first = paired[k]
                    elif paired[k] != first:
                        for j in range(m, end):
                            flags[j] = 2
                        break
            m = end
    values = [0.0] * minutes
    states = [VALID] * minutes
    m = 0
    while m < minutes:
        if flags[m] == OK and means[m] == means[m]:
            values[m] = means[m]
            m += 1
            continue
        end = m
        while end < minutes and not (flags[end] == OK and means[end] == means[end]):
            end += 1
        before = values[m - 1] if m > 0 else NAN
        after = means[end] if end < minutes else NAN
        if end - m > MAX_SUBSTITUTED_GAP_MIN:
            fill = NAN
        elif before == before and after == after:
            fill = (before + after) / 2
        else:
            fill = after if before != before else before
        for k in range(m, end):
            values[k] = fill
            states[k] = MISSING if fill != fill else SUBSTITUTED
        m = end
    return values, states


def month_of_readings(description, text):
    """D61 from the readings: the month's volume (thousand m³), CH4 content (%), t CH4 and minutes."""
    by_code = {}
    for number, row in enumerate(text.split("\n"), 1):
        if not row:
            continue
        code, instant, value = row.split(";")
        by_code.setdefault(code, []).append((iso_ms(instant), float(value)))
    start, minutes = description["start_ms"], description["minutes"]
    roles = {s["role"]: s for s in description["sensors"]}
    flow_role = "flow" if "flow" in roles else "velocity"
    content_role = "ch4" if "ch4" in roles else "methane_flow"

    def series(role, paired=None):
        sensor = roles[role]
        return sensor_minutes(sensor["kind"], by_code.get(sensor["code"], []), start, minutes, paired)

    flow = series(flow_role)
    content = series(content_role, [v if s != MISSING else NAN for v, s in zip(*flow)])
    actual = description["conditions"] == "actual"
    parts = [flow, content] + ([series("pressure"), series("temperature")] if actual else [])
    area = roles[flow_role].get("area_m2") or NAN
    volume = ch4 = 0.0
    valid = substituted = 0
    for m in range(minutes):
        worst = max(part[1][m] for part in parts)
        if worst == MISSING:
            continue
        if worst == VALID:
            valid += 1
        else:
            substituted += 1
        q = flow[0][m] * area * 60 if flow_role == "velocity" else flow[0][m]
        if actual:
            q = q * (parts[2][0][m] / STANDARD_PRESSURE_KPA) * (STANDARD_TEMPERATURE_K / (parts[3][0][m] + ZERO_CELSIUS_K))
        volume += q
        ch4 += (q * content[0][m]) / 100 if content_role == "ch4" else content[0][m]
    return {
        "volume_thousand_m3": volume / 1000,
        "ef_ch4": (100 * ch4) / volume if volume > 0 else 0,
        "ch4_t": (CH4_DENSITY_20C * ch4) / 1000,
        "valid": valid,
        "substituted": substituted,
        "missing": minutes - valid - substituted,
    }


def close_relative(a, b):
    return isinstance(b, (int, float)) and not isinstance(b, bool) and abs(a - b) <= TELEMETRY_REL_TOL * max(abs(a), abs(b), 1e-12)


def load_instruments(report, path, needed):
    """D94, D107: the instruments' record (instruments.json) the minutes «под сомнением» are derived from;
    None where the pack holds no month from the АГК. A pack with such months and without the file is named."""
    try:
        return json.load(open(path(INSTRUMENTS_FILE), encoding="utf-8"))
    except OSError:
        if needed:
            report.fail(INSTRUMENTS_FILE, "в пакете есть месяцы АГК, а записи приборов (проверки и поверки датчиков) нет")
        return None
    except ValueError as error:
        report.fail(INSTRUMENTS_FILE, "не читается: %s" % error)
        return None


def check_telemetry(report, path, index, line, stated_sha, instruments=None):
    """A month accepted from the АГК: its readings' SHA-256 against the snapshot's, and its figures
    recomputed from their minute values against the calculation's."""
    csv_name, json_name = "telemetry/%04d.csv" % (index + 1), "telemetry/%04d.json" % (index + 1)
    what = "расчет «%s» (%s): данные АГК" % (line.get("name"), csv_name)
    try:
        raw = open(path(csv_name), "rb").read()
        description = json.load(open(path(json_name), encoding="utf-8"))
    except (OSError, ValueError) as error:
        report.fail(what, "файлы показаний не читаются: %s" % error)
        return
    digest = hashlib.sha256(raw).hexdigest()
    if digest == stated_sha:
        report.agree("%s: SHA-256 показаний — тот, что в утвержденном снимке" % what)
    else:
        report.fail("%s: SHA-256 показаний" % what, "пересчет %s, в утвержденном снимке %s" % (digest, stated_sha))
    try:
        month = month_of_readings(description, raw.decode("utf-8"))
    except (KeyError, ValueError, TypeError, UnicodeDecodeError) as error:
        report.fail(what, "показания не читаются: %s" % error)
        return
    inputs, results = line.get("inputs") or {}, line.get("results") or {}
    figures = (("объем смеси, тыс. м³", month["volume_thousand_m3"], inputs.get("volume")),
               ("содержание CH4, %", month["ef_ch4"], inputs.get("ef_ch4")),
               ("CH4, т", month["ch4_t"], results.get("res_ch4")))
    for label, computed, stated in figures:
        if close_relative(computed, stated):
            report.agree("%s: %s %s — пересчет из минутных значений" % (what, label, fmt(stated)))
        else:
            report.fail("%s: %s" % (what, label), "пересчет из минутных значений %s, в расчете %s" % (fmt(computed), fmt(stated)))
    minutes = (description.get("result") or {}).get("minutes") or {}
    counted = {k: month[k] for k in ("valid", "substituted", "missing")}
    if all(minutes.get(k) == v for k, v in counted.items()):
        report.agree("%s: минуты достоверные %d, замещенные %d, без данных %d" % (what, counted["valid"], counted["substituted"], counted["missing"]))
    else:
        report.fail("%s: минуты" % what, "пересчет %s, в пакете %s" % (counted, {k: minutes.get(k) for k in counted}))
    # instruments.json names a month by its calculation's file (calculations/NNNN.json), as the manifest does.
    own = "calculations/%04d.json" % (index + 1)
    record = next((m for m in (instruments or {}).get("months") or [] if m.get("calculation") == own), None)
    check_doubt(report, what, description, raw.decode("utf-8"), record)


CHECK_FAILED = "датчик не прошел проверку"  # CHECK_RESULT_LABELS of wasm-core/src/sensor-checks.ts
CHECK_PASSED = "датчик прошел проверку"
DAY_MS = 86400000


def ddmmyyyy(day):
    return "%s.%s.%s" % (day[8:10], day[5:7], day[0:4])


def month_clock(record):
    """The company's clock of a month's record: its window begins at 00:00 of the month's first day there, which
    gives the clock's offset (the Russian zones keep one all year): (a day's start ms, an instant's day)."""
    month = record["month"]
    utc_midnight = lambda day: int((datetime.date.fromisoformat(day) - datetime.date(1970, 1, 1)).days) * DAY_MS
    offset = utc_midnight(month + "-01") - iso_ms(record["window"]["from"])
    day_start = lambda day: utc_midnight(day[:10]) - offset
    day_of = lambda ms: iso_ms_utc(ms + offset)[:10]
    return day_start, day_of


def doubt_spans(sensor, day_start, day_of):
    """D94, as doubtSpans of functions/src/domain/monitoring/minutes/doubt.ts computes them from the
    instruments' record: each failed check to the next passed one (a run of failures from its first), and from the
    day after a verification's end (`valid_to`) to the next verification (a corrected one no longer counts)."""
    spans = []
    done = sorted(sensor.get("checks") or [], key=lambda c: c.get("at") or "")
    for i, check in enumerate(done):
        if check.get("result") != CHECK_FAILED or (i > 0 and done[i - 1].get("result") == CHECK_FAILED):
            continue
        passed = next((c for c in done[i + 1:] if c.get("result") == CHECK_PASSED), None)
        at = iso_ms(check["at"])
        spans.append((at, iso_ms(passed["at"]) if passed else None, "датчик не прошел проверку %s" % ddmmyyyy(day_of(at))))
    in_force = sorted((v for v in sensor.get("verifications") or [] if not v.get("corrected_by")),
                      key=lambda v: v.get("verified_on") or "")
    for i, verification in enumerate(in_force):
        end = day_start(verification["valid_to"]) + DAY_MS
        until = day_start(in_force[i + 1]["verified_on"]) if i + 1 < len(in_force) else None
        if until is not None and until <= end:
            continue
        spans.append((end, until, "вне поверки с %s" % ddmmyyyy(day_of(end))))
    return spans


# D102-D105: the reasons a suspect event puts minutes «под сомнением» (wasm-core/src/monitoring-suspect.ts
# SUSPECT_REASON_LABELS); such a span is no instrument's: it is taken as the pack states it, a stuck one
# recomputed from the readings (check_stuck).
SUSPECT_WHYS = ("показания не меняются", "меньше метана, чем приносит воздух", "ручной замер расходится с датчиком")


def suspect_spans(channel):
    """The spans of a channel's stated doubt that a suspect event put there: (from, to, why)."""
    return [(iso_ms(span["from"]), iso_ms(span["to"]), span["why"]) for span in (channel or {}).get("spans") or []
            if str(span.get("why", "")).startswith(SUSPECT_WHYS)]


def doubt_of_readings(description, text, record):
    """D94, D107: each channel's minutes «под сомнением» derived from the instruments' record of the month
    (instruments.json: its checks and its verifications' `valid_to`), not from the spans the pack states: cut to the
    month's window, their minutes (their union) and the readings the CSV holds in them — kept and used as they are,
    never substituted. Beside each, what telemetry/NNNN.json states of it."""
    start = description["start_ms"]
    end = start + description["minutes"] * 60000
    times = {}
    for row in text.split("\n"):
        if row:
            code, instant, _value = row.split(";")
            times.setdefault(code, []).append(iso_ms(instant))
    day_start, day_of = month_clock(record)
    sensors = {s.get("code"): s for s in record.get("sensors") or []}
    stated = {c.get("code"): c for c in description.get("doubt") or []}
    codes = [s.get("code") for s in description.get("sensors") or []]
    out = []
    for code in codes + sorted(set(stated) - set(codes)):
        cut = sorted((max(start, a), min(end, end if b is None else b), why)
                     for a, b, why in doubt_spans(sensors.get(code) or {}, day_start, day_of) + suspect_spans(stated.get(code)))
        cut = [c for c in cut if c[0] < c[1]]
        minutes, reach = 0, start
        for a, b, _why in cut:
            begin = max(a, reach)
            if b > begin:
                minutes += int(round((b - begin) / 60000.0))
            reach = max(reach, b)
        why = []
        for _a, _b, reason in cut:
            if reason not in why:
                why.append(reason)
        if minutes == 0 and code not in stated:
            continue
        readings = sum(1 for t in times.get(code, []) if any(a <= t < b for a, b, _why in cut))
        out.append({"code": code, "minutes": minutes, "stated": (stated.get(code) or {}).get("minutes"), "readings": readings,
                    "why": why, "spans": [(iso_ms_utc(a), iso_ms_utc(b)) for a, b, _why in cut]})
    return out


# D102: a meter's resolution step by kind (wasm-core/src/monitoring-suspect.ts RESOLUTION_STEPS).
RESOLUTION_STEPS = {"methane": 0.01, "methane_high": 0.1, "carbon_monoxide": 1, "oxygen": 0.1, "carbon_dioxide": 0.01}
STUCK_WHY = "показания не меняются"


def stuck_spans_of_readings(description, text):
    """D102: each span the pack names «показания не меняются», its channel's minute means over the span
    recomputed from the readings: (code, from, to, largest less smallest, the kind's step)."""
    kinds = {s["code"]: s.get("kind") for s in description.get("sensors") or []}
    readings = {}
    for row in text.split("\n"):
        if row:
            code, instant, value = row.split(";")
            readings.setdefault(code, []).append((iso_ms(instant), float(value)))
    out = []
    for channel in description.get("doubt") or []:
        step = RESOLUTION_STEPS.get(kinds.get(channel["code"]))
        for span in channel["spans"]:
            if step is None or not str(span.get("why", "")).startswith(STUCK_WHY):
                continue
            a, b = iso_ms(span["from"]), iso_ms(span["to"])
            minutes = {}
            for t, v in readings.get(channel["code"], []):
                if a <= t < b:
                    minutes.setdefault(t // 60000, []).append(v)
            means = [sum(v) / len(v) for v in minutes.values()]
            spread = max(means) - min(means) if means else None
            out.append((channel["code"], span["from"], span["to"], spread, step, len(means)))
    return out


def check_stuck(report, what, description, text):
    """D102: a stuck meter's span in the pack is recomputed from the month's readings: its minute means stay
    within one resolution step."""
    for code, a, b, spread, step, count in stuck_spans_of_readings(description, text):
        named = "%s: %s не меняется %s — %s: %d минут с показаниями" % (what, code, a, b, count)
        if spread is None:
            report.agree("%s, показаний в интервале нет (за пределами месяца)" % named)
        elif spread <= step + 1e-9:
            report.agree("%s, размах средних %s при шаге %s — залипание подтверждается показаниями" % (named, fmt(spread), fmt(step)))
        else:
            report.fail("%s: %s не меняется" % (what, code), "размах минутных средних %s больше шага %s" % (fmt(spread), fmt(step)))


def check_doubt(report, what, description, text, record=None):
    """D94, D107: names the month's minutes «под сомнением» per channel, derived from the instruments' record, and
    checks the pack's stated count against them: a count changed or a channel's doubt removed is named."""
    if record is None:
        report.fail("%s: показания под сомнением" % what,
                    "в %s нет записи приборов этого месяца: минуты под сомнением не из чего пересчитать" % INSTRUMENTS_FILE)
        return
    try:
        channels = doubt_of_readings(description, text, record)
        check_stuck(report, what, description, text)
    except (KeyError, ValueError, TypeError) as error:
        report.fail("%s: показания под сомнением" % what, "не читаются: %s" % error)
        return
    for c in channels:
        named = "%s: показания под сомнением %s — %d мин (%s), показаний в них %d: учтены как есть, не замещены" % (
            what, c["code"], c["minutes"], "; ".join("%s — %s" % span for span in c["spans"]), c["readings"])
        if c["why"]:
            named += " (%s)" % "; ".join(c["why"])
        if c["minutes"] == c["stated"]:
            report.agree(named)
        elif c["stated"] is None:
            report.fail("%s: показания под сомнением %s" % (what, c["code"]),
                        "по записи приборов %d мин (%s), в пакете не указаны" % (c["minutes"], "; ".join(c["why"])))
        else:
            report.fail("%s: показания под сомнением %s" % (what, c["code"]),
                        "по записи приборов %d мин, в пакете %s" % (c["minutes"], c["stated"]))


def load_keys(report, paths):
    """Each key the verifier passed (--public-key): (n, e, fingerprint)."""
    keys = []
    for public_key in paths:
        try:
            n, e, der = rsa_public_key(open(public_key, encoding="ascii").read())
        except (OSError, ValueError, IndexError, binascii.Error, UnicodeDecodeError) as error:
            report.incomplete("ключ %s не читается: %s" % (public_key, error))
            continue
        keys.append((n, e, hashlib.sha256(der).hexdigest()))
    return keys


def key_for(keys, signed):
    """The key passed that a signature names (its fingerprint), else the first passed."""
    return next((k for k in keys if k[2] == signed.get("fingerprint_sha256")), keys[0])


# ---- issue 86 R9: the manifest's signature, and the readable files read back against the snapshot ----

def pack_files(folder):
    """Every file under the pack's folder, as the manifest names them (a/b with «/»)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            found.append(os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/"))
    return sorted(found)


def named_keys(folders, public_keys):
    """Issue 96 item 9: the key files passed with --public-key that lie inside the pack's folder, as the
    manifest would name them: the verifier's own files, never the pack's."""
    names = set()
    for folder in folders:
        root = os.path.realpath(folder)
        for key in public_keys:
            at = os.path.realpath(key)
            if at.startswith(root + os.sep):
                names.add(os.path.relpath(at, root).replace(os.sep, "/"))
    return names


def note_named_keys(names):
    for name in sorted(names):
        print("примечание: %s — открытый ключ, переданный --public-key; это файл проверяющего, не файл пакета" % name)


def read_signed_manifest(report, path):
    """manifest.sig.json: {manifest, manifest_sha256, signature}; None when the pack has none (the
    older format, or the file removed: check_manifest tells which)."""
    if not os.path.isfile(path(MANIFEST_SIGNATURE)):
        return None
    try:
        signed = json.load(open(path(MANIFEST_SIGNATURE), encoding="utf-8"))
        if not isinstance(signed.get("manifest"), dict) or not isinstance(signed.get("signature"), dict):
            raise ValueError("нет манифеста или подписи")
        return signed
    except (OSError, ValueError, AttributeError) as error:
        report.fail("файл %s" % MANIFEST_SIGNATURE, "не читается: %s" % error)
        return {"manifest": {}, "signature": {}, "unreadable": True}


def check_manifest(report, manifest, signed, snapshot, digest, keys):
    """The platform's signature over the manifest (manifest.sig.json) and the manifest naming this
    version; a pack without it is of the older format unless its version was approved since packs
    are signed."""
    report.older_format = False
    for field, stated in (("year", snapshot.get("year")), ("version", snapshot.get("version")), ("sha256_of_snapshot", digest)):
        if field in manifest and manifest[field] != stated:
            report.fail("файл manifest.json: %s" % field, "в манифесте %s, у версии %s" % (manifest[field], stated))
    if signed is None:
        approved = str(snapshot.get("approved_at") or "")
        if manifest.get("format", 1) >= SIGNED_MANIFEST_FORMAT:
            report.fail("файл manifest.json", "пакет формата %s без подписи манифеста: файла %s нет"
                        % (manifest.get("format"), MANIFEST_SIGNATURE))
        elif approved[:10] >= SIGNED_MANIFEST_SINCE:
            report.fail("файл manifest.json", "версия утверждена %s, а с %s платформа подписывает манифест каждого пакета: "
                        "файла %s нет" % (approved[:10], SIGNED_MANIFEST_SINCE, MANIFEST_SIGNATURE))
        else:
            report.older_format = True
            print("ПРЕЖНИЙ ФОРМАТ: пакет без подписи манифеста (%s), как платформа делала их до %s. Подписью "
                  "подтверждены снимок и все пересчитанные из него цифры; version.json, паспорт (xlsx) и "
                  "coefficients.csv сверены со снимком ниже, но байты паспорта PDF и файлы, которых нет в manifest.json, "
                  "подписью не связаны. Скачайте пакет этой версии заново: новый пакет подписан целиком."
                  % (MANIFEST_SIGNATURE, SIGNED_MANIFEST_SINCE))
        return
    if signed.get("unreadable"):
        return
    check_manifest_signature(report, manifest, signed, keys)


def check_manifest_signature(report, manifest, signed, keys):
    """The platform's signature (manifest.sig.json) over the manifest's canonical JSON, with the key
    the verifier passed: every pack the platform makes (a version's, a climate period's) signs so."""
    if manifest.get("format") != SIGNED_MANIFEST_FORMAT:
        report.fail("файл %s: format" % MANIFEST_SIGNATURE, "в манифесте %s, у подписанного пакета %s" % (manifest.get("format"), SIGNED_MANIFEST_FORMAT))
    try:
        manifest_sha = hashlib.sha256(canonical(manifest).encode("utf-8")).hexdigest()
    except ValueError as error:
        report.fail("файл %s" % MANIFEST_SIGNATURE, "манифест не JSON: %s" % error)
        return
    if signed.get("manifest_sha256") != manifest_sha:
        report.fail("файл %s" % MANIFEST_SIGNATURE, "SHA-256 манифеста %s, а подписан %s" % (manifest_sha, signed.get("manifest_sha256")))
    if not keys:
        print("примечание: подпись манифеста (SHA-256 всех файлов пакета) не проверена: передайте открытый ключ "
              "платформы (--public-key, GET /api/v1/signing-keys/)")
        return
    signature = signed["signature"]
    n, e, fingerprint = key_for(keys, signature)
    try:
        value = base64.b64decode(signature.get("value") or "", validate=True)
    except (binascii.Error, ValueError):
        value = b""
    if signature_holds(n, e, value, bytes.fromhex(manifest_sha)):
        report.agree("подпись платформы над манифестом (SHA-256 каждого файла пакета) — ключом %s (--public-key)" % fingerprint)
    else:
        report.fail("файл %s: подпись платформы" % MANIFEST_SIGNATURE, "не подтверждает манифест (SHA-256 %s) ключом %s "
                    "(--public-key): манифест изменен после того, как платформа его подписала" % (manifest_sha, fingerprint))


def check_version_file(report, version, snapshot, digest):
    """version.json's fields against the snapshot whose SHA-256 it names."""
    inventory = snapshot["inventory"]
    expected = (("year", snapshot.get("year")), ("version", snapshot.get("version")),
                ("approved_at", snapshot.get("approved_at")), ("approved_by", snapshot.get("approved_by")),
                ("calculations", len(inventory["calculations"])))
    wrong = False
    for field, value in expected:
        if field in version and version[field] != value:
            wrong = True
            report.fail("файл version.json: %s" % field, "в version.json %r, в снимке %r" % (version[field], value))
    if "total_t_co2e" in version and not close(version["total_t_co2e"], inventory["total_t_co2e"]):
        wrong = True
        report.fail("файл version.json: total_t_co2e", "в version.json %s, в снимке %s" % (fmt(version["total_t_co2e"]), fmt(inventory["total_t_co2e"])))
    if not wrong:
        report.agree("файл version.json: год, версия, утверждение и итог — те, что в снимке")


def number_of(text):
    """A cell's number (the workbook writes plain numbers), None for an empty or other cell."""
    try:
        return float(text.replace("\u00a0", "").replace(" ", "").replace(",", "."))
    except (AttributeError, ValueError):
        return None


def check_passport_figures(report, book, snapshot):
    """The passport workbook's sheet «Выбросы»: per gas, every line (category, IPCC code, gas), each
    facility and the year's total, against the snapshot."""
    what = "файл passport.xlsx, лист «%s»" % FIGURES_SHEET
    try:
        rows = sheet_rows(book, FIGURES_SHEET)
    except (KeyError, ValueError, IndexError, zipfile.BadZipFile, ElementTree.ParseError) as error:
        report.fail(what, "не читается: %s" % error)
        return
    if rows is None:
        report.fail(what, "листа нет")
        return
    inventory = snapshot["inventory"]
    total = inventory["total_t_co2e"]
    lines = {(c["category"], c["ipcc_code"], c["gas"]): c for c in inventory["categories"]}
    gases = {"Диоксид углерода (CO2)": "CO2", "Метан (CH4)": "CH4"}
    facilities = {f.get("name"): f for f in inventory.get("facilities", [])}
    differ = []
    printed_lines = set()
    section = None
    for row in rows:
        a = (row.get("A") or "").strip()
        d, e = number_of(row.get("D")), number_of(row.get("E"))
        if a in ("Выбросы по газам", "Выбросы по категориям и газам", "Выбросы по площадкам"):
            section = a
            continue
        if a in ("Итого", "Итого по категориям"):
            if not close(e, total):
                differ.append("«%s» %s т CO2-экв., в снимке %s" % (a, fmt(e) if e is not None else row.get("E"), fmt(total)))
            continue
        if section == "Выбросы по газам" and a in gases:
            gas = gases[a]
            t = sum(c["t"] for c in inventory["categories"] if c["gas"] == gas)
            t_co2e = sum(c["t_co2e"] for c in inventory["categories"] if c["gas"] == gas)
            if not (close(d, t) or (d is None and t == 0)) or not (close(e, t_co2e) or (e is None and t_co2e == 0)):
                differ.append("%s: %s т, %s т CO2-экв., в снимке %s и %s" % (a, row.get("D"), row.get("E"), fmt(t), fmt(t_co2e)))
            continue
        category = re.match(r"Категория (\d+)\.", a)
        if section == "Выбросы по категориям и газам" and category:
            key = (int(category.group(1)), (row.get("B") or "").split(" ")[0], (row.get("C") or "").strip())
            line = lines.get(key)
            if line is None:
                differ.append("строки %s %s (категория %s) в снимке нет" % (key[1], key[2], key[0]))
                continue
            printed_lines.add(key)
            if not close(d, line["t"]) or not close(e, line["t_co2e"]):
                differ.append("строка %s %s (категория %s): %s т, %s т CO2-экв., в снимке %s и %s"
                              % (key[1], key[2], key[0], row.get("D"), row.get("E"), fmt(line["t"]), fmt(line["t_co2e"])))
            continue
        # The note under rows rounded apart from their total is no facility.
        if section == "Выбросы по площадкам" and a and a != "Площадка" and not a.startswith("Строки округлены"):
            facility = facilities.get(a)
            if facility is None:
                differ.append("площадки «%s» в снимке нет" % a)
            elif not close(e, facility["t_co2e"]):
                differ.append("площадка «%s»: %s т CO2-экв., в снимке %s" % (a, row.get("E"), fmt(facility["t_co2e"])))
    for key in sorted(set(lines) - printed_lines):
        differ.append("строка %s %s (категория %s) из снимка не напечатана" % (key[1], key[2], key[0]))
    if differ:
        for problem in differ:
            report.fail(what, problem)
    else:
        report.agree("%s: выбросы по газам, %d строк, площадки и итог %s т CO2-экв. — те, что в снимке"
                     % (what, len(printed_lines), fmt(total)))


def check_coefficients(report, table, calculations):
    """coefficients.csv: every coefficient of every calculation once, its value, unit and what the
    snapshot says of its source (a dictionary's entry, a justification, an evidence file)."""
    import csv
    what = "файл coefficients.csv"
    try:
        text = open(table, encoding="utf-8-sig", newline="").read()
        rows = list(csv.reader(text.splitlines(), delimiter=";"))
    except (OSError, ValueError, csv.Error) as error:
        report.fail(what, "не читается: %s" % error)
        return
    rows = [r for r in rows[1:] if r]
    plain = lambda cell: cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t", "\r") else cell
    expected = {}
    for index, line in enumerate(calculations):
        for name, use in (line.get("coefficients") or {}).items():
            expected[("calculations/%04d.json" % (index + 1), name)] = (line, use or {})
    seen = set()
    differ = []
    for number, row in enumerate(rows, 2):
        if len(row) < 7:
            differ.append("строка %d: %d столбцов вместо 8" % (number, len(row)))
            continue
        file, name, ipcc, coefficient, value, unit, source = (plain(c) for c in row[:7])
        code = re.search(r"\(([^()]*)\)$", coefficient)
        key = (file, code.group(1) if code else coefficient)
        if key not in expected or key in seen:
            differ.append("строка %d (%s, %s): такого коэффициента в снимке нет%s" % (number, file, coefficient, " или он повторен" if key in seen else ""))
            continue
        seen.add(key)
        line, use = expected[key]
        stated_value = use.get("value")
        try:
            printed_value = es_number(stated_value) if isinstance(stated_value, (int, float)) and not isinstance(stated_value, bool) else str(stated_value)
        except ValueError:
            printed_value = str(stated_value)
        facts = [("расчет", name, line.get("name")), ("код МГЭИК", ipcc, line.get("ipcc_code")),
                 ("значение", value, printed_value), ("единица", unit, use.get("unit"))]
        for label, printed, held in facts:
            if printed != ("" if held is None else str(held)):
                differ.append("строка %d (%s, %s): %s «%s», в снимке «%s»" % (number, file, key[1], label, printed, held))
        for fact in source_facts(use):
            if fact not in source:
                differ.append("строка %d (%s, %s): источник «%s» не называет «%s» из снимка" % (number, file, key[1], source, fact))
    for file, name in sorted(set(expected) - seen):
        differ.append("коэффициента %s расчета %s нет" % (name, file))
    if differ:
        for problem in differ:
            report.fail(what, problem)
    else:
        report.agree("%s: %d коэффициентов — значения, единицы и источники те, что в снимке" % (what, len(seen)))


def source_facts(use):
    """What coefficients.csv's «Источник» of a coefficient must say, from the snapshot."""
    source = use.get("source")
    if source == "dictionary":
        facts = []
        if use.get("item_id") is not None:
            facts.append("запись № %s" % use["item_id"])
        if use.get("item_name"):
            facts.append("«%s»" % use["item_name"])
        if use.get("item_version") is not None:
            facts.append("версия %s" % use["item_version"])
        return facts
    if source == "custom":
        facts = [SOURCE_LABELS["custom"]]
        facts.append("обоснование: %s" % use["justification"] if use.get("justification") else "без обоснования")
        if use.get("evidence"):
            facts.append("подтверждающий документ «%s»" % use["evidence"].get("name"))
        return facts
    return [SOURCE_LABELS[source]] if source in SOURCE_LABELS else []


def check_signature(report, path, version, digest, keys):
    """The platform's signature over the snapshot's SHA-256, with the key the verifier passed."""
    signed = version.get("signature") or {}
    n, e, fingerprint = key_for(keys, signed)
    if not signed.get("value"):
        report.fail("подпись платформы", "в version.json нет подписи версии")
        return
    try:
        value = base64.b64decode(signed["value"], validate=True)
    except (binascii.Error, ValueError):
        report.fail("подпись платформы", "подпись в version.json не читается")
        return
    if signature_holds(n, e, value, bytes.fromhex(digest)):
        report.agree("подпись платформы над SHA-256 снимка — ключом %s (--public-key)" % fingerprint)
    else:
        report.fail("подпись платформы", "подпись в version.json не подтверждает SHA-256 %s ключом %s (--public-key)"
                    % (digest, fingerprint))
    if signed.get("fingerprint_sha256") and signed["fingerprint_sha256"] != fingerprint:
        report.fail("ключ подписи", "version.json называет ключ %s, передан %s" % (signed["fingerprint_sha256"], fingerprint))
    try:
        printed = passport_sha(path("passport.xlsx"), PASSPORT_KEY_LABEL)
    except (OSError, KeyError, ValueError, IndexError, zipfile.BadZipFile, ElementTree.ParseError):
        printed = None
    if printed is None:
        report.fail("ключ подписи", "паспорт (passport.xlsx) не печатает «%s»" % PASSPORT_KEY_LABEL)
    else:
        printed_agrees(report, "ключ подписи", "passport.xlsx", printed, fingerprint, "передан")


def printed_agrees(report, what, passport, printed, expected, source):
    """What a passport prints set against what the pack or the verifier gives (`source`: how it came)."""
    if printed == expected:
        report.agree("%s — тот, что напечатан в паспорте (%s)" % (what, passport))
    else:
        report.fail("%s: в паспорте (%s) напечатан %s" % (what, passport, printed), "%s %s" % (source, expected))


def as_signed(report, signed, manifest):
    """The manifest as the platform signed it, which the files are checked against: where manifest.json
    differs from it, the first difference is named."""
    differs = first_difference(signed["manifest"], manifest)
    if differs:
        report.fail("файл manifest.json", "не тот, что подписан (%s): %s — в подписанном %r, в manifest.json %r"
                    % (MANIFEST_SIGNATURE, differs[0] or "весь", differs[1], differs[2]))
    return signed["manifest"]


def failed(report, unreadable):
    """2 with what is missing (under `unreadable`) when the pack cannot be checked, 1 with the checks
    that differ, None when every check agrees: what finish and climate_finish print first."""
    print()
    if report.missing:
        print(unreadable)
        for what in report.missing:
            print("  " + what)
        return 2
    if report.differ:
        print("Расходится %d из %d проверок:" % (len(report.differ), report.checked))
        for what in report.differ:
            print("  " + what)
        return 1
    return None


def finish(report, version):
    """2: the pack is incomplete or unreadable; 1: a check differs; 3: everything agrees, but with no
    outside anchor; 0: everything agrees with one."""
    code = failed(report, "Пакет неполон, проверить его нельзя:")
    if code is not None:
        return code
    print("Все %d проверок сходятся: версия %s, SHA-256 %s" % (report.checked, version.get("version"), version["sha256"]))
    if getattr(report, "older_format", False):
        print("Пакет прежнего формата: его манифест не подписан (см. «ПРЕЖНИЙ ФОРМАТ» выше).")
    if not getattr(report, "anchored", False):
        print("Проверена только согласованность пакета с самим собой: внешний якорь не передан. Пакет, все файлы "
              "которого подделаны согласованно, прошел бы эти проверки. Передайте открытый ключ платформы "
              "(--public-key, GET /api/v1/signing-keys/) или SHA-256 версии, опубликованный организацией (--sha256).")
        return 3
    return 0


# ---- a climate project's monitoring period (methodology section 13, D67–D80; issue 89 item 4) ----
#
# A period's pack (export/climate-pack.ts) holds the readings of every meter of its monitoring plan
# (minutes/*.csv), the plan with each meter's kind and поверка instants (plan.json), the period's
# declared figures and its result as the platform stored it (period.json), each device's hourly table
# (hours/*.csv), the deviations (deviations.csv), the totals (totals.json), the calibration register
# (register.csv), a manifest of every file's SHA-256 signed by the platform, and this script. It
# recomputes every hour of every device from the readings by section 13's rules, the period's
# totals and carbon units, and the deviations, and compares them with the pack's. A pack over the
# registry's attachment limit comes in parts (zip files), one manifest over all: pass them all.

CLIMATE_KIND = "climate_period"
CLIMATE_FIXED_FILES = ("period.json", "plan.json", "totals.json", "register.csv", "deviations.csv", "verify.py")
CLIMATE_REL_TOL = 1e-9
# The destruction device kinds (methodology 13.1, D72, D73) as the platform's modules declare them
# (wasm-core/src/climate-devices/): each kind's channels, what proves its destruction, its default
# efficiency, the basis of an hour at that default, how a measured efficiency enters, and the words of
# every basis. Written by `npm run verify-tables`; a kind not in this table is not recomputed.
# --- device kinds ---
CLIMATE_DEVICE_KINDS = json.loads(r"""
{
 "kinds": {
  "flare_open": {
   "label": "Открытый факел",
   "channels": {
    "flame": "required"
   },
   "proof": "flame",
   "parameter": "eta_open_flare",
   "default": 0.5,
   "basis": "default_open_flame_60",
   "measured": "none",
   "heat": "when_metered"
  },
  "flare_enclosed": {
   "label": "Закрытый факел",
   "channels": {
    "t_eg": "required",
    "flame": "optional",
    "eta_meas": "measured_option"
   },
   "proof": "exhaust_hot",
   "parameter": "eta_enclosed_flare",
   "default": 0.9,
   "basis": "default_enclosed_t_eg_60",
   "measured": "option",
   "heat": "when_metered"
  },
  "engine": {
   "label": "Газопоршневая установка",
   "channels": {
    "run": "required",
    "e_gen": "optional",
    "heat": "optional"
   },
   "proof": "run_when_fed",
   "parameter": "eta_engine",
   "default": 0.995,
   "basis": "engine_run",
   "measured": "if_lower",
   "heat": "when_metered"
  },
  "boiler": {
   "label": "Котел",
   "channels": {
    "run": "required",
    "heat": "optional"
   },
   "proof": "run_when_fed",
   "parameter": "eta_boiler",
   "default": 0.995,
   "basis": "boiler_run",
   "measured": "if_lower",
   "heat": "always"
  }
 },
 "bases": {
  "default_open_flame_60": "по умолчанию, пламя 60 мин",
  "default_enclosed_t_eg_60": "по умолчанию, T отх. газов > 500 °C",
  "engine_run": "агрегат работал",
  "boiler_run": "агрегат работал",
  "not_proven_flame": "не подтверждено: нет пламени",
  "not_proven_t_eg": "не подтверждено: T отх. газов",
  "not_proven_run": "не подтверждено: агрегат стоял",
  "not_proven_run_no_data": "не подтверждено: нет данных о работе агрегата",
  "measured": "измерен",
  "measured_fallback": "КПД не измерен: наименьший за период",
  "no_data": "нет данных"
 }
}
"""
)
# --- end of device kinds ---
CLIMATE_DEFAULTS = {
    "rho_ch4_kg_m3": 0.668, "gwp_ch4": 25, "cef_ch4_t_co2_per_t": 2.75, "t_std_k": 293.15, "t_normal_k": 273.15,
    "t_zero_c_k": 273.15, "p_std_kpa": 101.325,
    **{kind["parameter"]: kind["default"] for kind in CLIMATE_DEVICE_KINDS["kinds"].values()},
    "t_eg_min_c": 500.0, "max_substituted_run_min": 15,
    "min_measured_min_per_hour": 45, "ef_grid_t_per_mwh": 0.5, "tdl_project": 0.2, "eta_bl_heat": 1.0,
    "ef_bl_heat_t_per_tj": 94.6, "lpg_ef_t_co2_per_t": 2.903,
}
CLIMATE_RULES = "2026.7"
GAS = ("q", "c", "p", "t")
MINUTE_CHANNELS = ("q", "c", "p", "t", "t_eg", "flame", "run")
HOUR_CHANNELS = ("eta_meas", "e_gen", "heat")
# The hourly table's columns (hours/*.csv), in order.
HOUR_COLUMNS = ("label", "start_utc", "valid", "eta", "eta_basis", "v_ch4_m3", "m_ch4_t", "be_ch4_t_co2e", "pe_um_t_co2e",
                "pe_md_t_co2", "er_ch4_t_co2e", "e_gen_mwh", "e_cred_mwh", "heat_gj", "heat_cred_gj", "missing_min",
                "substituted_min")
HOUR_NUMBERS = ("eta", "v_ch4_m3", "m_ch4_t", "be_ch4_t_co2e", "pe_um_t_co2e", "pe_md_t_co2", "er_ch4_t_co2e", "e_gen_mwh",
                "e_cred_mwh", "heat_gj", "heat_cred_gj")
BASIS_LABELS = CLIMATE_DEVICE_KINDS["bases"]


def climate_close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if a != a or b != b:
        return a != a and b != b
    return abs(a - b) <= 1e-12 + CLIMATE_REL_TOL * max(abs(a), abs(b))


def js_round(x):
    """ECMAScript's Math.round: halves up."""
    return math.floor(x + 0.5)


def carbon_units(er):
    """D78: whole units after rounding to 6 decimals."""
    return math.floor(js_round(er * 1e6) / 1e6)


class Meter:
    def __init__(self, kind, readings, valid_from, valid_to):
        self.kind = kind
        self.readings = readings  # [(ms, value)] as the file lists them
        self.valid_from = valid_from
        self.valid_to = valid_to

    def valid(self, start, end):
        lo = max(start, self.valid_from)
        hi = min(end, self.valid_to)
        return [(t, v) for t, v in self.readings if lo <= t < hi]


def minute_values(channel, meter, start, minutes):
    """D70: a gas channel's minute the mean of its valid readings (D58's flags), a proof channel's 1 only
    when every valid reading proves it, the exhaust temperature the minute's minimum; NaN: none."""
    readings = meter.valid(start, start + minutes * MINUTE_MS)
    out = array.array("d", [NAN]) * minutes  # a year's minutes: doubles, not Python floats
    if channel in GAS:
        ordered = readings if all(readings[i - 1][0] < readings[i][0] for i in range(1, len(readings))) \
            else sorted(readings, key=lambda r: (r[0], r[1]))
        sums = array.array("d", [0.0]) * minutes
        counts = array.array("l", [0]) * minutes
        for t, v in ordered:
            m = (t - start) // MINUTE_MS
            if m < 0 or m >= minutes or not in_range(meter.kind, v):
                continue
            sums[m] += v
            counts[m] += 1
        means = array.array("d", (sums[m] / counts[m] if counts[m] else NAN for m in range(minutes)))
        ok = bytearray(1 if counts[m] > 0 else 0 for m in range(minutes))
        step = SENSOR_KINDS[meter.kind][3]
        if step is not None:
            for m in range(1, minutes):
                before = means[m - 1]
                if ok[m] and before == before and abs(means[m] - before) > step:
                    ok[m] = 0
        return array.array("d", (means[m] if ok[m] else NAN for m in range(minutes)))
    for t, v in readings:
        if not in_range(meter.kind, v):
            continue
        m = (t - start) // MINUTE_MS
        out[m] = v if out[m] != out[m] else min(out[m], v)
    if channel in ("flame", "run"):
        out = array.array("d", (v if v != v else (1.0 if v >= 1 else 0.0) for v in out))
    return out


def hour_values(channel, meter, start, hours):
    """The analyser's hourly efficiency (the hour's mean), the energy meters' hour (its sum); None: no valid reading."""
    sums = [0.0] * hours
    counts = [0] * hours
    for t, v in meter.valid(start, start + hours * 3600000):
        if not in_range(meter.kind, v):
            continue
        h = (t - start) // 3600000
        sums[h] += v
        counts[h] += 1
    return [None if counts[h] == 0 else (sums[h] / counts[h] if channel == "eta_meas" else sums[h]) for h in range(hours)]


def substitute_d71(measured, channel, max_run):
    """D71: a run of at most max_run missing minutes takes the neighbour that gives less methane."""
    values = array.array("d", measured)
    filled = bytearray(len(measured))
    i = 0
    n = len(measured)
    while i < n:
        if measured[i] == measured[i]:
            i += 1
            continue
        end = i
        while end < n and measured[end] != measured[end]:
            end += 1
        if end - i <= max_run:
            before = measured[i - 1] if i > 0 else NAN
            after = measured[end] if end < n else NAN
            if before != before:
                fill = after
            elif after != after:
                fill = before
            else:
                fill = max(before, after) if channel == "t" else min(before, after)
            if fill == fill:
                for k in range(i, end):
                    values[k] = fill
                    filled[k] = 1
        i = end
    return values, filled


def standard_flow(basis, q, p, t, params):
    if basis == "standard_20C":
        return q
    if basis == "normal_0C":
        return q * params["t_std_k"] / params["t_normal_k"]
    return q * (p / params["p_std_kpa"]) * (params["t_std_k"] / (t + params["t_zero_c_k"]))


def device_minutes(device, meters, start, hours):
    """The device's minute arrays by channel and its hourly figures, as the platform builds them (D70)."""
    minutes = hours * 60
    channels = {}
    for channel in MINUTE_CHANNELS:
        code = device["sensors"].get(channel)
        if code:
            channels[channel] = minute_values(channel, meters[code], start, minutes)
    hourly = {}
    for channel in HOUR_CHANNELS:
        code = device["sensors"].get(channel)
        if code:
            hourly[channel] = hour_values(channel, meters[code], start, hours)
    return channels, hourly


def hour_blocks(channels, hourly, hours):
    """Hours alike in a row (every minute of every channel and the hourly figures) are one block, as the
    platform stores them: [(first hour, last hour)]."""
    blocks = []
    previous = None
    for h in range(hours):
        key = (tuple(tuple("n" if v != v else v for v in values[h * 60:(h + 1) * 60]) for _, values in sorted(channels.items())),
               tuple((c, v[h]) for c, v in sorted(hourly.items())))
        if previous is not None and key == previous:
            blocks[-1][1] = h
        else:
            blocks.append([h, h])
        previous = key
    return blocks


def evaluate_device(device, channels, hourly, hours, labels, params):
    """D70–D75 and D79 for one device: each hour's figures, the device's sums and its deviations."""
    basis_kind = device["flow_basis"]
    gas_channels = GAS if basis_kind == "actual" else ("q", "c")
    nan_minutes = array.array("d", [NAN]) * (hours * 60)
    measured = {ch: channels.get(ch, nan_minutes) for ch in GAS}
    filled = {ch: substitute_d71(measured[ch], ch, params["max_substituted_run_min"]) for ch in gas_channels}
    flame = channels.get("flame", nan_minutes)
    run = channels.get("run", nan_minutes)
    t_eg = channels.get("t_eg", nan_minutes)
    kind = CLIMATE_DEVICE_KINDS["kinds"][device["kind"]]
    by_kind = params[kind["parameter"]]
    # D75: a kind with a generation meter credits electricity; heat is a boiler's output, any kind's where metered.
    is_engine = "e_gen" in kind["channels"]
    e_gen_of = hourly.get("e_gen", [None] * hours)
    heat_of = hourly.get("heat", [None] * hours)
    eta_of = hourly.get("eta_meas", [None] * hours)
    gives_heat = kind["heat"] == "always" or any(v is not None for v in heat_of)
    etas = [v for v in eta_of if v is not None]
    fallback = min([by_kind] + etas) if etas else 0
    sums = {k: 0.0 for k in ("v_ch4_m3", "m_ch4_t", "be_ch4", "pe_um", "pe_md", "er_ch4", "e_cred_mwh", "heat_cred_gj", "e_gen_mwh")}
    defaults = {}
    figures = []
    for h in range(hours):
        lo = h * 60
        missing = {}
        substituted = {}
        valid = True
        for ch in gas_channels:
            values, filled_in = filled[ch]
            got = sum(1 for i in range(lo, lo + 60) if measured[ch][i] == measured[ch][i])
            left = sum(1 for i in range(lo, lo + 60) if values[i] != values[i])
            subs = sum(1 for i in range(lo, lo + 60) if filled_in[i])
            if got < params["min_measured_min_per_hour"] or left > 0:
                valid = False
            if got < 60:
                missing[ch] = 60 - got
            if subs > 0:
                substituted[ch] = subs
        deviations = []
        e_gen = e_gen_of[h]
        heat = heat_of[h]
        if e_gen is not None:
            sums["e_gen_mwh"] += e_gen
        row = {"valid": valid, "missing_min": missing, "substituted_min": {}, "v_ch4_m3": 0.0, "m_ch4_t": 0.0, "eta": None,
               "eta_basis": "no_data", "be_ch4_t_co2e": 0.0, "pe_um_t_co2e": 0.0, "pe_md_t_co2": 0.0, "er_ch4_t_co2e": 0.0}
        if is_engine:
            row.update(e_gen_mwh=e_gen if e_gen is not None else 0.0, e_cred_mwh=0.0)
        if gives_heat:
            row.update(heat_gj=heat if heat is not None else 0.0, heat_cred_gj=0.0)
        if not valid:
            deviations.append(("no_data", {"missing_min": missing}))
            if is_engine and e_gen is not None and e_gen > 0:
                deviations.append(("el_not_credited", {"e_gen_mwh": e_gen, "reason": "no_data"}))
            row["deviations"] = deviations
            figures.append(row)
            continue
        q = filled["q"][0]
        c = filled["c"][0]
        p = filled["p"][0] if "p" in filled else None
        t = filled["t"][0] if "t" in filled else None
        v = 0.0
        ran = True
        run_missing = 0
        stopped = False
        for i in range(lo, lo + 60):
            q_std = standard_flow(basis_kind, q[i], p[i] if p else NAN, t[i] if t else NAN, params)
            v += q_std * c[i] / 100
            if q_std > 0 and (run[i] != run[i] or run[i] != 1):
                ran = False
                if run[i] != run[i]:
                    run_missing += 1
                else:
                    stopped = True
        m = v * params["rho_ch4_kg_m3"] / 1000
        every = lambda series, proves: all(series[i] == series[i] and proves(series[i]) for i in range(lo, lo + 60))
        # D72, D73: the hour's efficiency by the kind's rule; an hour not proven has 0 and says why.
        proof = kind["proof"]
        if proof == "flame":
            not_proven = None if every(flame, lambda f: f == 1) else "not_proven_flame"
        elif proof == "exhaust_hot":
            not_proven = None if every(t_eg, lambda x: x > params["t_eg_min_c"]) else "not_proven_t_eg"
        elif proof == "run_when_fed":
            # Issue 96 item 13: stopped while fed, or no run status in fed minutes.
            not_proven = None if ran else "not_proven_run" if stopped else "not_proven_run_no_data"
        else:
            raise ValueError("вид устройства %r: правило подтверждения уничтожения %r этому verify.py неизвестно" % (device["kind"], proof))
        if not_proven:
            eta, basis = 0, not_proven
        elif kind["measured"] == "option" and device.get("eta_option") == "measured":
            eta, basis = (eta_of[h], "measured") if eta_of[h] is not None else (fallback, "measured_fallback")
        elif kind["measured"] == "if_lower" and eta_of[h] is not None and eta_of[h] < by_kind:
            eta, basis = eta_of[h], "measured"
        else:
            eta, basis = by_kind, kind["basis"]
        be = m * params["gwp_ch4"]
        pe_um = m * (1 - eta) * params["gwp_ch4"]
        pe_md = m * eta * params["cef_ch4_t_co2_per_t"]
        er = be - pe_um - pe_md
        for key, value in (("v_ch4_m3", v), ("m_ch4_t", m), ("be_ch4", be), ("pe_um", pe_um), ("pe_md", pe_md), ("er_ch4", er)):
            sums[key] += value
        if basis == kind["basis"]:
            defaults[kind["parameter"]] = defaults.get(kind["parameter"], 0) + 1
        if eta == 0:
            detail = {"eta_basis": basis, "m_ch4_t_per_hour": m}
            if basis == "not_proven_run_no_data":
                detail["run_missing_min"] = run_missing
            deviations.append(("not_proven", detail))
        if basis == "measured_fallback":
            deviations.append(("measured_fallback", {"eta": eta}))
        if substituted:
            deviations.append(("substituted", {"substituted_min": substituted}))
        credited = m > 0 and eta > 0
        e_cred = e_gen if is_engine and credited and e_gen is not None else 0.0
        heat_cred = heat if gives_heat and credited and heat is not None else 0.0
        sums["e_cred_mwh"] += e_cred
        sums["heat_cred_gj"] += heat_cred
        if is_engine and e_gen is not None and e_gen > 0 and not credited:
            deviations.append(("el_not_credited", {"e_gen_mwh": e_gen, "reason": "not_proven" if m > 0 else "no_methane"}))
        # A valid hour lists no missing minutes (its gaps are substituted or within the 15 it may lack).
        row.update(missing_min={}, substituted_min=substituted, v_ch4_m3=v, m_ch4_t=m, eta=eta, eta_basis=basis, be_ch4_t_co2e=be,
                   pe_um_t_co2e=pe_um, pe_md_t_co2=pe_md, er_ch4_t_co2e=er, deviations=deviations)
        if is_engine:
            row["e_cred_mwh"] = e_cred
        if gives_heat:
            row["heat_cred_gj"] = heat_cred
        figures.append(row)
    return figures, sums, defaults


def group_deviations(device_name, figures, blocks, labels, defaults, params):
    """D79: a block's deviations over its consecutive hours of one kind and one detail, as the platform lists them."""
    out = []
    for first, last in blocks:
        block_label = labels[first] if first == last else "%s..%s" % (labels[first], labels[last])

        def span(a, b):
            if a == 0 and b == last - first:
                return block_label
            return labels[first + a] if a == b else "%s..%s" % (labels[first + a], labels[first + b])

        open_groups = {}
        order = []

        def flush(key):
            kind, detail, a, b = open_groups.pop(key)
            order.remove(key)
            out.append({"device": device_name, "label": span(a, b), "hours": b - a + 1, "kind": kind, "detail": detail})

        for offset in range(last - first + 1):
            here = set()
            for kind, detail in figures[first + offset]["deviations"]:
                key = kind + "|" + json.dumps(detail, sort_keys=True)
                here.add(key)
                group = open_groups.get(key)
                if group and group[3] == offset - 1:
                    group[3] = offset
                else:
                    if group:
                        flush(key)
                    open_groups[key] = [kind, detail, offset, offset]
                    order.append(key)
            for key in list(order):
                if key not in here:
                    flush(key)
        for key in list(order):
            flush(key)
    for parameter, hours in defaults.items():
        out.append({"device": device_name, "label": None, "hours": hours, "kind": "default_used",
                    "detail": {"parameter": parameter, "value": params[parameter]}})
    return out


def climate_totals(sums_by_device, period, e_own, params):
    """D74–D78: the period's baseline, project emissions, leakage, reductions and carbon units."""
    total = lambda key: sum(s[key] for s in sums_by_device)
    e_grid_aux = period.get("e_grid_aux_mwh") or 0
    leakage = period.get("leakage_t_co2e") or 0
    deficit_prev = period.get("deficit_prev_t_co2e") or 0
    be_ch4 = total("be_ch4")
    e_cred = total("e_cred_mwh")
    e_net = e_cred - e_own
    be_el = max(0, e_net) * params["ef_grid_t_per_mwh"]
    heat_cred = total("heat_cred_gj")
    be_heat = heat_cred * params["ef_bl_heat_t_per_tj"] / (1000 * params["eta_bl_heat"])
    be = be_ch4 + be_el + be_heat
    pe_um = total("pe_um")
    pe_md = total("pe_md")
    e_deficit = max(0, -e_net)
    pe_me = (e_grid_aux + e_deficit) * params["ef_grid_t_per_mwh"] * (1 + params["tdl_project"])
    pe_fc = 0.0
    for fuel in period.get("fuels") or []:
        pe_fc += fuel["t"] * fuel["ef_t_co2_per_t"]
    pe = pe_um + pe_md + pe_me + pe_fc
    er_raw = be - pe - leakage
    x = er_raw - deficit_prev
    er = max(0, x)
    return {
        "v_ch4_m3": total("v_ch4_m3"), "m_ch4_t": total("m_ch4_t"), "be_ch4_t_co2e": be_ch4, "e_gen_mwh": total("e_gen_mwh"),
        "e_cred_mwh": e_cred, "e_own_mwh": e_own, "e_net_mwh": e_net, "be_el_t_co2": be_el, "heat_cred_gj": heat_cred,
        "be_heat_t_co2": be_heat, "be_t_co2e": be, "pe_um_t_co2e": pe_um, "pe_md_t_co2": pe_md, "e_grid_aux_mwh": e_grid_aux,
        "e_deficit_mwh": e_deficit, "pe_me_t_co2": pe_me, "pe_fc_t_co2": pe_fc, "pe_t_co2e": pe, "le_t_co2e": leakage,
        "er_raw_t_co2e": er_raw, "deficit_prev_t_co2e": deficit_prev, "er_t_co2e": er, "deficit_carried_t_co2e": max(0, -x),
        "carbon_units": carbon_units(er),
    }


def evaluate_period(plan, meters, start, hours, labels, period, params):
    """Section 13 over the period from the meters' readings: (hours by device, totals, deviations)."""
    devices = []
    sums = []
    deviations = []
    for device in plan["devices"]:
        channels, hourly = device_minutes(device, meters, start, hours)
        figures, device_sums, defaults = evaluate_device(device, channels, hourly, hours, labels, params)
        blocks = hour_blocks(channels, hourly, hours)
        deviations.extend(group_deviations(device["name"], figures, blocks, labels, defaults, params))
        devices.append(figures)
        sums.append(device_sums)
    e_own = 0.0
    if plan.get("e_own_sensor"):
        meter = meters[plan["e_own_sensor"]]
        for _, value in meter.valid(start, start + hours * 3600000):
            if in_range(meter.kind, value):
                e_own += value
    return devices, climate_totals(sums, period, e_own, params), deviations


class PackSource:
    """The pack's files by the names the manifest gives them: an unzipped folder, or the pack's zip
    files (its parts, or the zip of its parts as the platform hands a split pack out)."""

    def __init__(self, paths):
        self.entries = {}
        self.twice = []
        self.unreadable = []
        self.folders = [path for path in paths if os.path.isdir(path)]
        for path in paths:
            if os.path.isdir(path):
                for name in pack_files(path):
                    self.add(name, lambda p=os.path.join(path, *name.split("/")): open(p, "rb").read())
            else:
                try:
                    self.add_zip(zipfile.ZipFile(path))
                except (OSError, zipfile.BadZipFile) as error:
                    self.unreadable.append("%s: %s" % (path, error))

    def add(self, name, read):
        if name in self.entries:
            self.twice.append(name)
        self.entries[name] = read

    def add_zip(self, archive):
        names = [i.filename for i in archive.infolist() if not i.is_dir()]
        if names and all(n.lower().endswith(".zip") for n in names):  # the zip of the parts
            for name in names:
                self.add_zip(zipfile.ZipFile(io.BytesIO(archive.read(name))))
            return
        for name in names:
            self.add(name, lambda n=name: archive.read(n))

    def read(self, name):
        read = self.entries.get(name)
        if read is None:
            return None
        try:
            return read()
        except (OSError, zipfile.BadZipFile):
            return None


def climate_hours_csv(data):
    """A device's hourly table: rows of HOUR_COLUMNS."""
    text = data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    return [dict(zip(HOUR_COLUMNS, row)) for row in rows[1:] if row]


def climate_readings(data):
    """A meter's readings file: (ms, value) per line; an hour's «YYYY-MM-DDTHH:» read once."""
    out = []
    hours = {}
    for line in data.decode("utf-8").split("\n")[1:]:
        if not line:
            continue
        instant, value = line.split(";")
        if len(instant) == 24 and instant[13] == ":" and instant[16] == ":" and instant[19] == "." and instant[23] == "Z":
            hour = hours.get(instant[:13])
            if hour is None:
                hour = hours[instant[:13]] = iso_ms(instant[:13] + ":00:00.000Z")
            at = hour + int(instant[14:16]) * 60000 + int(instant[17:19]) * 1000 + int(instant[20:23])
        else:
            at = iso_ms(instant)
        out.append((at, float(value)))
    return out


def channel_counts(text):
    return {k: int(v) for k, v in (part.split("=") for part in text.split())} if text else {}


def as_number(text):
    return None if text == "" else float(text)


def climate_main(source, public_key=None):
    report = Report()
    public_keys = [public_key] if isinstance(public_key, str) else list(public_key or [])
    report.anchored = len(public_keys) > 0
    for what in source.unreadable:
        report.incomplete("часть пакета не читается: %s" % what)
    try:
        manifest = json.loads((source.read("manifest.json") or b"").decode("utf-8"))
    except ValueError as error:
        report.incomplete("manifest.json не читается: %s" % error)
        return climate_finish(report, None)
    print("== Подпись платформы над манифестом (manifest.sig.json)")
    raw = source.read(MANIFEST_SIGNATURE)
    keys = load_keys(report, public_keys)
    if raw is None:
        report.fail("файл %s" % MANIFEST_SIGNATURE, "его нет в пакете: манифест не подписан")
    else:
        try:
            signed = json.loads(raw.decode("utf-8"))
            if not isinstance(signed.get("manifest"), dict) or not isinstance(signed.get("signature"), dict):
                raise ValueError("нет манифеста или подписи")
        except (ValueError, AttributeError) as error:
            report.fail("файл %s" % MANIFEST_SIGNATURE, "не читается: %s" % error)
            signed = None
        if signed is not None:
            manifest = as_signed(report, signed, manifest)
            check_manifest_signature(report, manifest, signed, keys)
    if manifest.get("kind") != CLIMATE_KIND:
        report.fail("файл manifest.json: kind", "ожидается %s, в манифесте %r" % (CLIMATE_KIND, manifest.get("kind")))
    print("== Файлы пакета (manifest.json, SHA-256)")
    listed = {}
    for entry in manifest.get("files", []):
        listed[entry["name"]] = entry
    for name in source.twice:
        report.fail("файл %s" % name, "он дважды в переданных частях пакета")
    data = {}
    for name, entry in listed.items():
        body = source.read(name)
        if body is None:
            report.fail("файл %s" % name, "его нет в пакете (удален или не передана часть пакета, в которой он лежит)")
            continue
        data[name] = body
        digest = hashlib.sha256(body).hexdigest()
        if digest != entry["sha256"]:
            report.fail("файл %s" % name, "SHA-256 %s, в подписанном манифесте %s" % (digest, entry["sha256"]))
    report.agree("файлы пакета по манифесту: %d" % len(listed)) if all(
        name in data and hashlib.sha256(data[name]).hexdigest() == listed[name]["sha256"] for name in listed) else None
    keys_inside = named_keys(source.folders, public_keys)
    note_named_keys(keys_inside)
    for name in source.entries:
        if name in listed or name in ("manifest.json", MANIFEST_SIGNATURE) or name in keys_inside:
            continue
        if KEP_SIGNATURE.match(name):
            # Issue 89 item 5: the executor's КЭП over manifest.json (GOST, not checkable with Python's
            # standard library): named for the verifier's own tool, never a file of the manifest.
            print("примечание: %s — КЭП исполнителя над manifest.json (отсоединенная подпись ГОСТ Р 34.10-2012); "
                  "проверьте ее в КриптоПро или КриптоАРМ вместе с manifest.json" % name)
            continue
        base = name.split("/")[-1]
        if base in SYSTEM_FILES or base.startswith("._") or "__pycache__" in name.split("/"):
            continue
        report.fail("файл %s" % name, "его нет в подписанном манифесте: в пакете платформы такого файла нет")
    for name in CLIMATE_FIXED_FILES:
        if name not in listed:
            report.fail("файл %s" % name, "пакет периода должен его содержать, а манифест его не называет")
    try:
        plan = json.loads(data["plan.json"].decode("utf-8"))
        period_file = json.loads(data["period.json"].decode("utf-8"))
        totals_file = json.loads(data["totals.json"].decode("utf-8"))
    except (KeyError, ValueError) as error:
        report.fail("пересчет периода", "нет файла или он не читается: %s" % error)
        return climate_finish(report, manifest)

    print("== Параметры методологии (раздел 13, правила %s)" % CLIMATE_RULES)
    if period_file.get("rules_version") != CLIMATE_RULES:
        report.fail("правила периода", "период вычислен по правилам %r, этот verify.py пересчитывает по %s"
                    % (period_file.get("rules_version"), CLIMATE_RULES))
    params = dict(CLIMATE_DEFAULTS)
    declared = (period_file.get("inputs") or {}).get("period") or {}
    # Issue 96 item 1 (D51, D75): EF_grid is the period's input with its source, not a value of section 13.
    if isinstance(declared.get("ef_grid_t_per_mwh"), (int, float)) and not isinstance(declared.get("ef_grid_t_per_mwh"), bool):
        params["ef_grid_t_per_mwh"] = float(declared["ef_grid_t_per_mwh"])
        print("EF_grid %s т CO2/МВт·ч — источник: %s" % (fmt(params["ef_grid_t_per_mwh"]), declared.get("ef_grid_source") or "не указан"))
    for name, value in sorted((period_file.get("params") or {}).items()):
        if name in params and not climate_close(value, params[name]):
            where = "заявлено в периоде" if name == "ef_grid_t_per_mwh" and "ef_grid_t_per_mwh" in declared else "по методологии"
            report.fail("параметр %s" % name, "в пакете %s, %s %s" % (fmt(value), where, fmt(params[name])))
    report.agree("параметры периода — значения раздела 13 и заявленные в периоде")

    print("== Показания счетчиков плана мониторинга")
    meters = {}
    for meter in plan.get("meters", []):
        name = meter.get("file")
        if name not in listed:
            report.fail("счетчик %s" % meter.get("code"), "файла его показаний %s нет в манифесте" % name)
            continue
        if name not in data:
            continue
        try:
            readings = climate_readings(data[name])
        except ValueError as error:
            report.fail("файл %s" % name, "не читается: %s" % error)
            continue
        if len(readings) != meter.get("readings"):
            report.fail("файл %s" % name, "показаний %d, в plan.json %s" % (len(readings), meter.get("readings")))
        valid_from = iso_ms(meter["valid_from_utc"]) if meter.get("valid_from_utc") else -INF
        valid_to = iso_ms(meter["valid_to_utc"]) if meter.get("valid_to_utc") else INF
        if meter.get("kind") not in SENSOR_KINDS:
            report.fail("счетчик %s" % meter.get("code"), "вид %r этому verify.py неизвестен" % meter.get("kind"))
            continue
        meters[meter["code"]] = Meter(meter["kind"], readings, valid_from, valid_to)
    needed = {code for d in plan.get("devices", []) for code in d.get("sensors", {}).values() if code}
    if plan.get("e_own_sensor"):
        needed.add(plan["e_own_sensor"])
    absent = sorted(needed - set(meters))
    if absent:
        report.fail("показания счетчиков", "нет показаний %s: пересчитать период нельзя" % ", ".join(absent))
        return climate_finish(report, manifest)
    report.agree("показания %d счетчиков прочитаны" % len(meters))

    start = iso_ms(plan["start_utc"])
    hours = int(plan["hours"])
    labels = plan.get("hour_labels") or []
    if len(labels) != hours:
        report.fail("plan.json: hour_labels", "часов %d, подписей %d" % (hours, len(labels)))
        labels = (labels + [""] * hours)[:hours]
    unknown = [d for d in plan["devices"] if d.get("kind") not in CLIMATE_DEVICE_KINDS["kinds"]]
    for device in unknown:
        report.fail("устройство %s" % device.get("name"), "вид %r этому verify.py неизвестен (нет в CLIMATE_DEVICE_KINDS)"
                    % device.get("kind"))
    if unknown:
        return climate_finish(report, manifest)
    devices, totals, deviations = evaluate_period(plan, meters, start, hours, labels, declared, params)

    print("== Часы каждого устройства (пересчет из показаний)")
    for device, figures in zip(plan["devices"], devices):
        table_name = device.get("hours_file")
        if table_name not in data:
            report.fail("устройство %s" % device["name"], "таблицы его часов %s нет" % table_name)
            continue
        rows = climate_hours_csv(data[table_name])
        if len(rows) != hours:
            report.fail("таблица %s" % table_name, "строк %d, часов в периоде %d" % (len(rows), hours))
        bad = 0
        for h, (row, computed) in enumerate(zip(rows, figures)):
            where = "%s, час %s" % (device["name"], labels[h])
            problems = []
            if row.get("label") != labels[h]:
                problems.append("подпись часа %r, ожидается %r" % (row.get("label"), labels[h]))
            if (row.get("valid") == "1") != computed["valid"]:
                problems.append("данные достоверны: в таблице %s, пересчет %s" % (row.get("valid"), "1" if computed["valid"] else "0"))
            if row.get("eta_basis") != computed["eta_basis"]:
                problems.append("основание КПД: в таблице «%s», пересчет «%s» (%s)"
                                % (row.get("eta_basis"), computed["eta_basis"], BASIS_LABELS.get(computed["eta_basis"], "")))
            for column in HOUR_NUMBERS:
                try:
                    stated = as_number(row.get(column, ""))
                except ValueError:
                    stated = NAN
                expected = computed.get(column)
                if not climate_close(stated, None if expected is None else float(expected)):
                    problems.append("%s: в таблице %s, пересчет %s" % (column, row.get(column), fmt(expected)))
            for column in ("missing_min", "substituted_min"):
                if channel_counts(row.get(column, "")) != computed[column]:
                    problems.append("%s: в таблице %r, пересчет %r" % (column, row.get(column), computed[column]))
            if problems:
                bad += 1
                if bad <= 20:
                    report.fail(where, "; ".join(problems))
        if bad > 20:
            report.fail("%s: еще %d часов" % (device["name"], bad - 20), "расходятся так же")
        if bad == 0 and len(rows) == hours:
            report.agree("%s: все %d часов (%s)" % (device["name"], hours, table_name))

    print("== Итоги периода и углеродные единицы (totals.json, period.json)")
    stated_totals = totals_file.get("totals") or {}
    stored_totals = ((period_file.get("result") or {}).get("totals")) or {}
    for key, value in totals.items():
        for where, stated in (("totals.json", stated_totals.get(key)), ("period.json", stored_totals.get(key))):
            ok = stated == value if key == "carbon_units" else isinstance(stated, (int, float)) and climate_close(float(stated), float(value))
            if ok:
                continue
            report.fail("итог %s (%s)" % (key, where), "пересчет %s, в пакете %s" % (fmt(value), fmt(stated)))
    if totals_file.get("carbon_units") != totals["carbon_units"]:
        report.fail("углеродные единицы (totals.json)", "пересчет %s, в пакете %s" % (totals["carbon_units"], totals_file.get("carbon_units")))
    else:
        report.agree("углеродные единицы: %d (ER %s т CO2-экв)" % (totals["carbon_units"], fmt(totals["er_t_co2e"])))

    print("== Отклонения от методологии (D79)")
    stated_deviations = (period_file.get("result") or {}).get("deviations") or []
    if len(stated_deviations) != len(deviations):
        report.fail("отклонения", "в пакете %d групп, пересчет %d" % (len(stated_deviations), len(deviations)))
    else:
        differ = [i for i, (a, b) in enumerate(zip(deviations, stated_deviations)) if not same_deviation(a, b)]
        for i in differ[:20]:
            report.fail("отклонение %d (%s, %s)" % (i + 1, deviations[i]["device"], deviations[i]["label"] or "весь период"),
                        "пересчет %s, в пакете %s" % (json.dumps(deviations[i], ensure_ascii=False),
                                                       json.dumps(stated_deviations[i], ensure_ascii=False)))
        if not differ:
            report.agree("отклонения: %d групп" % len(deviations))
    return climate_finish(report, manifest)


def same_deviation(a, b):
    if not isinstance(b, dict):
        return False
    for key in ("device", "label", "hours", "kind"):
        if a[key] != b.get(key):
            return False
    return same_value(a["detail"], b.get("detail"))


def same_value(a, b):
    if isinstance(a, dict):
        return isinstance(b, dict) and set(a) == set(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return isinstance(b, (int, float)) and not isinstance(b, bool) and climate_close(float(a), float(b))
    return a == b


def climate_finish(report, manifest):
    """As finish: 2 unreadable, 1 a check differs (a removed file too), 3 no outside anchor, 0 all agree."""
    code = failed(report, "Пакет не читается, проверить его нельзя:")
    if code is not None:
        return code
    period = (manifest or {}).get("period") or {}
    print("Все %d проверок сходятся: отчетный период %s – %s" % (report.checked, period.get("start"), period.get("end")))
    if not report.anchored:
        print("Проверена только согласованность пакета с самим собой: передайте открытый ключ платформы "
              "(--public-key, GET /api/v1/signing-keys/), чтобы проверить подпись манифеста.")
        return 3
    return 0


def is_climate_pack(paths):
    """A climate period's pack (its manifest says so), or zip files: the parts of a split pack."""
    if len(paths) != 1 or not os.path.isdir(paths[0]):
        return True
    try:
        return json.load(open(os.path.join(paths[0], "manifest.json"), encoding="utf-8")).get("kind") == CLIMATE_KIND
    except (OSError, ValueError, AttributeError):
        return False


# ---- Issue 95: the pack's stored readings reconciled with the mine's own dispatch export ----

READING_DAYS_FILE = "readings-days.json"
EXPORT_TIME_HEADERS = {"время", "дата", "дата и время", "t", "time", "timestamp"}
EXPORT_SENSOR_HEADERS = {"датчик", "код", "код датчика", "sensor"}
EXPORT_LOCAL_TIME = re.compile(r"^(\d{2})\.(\d{2})\.(\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$")
EXPORT_ZONED_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$", re.I)


def company_clock(listing):
    """The company's clock of the listing: (ms of a wall time -> instant ms, instant ms -> its date)."""
    try:
        from zoneinfo import ZoneInfo
        zone = ZoneInfo(listing["time_zone"])
    except Exception:  # no zone database (Windows without tzdata): the listing's fixed offset
        zone = datetime.timezone(datetime.timedelta(minutes=int(listing.get("utc_offset_minutes", 0))))

    def instant(y, mo, d, h, mi, sec):
        return int(datetime.datetime(y, mo, d, h, mi, sec, tzinfo=zone).timestamp() * 1000)

    def day(ms):
        return datetime.datetime.fromtimestamp(ms / 1000, zone).strftime("%Y-%m-%d")
    return instant, day


def iso_ms_utc(ms):
    at = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=ms)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


def canonical_days(readings, start, end, day_of):
    """{day: (count, sha256)} of one meter's readings [(ms, value)] in [start, end), as reading-days.ts hashes them."""
    latest = {}
    for ms, value in readings:
        if start <= ms < end:
            latest[ms] = value
    days = {}
    for ms in sorted(latest):
        day = day_of(ms)
        count, digest = days.get(day) or (0, hashlib.sha256())
        digest.update(("%s;%s\n" % (iso_ms_utc(ms), es_number(latest[ms]))).encode("utf-8"))
        days[day] = (count + 1, digest)
    return {day: (count, digest.hexdigest()) for day, (count, digest) in days.items()}


def export_number(cell):
    text = cell.strip().replace("\u00a0", "").replace("\u202f", "").replace(" ", "").replace(",", ".")
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(cell)
    return value


def read_export(path, instant_of):
    """The mine's dispatch export as the platform reads it (dispatch-file.ts): UTF-8 or Windows-1251, «;»
    (or «,», a tab), a column per sensor code after the time or a row per reading «Датчик;Время;Значение»,
    times «ДД.ММ.ГГГГ ЧЧ:ММ[:СС]» on the company's clock or ISO 8601 with a zone, decimal commas and
    grouping spaces. {code lower-cased: (code, [(ms, value)])}; lines it cannot read are counted."""
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1251")
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0]
    delimiter = ";" if ";" in first else ("\t" if "\t" in first else ",")
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows:
        raise ValueError("файл пустой")
    header = [h.strip() for h in rows[0]]
    lower = [h.lower() for h in header]
    sensor = next((i for i, h in enumerate(lower) if h in EXPORT_SENSOR_HEADERS), -1)
    time = next((i for i, h in enumerate(lower) if h in EXPORT_TIME_HEADERS), -1)
    readings = {}
    skipped = 0

    def add(code, ms, cell):
        nonlocal skipped
        if cell is None or cell.strip() == "":
            return
        try:
            value = export_number(cell)
        except ValueError:
            skipped += 1
            return
        readings.setdefault(code.lower(), (code, []))[1].append((ms, value))

    def when(cell):
        cell = cell.strip()
        local = EXPORT_LOCAL_TIME.match(cell)
        if local:
            d, mo, y, h, mi, sec = local.groups()
            return instant_of(int(y), int(mo), int(d), int(h), int(mi), int(sec or 0))
        if EXPORT_ZONED_ISO.match(cell):
            parsed = datetime.datetime.fromisoformat(cell.replace("Z", "+00:00").replace("z", "+00:00"))
            return int(round(parsed.timestamp() * 1000))
        raise ValueError(cell)

    if sensor >= 0:
        value = next((i for i in range(len(lower)) if i not in (sensor, time)), -1)
        if time < 0 or value < 0:
            raise ValueError("строка 1: ожидается заголовок «Датчик;Время;Значение»")
    elif len(header) < 2:
        raise ValueError("строка 1: ожидается заголовок «Время;<код датчика>;…»")
    time = time if time >= 0 else 0
    for row in rows[1:]:
        if not row or all(c.strip() == "" for c in row):
            continue
        try:
            ms = when(row[time] if time < len(row) else "")
        except (ValueError, OverflowError):
            skipped += 1
            continue
        if sensor >= 0:
            code = row[sensor].strip() if sensor < len(row) else ""
            if code:
                add(code, ms, row[value] if value < len(row) else None)
            continue
        for i, code in enumerate(header):
            if i != time and code and i < len(row):
                add(code, ms, row[i])
    return readings, skipped


def pack_readings(data, name, meter):
    """A meter's readings in the pack's file `name`: «время;значение» lines (a climate period's minutes/)
    or «код;время;значение» lines (an accepted month's telemetry/NNNN.csv)."""
    out = []
    for line in data.decode("utf-8").splitlines():
        cells = line.split(";")
        if len(cells) == 3 and cells[0] != meter:
            continue
        if len(cells) not in (2, 3):
            continue
        try:
            ms = iso_ms(cells[-2])
            out.append((ms, float(cells[-1])))
        except (ValueError, TypeError):
            continue
    return out


def reconcile_main(paths, export_path):
    """verify.py --reconcile EXPORT.csv: 0 when every meter-day of the pack's readings-days.json is the
    export's (count and SHA-256), 1 naming the first that differs, 2 when the pack or the export cannot be read."""
    source = PackSource(paths)
    listing_raw = source.read(READING_DAYS_FILE)
    manifest_raw = source.read("manifest.json")
    if listing_raw is None or manifest_raw is None:
        print("НЕ ЧИТАЕТСЯ: в пакете нет %s или manifest.json (пакет сделан до сверки с выгрузкой АГК или без показаний АГК)"
              % READING_DAYS_FILE)
        return 2
    listing = json.loads(listing_raw.decode("utf-8"))
    manifest = json.loads(manifest_raw.decode("utf-8"))
    stated = {entry["name"]: entry["sha256"] for entry in manifest.get("files", [])}
    if stated.get(READING_DAYS_FILE) != hashlib.sha256(listing_raw).hexdigest():
        print("РАСХОДИТСЯ: %s: его SHA-256 не тот, что в manifest.json" % READING_DAYS_FILE)
        return 1
    instant_of, day_of = company_clock(listing)
    try:
        exported, skipped = read_export(export_path, instant_of)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        print("НЕ ЧИТАЕТСЯ: выгрузка %s: %s" % (export_path, error))
        return 2
    print("== Сверка показаний пакета с выгрузкой АГК %s (часы компании: %s)" % (os.path.basename(export_path), listing["time_zone"]))
    if skipped:
        print("примечание: в выгрузке %d значений или строк не прочитано (время или число не читается)" % skipped)
    compared = 0
    seen = set()
    for number, entry in enumerate(listing.get("sets", []), 1):
        start, end = iso_ms(entry["from"]), iso_ms(entry["to"])
        listed = {}
        for row in entry.get("days", []):
            listed.setdefault(row["meter"], {})[row["day"]] = (row["readings"], row["sha256"])
        for item in sorted(entry.get("files", []), key=lambda f: f["meter"]):
            meter = item["meter"]
            seen.add(meter.lower())
            data = source.read(item["file"])
            own = canonical_days(pack_readings(data, item["file"], meter), start, end, day_of) if data is not None else {}
            stated_days = listed.get(meter, {})
            if own != stated_days:
                day = min(d for d in set(own) | set(stated_days) if own.get(d) != stated_days.get(d))
                print("РАСХОДИТСЯ: %s, %s: %s пакета не совпадает с показаниями файла %s" % (meter, day, READING_DAYS_FILE, item["file"]))
                return 1
            theirs = canonical_days(exported.get(meter.lower(), (meter, []))[1], start, end, day_of)
            for day in sorted(set(stated_days) | set(theirs)):
                ours = stated_days.get(day, (0, None))
                other = theirs.get(day, (0, None))
                if ours != other:
                    print("РАСХОДИТСЯ: датчик %s, сутки %s: в пакете %d показаний (SHA-256 %s), в выгрузке %d (SHA-256 %s)"
                          % (meter, day, ours[0], ours[1] or "—", other[0], other[1] or "—"))
                    return 1
                compared += 1
    others = sorted(code for key, (code, _) in exported.items() if key not in seen)
    if others:
        print("примечание: датчиков выгрузки нет в пакете, они не сверены: %s" % ", ".join(others[:10]))
    print("сходится: %d суток датчиков — число показаний и их SHA-256 в пакете те же, что в выгрузке" % compared)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Проверка пакета верификации: утвержденной версии инвентаризации "
                                                 "или отчетного периода климатического проекта")
    parser.add_argument("folder", nargs="*",
                        help="папка распакованного пакета (по умолчанию папка этого файла); пакет периода, разделенный "
                             "на части, — файлы всех его частей (.zip)")
    parser.add_argument("--sha256", help="SHA-256 версии, как его опубликовала организация")
    parser.add_argument("--public-key", action="append",
                        help="файл PEM с открытым ключом платформы (GET /api/v1/signing-keys/); можно указать дважды")
    parser.add_argument("--reconcile", metavar="EXPORT.csv",
                        help="выгрузка АГК шахты: сверить с ней показания пакета по датчикам и суткам (readings-days.json)")
    arguments = parser.parse_args()
    print("Этот verify.py: SHA-256 %s. Сверьте его (sha256sum verify.py) с verify_py_sha256 в GET /api/v1/signing-keys/ "
          "и в docs/security.md платформы: подмененный скрипт напечатает что угодно." % hashlib.sha256(open(os.path.abspath(__file__), "rb").read()).hexdigest())
    paths = arguments.folder or [os.path.dirname(os.path.abspath(__file__))]
    if arguments.reconcile:
        sys.exit(reconcile_main(paths, arguments.reconcile))
    if is_climate_pack(paths):
        sys.exit(climate_main(PackSource(paths), arguments.public_key))
    sys.exit(main(paths[0], arguments.sha256, arguments.public_key))
