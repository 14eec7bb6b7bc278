// One table of КЭП cases run against both checks of the port: OpenSSL with the GOST engine
// (gost-cms.ts, the local server's) and the TypeScript one (gost-native.ts, Lambda's). Each case states
// the answer it expects, and both adapters must give exactly it — the same signer's fields, PEM,
// signing time, algorithm and chain for a valid signature, the same reason for a refused one. The
// signatures are made here by OpenSSL's GOST engine (tests/support/gost.ts), as an executor's
// CryptoPro or КриптоАРМ makes them, with 256- and 512-bit keys of several parameter sets.
import { X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GostCmsCheck, GostCmsVerifier } from "../../ports/gost-signatures";
import {
  type GostSigner,
  dropSigner,
  gostCertificate,
  requireGostEngine,
  rsaSignature,
  signDetached,
} from "../../../../tests/support/gost";
import { readDer } from "./der";
import { opensslGostCms } from "./gost-cms";
import { CHAIN_REASONS } from "./gost-common";
import { nativeGostCms } from "./gost-native";

const ADAPTERS: [string, GostCmsVerifier][] = [
  ["openssl", opensslGostCms()],
  ["native", nativeGostCms()],
];

const FILE = new TextEncoder().encode('{"files":[{"name":"report.pdf","sha256":"ab"}]}\n');
const OTHER = new TextEncoder().encode('{"files":[{"name":"report.pdf","sha256":"cd"}]}\n');
/** The check's moment: after every certificate here was issued (their start is the second they were
 *  made). */
let NOW: Date;

/** The signature's value inside the DER: the last OCTET STRING of the first SignerInfo. */
function signatureValueAt(der: Uint8Array): { offset: number; length: number } {
  const signedData = readDer(der).children[1].children[0];
  const signerInfo = signedData.children[signedData.children.length - 1].children[0];
  const value = signerInfo.children[signerInfo.children.length - 1];
  expect(value.tag).toBe(0x04);
  return { offset: value.content.byteOffset - der.byteOffset, length: value.content.length };
}

/** The first digit of the notAfter of the first certificate the signature carries. */
function notAfterAt(der: Uint8Array): number {
  const signedData = readDer(der).children[1].children[0];
  const certificate = signedData.children.find((field) => field.tag === 0xa0)!.children[0];
  const notAfter = certificate.children[0].children[4].children[1];
  expect(notAfter.tag).toBe(0x17);
  return notAfter.content.byteOffset - der.byteOffset + 2;
}

/** The bytes with one changed: XOR 0x10, or set to `value`. */
function flipped(der: Uint8Array, at: number, value?: number): Uint8Array {
  const out = Uint8Array.from(der);
  out[at] = value ?? out[at] ^ 0x10;
  return out;
}

type Expected =
  | { ok: true; algorithm: "gost2012_256" | "gost2012_512" | "other"; chain: "verified" | "unchecked" | string; expired?: true }
  | { ok: false; reason: "content" | "broken" };

interface Case {
  name: string;
  input: () => { signature: Uint8Array; content: Uint8Array; roots: string[] };
  expected: Expected;
}

const signers: GostSigner[] = [];
const make = (options: Parameters<typeof gostCertificate>[0]) => {
  const signer = gostCertificate(options);
  signers.push(signer);
  return signer;
};

let ca: GostSigner;
let ca512: GostSigner;
let otherCa: GostSigner;
let expiredCa: GostSigner;
let intermediate: GostSigner;
let signer: GostSigner;
let signer512: GostSigner;
let signerTc26: GostSigner;
let signerOfExpiredCa: GostSigner;
let signerOfIntermediate: GostSigner;
let expiredSigner: GostSigner;
let selfSigned: GostSigner;
let signerOfImpostor: GostSigner;
let signerOfImpostorByName: GostSigner;
let good: Uint8Array;

