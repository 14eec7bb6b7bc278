// Where a sign-in returns to: the protected page that sent the visitor to /login. It travels in
// the /login location's state (history.state survives a reload of /login) and is honoured only as
// a path of this app: "/projects?page=2" yes; "//evil.example", "https://…", "/\evil", "/login" no.

export interface LoginState {
  from?: string;
}

const MAX_LENGTH = 2000;

export function safeReturnPath(candidate: unknown): string | undefined {
  if (typeof candidate !== "string" || candidate.length > MAX_LENGTH) return undefined;
  if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\")) return undefined;
  // Control characters (a newline, a tab) would be dropped by URL parsing and could hide a host.
  if (/[\u0000-\u001f\u007f]/.test(candidate)) return undefined;
  const url = new URL(candidate, "http://app.invalid");
  if (url.origin !== "http://app.invalid" || url.pathname === "/login") return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The page to open after signing in: the one asked for, else the landing page. */
export function returnPathFrom(state: unknown): string {
  return safeReturnPath((state as LoginState | null | undefined)?.from) ?? "/";
}
