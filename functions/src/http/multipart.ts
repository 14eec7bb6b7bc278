// Reading a multipart form of an admin upload: text fields as strings, exactly one file.
import type { Context } from "hono";
import { DomainError, Invalid } from "../domain/errors";

export interface UploadForm {
  fields: Record<string, string>;
  file?: { name: string; bytes: Uint8Array };
}

export async function readUploadForm(c: Context, fileField = "file"): Promise<UploadForm> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data")) {
    throw new DomainError(415, "Ожидается форма multipart/form-data с файлом (file)");
  }
  let form: Record<string, string | File | (string | File)[]>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // The body limit's 413 reaches here as an HTTPException; let it through.
    if ((error as { status?: number }).status === 413) throw error;
    throw new Invalid("Тело запроса не является корректной формой multipart/form-data");
  }
  const fields: Record<string, string> = {};
  let file: UploadForm["file"];
  for (const [key, raw] of Object.entries(form)) {
    if (Array.isArray(raw)) throw new Invalid(`${key}: поле передано несколько раз`);
    if (key === fileField) {
      if (typeof raw === "string") throw new Invalid(`${key}: ожидается файл`);
      file = { name: raw.name || "file", bytes: new Uint8Array(await raw.arrayBuffer()) };
    } else if (typeof raw === "string") fields[key] = raw;
    else throw new Invalid(`${key}: ожидается текстовое поле`);
  }
  return { fields, file };
}