beforeAll(() => {
  requireGostEngine();
  ca = make({ subject: "/CN=Тестовый УЦ/O=УЦ", ca: true, days: 3650 });
  ca512 = make({ subject: "/CN=УЦ 512", ca: true, days: 3650, algorithm: "gost2012_512", paramset: "A" });
  otherCa = make({ subject: "/CN=Другой УЦ", ca: true, days: 3650 });
  expiredCa = make({ subject: "/CN=Истекший УЦ", ca: true, startdate: "20200101000000Z", enddate: "20210101000000Z" });
  intermediate = make({ subject: "/CN=Подчиненный УЦ", ca: true, issuer: ca, days: 1000 });
  signer = make({ subject: "/CN=Иванов Иван Иванович/SN=Иванов/GN=Иван Иванович/O=АО «Шахта»/title=Главный инженер", issuer: ca });
  signer512 = make({ subject: "/CN=Петров/O=Шахта 512", issuer: ca512, algorithm: "gost2012_512", paramset: "C" });
  signerTc26 = make({ subject: "/CN=Сидоров/O=Шахта TC26", issuer: ca, paramset: "TCA" });
  signerOfExpiredCa = make({ subject: "/CN=Козлов", issuer: expiredCa });
  signerOfIntermediate = make({ subject: "/CN=Орлов/O=Разрез", issuer: intermediate });
  expiredSigner = make({ subject: "/CN=Просрочен", issuer: ca, startdate: "20200101000000Z", enddate: "20210101000000Z" });
  selfSigned = make({ subject: "/CN=Самоподписанный", days: 30 });
  // A CA of the same name as the loaded one, with a key of its own.
  const impostor = make({ subject: "/CN=Тестовый УЦ/O=УЦ", ca: true, days: 3650 });
  signerOfImpostor = make({ subject: "/CN=Самозванец", issuer: impostor });
  signerOfImpostorByName = make({ subject: "/CN=Самозванец без AKI", issuer: impostor, noAuthorityKeyId: true });
  good = signDetached(signer, FILE);
  // The moment the certificates were made (openssl stamps them, and the signature, with its clock): the
  // test's «now» two seconds after it, read from the signer's certificate, not this process's clock.
  NOW = new Date(Date.parse(new X509Certificate(signer.pem).validFrom) + 2000);
});

afterAll(() => {
  for (const s of signers) dropSigner(s);
});

