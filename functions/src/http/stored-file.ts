// A stored file's answer (domain/files/stored-file.ts): in AWS the storage address as JSON, which the
// page navigates to; on the local host the bytes streamed from the folder, with their length.
import type { Context } from "hono";
import type { StoredFile } from "../domain/files/stored-file";
import { attachmentDisposition } from "../files/file-names";
import type { AppEnv } from "./env";

/** `fallback`: the file's name where its own cannot be told in the header. */
export function storedFileAnswer(c: Context<AppEnv>, file: StoredFile, fallback: string) {
  if (file.kind === "redirect") return c.json({ download_url: file.url, file_name: file.fileName }, 200, { "Cache-Control": "no-store" });
  return c.body(file.body as ReadableStream<Uint8Array<ArrayBuffer>>, 200, {
    "Content-Type": file.contentType,
    "Content-Disposition": attachmentDisposition(file.fileName, fallback),
    ...(file.size !== undefined ? { "Content-Length": String(file.size) } : {}),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-cache",
  });
}
