// v1/admin/: the platform operators' API. requireUser (app.ts) has identified the caller; every
// route here first passes requireAdmin (staff → 403), and every domain function checks the role
// again. Admins act across companies.
import { ROLES } from "../ports";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import * as z from "zod/mini";
import { assertAdmin, listAdminAudit } from "../domain/admin/audit";
import { createCompanyAsAdmin, getCompanyAsAdmin, listCompanies, updateCompanyAsAdmin } from "../domain/admin/companies";
import { changeCoefficientAsAdmin } from "../domain/admin/dictionaries";
import { createCompanyUser, listCompanyUsers, resetUserPassword, updateCompanyUser } from "../domain/admin/users";
import { completeDocumentUpload, createDocument, documentUploadUrl, listDocumentsAsAdmin, replaceDocumentFile, updateDocument } from "../domain/documents";
import { Invalid } from "../domain/errors";
import { completeMediaUpload, mediaStatusAsAdmin, mediaUploadUrl, removeMedia, uploadMedia } from "../domain/media";
import { isoDate, pageParams } from "../schemas/common";
import { companyCreateSchema, companyPatchSchema } from "../schemas/company";
import { uncertaintySchema } from "../schemas/uncertainty";
import { documentCreateSchema, documentPatchSchema } from "../schemas/document";
import type { AppEnv } from "./env";
import { readUploadForm } from "./multipart";
import { parseWith, validate } from "./validate";

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  assertAdmin(c.get("actor"));
  await next();
});

const version = z.optional(z.number("version: ожидается целое число").check(z.int("version: ожидается целое число")));
const role = z.enum(ROLES, `role: ${ROLES.join(", ")}`);
const personName = (field: string) => z.optional(z.string(`${field}: ожидается строка`).check(z.trim(), z.maxLength(150, `${field}: не длиннее 150 символов`)));
const password = z.string("password: укажите пароль").check(z.maxLength(1024, "password: слишком длинный пароль"));

export const userCreateBody = z.object({
  email: z.string("email: укажите e-mail").check(z.maxLength(320, "email: слишком длинный e-mail")),
  password,
  first_name: personName("first_name"),
  last_name: personName("last_name"),
  role: z.optional(role),
});

export const userPatchBody = z.object({
  first_name: personName("first_name"),
  last_name: personName("last_name"),
  role: z.optional(role),
  is_active: z.optional(z.boolean("is_active: ожидается true или false")),
  company: z.optional(z.string("company: ожидается идентификатор компании").check(z.minLength(1, "company: ожидается идентификатор компании"))),
});

export const resetBody = z.object({ password: z.optional(password) });

export const coefficientBody = z.object({
  field: z.string("field: укажите коэффициент").check(z.minLength(1, "field: укажите коэффициент")),
  value: z.number("value: ожидается число"),
  effective_from: isoDate("effective_from"),
  reason: z.string("reason: укажите причину изменения").check(z.trim(), z.minLength(1, "reason: укажите причину изменения"), z.maxLength(1000, "reason: не длиннее 1000 символов")),
  version: z.number("version: укажите версию записи, которую вы меняете").check(z.int("version: ожидается целое число")),
  /** The value's uncertainty: absent keeps it, null removes it. */
  uncertainty: z.optional(z.nullable(uncertaintySchema)),
});

export const auditQuery = z.object(pageParams());

export const companyPatchBody = z.extend(companyPatchSchema, { version });

// Direct uploads (http/UPLOADS.md): the declared file, then its upload_id back on completion.
const declaredFile = {
  content_type: z.string("content_type: укажите тип файла").check(z.maxLength(200, "content_type: слишком длинное значение")),
  size: z.number("size: укажите размер файла в байтах").check(z.int("size: ожидается целое число байт"), z.minimum(0, "size: ожидается размер файла в байтах")),
  name: z.optional(z.string("name: ожидается строка").check(z.maxLength(1000, "name: не длиннее 1000 символов"))),
};
const uploadId = z.string("upload_id: укажите идентификатор загрузки").check(
  z.minLength(1, "upload_id: укажите идентификатор загрузки"),
  z.maxLength(8192, "upload_id: недействительный идентификатор загрузки"),
);

export const documentUploadUrlBody = z.object({
  document: z.optional(z.string("document: ожидается идентификатор документа").check(z.minLength(1, "document: ожидается идентификатор документа"), z.maxLength(200, "document: ожидается идентификатор документа"))),
  version,
  ...declaredFile,
});
/** A new document's metadata comes with its completion (title and kind then required). */
export const documentCompleteBody = z.extend(z.partial(documentCreateSchema), { upload_id: uploadId, version });
export const mediaUploadUrlBody = z.object({
  kind: z.string("kind: instruction или presentation").check(z.maxLength(50, "kind: instruction или presentation")),
  ...declaredFile,
});
export const mediaCompleteBody = z.object({ upload_id: uploadId });

function itemId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new Invalid("id: ожидается целое положительное число");
  return id;
}

/** Form fields arrive as strings; the version field is a number in the schema. */
function formVersion(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Invalid("version: ожидается целое число");
  return value;
}

