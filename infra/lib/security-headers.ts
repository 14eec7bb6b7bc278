// The response headers CloudFront adds in AWS: the same set the local host gets from Hono's
// secureHeaders (functions/src/local/server.ts), so the app behaves the same under both hosts.
// tests/infra/stack.test.ts compares these values with the local server's actual answer.

/** Same directives, same order, as CONTENT_SECURITY_POLICY in functions/src/local/server.ts. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // WebAssembly compilation needs 'wasm-unsafe-eval'; no inline or eval'd scripts are allowed.
  "script-src 'self' 'wasm-unsafe-eval'",
  // antd writes its CSS-in-JS into <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

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
