// Content-Disposition for a download whose name comes from user data (a project or file name):
// an ASCII fallback plus the RFC 5987 UTF-8 form, with no quote, backslash, control character or
// path separator able to break the header or the saved file's name.
// Also replaced: format characters (a right-to-left override would show "‮gnp.exe" as "exe.png"),
// line separators, and lone surrogates (JSON can carry them; encodeURIComponent throws on them).
// A long name is cut by code points (never inside a surrogate pair) and keeps its extension.
const MAX_NAME_CHARS = 150;

export function safeFileName(name: string, fallback = "Report"): string {
  const cleaned = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}"\\/:*?<>|]+/gu, "_")
    .replace(/^[.\s]+|[.\s]+$/g, "");
  const chars = Array.from(cleaned);
  if (chars.length <= MAX_NAME_CHARS) return cleaned || fallback;
  const extension = /\.[\p{L}\p{N}]{1,8}$/u.exec(cleaned)?.[0] ?? "";
  const stem = chars
    .slice(0, MAX_NAME_CHARS - extension.length)
    .join("")
    .replace(/[.\s]+$/, "");
  return stem + extension || fallback;
}

export function attachmentDisposition(name: string, fallback = "Report"): string {
  const safe = safeFileName(name, fallback);
  const ascii = safe.replace(/[^\x20-\x7e]/g, "_").replace(/%/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}
