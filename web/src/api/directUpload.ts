// Admin uploads straight to storage, one flow on every host (functions/src/http/UPLOADS.md):
// POST …/upload-url/ (the server checks the declared type and size) → PUT the file to the granted
// URL (S3 in AWS, the API locally) with upload progress → POST …/complete/ (the server checks what
// arrived by its first bytes and registers it, or deletes it and says why).
import { api } from "./client";
import type { UploadGrant } from "@server/contract";

export type { UploadGrant };

export type UploadPhase = { phase: "sending"; percent: number } | { phase: "checking" };

/** The file as the grant request declares it (the server checks the type and size). */
export interface DeclaredFile {
  content_type: string;
  size: number;
  name: string;
}

/** The two calls of an upload's kind (admin/api.ts documentUpload, mediaUpload). */
export interface DirectUpload<T> {
  /** POST …/upload-url/ with what the file is for: {kind}, {document, version}, or nothing for a new document. */
  grant(file: DeclaredFile): Promise<UploadGrant>;
  /** POST …/complete/ with the upload_id, and a new document's metadata or the version a replacement was based on. */
  complete(uploadId: string): Promise<T>;
}

export async function uploadDirect<T>(
  target: DirectUpload<T>,
  file: File,
  contentType: string,
  onPhase?: (phase: UploadPhase) => void,
  signal?: AbortSignal,
): Promise<T> {
  onPhase?.({ phase: "sending", percent: 0 });
  const grant = await target.grant({ content_type: contentType, size: file.size, name: file.name });
  await api.putFile(
    grant.url,
    file,
    grant.headers,
    (sent, total) => onPhase?.({ phase: "sending", percent: total > 0 ? Math.min(100, Math.floor((sent * 100) / total)) : 100 }),
    signal,
  );
  onPhase?.({ phase: "checking" });
  return target.complete(grant.upload_id);
}

/** «Загрузка 42 %», «Проверка файла…». */
export function phaseText(phase: UploadPhase): string {
  return phase.phase === "sending" ? `Загрузка ${phase.percent} %` : "Проверка файла…";
}
