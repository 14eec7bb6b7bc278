// GOST R 34.10-2012 keys, certificates and detached CMS signatures made with OpenSSL's GOST engine
// (Debian's libengine-gost-openssl, installed by tests/prerequisites.sh), as an executor's CryptoPro
// or КриптоАРМ would make them: the climate period's КЭП tests sign the file the platform offers.
// Nothing is skipped without the engine: `requireGostEngine` fails saying what to install.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const openssl = (args: string[], cwd: string) => execFileSync("openssl", args, { cwd, stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });

/** Throws, saying what to install, where openssl has no GOST engine. */
export function requireGostEngine(): void {
  try {
    execFileSync("openssl", ["engine", "gost", "-t"], { stdio: "pipe", timeout: 10_000 });
  } catch {
    throw new Error(
      "OpenSSL's GOST engine is missing: install it (sudo apt-get install -y libengine-gost-openssl; tests/prerequisites.sh does it)",
    );
  }
}

export interface GostSigner {
  dir: string;
  cert: string;
  key: string;
  /** The certificate, PEM. */
  pem: string;
}

export interface CertOptions {
  /** The subject as OpenSSL's -subj takes it (UTF-8). */
  subject: string;
  /** Validity: days from now, or fixed dates (YYYYMMDDHHMMSSZ) for an expired certificate. */
  days?: number;
  startdate?: string;
  enddate?: string;
  /** The issuing CA; self-signed without it. */
  issuer?: GostSigner;
  /** A CA's certificate (CA:TRUE), to be loaded as a trust anchor. */
  ca?: boolean;
  /** The key: GOST 2012 with 256 bits (default) or 512. */
  algorithm?: "gost2012_256" | "gost2012_512";
  /** No authorityKeyIdentifier (OpenSSL 3 adds one by default): the issuer is found by its name alone. */
  noAuthorityKeyId?: boolean;
  /** The key's parameter set as the engine names it (A by default; 256: A B C D TCA…, 512: A B C). */
  paramset?: string;
}

/** A GOST 2012 key (256 bits, paramset A, unless asked otherwise) and its certificate, signed with
 *  Streebog of the issuer's key's length. */
export function gostCertificate(options: CertOptions): GostSigner {
  const dir = mkdtempSync(join(tmpdir(), "gost-test-"));
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  const ext = join(dir, "ext.cnf");
  writeFileSync(
    ext,
    options.ca
      ? "[x]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n"
      : "[x]\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\nsubjectKeyIdentifier=hash\n" +
          (options.noAuthorityKeyId ? "authorityKeyIdentifier=none\n" : ""),
  );
  const csr = join(dir, "req.csr");
  openssl(
    [
      "req",
      "-new",
      "-engine",
      "gost",
      "-newkey",
      options.algorithm ?? "gost2012_256",
      "-pkeyopt",
      `paramset:${options.paramset ?? "A"}`,
      "-nodes",
      "-keyout",
      key,
      "-out",
      csr,
      "-subj",
      options.subject,
      "-utf8",
    ],
    dir,
  );
  if (options.startdate || options.enddate) {
    // `openssl ca` takes fixed dates (OpenSSL 3.0's x509 has no -not_before): an expired certificate.
    writeFileSync(join(dir, "index.txt"), "");
    writeFileSync(join(dir, "serial"), "1000\n");
    writeFileSync(
      join(dir, "ca.cnf"),
      "[ca]\ndefault_ca=d\n[d]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=default\npolicy=p\nunique_subject=no\n" +
        "email_in_dn=no\ncopy_extensions=none\n[p]\ncommonName=supplied\norganizationName=optional\n" +
        (options.ca
          ? "[x]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n"
          : "[x]\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n"),
    );
    const issuer = options.issuer;
    openssl(
      [
        "ca",
        "-engine",
        "gost",
        "-batch",
        "-config",
        "ca.cnf",
        "-extensions",
        "x",
        "-utf8",
        "-in",
        csr,
        "-out",
        cert,
        "-startdate",
        options.startdate ?? "20200101000000Z",
        "-enddate",
        options.enddate ?? "20210101000000Z",
        ...(issuer ? ["-cert", issuer.cert, "-keyfile", issuer.key] : ["-selfsign", "-keyfile", key]),
      ],
      dir,
    );
  } else if (options.issuer) {
    openssl(
      [
        "x509",
        "-req",
        "-engine",
        "gost",
        "-in",
        csr,
        "-CA",
        options.issuer.cert,
        "-CAkey",
        options.issuer.key,
        "-CAcreateserial",
        "-days",
        String(options.days ?? 365),
        "-extfile",
        ext,
        "-extensions",
        "x",
        "-out",
        cert,
      ],
      dir,
    );
  } else {
    openssl(
      [
        "x509",
        "-req",
        "-engine",
        "gost",
        "-in",
        csr,
        "-signkey",
        key,
        "-days",
        String(options.days ?? 365),
        "-extfile",
        ext,
        "-extensions",
        "x",
        "-out",
        cert,
      ],
      dir,
    );
  }
  return { dir, cert, key, pem: readFileSync(cert, "utf8") };
}

export interface SignOptions {
  /** CA certificates to carry in the signature beside the signer's (an intermediate). */
  chain?: readonly GostSigner[];
  /** No signed attributes: the signature is over the content's digest itself. */
  noattr?: boolean;
  /** Streamed, as BER with indefinite lengths (OpenSSL's -stream). */
  stream?: boolean;
}

/** A detached CMS signature of `content`, as CryptoPro saves it: DER, or PEM / bare base64. */
export function signDetached(
  signer: GostSigner,
  content: Uint8Array,
  form: "DER" | "PEM" | "base64" = "DER",
  options: SignOptions = {},
): Uint8Array {
  const file = join(signer.dir, "content.bin");
  const out = join(signer.dir, "content.sig");
  writeFileSync(file, content);
  openssl(
    [
      "cms",
      "-sign",
      "-engine",
      "gost",
      "-binary",
      "-in",
      file,
      "-signer",
      signer.cert,
      "-inkey",
      signer.key,
      "-outform",
      form === "DER" ? "DER" : "PEM",
      "-out",
      out,
      ...(options.noattr ? ["-noattr"] : []),
      ...(options.stream ? ["-stream"] : []),
      ...(options.chain?.length ? ["-certfile", chainFile(signer, options.chain)] : []),
    ],
    signer.dir,
  );
  const bytes = readFileSync(out);
  if (form !== "base64") return new Uint8Array(bytes);
  const body = bytes
    .toString("latin1")
    .replace(/-----[A-Z0-9 ]+-----/g, "")
    .replace(/\s+/g, "");
  return new TextEncoder().encode(body.replace(/(.{64})/g, "$1\r\n"));
}

/** The certificates as one PEM file beside the signer's. */
function chainFile(signer: GostSigner, chain: readonly GostSigner[]): string {
  const file = join(signer.dir, "chain.pem");
  writeFileSync(file, chain.map((c) => c.pem).join(""));
  return file;
}

/** An RSA key's detached signature: not GOST. */
export function rsaSignature(content: Uint8Array): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "rsa-test-"));
  try {
    writeFileSync(join(dir, "content.bin"), content);
    openssl(
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "30", "-subj", "/CN=RSA"],
      dir,
    );
    openssl(
      ["cms", "-sign", "-binary", "-in", "content.bin", "-signer", "cert.pem", "-inkey", "key.pem", "-outform", "DER", "-out", "s.der"],
      dir,
    );
    return new Uint8Array(readFileSync(join(dir, "s.der")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const dropSigner = (signer: GostSigner) => rmSync(signer.dir, { recursive: true, force: true });
