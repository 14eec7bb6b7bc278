// The elliptic curves of GOST R 34.10-2012 (RFC 4357, RFC 7836; gost-engine's gost_params.c) by the
// OID of their parameter set, and the verification of a GOST R 34.10 signature (gost-engine's
// gost_ec_sign.c gost_ec_verify) in BigInt arithmetic: a verification is two scalar
// multiplications, well under a second even for a 512-bit curve. Points are kept in Jacobian
// coordinates (X/Z², Y/Z³) so that only the result needs an inversion. The curves are given in
// Weierstrass form y² = x³ + ax + b; tc26's twisted Edwards sets (256 A, 512 C) are given so too, as
// the engine gives them. Nothing here is secret: verification only, so nothing needs constant time.

export interface GostCurve {
  name: string;
  p: bigint;
  a: bigint;
  b: bigint;
  /** The order of the base point's subgroup. */
  q: bigint;
  x: bigint;
  y: bigint;
  cofactor: bigint;
  /** The key's length in bytes of one coordinate (32 or 64). */
  size: 32 | 64;
}

const big = (hex: string) => BigInt(`0x${hex}`);

function curve(name: string, size: 32 | 64, [a, b, p, q, x, y, cofactor]: string[]): GostCurve {
  return { name, size, a: big(a), b: big(b), p: big(p), q: big(q), x: big(x), y: big(y), cofactor: big(cofactor) };
}

// a, b, p, q, x, y, cofactor as gost_params.c lists them.
const CRYPTOPRO_A = curve("CryptoPro-A", 32, [
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD94",
  "A6",
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD97",
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF6C611070995AD10045841B09B761B893",
  "1",
  "8D91E471E0989CDA27DF505A453F2B7635294F2DDF23E3B122ACC99C9E9F1E14",
  "1",
]);
const CRYPTOPRO_B = curve("CryptoPro-B", 32, [
  "8000000000000000000000000000000000000000000000000000000000000C96",
  "3E1AF419A269A5F866A7D3C25C3DF80AE979259373FF2B182F49D4CE7E1BBC8B",
  "8000000000000000000000000000000000000000000000000000000000000C99",
  "800000000000000000000000000000015F700CFFF1A624E5E497161BCC8A198F",
  "1",
  "3FA8124359F96680B83D1C3EB2C070E5C545C9858D03ECFB744BF8D717717EFC",
  "1",
]);
const CRYPTOPRO_C = curve("CryptoPro-C", 32, [
  "9B9F605F5A858107AB1EC85E6B41C8AACF846E86789051D37998F7B9022D7598",
  "805A",
  "9B9F605F5A858107AB1EC85E6B41C8AACF846E86789051D37998F7B9022D759B",
  "9B9F605F5A858107AB1EC85E6B41C8AA582CA3511EDDFB74F02F3A6598980BB9",
  "0",
  "41ECE55743711A8C3CBF3783CD08C0EE4D4DC440D4641A8F366E550DFDB3BB67",
  "1",
]);
const TC26_256_A = curve("tc26-256-A", 32, [
  "C2173F1513981673AF4892C23035A27CE25E2013BF95AA33B22C656F277E7335",
  "295F9BAE7428ED9CCC20E7C359A9D41A22FCCD9108E17BF7BA9337A6F8AE9513",
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD97",
  "400000000000000000000000000000000FD8CDDFC87B6635C115AF556C360C67",
  "91E38443A5E82C0D880923425712B2BB658B9196932E02C78B2582FE742DAA28",
  "32879423AB1A0375895786C4BB46E9565FDE0B5344766740AF268ADB32322E5C",
  "4",
]);
const TC26_512_A = curve("tc26-512-A", 64, [
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFDC4",
  "E8C2505DEDFC86DDC1BD0B2B6667F1DA34B82574761CB0E879BD081CFD0B6265EE3CB090F30D27614CB4574010DA90DD862EF9D4EBEE4761503190785A71C760",
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFDC7",
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF27E69532F48D89116FF22B8D4E0560609B4B38ABFAD2B85DCACDB1411F10B275",
  "3",
  "7503CFE87A836AE3A61B8816E25450E6CE5E1C93ACF1ABC1778064FDCBEFA921DF1626BE4FD036E93D75E6A50E3A41E98028FE5FC235F5B889A589CB5215F2A4",
  "1",
]);
const TC26_512_B = curve("tc26-512-B", 64, [
  "8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006C",
  "687D1B459DC841457E3E06CF6F5E2517B97C7D614AF138BCBF85DC806C4B289F3E965D2DB1416D217F8B276FAD1AB69C50F78BEE1FA3106EFB8CCBC7C5140116",
  "8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006F",
  "800000000000000000000000000000000000000000000000000000000000000149A1EC142565A545ACFDB77BD9D40CFA8B996712101BEA0EC6346C54374F25BD",
  "2",
  "1A8F7EDA389B094C2C071E3647A8940F3C123B697578C213BE6DD9E6C8EC7335DCB228FD1EDF4A39152CBCAAF8C0398828041055F94CEEEC7E21340780FE41BD",
  "1",
]);
const TC26_512_C = curve("tc26-512-C", 64, [
  "DC9203E514A721875485A529D2C722FB187BC8980EB866644DE41C68E143064546E861C0E2C9EDD92ADE71F46FCF50FF2AD97F951FDA9F2A2EB6546F39689BD3",
  "B4C4EE28CEBC6C2C8AC12952CF37F16AC7EFB6A9F69F4B57FFDA2E4F0DE5ADE038CBC2FFF719D2C18DE0284B8BFEF3B52B8CC7A5F5BF0A3C8D2319A5312557E1",
  "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFDC7",
  "3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC98CDBA46506AB004C33A9FF5147502CC8EDA9E7A769A12694623CEF47F023ED",
  "E2E31EDFC23DE7BDEBE241CE593EF5DE2295B7A9CBAEF021D385F7074CEA043AA27272A7AE602BF2A7B9033DB9ED3610C6FB85487EAE97AAC5BC7928C1950148",
  "F5CE40D95B5EB899ABBCCFF5911CB8577939804D6527378B8C108C3D2090FF9BE18E2D33E3021ED2EF32D85822423B6304F726AA854BAE07D0396E9A9ADDC40F",
  "4",
]);

