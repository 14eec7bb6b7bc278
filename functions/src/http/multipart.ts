// Reading a multipart form (admin uploads, calculations with a file): text fields as strings, at
// most one file. The form's cap is the file's; its text fields together get the JSON body's cap, so
// labelling a body a form is no way around that limit.
import type { Context } from "hono";
import type { AppEnv } from "./env";
import { DomainError, Invalid, invalidAt, TooLarge, UnsupportedMedia } from "../domain/errors";

export interface UploadForm {
  fields: Record<string, string>;
  file?: { name: string; bytes: Uint8Array };
}

/** `unnamed`: the file's name when the form gives none. */
export async function readUploadForm(c: Context<AppEnv>, fileField = "file", unnamed = "file"): Promise<UploadForm> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data")) {
    throw new UnsupportedMedia("Ожидается форма multipart/form-data с файлом (file)");
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
  let textBytes = 0;
  for (const [key, raw] of Object.entries(form)) {
    if (Array.isArray(raw)) throw invalidAt(key, "поле передано несколько раз");
    if (key === fileField) {
      // A form without a file may still name the field, empty (a browser's form with no file chosen).
      if (typeof raw === "string") {
        if (raw) throw invalidAt(key, "ожидается файл");
        continue;
      }
      file = { name: raw.name || unnamed, bytes: new Uint8Array(await raw.arrayBuffer()) };
    } else if (typeof raw === "string") {
      textBytes += Buffer.byteLength(key) + Buffer.byteLength(raw);
      fields[key] = raw;
    } else throw invalidAt(key, "ожидается текстовое поле");
  }
  if (textBytes > c.get("deps").config.jsonBodyLimitBytes) throw new TooLarge("Слишком большой запрос");
  return { fields, file };
}
