// A minimal reader of ASN.1 DER (and BER's indefinite lengths, as a signing tool may stream a CMS
// signature so), enough for a CMS signature and the X.509 certificates it carries: each element is
// its tag, its content's bytes and its whole encoding's bytes (what a signature covers). It reads,
// never builds; anything malformed throws DerError, which the verifier answers as a broken signature.

export class DerError extends Error {}

export interface Der {
  /** The identifier octet (class, constructed bit, tag number < 31). */
  tag: number;
  /** The content octets (for an indefinite length: up to the end-of-contents octets). */
  content: Uint8Array;
  /** The whole element: identifier, length and content. */
  raw: Uint8Array;
  /** The children of a constructed element (empty for a primitive one). */
  children: Der[];
}

export const TAG = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  sequence: 0x30,
  set: 0x31,
  utcTime: 0x17,
  generalizedTime: 0x18,
} as const;

/** [n] of the context class, constructed (EXPLICIT, or IMPLICIT over a constructed type). */
export const context = (n: number) => 0xa0 | n;
/** [n] of the context class, primitive (IMPLICIT over a primitive type). */
export const contextPrimitive = (n: number) => 0x80 | n;

const MAX_DEPTH = 32;

function readOne(bytes: Uint8Array, start: number, end: number, depth: number): [Der, number] {
  if (depth > MAX_DEPTH) throw new DerError("nested too deep");
  if (start + 2 > end) throw new DerError("truncated");
  const tag = bytes[start];
  if ((tag & 0x1f) === 0x1f) throw new DerError("high tag numbers are not used here");
  let at = start + 1;
  const first = bytes[at++];
  const constructed = (tag & 0x20) !== 0;
  if (first === 0x80) {
    // Indefinite length (BER): children up to the end-of-contents octets 00 00.
    if (!constructed) throw new DerError("indefinite length of a primitive element");
    const children: Der[] = [];
    const contentStart = at;
    for (;;) {
      if (at + 2 > end) throw new DerError("truncated");
      if (bytes[at] === 0 && bytes[at + 1] === 0) break;
      const [child, next] = readOne(bytes, at, end, depth + 1);
      children.push(child);
      at = next;
    }
    return [{ tag, content: bytes.subarray(contentStart, at), raw: bytes.subarray(start, at + 2), children }, at + 2];
  }
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4) throw new DerError("length too long");
    if (at + count > end) throw new DerError("truncated");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[at++];
  }
  if (at + length > end) throw new DerError("truncated");
  const content = bytes.subarray(at, at + length);
  checkPrimitive(tag, content);
  const children = constructed ? readAll(content, depth + 1) : [];
  return [{ tag, content, raw: bytes.subarray(start, at + length), children }, at + length];
}

/** The universal types' own rules, as OpenSSL's decoder holds them: a BOOLEAN of one byte, a NULL of
 *  none, an INTEGER of at least one, an OID ending its last arc, a BIT STRING stating ≤ 7 unused bits,
 *  none of them constructed; no end-of-contents outside an indefinite length. */
function checkPrimitive(tag: number, content: Uint8Array): void {
  if (tag === 0x00) throw new DerError("end-of-contents out of place");
  if (tag === 0x21 || tag === 0x22 || tag === 0x25 || tag === 0x26) throw new DerError("a constructed primitive type");
  if (tag === 0x01 && content.length !== 1) throw new DerError("BOOLEAN of a wrong length");
  if (tag === 0x02 && content.length === 0) throw new DerError("empty INTEGER");
  if (tag === 0x05 && content.length !== 0) throw new DerError("NULL with content");
  if (tag === 0x06 && (content.length === 0 || content[content.length - 1] & 0x80)) throw new DerError("bad OID");
  if (tag === 0x03 && (content.length === 0 || content[0] > 7)) throw new DerError("bad BIT STRING");
}

function readAll(bytes: Uint8Array, depth: number): Der[] {
  const out: Der[] = [];
  let at = 0;
  while (at < bytes.length) {
    const [element, next] = readOne(bytes, at, bytes.length, depth);
    out.push(element);
    at = next;
  }
  return out;
}

/** The one element the bytes hold (trailing bytes refused). */
export function readDer(bytes: Uint8Array): Der {
  const [element, next] = readOne(bytes, 0, bytes.length, 0);
  if (next !== bytes.length) throw new DerError("trailing bytes");
  return element;
}

/** The elements inside an element: its children, or, for one marked primitive where a constructed one
 *  belongs (OpenSSL's decoder takes that for an implicitly tagged SET), its content read as elements. */
export function childrenOf(element: Der): Der[] {
  return element.tag & 0x20 ? element.children : readAll(element.content, 1);
}

