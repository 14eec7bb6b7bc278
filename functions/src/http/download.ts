// Content-Disposition for a download whose name comes from user data (a project or file name):
// an ASCII fallback plus the RFC 5987 UTF-8 form, with no quote, backslash, control character or
// path separator able to break the header or the saved file's name.
export function safeFileName(name: string, fallback = "Report"): string {
  const cleaned = name
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, "_")
    .replace(/^[.\s]+|[.\s]+$/g, "")
    .slice(0, 150);
  return cleaned || fallback;
}

export function attachmentDisposition(name: string, fallback = "Report"): string {
  const safe = safeFileName(name, fallback);
  const ascii = safe.replace(/[^\x20-\x7e]/g, "_").replace(/%/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}
