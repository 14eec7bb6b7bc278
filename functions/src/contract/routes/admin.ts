// v1/admin/, declared: the platform operators' API (companies, their users, coefficient changes,
// normative documents, settings videos, the production calendar, the change log). Every route is admin-only: staff get
// 403. Served by http/admin.ts, behind requireAdmin.
import * as z from "zod";
import { ROLES } from "../schemas/common";
import { MINE_DUTIES as DUTIES, MINE_DUTY_LABELS as DUTY_LABELS } from "@core/sensor-checks";
import { COEFFICIENT_REASON_MAX } from "../schemas/limits";
import {
  adminUserSchema,
  auditEntrySchema,
  calendarYearSchema,
  companySchema,
  detailSchema,
  dictionaryEntrySchema,
  documentSchema,
  mediaStatusSchema,
  uploadGrantSchema,
} from "../schemas/answers";
import { idString, isoDate, pageParams } from "../schemas/common";
import { companyCreateSchema, companyPatchSchema } from "../schemas/company";
import { documentCreateSchema, documentPatchSchema } from "../schemas/document";
import { calendarYearCreateSchema, calendarYearEditSchema } from "../schemas/production-calendar";
import { uncertaintySchema } from "../schemas/uncertainty";
import { access, binaryFile, type ErrorStatus, formBody, inputJsonSchema, json, listOf, pathParam, route, storedObject } from "./declare";
import { entryParams } from "./dictionaries";
import { mediaParams, videoContent } from "./media";
import { LIMITS } from "../schemas/limits";
import { TRUST_ROOT_ROUTES } from "./climate-signatures";

const version = z.optional(z.number("ожидается целое число").int("ожидается целое число"));
const role = z.enum(ROLES, `role: ${ROLES.join(", ")}`);
/** the user's duty at the mine (who confirms a gassing book entry, who signs a sensor check); null: none. */
const duty = z.optional(z.nullable(z.enum(DUTIES, `обязанность: ${DUTIES.map((d) => `${d} (${DUTY_LABELS[d]})`).join(", ")} или null`)));
const personName = () =>
  z.optional(z.string("ожидается строка").trim().max(LIMITS.name.person, `не длиннее ${LIMITS.name.person} символов`));
const password = z.string("укажите пароль").max(LIMITS.password.max, "слишком длинный пароль");

export const userCreateBody = z.object({
  email: z.string("укажите e-mail").max(LIMITS.email, "слишком длинный e-mail"),
  password,
  first_name: personName(),
  last_name: personName(),
  role: z.optional(role),
  duty,
});

export const userPatchBody = z.object({
  first_name: personName(),
  last_name: personName(),
  role: z.optional(role),
  duty,
  is_active: z.optional(z.boolean("ожидается true или false")),
  company: z.optional(idString("ожидается идентификатор компании").min(1, "ожидается идентификатор компании")),
});

export const resetBody = z.object({ password: z.optional(password) });

export const coefficientBody = z.object({
  field: z.string("укажите коэффициент").min(1, "укажите коэффициент"),
  value: z.number("ожидается число"),
  effective_from: isoDate(),
  reason: z
    .string("укажите причину изменения")
    .trim()
    .min(1, "укажите причину изменения")
    .max(COEFFICIENT_REASON_MAX, `не длиннее ${COEFFICIENT_REASON_MAX} символов`),
  version: z.number("укажите версию записи, которую вы меняете").int("ожидается целое число"),
  /** The value's uncertainty: absent keeps it, null removes it. */
  uncertainty: z.optional(z.nullable(uncertaintySchema)),
});

export const auditQuery = z.object(pageParams());

export const companyPatchBody = companyPatchSchema.extend({ version });

// Direct uploads (http/UPLOADS.md): the declared file, then its upload_id back on completion.
/** The file a direct upload declares (also v1/forecast/upload-url/). */
export const declaredFile = {
  content_type: z.string("укажите тип файла").max(LIMITS.text.contentType, "слишком длинное значение"),
  size: z.number("укажите размер файла в байтах").int("ожидается целое число байт").gte(0, "ожидается размер файла в байтах"),
  name: z.optional(z.string("ожидается строка").max(LIMITS.name.file, `не длиннее ${LIMITS.name.file} символов`)),
};
const uploadId = z
  .string("укажите идентификатор загрузки")
  .min(1, "укажите идентификатор загрузки")
  .max(LIMITS.uploadId, "недействительный идентификатор загрузки");