/** One element's DER: the tag, the definite length, the content. */
export function encode(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const content = Buffer.concat(parts);
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 255] : [0x83, n >> 16, (n >> 8) & 255, n & 255];
  return Buffer.concat([Uint8Array.of(tag, ...length), content]);
}

/** The element that starts at `offset` (what follows it is not read). */
export function readDerAt(bytes: Uint8Array, offset: number): Der {
  return readOne(bytes, offset, bytes.length, 0)[0];
}

/** The element if it has the tag, else DerError. */
export function expectTag(element: Der | undefined, tag: number, what: string): Der {
  if (!element || element.tag !== tag) throw new DerError(`${what}: expected tag 0x${tag.toString(16)}`);
  return element;
}

/** An OBJECT IDENTIFIER's dotted text. */
export function oidText(element: Der): string {
  const bytes = expectTag(element, TAG.oid, "OID").content;
  if (bytes.length === 0) throw new DerError("empty OID");
  const parts: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 128) throw new DerError("OID arc too large");
    if (!(byte & 0x80)) {
      if (parts.length === 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else parts.push(value);
      value = 0;
    }
  }
  if (bytes[bytes.length - 1] & 0x80) throw new DerError("OID truncated");
  return parts.join(".");
}

/** An OCTET STRING's bytes (a constructed one, as BER allows, joined). */
export function octets(element: Der): Uint8Array {
  if (element.tag === TAG.octetString) return element.content;
  if (element.tag === (TAG.octetString | 0x20)) return Buffer.concat(element.children.map(octets));
  throw new DerError("expected an OCTET STRING");
}

/** A BIT STRING's bytes (no unused bits allowed: keys and signatures are whole bytes). */
export function bitStringBytes(element: Der): Uint8Array {
  const content = expectTag(element, TAG.bitString, "BIT STRING").content;
  if (content.length === 0 || content[0] !== 0) throw new DerError("BIT STRING with unused bits");
  return content.subarray(1);
}

/** A time (UTCTime or GeneralizedTime, Z), as a Date. */
export function timeOf(element: Der): Date {
  const text = Buffer.from(element.content).toString("latin1");
  const m =
    element.tag === TAG.utcTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : element.tag === TAG.generalizedTime
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
        : null;
  if (!m) throw new DerError("expected a time");
  const year = element.tag === TAG.utcTime ? (Number(m[1]) >= 50 ? 1900 : 2000) + Number(m[1]) : Number(m[1]);
  const at = Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (Number.isNaN(at)) throw new DerError("bad time");
  return new Date(at);
}

/** A string type's text (UTF8String, BMPString, UniversalString, or one of the 8-bit ones), or
 *  undefined for another type. */
function stringOf(element: Der): string | undefined {
  const { tag, content } = element;
  if (tag === 0x0c) return Buffer.from(content).toString("utf8");
  if (tag === 0x13 || tag === 0x14 || tag === 0x16 || tag === 0x1a) return Buffer.from(content).toString("latin1");
  if (tag === 0x1e) return Buffer.from(content).swap16().toString("utf16le");
  if (tag === 0x1c) {
    let text = "";
    for (let k = 0; k + 3 < content.length; k += 4) {
      text += String.fromCodePoint(((content[k] << 24) | (content[k + 1] << 16) | (content[k + 2] << 8) | content[k + 3]) >>> 0);
    }
    return text;
  }
  return undefined;
}

/**
 * A Name (RFC 5280) in the canonical form OpenSSL compares names by (x509_name_canon): each attribute's
 * OID and value, a string's text trimmed, its runs of spaces made one and its ASCII letters lowercase,
 * whatever string type encoded it; other values as their bytes. An issuer written as UTF8String
 * matches a CA's subject written as PrintableString, as it does for OpenSSL.
 */
export function canonicalName(raw: Uint8Array): string {
  const name = readDer(raw);
  expectTag(name, TAG.sequence, "Name");
  return name.children
    .map((rdn) =>
      expectTag(rdn, TAG.set, "RelativeDistinguishedName")
        .children.map((attribute) => {
          const [type, value] = expectTag(attribute, TAG.sequence, "AttributeTypeAndValue").children;
          if (attribute.children.length !== 2) throw new DerError("AttributeTypeAndValue");
          const text = stringOf(value);
          const canon =
            text === undefined
              ? `#${Buffer.from(value.raw).toString("hex")}`
              : `"${text
                  .trim()
                  .replace(/\s+/g, " ")
                  .replace(/[A-Z]/g, (ch) => ch.toLowerCase())}`;
          return `${oidText(type)}=${canon}`;
        })
        .join("+"),
    )
    .join(",");
}

/** Bytes equal. */
export function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}
