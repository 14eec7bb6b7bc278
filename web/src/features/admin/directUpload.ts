// Admin uploads straight to storage, one flow on every host (functions/src/http/UPLOADS.md):
// POST …/upload-url/ (the server checks the declared type and size) → PUT the file to the granted
// URL (S3 in AWS, the API locally) with upload progress → POST …/complete/ (the server checks what
// arrived by its first bytes and registers it, or deletes it and says why).
import { api } from "../../api/client";

export interface UploadGrant {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
  upload_id: string;
  expires_at: string;
}

export type UploadPhase = { phase: "sending"; percent: number } | { phase: "checking" };

export interface DirectUpload {
  /** e.g. v1/admin/media/upload-url/ */
  grantPath: string;
  /** What the file is for: {kind}, {document, version}, or nothing for a new document. */
  grantBody?: Record<string, unknown>;
  completePath: string;
  /** Sent with the upload_id: a new document's metadata, the version a replacement was based on. */
  completeBody?: Record<string, unknown>;
}

export async function uploadDirect<T>(
  target: DirectUpload,
  file: File,
  contentType: string,
  onPhase?: (phase: UploadPhase) => void,
  signal?: AbortSignal,
): Promise<T> {
  onPhase?.({ phase: "sending", percent: 0 });
  const grant = await api.post<UploadGrant>(target.grantPath, {
    ...target.grantBody,
    content_type: contentType,
    size: file.size,
    name: file.name,
  });
  await api.putFile(
    grant.url,
    file,
    grant.headers,
    (sent, total) => onPhase?.({ phase: "sending", percent: total > 0 ? Math.min(100, Math.floor((sent * 100) / total)) : 100 }),
    signal,
  );
  onPhase?.({ phase: "checking" });
  return api.post<T>(target.completePath, { ...target.completeBody, upload_id: grant.upload_id });
}

/** «Загрузка 42 %», «Проверка файла…». */
export function phaseText(phase: UploadPhase): string {
  return phase.phase === "sending" ? `Загрузка ${phase.percent} %` : "Проверка файла…";
}