export const documentUploadUrlBody = z.object({
  document: z.optional(
    z
      .string("ожидается идентификатор документа")
      .min(1, "ожидается идентификатор документа")
      .max(LIMITS.id, "ожидается идентификатор документа"),
  ),
  version,
  ...declaredFile,
});
/** A new document's metadata comes with its completion (title and kind then required). */
export const documentCompleteBody = documentCreateSchema.partial().extend({ upload_id: uploadId, version });
export const mediaUploadUrlBody = z.object({
  kind: z.string("instruction или presentation").max(LIMITS.text.mediaKind, "instruction или presentation"),
  ...declaredFile,
});
export const mediaCompleteBody = z.object({ upload_id: uploadId });

// ---- the routes ----

const admin = access("admin", "admin", { scope: "admin", note: "platform operators act across companies; staff get 403" });

const companyParams = z.object({ id: pathParam("Company id") });
const userParams = companyParams.extend({ userId: pathParam("User id") });
const documentParams = z.object({ id: pathParam("Document id") });

/** A form with a PDF, read by the handler (readUploadForm): described here, checked there. */
const pdfForm = (metadata: z.ZodObject, fileRequired: boolean) => {
  const fields = inputJsonSchema(metadata) as { properties?: Record<string, unknown>; required?: string[] };
  return formBody({
    type: "object",
    properties: { ...fields.properties, file: binaryFile("PDF, at most 50 MB").schema },
    required: [...(fields.required ?? []), ...(fileRequired ? ["file"] : [])],
  });
};

export const listCompaniesRoute = route(admin("adminListCompanies", "Every company", []), {
  get: "/companies",
  cost: "light",
  200: json(listOf(companySchema), "The companies"),
});

export const createCompanyRoute = route(admin("adminCreateCompany", "Create a company (ОГРН/ОГРНИП and ОКВЭД checked)", [400, 409]), {
  post: "/companies",
  cost: "light",
  body: companyCreateSchema,
  201: json(companySchema, "The company"),
});

const company = storedObject(admin, { path: "/companies/{id}", params: companyParams }, companySchema, "The company");

export const getCompanyRoute = company.get("adminGetCompany", "One company");

export const patchCompanyRoute = company.patch("adminPatchCompany", "Edit a company", companyPatchBody);

export const listUsersRoute = route(admin("adminListUsers", "Users of a company (no password hashes)", [404]), {
  get: "/companies/{id}/users",
  cost: "light",
  params: companyParams,
  200: json(listOf(adminUserSchema), "The users"),
});

export const createUserRoute = route(admin("adminCreateUser", "Create a user in a company", [400, 404, 409]), {
  post: "/companies/{id}/users",
  cost: "light",
  params: companyParams,
  body: userCreateBody,
  201: json(adminUserSchema, "The user"),
});

export const patchUserRoute = route(admin("adminPatchUser", "Edit, (de)activate, change the role of or move a user", [400, 404, 409]), {
  patch: "/companies/{id}/users/{userId}",
  cost: "light",
  params: userParams,
  body: userPatchBody,
  200: json(adminUserSchema, "The user"),
});

// The body is optional and read by the handler: an empty one, whatever its type, asks for a generated password.
export const resetPasswordRoute = route(admin("adminResetPassword", "Set a password, or generate one (returned once)", [400, 404]), {
  post: "/companies/{id}/users/{userId}/reset_password",
  cost: "light",
  params: userParams,
  body: { required: false, content: { "application/json": { schema: inputJsonSchema(resetBody) } } },
  200: json(detailSchema.extend({ password: z.optional(z.string()) }), "`{detail}` plus `{password}` when generated"),
});

export const changeCoefficientRoute = route(
  admin("adminChangeCoefficient", "Change a coefficient: a new version of the entry", [400, 404, 409]),
  {
    patch: "/dictionary/{name}/{id}",
    cost: "light",
    params: entryParams,
    body: coefficientBody,
    200: json(dictionaryEntrySchema, "The new current version"),
  },
);