export const adminRoutes = new Hono<AppEnv>({ strict: false })
  .use("*", requireAdmin)
  // ---- companies ----
  .get("/companies", async (c) => {
    const results = await listCompanies(c.get("deps"), c.get("actor"));
    return c.json({ results, count: results.length }, 200);
  })
  .post("/companies", validate("json", companyCreateSchema), async (c) =>
    c.json(await createCompanyAsAdmin(c.get("deps"), c.get("actor"), c.req.valid("json")), 201),
  )
  .get("/companies/:id", async (c) => c.json(await getCompanyAsAdmin(c.get("deps"), c.get("actor"), c.req.param("id")), 200))
  .patch("/companies/:id", validate("json", companyPatchBody), async (c) =>
    c.json(await updateCompanyAsAdmin(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.valid("json")), 200),
  )
  // ---- users of a company ----
  .get("/companies/:id/users", async (c) => {
    const results = await listCompanyUsers(c.get("deps"), c.get("actor"), c.req.param("id"));
    return c.json({ results, count: results.length }, 200);
  })
  .post("/companies/:id/users", validate("json", userCreateBody), async (c) =>
    c.json(await createCompanyUser(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.valid("json")), 201),
  )
  .patch("/companies/:id/users/:userId", validate("json", userPatchBody), async (c) =>
    c.json(await updateCompanyUser(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.param("userId"), c.req.valid("json")), 200),
  )
  .post("/companies/:id/users/:userId/reset_password", async (c) => {
    // The body is optional: without a password one is generated and returned once.
    const text = await c.req.text();
    let raw: unknown = {};
    if (text.trim()) {
      try {
        raw = JSON.parse(text);
      } catch {
        throw new Invalid("Тело запроса не является корректным JSON");
      }
    }
    const body = parseWith(resetBody, raw);
    const out = await resetUserPassword(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.param("userId"), body.password);
    return c.json({ detail: "Пароль изменен", ...out }, 200);
  })
  // ---- dictionaries: a coefficient change is a new version ----
  .patch("/dictionary/:name/:id", validate("json", coefficientBody), async (c) =>
    c.json(
      await changeCoefficientAsAdmin(c.get("deps"), c.get("actor"), c.req.param("name"), itemId(c.req.param("id")), c.req.valid("json")),
      200,
    ),
  )
  // ---- normative documents ----
  .get("/documents", async (c) => {
    const results = await listDocumentsAsAdmin(c.get("deps"), c.get("actor"));
    return c.json({ results, count: results.length }, 200);
  })
  // Direct upload of a PDF: upload-url, then PUT to the answered url, then complete.
  .post("/documents/upload-url", validate("json", documentUploadUrlBody), async (c) =>
    c.json(await documentUploadUrl(c.get("deps"), c.get("actor"), c.req.valid("json")), 200, { "Cache-Control": "no-store" }),
  )
  .post("/documents/complete", validate("json", documentCompleteBody), async (c) => {
    const { upload_id, version: expected, ...meta } = c.req.valid("json");
    const out = await completeDocumentUpload(c.get("deps"), c.get("actor"), { upload_id, version: expected, meta });
    return c.json(out.document, out.created ? 201 : 200);
  })
  .post("/documents", async (c) => {
    const { fields, file } = await readUploadForm(c);
    const meta = parseWith(documentCreateSchema, fields);
    if (!file) throw new Invalid("file: прикрепите файл PDF");
    return c.json(await createDocument(c.get("deps"), c.get("actor"), meta, file), 201);
  })
  .put("/documents/:id/file", async (c) => {
    const { fields, file } = await readUploadForm(c);
    if (!file) throw new Invalid("file: прикрепите файл PDF");
    const doc = await replaceDocumentFile(c.get("deps"), c.get("actor"), c.req.param("id"), file, formVersion(fields.version));
    return c.json(doc, 200);
  })
  .patch("/documents/:id", validate("json", documentPatchSchema), async (c) =>
    c.json(await updateDocument(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.valid("json")), 200),
  )
  // ---- settings videos ----
  .get("/media", async (c) => {
    const results = await mediaStatusAsAdmin(c.get("deps"), c.get("actor"));
    return c.json({ results, count: results.length }, 200);
  })
  // Direct upload of a video: upload-url, then PUT to the answered url, then complete.
  .post("/media/upload-url", validate("json", mediaUploadUrlBody), async (c) =>
    c.json(await mediaUploadUrl(c.get("deps"), c.get("actor"), c.req.valid("json")), 200, { "Cache-Control": "no-store" }),
  )
  .post("/media/complete", validate("json", mediaCompleteBody), async (c) =>
    c.json(await completeMediaUpload(c.get("deps"), c.get("actor"), c.req.valid("json").upload_id), 200),
  )
  .put("/media/:kind", async (c) => {
    const length = c.req.header("content-length");
    const rawName = c.req.header("x-file-name");
    let name = "";
    try {
      name = rawName ? decodeURIComponent(rawName) : "";
    } catch {
      name = "";
    }
    const status = await uploadMedia(c.get("deps"), c.get("actor"), c.req.param("kind"), {
      body: c.req.raw.body,
      contentType: c.req.header("content-type") ?? "",
      declaredLength: length !== undefined ? Number(length) : undefined,
      name,
    });
    return c.json(status, 200);
  })
  .delete("/media/:kind", async (c) => {
    await removeMedia(c.get("deps"), c.get("actor"), c.req.param("kind"));
    return c.json({ detail: "Видео удалено" }, 200);
  })
  // ---- the change log, newest first ----
  .get("/audit", validate("query", auditQuery), async (c) => {
    const q = c.req.valid("query");
    return c.json(await listAdminAudit(c.get("deps"), c.get("actor"), { limit: q.limit ?? 20, offset: q.offset ?? 0 }), 200);
  });
