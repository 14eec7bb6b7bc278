// Hands bytes to the browser as a download named `fileName` (templates, uploaded source files).
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start reading before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
