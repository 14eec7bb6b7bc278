// v1/admin/: the platform operators' API. requireUser (app.ts) has identified the caller; every
// route here first passes requireAdmin (staff → 403), and every domain function checks the role
// again. Admins act across companies. The declarations are in routes/admin.ts.
import { wholeList } from "../contract/routes/declare";
import { $ } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { assertAdmin, listAdminAudit } from "../domain/audit";
import { adminUploadLimits } from "../domain/admin/upload-limits";
import { createCompanyAsAdmin, getCompanyAsAdmin, listCompanies, updateCompanyAsAdmin } from "../domain/admin/companies";
import { changeCoefficientAsAdmin } from "../domain/admin/dictionaries";
import { createCompanyUser, listCompanyUsers, resetUserPassword, updateCompanyUser } from "../domain/admin/users";
import {
  completeDocumentUpload,
  createDocument,
  documentUploadUrl,
  listDocumentsAsAdmin,
  replaceDocumentFile,
  updateDocument,
} from "../domain/reference/documents";
import { Invalid, invalidAt } from "../domain/errors";
import { createCalendarYear, listCalendarYears, updateCalendarYear } from "../domain/reference/production-calendar";
import { completeMediaUpload, mediaStatusAsAdmin, mediaUploadUrl, removeMedia, uploadMedia } from "../domain/files/media";
import { documentCreateSchema } from "../contract/schemas/document";
import { createTrustRootsRoute, listTrustRootsRoute, removeTrustRootRoute } from "../contract/routes/climate-signatures";
import { addTrustRoots, listTrustRoots, removeTrustRoot } from "../domain/climate/trust-roots";
import {
  auditRoute,
  uploadLimitsRoute,
  changeCoefficientRoute,
  completeDocumentRoute,
  completeMediaRoute,
  createCalendarYearRoute,
  createCompanyRoute,
  createDocumentRoute,
  createUserRoute,
  documentUploadUrlRoute,
  getCompanyRoute,
  listCalendarRoute,
  listCompaniesRoute,
  listDocumentsRoute,
  listMediaRoute,
  listUsersRoute,
  mediaUploadUrlRoute,
  patchCompanyRoute,
  patchDocumentRoute,
  patchUserRoute,
  putCalendarYearRoute,
  removeMediaRoute,
  replaceDocumentFileRoute,
  resetBody,
  resetPasswordRoute,
  uploadMediaRoute,
} from "../contract/routes/admin";
import type { AppEnv } from "./env";
import { readUploadForm } from "./multipart";
import { routeApp } from "./openapi-routes";
import { parseWith } from "./validate";

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  assertAdmin(c.get("actor"));
  await next();
});

/** Form fields arrive as strings; the version field is a number in the schema. */
function formVersion(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw invalidAt("version", "ожидается целое число");
  return value;
}

