// A self-signed certificate for 127.0.0.1 and localhost (openssl), for the tests of the local
// server on HTTPS (TLS_CERT, TLS_KEY).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function selfSignedCertificate(): { cert: Buffer; key: Buffer; certFile: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), "tls-"));
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
  return { cert: readFileSync(certFile), key: readFileSync(keyFile), certFile, keyFile };
}
