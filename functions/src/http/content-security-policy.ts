// The app's Content-Security-Policy, in one place. The local server sends it as it is (Hono's
// secureHeaders, functions/src/local/server.ts: everything 'self'); CloudFront sends the same
// directives with the documents bucket's origin added where the browser talks to S3 directly in AWS
// (infra/lib/security-headers.ts): connect-src for the presigned upload PUT, media-src for the
// presigned video URLs. tests/infra/stack.test.ts checks the local answer against `cspHeader`
// and the CloudFront policy against `withStorageOrigin`.

export type CspDirectives = Record<string, string[]>;

export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  // WebAssembly compilation needs 'wasm-unsafe-eval'; no inline or eval'd scripts are allowed.
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  // antd writes its theme's CSS variables (and its icons' reset) into <style> elements at run time;
  // the components' styles are a stylesheet from 'self' (antd's pre-built one, web/src/main.tsx).
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:"],
  fontSrc: ["'self'", "data:"],
  // The page fetches from its own origin only: plotly's cloud (or any other host) is refused. Plotly's
  // share button opened a window instead, which no CSP directive governs: the charts list no such
  // button (web/src/features/graphs/plotly-config.ts), and Cross-Origin-Opener-Policy: same-origin
  // cuts the page off from any window it opens.
  connectSrc: ["'self'"],
  mediaSrc: ["'self'", "blob:"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
} satisfies CspDirectives;

/** The directives that may name the storage origin: the upload PUT (connect) and playback (media). */
export const STORAGE_DIRECTIVES = ["connectSrc", "mediaSrc"] as const;

/** The header value, serialised as Hono's secureHeaders does (camelCase → kebab-case, "; "). */
export function cspHeader(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(" "))
    .join("; ");
}

/** The same directives with `origin` (e.g. https://bucket.s3.region.amazonaws.com) allowed for
 *  connect-src and media-src only. */
export function withStorageOrigin(directives: CspDirectives, origin: string): CspDirectives {
  return Object.fromEntries(
    Object.entries(directives).map(([name, values]) => [
      name,
      (STORAGE_DIRECTIVES as readonly string[]).includes(name) ? [...values, origin] : [...values],
    ]),
  );
}