export const listDocumentsRoute = route(admin("adminListDocuments", "Every document, removed ones too", []), {
  get: "/documents",
  cost: "light",
  200: json(listOf(documentSchema), "The documents"),
});

/** An admin file's two steps (http/UPLOADS.md): where to PUT it, after the declared type and size are
 *  checked; then its registration, after what was stored is checked (read by range), a refused file
 *  deleted (400/413/415). A document's and a video's alike. */
const uploadUrl = <const P extends string, B extends z.ZodType>(
  [operationId, summary, errors, checks]: [string, string, ErrorStatus[], string],
  post: P,
  body: B,
) =>
  route(
    admin(
      operationId,
      summary,
      errors,
      `${checks} Answers a short-lived URL (S3 presigned PUT in AWS, the API's PUT /api/v1/uploads/ locally) and an upload_id for …/complete/.`,
    ),
    { post, cost: "light", body, 200: json(uploadGrantSchema, "The upload URL and upload_id") },
  );
const uploadComplete = ([operationId, summary, errors, stored, more]: [string, string, ErrorStatus[], string, string?]) =>
  admin(
    operationId,
    summary,
    errors,
    `Checks what was stored (${stored}, read by range); a refused file is deleted (400/413/415).${more ? ` ${more}` : ""}`,
  );

export const documentUploadUrlRoute = uploadUrl(
  [
    "adminDocumentUploadUrl",
    "Where to PUT a PDF (≤ 50 MB) for a new document or to replace a document's file",
    [400, 404, 409, 415],
    "Checks the declared type (application/pdf, else 415) and size (else 413).",
  ],
  "/documents/upload-url",
  documentUploadUrlBody,
);

export const completeDocumentRoute = route(
  uploadComplete([
    "adminCompleteDocumentUpload",
    "Register an uploaded PDF: a new document (metadata here) or a document's new file",
    [400, 404, 409, 415],
    "size, first bytes %PDF-",
    "The upload_id must be the caller's own, unexpired, and for a document.",
  ]),
  {
    post: "/documents/complete",
    cost: "light",
    body: documentCompleteBody,
    201: json(documentSchema, "The new document"),
    200: json(documentSchema, "The document whose PDF was replaced (or the same answer again)"),
  },
);

export const createDocumentRoute = route(admin("adminCreateDocument", "Upload a normative document (PDF ≤ 50 MB)", [400, 409, 415]), {
  post: "/documents",
  cost: "light",
  body: pdfForm(documentCreateSchema, true),
  bodyCap: "document",
  201: json(documentSchema, "The document"),
});

export const replaceDocumentFileRoute = route(admin("adminReplaceDocumentFile", "Replace a document's PDF", [400, 404, 409, 415]), {
  put: "/documents/{id}/file",
  cost: "light",
  params: documentParams,
  body: pdfForm(z.object({ version }), true),
  bodyCap: "document",
  200: json(documentSchema, "The document"),
});

export const patchDocumentRoute = route(
  admin("adminPatchDocument", "Edit a document's metadata, remove (is_deleted) or restore it", [400, 404, 409]),
  { patch: "/documents/{id}", cost: "light", params: documentParams, body: documentPatchSchema, 200: json(documentSchema, "The document") },
);

export const listMediaRoute = route(admin("adminListMedia", "Status of both settings videos", []), {
  get: "/media",
  cost: "light",
  200: json(listOf(mediaStatusSchema), "Both videos"),
});

export const mediaUploadUrlRoute = uploadUrl(
  [
    "adminMediaUploadUrl",
    "Where to PUT a settings video (MP4/WebM ≤ 500 MB)",
    [400, 404, 415],
    "Checks the kind (else 404), the declared type (video/mp4 or video/webm, else 415) and size (else 413).",
  ],
  "/media/upload-url",
  mediaUploadUrlBody,
);

export const completeMediaRoute = route(
  uploadComplete([
    "adminCompleteMediaUpload",
    "Register an uploaded video as its kind's video",
    [400, 415],
    "size, MP4 ftyp or WebM EBML by its first bytes, agreeing with the declared type",
  ]),
  { post: "/media/complete", cost: "light", body: mediaCompleteBody, 200: json(mediaStatusSchema, "Status with a playback URL") },
);