const CASES: Case[] = [
  {
    name: "a 256-bit key's signature of the file, no roots loaded",
    input: () => ({ signature: good, content: FILE, roots: [] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "unchecked" },
  },
  {
    name: "the same, its CA loaded: the chain verified",
    input: () => ({ signature: good, content: FILE, roots: [ca.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "verified" },
  },
  {
    name: "a 512-bit key (paramset C) under a 512-bit CA (paramset A)",
    input: () => ({ signature: signDetached(signer512, FILE), content: FILE, roots: [ca512.pem] }),
    expected: { ok: true, algorithm: "gost2012_512", chain: "verified" },
  },
  {
    name: "tc26's twisted Edwards 256 A key under a CryptoPro A CA",
    input: () => ({ signature: signDetached(signerTc26, FILE), content: FILE, roots: [ca.pem, otherCa.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "verified" },
  },
  {
    name: "a signature without signed attributes (-noattr), its CA loaded",
    input: () => ({ signature: signDetached(signer, FILE, "DER", { noattr: true }), content: FILE, roots: [ca.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "verified" },
  },
  {
    name: "streamed as BER with indefinite lengths, its CA loaded",
    input: () => {
      const signature = signDetached(signer, FILE, "DER", { stream: true });
      expect(signature[1]).toBe(0x80);
      return { signature, content: FILE, roots: [ca.pem] };
    },
    expected: { ok: true, algorithm: "gost2012_256", chain: "verified" },
  },
  {
    name: "streamed as BER, of another file",
    input: () => ({ signature: signDetached(signer, OTHER, "DER", { stream: true }), content: FILE, roots: [] }),
    expected: { ok: false, reason: "content" },
  },
  {
    name: "an intermediate CA carried in the signature, the root loaded",
    input: () => ({
      signature: signDetached(signerOfIntermediate, FILE, "DER", { chain: [intermediate] }),
      content: FILE,
      roots: [ca.pem],
    }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "verified" },
  },
  {
    name: "the intermediate not carried, only the root loaded: no issuer",
    input: () => ({ signature: signDetached(signerOfIntermediate, FILE), content: FILE, roots: [ca.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: CHAIN_REASONS.issuer },
  },
  {
    name: "the intermediate loaded as an anchor (a partial chain)",
    input: () => ({ signature: signDetached(signerOfIntermediate, FILE), content: FILE, roots: [intermediate.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "verified" },
  },
  {
    name: "the signer's own certificate loaded as an anchor",
    input: () => ({ signature: signDetached(selfSigned, FILE), content: FILE, roots: [selfSigned.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "verified" },
  },
  {
    name: "a self-signed certificate, another CA loaded",
    input: () => ({ signature: signDetached(selfSigned, FILE), content: FILE, roots: [ca.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: CHAIN_REASONS.issuer },
  },
  {
    name: "another CA loaded: the chain fails",
    input: () => ({ signature: good, content: FILE, roots: [otherCa.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: CHAIN_REASONS.issuer },
  },
  {
    name: "issued by another key under the loaded CA's name: its authority key id names no loaded CA",
    input: () => ({ signature: signDetached(signerOfImpostor, FILE), content: FILE, roots: [ca.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: CHAIN_REASONS.issuer },
  },
  {
    name: "issued by another key under the loaded CA's name, no authority key id: the certificate's signature does not hold",
    input: () => ({ signature: signDetached(signerOfImpostorByName, FILE), content: FILE, roots: [ca.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: CHAIN_REASONS.signature },
  },
  {
    name: "an expired CA loaded: the chain fails as expired",
    input: () => ({ signature: signDetached(signerOfExpiredCa, FILE), content: FILE, roots: [expiredCa.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: CHAIN_REASONS.expired },
  },
  {
    name: "an expired signer's certificate, no roots: valid, its dates say expired (the domain refuses it)",
    input: () => ({ signature: signDetached(expiredSigner, FILE), content: FILE, roots: [] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: "unchecked", expired: true },
  },
  {
    name: "an expired signer's certificate, its CA loaded: the chain fails as expired",
    input: () => ({ signature: signDetached(expiredSigner, FILE), content: FILE, roots: [ca.pem] }),
    expected: { ok: true, algorithm: "gost2012_256", chain: CHAIN_REASONS.expired, expired: true },
  },
  {
    name: "an RSA signature: valid, not GOST",
    input: () => ({ signature: rsaSignature(FILE), content: FILE, roots: [] }),
    expected: { ok: true, algorithm: "other", chain: "unchecked" },
  },
  {
    name: "a signature of another file",
    input: () => ({ signature: good, content: OTHER, roots: [] }),
    expected: { ok: false, reason: "content" },
  },
  {
    name: "a 512-bit signature of another file",
    input: () => ({ signature: signDetached(signer512, OTHER), content: FILE, roots: [ca512.pem] }),
    expected: { ok: false, reason: "content" },
  },
  {
    name: "a signature without signed attributes of another file",
    input: () => ({ signature: signDetached(signer, OTHER, "DER", { noattr: true }), content: FILE, roots: [] }),
    expected: { ok: false, reason: "content" },
  },
  {
    name: "one bit flipped in the signature's value (its s half)",
    input: () => ({ signature: flipped(good, signatureValueAt(good).offset + 5), content: FILE, roots: [] }),
    expected: { ok: false, reason: "broken" },
  },
  {
    name: "one bit flipped in the signature's value (its r half), over another file too",
    input: () => {
      const at = signatureValueAt(good);
      return { signature: flipped(good, at.offset + at.length - 3), content: OTHER, roots: [] };
    },
    expected: { ok: false, reason: "broken" },
  },
  {
    name: "one bit flipped in the 512-bit signature's value",
    input: () => {
      const der = signDetached(signer512, FILE);
      return { signature: flipped(der, signatureValueAt(der).offset + 100), content: FILE, roots: [] };
    },
    expected: { ok: false, reason: "broken" },
  },
  {
    name: "the DER cut short",
    input: () => ({ signature: good.subarray(0, good.length - 30), content: FILE, roots: [] }),
    expected: { ok: false, reason: "broken" },
  },
  {
    name: "the DER cut to its first 200 bytes",
    input: () => ({ signature: good.subarray(0, 200), content: FILE, roots: [] }),
    expected: { ok: false, reason: "broken" },
  },
  {
    name: "garbage after a SEQUENCE's tag",
    input: () => ({
      signature: Uint8Array.from({ length: 300 }, (_, i) => (i === 0 ? 0x30 : (i * 151 + 7) & 255)),
      content: FILE,
      roots: [],
    }),
    expected: { ok: false, reason: "broken" },
  },
  {
    name: "the signer's certificate's end date damaged (a colon among its digits), which OpenSSL's -noverify lets through",
    input: () => {
      const at = notAfterAt(good);
      return { signature: flipped(good, at, 0x3a), content: FILE, roots: [] };
    },
    expected: { ok: false, reason: "broken" },
  },
  {
    name: "a certificate alone, not a signature",
    input: () => ({
      signature: new Uint8Array(Buffer.from(ca.pem.replace(/-----[A-Z ]+-----|\s+/g, ""), "base64")),
      content: FILE,
      roots: [],
    }),
    expected: { ok: false, reason: "broken" },
  },
];

function assertExpected(check: GostCmsCheck, expected: Expected): void {
  if (!expected.ok) {
    expect(check).toMatchObject({ ok: false, reason: expected.reason });
    return;
  }
  expect(check.ok, JSON.stringify(check)).toBe(true);
  if (!check.ok) return;
  expect(check.algorithm).toBe(expected.algorithm);
  if (expected.chain === "verified" || expected.chain === "unchecked") expect(check.chain).toEqual({ state: expected.chain });
  else expect(check.chain).toEqual({ state: "failed", reason: expected.chain });
  expect(Date.parse(check.signer.valid_to) < NOW.getTime()).toBe(expected.expired === true);
  expect(check.certificate_pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
}

describe("both КЭП checks (OpenSSL with the GOST engine, and TypeScript) answer each case alike", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, { input, expected }) => {
    const given = input();
    const answers = await Promise.all(ADAPTERS.map(([, adapter]) => adapter.verify({ ...given, at: NOW })));
    for (const [k, [adapter]] of ADAPTERS.entries()) {
      expect(answers[k].ok || answers[k].reason !== "unavailable", `${adapter}: ${JSON.stringify(answers[k])}`).toBe(true);
      assertExpected(answers[k], expected);
    }
    const [openssl, native] = answers;
    if (openssl.ok) expect(native).toEqual(openssl);
    else expect(native).toMatchObject({ ok: false, reason: openssl.ok ? undefined : openssl.reason });
  });

  it("reads the signer's names, dates and signing time as the OpenSSL check does", async () => {
    const check = await nativeGostCms().verify({ signature: good, content: FILE, roots: [], at: NOW });
    expect(check).toMatchObject({
      ok: true,
      signer: {
        common_name: "Иванов Иван Иванович",
        surname: "Иванов",
        given_name: "Иван Иванович",
        organization: "АО «Шахта»",
        title: "Главный инженер",
        issuer: "Тестовый УЦ",
      },
    });
    if (!check.ok) return;
    expect(Math.abs(Date.parse(check.signing_time ?? "") - NOW.getTime())).toBeLessThan(10 * 60_000);
    expect(check.certificate_pem.trim()).toBe(signer.pem.trim());
  });

  it("answers every damaged copy of a signature (each bit flipped somewhere, cut anywhere) without throwing, never unavailable", async () => {
    const verifier = nativeGostCms();
    const answers = new Map<string, number>();
    let seed = 2026;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let k = 0; k < 400; k++) {
      const signature = k < 300 ? flipped(good, next(good.length), undefined) : good.subarray(0, next(good.length));
      if (k < 300) signature[next(signature.length)] ^= 1 << next(8);
      const check = await verifier.verify({ signature, content: FILE, roots: k % 2 ? [ca.pem] : [], at: NOW });
      const answer = check.ok ? "ok" : check.reason;
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
    }
    expect([...answers.keys()].every((answer) => ["ok", "broken", "content"].includes(answer))).toBe(true);
    expect(answers.get("broken")).toBeGreaterThan(200);
  });

  it("checks the chain at the moment asked: before the CA's end it holds, after it the chain has expired", async () => {
    const signature = signDetached(signerOfExpiredCa, FILE);
    for (const [name, adapter] of ADAPTERS) {
      const then = await adapter.verify({ signature, content: FILE, roots: [expiredCa.pem], at: new Date("2020-06-01T00:00:00Z") });
      // The signer's own certificate was issued today: in 2020 it was not yet valid.
      expect(then, name).toMatchObject({ ok: true, chain: { state: "failed", reason: CHAIN_REASONS.notYetValid } });
    }
  });
});