/** The curves by the dotted OID of their parameter set (RFC 4357, RFC 7836; the tc26 256 B/C/D and
 *  the exchange sets XchA/XchB are CryptoPro's A/B/C and A/C under other names). */
export const GOST_CURVES: Readonly<Record<string, GostCurve>> = {
  "1.2.643.2.2.35.1": CRYPTOPRO_A,
  "1.2.643.2.2.35.2": CRYPTOPRO_B,
  "1.2.643.2.2.35.3": CRYPTOPRO_C,
  "1.2.643.2.2.36.0": CRYPTOPRO_A,
  "1.2.643.2.2.36.1": CRYPTOPRO_C,
  "1.2.643.7.1.2.1.1.1": TC26_256_A,
  "1.2.643.7.1.2.1.1.2": CRYPTOPRO_A,
  "1.2.643.7.1.2.1.1.3": CRYPTOPRO_B,
  "1.2.643.7.1.2.1.1.4": CRYPTOPRO_C,
  "1.2.643.7.1.2.1.2.1": TC26_512_A,
  "1.2.643.7.1.2.1.2.2": TC26_512_B,
  "1.2.643.7.1.2.1.2.3": TC26_512_C,
};

export const mod = (a: bigint, m: bigint) => {
  const r = a % m;
  return r < 0n ? r + m : r;
};

/** a⁻¹ mod m (m prime, a ≠ 0 mod m), by the extended Euclidean algorithm. */
export function invert(a: bigint, m: bigint): bigint {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const quotient = r0 / r1;
    [r0, r1] = [r1, r0 - quotient * r1];
    [s0, s1] = [s1, s0 - quotient * s1];
  }
  if (r0 !== 1n) throw new Error("not invertible");
  return mod(s0, m);
}

/** An affine point, or null for the point at infinity. */
export type Point = { x: bigint; y: bigint } | null;

/** Jacobian coordinates; Z = 0 is the point at infinity. */
type Jacobian = [bigint, bigint, bigint];

const INFINITY: Jacobian = [1n, 1n, 0n];

function double(c: GostCurve, [x, y, z]: Jacobian): Jacobian {
  if (z === 0n || y === 0n) return INFINITY;
  const { p } = c;
  const yy = (y * y) % p;
  const s = (4n * x * yy) % p;
  const zz = (z * z) % p;
  const m = (3n * x * x + c.a * ((zz * zz) % p)) % p;
  const x3 = mod(m * m - 2n * s, p);
  const y3 = mod(m * (s - x3) - 8n * ((yy * yy) % p), p);
  const z3 = (2n * y * z) % p;
  return [x3, y3, z3];
}

