// SigV4 as S3 checks it, for the requests the front door passes to the local S3 server: s3rver
// builds its canonical request unlike AWS in two places (a bucket's path without the trailing
// slash the SDK signs, query values encoded without RFC 3986's `!'()*`), so it would refuse
// listings and presigned downloads that S3 takes. The signature is checked here instead, and
// s3rver only requires a well-formed one from a known key.
import { createHash, createHmac } from "node:crypto";
import type { IncomingMessage } from "node:http";

const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, text: string) => createHmac("sha256", key).update(text, "utf8").digest();

/** Why the request's signature does not hold, or undefined when it does (or it is unsigned). */
export function signatureProblem(req: IncomingMessage, secretOf: (accessKeyId: string) => string | undefined): string | undefined {
  // A browser's CORS preflight carries no credentials, even to a presigned URL.
  if (req.method === "OPTIONS") return undefined;
  const url = new URL(req.url ?? "/", "http://local");
  const header = String(req.headers.authorization ?? "");
  const presigned = url.searchParams.get("X-Amz-Algorithm") === "AWS4-HMAC-SHA256";
  let credential: string;
  let signedHeaders: string[];
  let signature: string;
  let date: string;
  if (header.startsWith("AWS4-HMAC-SHA256 ")) {
    const fields = Object.fromEntries(
      header
        .slice(17)
        .split(/,\s*/)
        .map((f) => f.split("=") as [string, string]),
    );
    credential = fields.Credential;
    signedHeaders = fields.SignedHeaders.split(";");
    signature = fields.Signature;
    date = String(req.headers["x-amz-date"] ?? "");
  } else if (presigned) {
    credential = url.searchParams.get("X-Amz-Credential") ?? "";
    signedHeaders = (url.searchParams.get("X-Amz-SignedHeaders") ?? "").split(";");
    signature = url.searchParams.get("X-Amz-Signature") ?? "";
    date = url.searchParams.get("X-Amz-Date") ?? "";
    const expires = Number(url.searchParams.get("X-Amz-Expires"));
    const signedAt = Date.parse(date.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, "$1-$2-$3T$4:$5:$6Z"));
    if (Date.now() > signedAt + expires * 1000) return "the presigned URL has expired";
  } else {
    return undefined;
  }
  const [accessKeyId, ...scopeParts] = credential.split("/");
  const secret = secretOf(accessKeyId);
  if (secret === undefined) return `unknown access key ${accessKeyId}`;
  const query = [...url.searchParams]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [rfc3986(name), rfc3986(value)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const headers = signedHeaders.map((name) => {
    const value = req.headers[name];
    return `${name}:${(Array.isArray(value) ? value.join(",") : String(value ?? "")).trim().replace(/\s+/g, " ")}\n`;
  });
  const payload = presigned ? "UNSIGNED-PAYLOAD" : String(req.headers["x-amz-content-sha256"] ?? "UNSIGNED-PAYLOAD");
  const canonical = [req.method, url.pathname, query, headers.join(""), signedHeaders.join(";"), payload].join("\n");
  const scope = scopeParts.join("/");
  const toSign = ["AWS4-HMAC-SHA256", date, scope, createHash("sha256").update(canonical, "utf8").digest("hex")].join("\n");
  const key = scopeParts.reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${secret}`);
  return hmac(key, toSign).toString("hex") === signature ? undefined : "SignatureDoesNotMatch";
}
