// The response headers CloudFront adds in AWS: the same set the local host gets from Hono's
// secureHeaders (functions/src/local/server.ts), so the app behaves the same under both hosts.
// tests/infra/stack.test.ts compares these values with the local server's actual answer.
import { CSP_DIRECTIVES, cspHeader, withStorageOrigin } from "@server/http/content-security-policy";

/** The local server's CSP (functions/src/http/content-security-policy.ts), the part both hosts share. */
export const CONTENT_SECURITY_POLICY = cspHeader(CSP_DIRECTIVES);

/** CloudFront's CSP: the local one plus the documents bucket's origin in connect-src (the browser
 *  PUTs admin uploads to a presigned S3 URL) and media-src (videos play from presigned S3 URLs).
 *  `storageOrigin` is a CDK token in the stack (https:// + the bucket's regional domain name). */
export function cloudFrontContentSecurityPolicy(storageOrigin: string): string {
  return cspHeader(withStorageOrigin(CSP_DIRECTIVES, storageOrigin));
}

/** Hono secureHeaders defaults that CloudFront's security-headers block has no field for. */
export const EXTRA_SECURITY_HEADERS: Record<string, string> = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Origin-Agent-Cluster": "?1",
  "X-DNS-Prefetch-Control": "off",
  "X-Download-Options": "noopen",
  "X-Permitted-Cross-Domain-Policies": "none",
};

/** Locally HSTS is off (plain http on 127.0.0.1); behind CloudFront every answer is https. */
export const HSTS_MAX_AGE_DAYS = 365;