// The raw video, streamed by the handler to storage.
export const uploadMediaRoute = route(
  admin("adminUploadMedia", "Upload a settings video: the raw MP4/WebM (≤ 500 MB, Content-Length required)", [400, 404, 411, 415]),
  {
    put: "/media/{kind}",
    cost: "light",
    params: mediaParams,
    body: { required: true, content: videoContent },
    bodyCap: "video",
    200: json(mediaStatusSchema, "Status with a signed URL"),
  },
);

export const removeMediaRoute = route(admin("adminRemoveMedia", "Remove a settings video", [404]), {
  delete: "/media/{kind}",
  cost: "light",
  params: mediaParams,
  200: json(detailSchema, "Removed"),
});

const calendarParams = z.object({
  // Exactly four digits: a number would also take «02026», «2026.0» and «+2026».
  year: z
    .string()
    .regex(/^\d{4}$/, "ожидается год из четырех цифр")
    .transform(Number)
    .meta({ description: "The year, four digits" }),
});

export const listCalendarRoute = route(admin("adminListCalendar", "The production calendar: every year loaded, oldest first", []), {
  get: "/calendar",
  cost: "light",
  200: json(listOf(calendarYearSchema), "The years"),
});

export const createCalendarYearRoute = route(
  admin(
    "adminCreateCalendarYear",
    "Load a year of the production calendar: its days off, working weekend days and decree",
    [400, 409],
    "Each day must be a date of that year, listed once, in one list only; a day off must be a weekday, a working day a Saturday or a Sunday, " +
      "and the year must keep at least one working day (400). " +
      "A year already loaded is 409. Review deadlines reaching the year are counted by it from then on.",
  ),
  { post: "/calendar", cost: "light", body: calendarYearCreateSchema, 201: json(calendarYearSchema, "The year") },
);

export const putCalendarYearRoute = route(
  admin(
    "adminPutCalendarYear",
    "Replace a year's days and decree (based on the version shown)",
    [400, 404, 409],
    "The same rules as loading a year; the path's year is four digits (400); a stale version is 409, a year not loaded 404.",
  ),
  {
    put: "/calendar/{year}",
    cost: "light",
    params: calendarParams,
    body: calendarYearEditSchema,
    200: json(calendarYearSchema, "The year, version + 1"),
  },
);

export const auditRoute = route(admin("adminAudit", "The change log, newest first", [400]), {
  get: "/audit",
  cost: "light",
  query: auditQuery,
  200: json(listOf(auditEntrySchema), "A page of the log"),
});

/** Every route of v1/admin/ above, in the order http/admin.ts serves them. */
const uploadLimitsSchema = z.object({
  document_max_bytes: z.int().meta({ description: "A normative document's PDF (DOCUMENT_MAX_BYTES)" }),
  video_max_bytes: z.int().meta({ description: "A settings video (VIDEO_MAX_BYTES)" }),
  model_max_bytes: z.int().meta({ description: "A forecast model file" }),
});

export const uploadLimitsRoute = route(
  admin("adminUploadLimits", "The size caps of the files an admin uploads, as this server applies them", []),
  { get: "/upload_limits", cost: "light", 200: json(uploadLimitsSchema, "The caps in bytes") },
);

export const ADMIN_ROUTES = [
  listCompaniesRoute,
  createCompanyRoute,
  getCompanyRoute,
  patchCompanyRoute,
  listUsersRoute,
  createUserRoute,
  patchUserRoute,
  resetPasswordRoute,
  changeCoefficientRoute,
  listDocumentsRoute,
  documentUploadUrlRoute,
  completeDocumentRoute,
  createDocumentRoute,
  replaceDocumentFileRoute,
  patchDocumentRoute,
  listMediaRoute,
  mediaUploadUrlRoute,
  completeMediaRoute,
  uploadMediaRoute,
  removeMediaRoute,
  listCalendarRoute,
  createCalendarYearRoute,
  putCalendarYearRoute,
  auditRoute,
  uploadLimitsRoute,
  ...TRUST_ROOT_ROUTES,
] as const;