function add(c: GostCurve, P: Jacobian, Q: Jacobian): Jacobian {
  if (P[2] === 0n) return Q;
  if (Q[2] === 0n) return P;
  const { p } = c;
  const [x1, y1, z1] = P;
  const [x2, y2, z2] = Q;
  const z1z1 = (z1 * z1) % p;
  const z2z2 = (z2 * z2) % p;
  const u1 = (x1 * z2z2) % p;
  const u2 = (x2 * z1z1) % p;
  const s1 = (((y1 * z2) % p) * z2z2) % p;
  const s2 = (((y2 * z1) % p) * z1z1) % p;
  if (u1 === u2) return s1 === s2 ? double(c, P) : INFINITY;
  const h = mod(u2 - u1, p);
  const r = mod(s2 - s1, p);
  const hh = (h * h) % p;
  const hhh = (h * hh) % p;
  const v = (u1 * hh) % p;
  const x3 = mod(r * r - hhh - 2n * v, p);
  const y3 = mod(r * (v - x3) - s1 * hhh, p);
  const z3 = (((z1 * z2) % p) * h) % p;
  return [x3, y3, z3];
}

function affine(c: GostCurve, [x, y, z]: Jacobian): Point {
  if (z === 0n) return null;
  const zi = invert(z, c.p);
  const zi2 = (zi * zi) % c.p;
  return { x: (x * zi2) % c.p, y: (((y * zi2) % c.p) * zi) % c.p };
}

const jacobian = (point: Point): Jacobian => (point ? [point.x, point.y, 1n] : INFINITY);

/** k1·P1 + k2·P2 (Shamir's trick: one pass of doublings). */
export function multiplyAdd(c: GostCurve, k1: bigint, P1: Point, k2: bigint, P2: Point): Point {
  const a = jacobian(P1);
  const b = jacobian(P2);
  const both = add(c, a, b);
  const bits = Math.max(k1.toString(2).length, k2.toString(2).length);
  let acc = INFINITY;
  for (let i = bits - 1; i >= 0; i--) {
    acc = double(c, acc);
    const bit1 = (k1 >> BigInt(i)) & 1n;
    const bit2 = (k2 >> BigInt(i)) & 1n;
    if (bit1 && bit2) acc = add(c, acc, both);
    else if (bit1) acc = add(c, acc, a);
    else if (bit2) acc = add(c, acc, b);
  }
  return affine(c, acc);
}

export const multiply = (c: GostCurve, k: bigint, P: Point): Point => multiplyAdd(c, k, P, 0n, null);

export const basePoint = (c: GostCurve): Point => ({ x: c.x, y: c.y });

export function onCurve(c: GostCurve, point: Point): boolean {
  if (!point) return true;
  const { x, y } = point;
  if (x < 0n || x >= c.p || y < 0n || y >= c.p) return false;
  return mod(y * y - (x * x * x + c.a * x + c.b), c.p) === 0n;
}

/** A number from bytes, big-endian. */
export function bigEndian(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
}

/** A number from bytes, little-endian. */
export const littleEndian = (bytes: Uint8Array): bigint => bigEndian(Uint8Array.from(bytes).reverse());

/**
 * Verifies a GOST R 34.10-2012 signature (r, s) of a digest by the public key Q (gost_ec_verify):
 * e is the digest read little-endian mod q (1 where 0), v = e⁻¹, z1 = s·v, z2 = −r·v, C = z1·G + z2·Q,
 * and the signature holds when x_C mod q = r.
 */
export function gostVerify(c: GostCurve, Q: Point, digest: Uint8Array, r: bigint, s: bigint): boolean {
  const { q } = c;
  if (r <= 0n || r >= q || s <= 0n || s >= q) return false;
  if (!Q || !onCurve(c, Q)) return false;
  let e = mod(littleEndian(digest), q);
  if (e === 0n) e = 1n;
  const v = invert(e, q);
  const z1 = (s * v) % q;
  const z2 = mod(-r * v, q);
  const C = multiplyAdd(c, z1, basePoint(c), z2, Q);
  return C !== null && mod(C.x, q) === r;
}