export const adminRoutes = $(routeApp().use("*", requireAdmin))
  // ---- companies ----
  .openapi(listCompaniesRoute, async (c) => c.json(wholeList(await listCompanies(c.get("deps"), c.get("actor"))), 200))
  .openapi(createCompanyRoute, async (c) => c.json(await createCompanyAsAdmin(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(getCompanyRoute, async (c) => c.json(await getCompanyAsAdmin(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(patchCompanyRoute, async (c) =>
    c.json(await updateCompanyAsAdmin(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  // ---- users of a company ----
  .openapi(listUsersRoute, async (c) =>
    c.json(wholeList(await listCompanyUsers(c.get("deps"), c.get("actor"), c.req.valid("param").id)), 200),
  )
  .openapi(createUserRoute, async (c) =>
    c.json(await createCompanyUser(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(patchUserRoute, async (c) => {
    const { id, userId } = c.req.valid("param");
    return c.json(await updateCompanyUser(c.get("deps"), c.get("actor"), id, userId, c.req.valid("json")), 200);
  })
  .openapi(resetPasswordRoute, async (c) => {
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
    const { id, userId } = c.req.valid("param");
    const out = await resetUserPassword(c.get("deps"), c.get("actor"), id, userId, body.password);
    return c.json({ detail: "Пароль изменен", ...out }, 200);
  })
  // ---- dictionaries: a coefficient change is a new version ----
  .openapi(changeCoefficientRoute, async (c) => {
    const { name, id } = c.req.valid("param");
    return c.json(await changeCoefficientAsAdmin(c.get("deps"), c.get("actor"), name, id, c.req.valid("json")), 200);
  })
  // ---- normative documents ----
  .openapi(listDocumentsRoute, async (c) => c.json(wholeList(await listDocumentsAsAdmin(c.get("deps"), c.get("actor"))), 200))
  // Direct upload of a PDF: upload-url, then PUT to the answered url, then complete.
  .openapi(documentUploadUrlRoute, async (c) =>
    c.json(await documentUploadUrl(c.get("deps"), c.get("actor"), c.req.valid("json")), 200, { "Cache-Control": "no-store" }),
  )
  .openapi(completeDocumentRoute, async (c) => {
    const { upload_id, version: expected, ...meta } = c.req.valid("json");
    const out = await completeDocumentUpload(c.get("deps"), c.get("actor"), { upload_id, version: expected, meta });
    return out.created ? c.json(out.document, 201) : c.json(out.document, 200);
  })
  .openapi(createDocumentRoute, async (c) => {
    const { fields, file } = await readUploadForm(c);
    const meta = parseWith(documentCreateSchema, fields);
    if (!file) throw invalidAt("file", "прикрепите файл PDF");
    return c.json(await createDocument(c.get("deps"), c.get("actor"), meta, file), 201);
  })
  .openapi(replaceDocumentFileRoute, async (c) => {
    const { fields, file } = await readUploadForm(c);
    if (!file) throw invalidAt("file", "прикрепите файл PDF");
    const doc = await replaceDocumentFile(c.get("deps"), c.get("actor"), c.req.valid("param").id, file, formVersion(fields.version));
    return c.json(doc, 200);
  })
  .openapi(patchDocumentRoute, async (c) =>
    c.json(await updateDocument(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  // ---- settings videos ----
  .openapi(listMediaRoute, async (c) => c.json(wholeList(await mediaStatusAsAdmin(c.get("deps"), c.get("actor"))), 200))
  // Direct upload of a video: upload-url, then PUT to the answered url, then complete.
  .openapi(mediaUploadUrlRoute, async (c) =>
    c.json(await mediaUploadUrl(c.get("deps"), c.get("actor"), c.req.valid("json")), 200, { "Cache-Control": "no-store" }),
  )
  .openapi(completeMediaRoute, async (c) =>
    c.json(await completeMediaUpload(c.get("deps"), c.get("actor"), c.req.valid("json").upload_id), 200),
  )
  .openapi(uploadMediaRoute, async (c) => {
    const length = c.req.header("content-length");
    const rawName = c.req.header("x-file-name");
    let name = "";
    try {
      name = rawName ? decodeURIComponent(rawName) : "";
    } catch {
      name = "";
    }
    const status = await uploadMedia(c.get("deps"), c.get("actor"), c.req.valid("param").kind, {
      body: c.req.raw.body,
      contentType: c.req.header("content-type") ?? "",
      declaredLength: length !== undefined ? Number(length) : undefined,
      name,
    });
    return c.json(status, 200);
  })
  .openapi(removeMediaRoute, async (c) => {
    await removeMedia(c.get("deps"), c.get("actor"), c.req.valid("param").kind);
    return c.json({ detail: "Видео удалено" }, 200);
  })
  // ---- the production calendar ----
  .openapi(listCalendarRoute, async (c) => c.json(wholeList(await listCalendarYears(c.get("deps"), c.get("actor"))), 200))
  .openapi(createCalendarYearRoute, async (c) => c.json(await createCalendarYear(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(putCalendarYearRoute, async (c) =>
    c.json(await updateCalendarYear(c.get("deps"), c.get("actor"), c.req.valid("param").year, c.req.valid("json")), 200),
  )
  // ---- the change log, newest first ----
  .openapi(auditRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await listAdminAudit(c.get("deps"), c.get("actor"), { limit: q.limit ?? 20, offset: q.offset ?? 0 }), 200);
  })
  // ---- the caps the admin screens check a file against before sending it ----
  .openapi(uploadLimitsRoute, (c) => c.json(adminUploadLimits(c.get("deps"), c.get("actor")), 200))
  // ---- the CA certificates КЭП chains are checked against (domain/climate/trust-roots.ts) ----
  .openapi(listTrustRootsRoute, async (c) => c.json(wholeList(await listTrustRoots(c.get("deps"), c.get("actor"))), 200))
  .openapi(createTrustRootsRoute, async (c) => {
    const { file } = await readUploadForm(c, "file_data", "ca.cer");
    const results = await addTrustRoots(c.get("deps"), c.get("actor"), file);
    return c.json(wholeList(results), 201);
  })
  .openapi(removeTrustRootRoute, async (c) => {
    await removeTrustRoot(c.get("deps"), c.get("actor"), c.req.valid("param").id);
    return c.json({ detail: "Корневой сертификат удален" }, 200);
  });
