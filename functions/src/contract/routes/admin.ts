// v1/admin/, declared: the platform operators' API (companies, their users, coefficient changes,
// normative documents, settings videos, the production calendar, the change log). Every route is admin-only: staff get
// 403. Served by http/admin.ts, behind requireAdmin.
import * as z from "zod";
import { ROLES } from "../schemas/common";
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
import { binaryFile, declareRoute, formBody, inputJsonSchema, json, jsonBody, listOf, pathParam, type Access } from "./declare";
import { dictionaryName, entryNumber } from "./dictionaries";
import { mediaKindParam, videoContent } from "./media";
import { fieldMessage } from "../field-errors";

const version = z.optional(z.number("version: ожидается целое число").int("version: ожидается целое число"));
const role = z.enum(ROLES, `role: ${ROLES.join(", ")}`);
const personName = (field: string) =>
  z.optional(z.string(fieldMessage(field, "ожидается строка")).trim().max(150, fieldMessage(field, "не длиннее 150 символов")));
const password = z.string("password: укажите пароль").max(1024, "password: слишком длинный пароль");

export const userCreateBody = z.object({
  email: z.string("email: укажите e-mail").max(320, "email: слишком длинный e-mail"),
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
  company: z.optional(idString("company", "company: ожидается идентификатор компании").min(1, "company: ожидается идентификатор компании")),
});

export const resetBody = z.object({ password: z.optional(password) });

export const coefficientBody = z.object({
  field: z.string("field: укажите коэффициент").min(1, "field: укажите коэффициент"),
  value: z.number("value: ожидается число"),
  effective_from: isoDate("effective_from"),
  reason: z
    .string("reason: укажите причину изменения")
    .trim()
    .min(1, "reason: укажите причину изменения")
    .max(COEFFICIENT_REASON_MAX, `reason: не длиннее ${COEFFICIENT_REASON_MAX} символов`),
  version: z.number("version: укажите версию записи, которую вы меняете").int("version: ожидается целое число"),
  /** The value's uncertainty: absent keeps it, null removes it. */
  uncertainty: z.optional(z.nullable(uncertaintySchema)),
});

export const auditQuery = z.object(pageParams());

export const companyPatchBody = companyPatchSchema.extend({ version });

// Direct uploads (http/UPLOADS.md): the declared file, then its upload_id back on completion.
/** The file a direct upload declares (also v1/forecast/upload-url/). */
export const declaredFile = {
  content_type: z.string("content_type: укажите тип файла").max(200, "content_type: слишком длинное значение"),
  size: z
    .number("size: укажите размер файла в байтах")
    .int("size: ожидается целое число байт")
    .gte(0, "size: ожидается размер файла в байтах"),
  name: z.optional(z.string("name: ожидается строка").max(1000, "name: не длиннее 1000 символов")),
};
const uploadId = z
  .string("upload_id: укажите идентификатор загрузки")
  .min(1, "upload_id: укажите идентификатор загрузки")
  .max(8192, "upload_id: недействительный идентификатор загрузки");

export const documentUploadUrlBody = z.object({
  document: z.optional(
    z
      .string("document: ожидается идентификатор документа")
      .min(1, "document: ожидается идентификатор документа")
      .max(200, "document: ожидается идентификатор документа"),
  ),
  version,
  ...declaredFile,
});
/** A new document's metadata comes with its completion (title and kind then required). */
export const documentCompleteBody = documentCreateSchema.partial().extend({ upload_id: uploadId, version });
export const mediaUploadUrlBody = z.object({
  kind: z.string("kind: instruction или presentation").max(50, "kind: instruction или presentation"),
  ...declaredFile,
});
export const mediaCompleteBody = z.object({ upload_id: uploadId });

// ---- the routes ----

const ADMIN: Pick<Access, "tag" | "auth" | "isolation"> = {
  tag: "admin",
  auth: "admin",
  isolation: { scope: "admin", note: "platform operators act across companies; staff get 403" },
};
const admin = (access: Pick<Access, "operationId" | "summary" | "description" | "errors" | "bodyCap">): Access => ({ ...ADMIN, ...access });

const companyParams = z.object({ id: pathParam("Company id") });
const userParams = companyParams.extend({ userId: pathParam("User id") });
const documentParams = z.object({ id: pathParam("Document id") });
const mediaParams = z.object({ kind: mediaKindParam });

/** A form with a PDF, read by the handler (readUploadForm): described here, checked there. */
const pdfForm = (metadata: z.ZodObject, fileRequired: boolean) => {
  const fields = inputJsonSchema(metadata) as { properties?: Record<string, unknown>; required?: string[] };
  return formBody({
    type: "object",
    properties: { ...fields.properties, file: binaryFile("PDF, at most 50 MB").schema },
    required: [...(fields.required ?? []), ...(fileRequired ? ["file"] : [])],
  });
};

export const listCompaniesRoute = declareRoute(admin({ operationId: "adminListCompanies", summary: "Every company", errors: [] }), {
  method: "get",
  path: "/companies",
  responses: { 200: json(listOf(companySchema), "The companies") },
});

export const createCompanyRoute = declareRoute(
  admin({ operationId: "adminCreateCompany", summary: "Create a company (ОГРН/ОГРНИП and ОКВЭД checked)", errors: [400, 409] }),
  {
    method: "post",
    path: "/companies",
    request: { body: jsonBody(companyCreateSchema) },
    responses: { 201: json(companySchema, "The company") },
  },
);

export const getCompanyRoute = declareRoute(admin({ operationId: "adminGetCompany", summary: "One company", errors: [404] }), {
  method: "get",
  path: "/companies/{id}",
  request: { params: companyParams },
  responses: { 200: json(companySchema, "The company") },
});

export const patchCompanyRoute = declareRoute(
  admin({ operationId: "adminPatchCompany", summary: "Edit a company", errors: [400, 404, 409] }),
  {
    method: "patch",
    path: "/companies/{id}",
    request: { params: companyParams, body: jsonBody(companyPatchBody) },
    responses: { 200: json(companySchema, "The company, version + 1") },
  },
);

export const listUsersRoute = declareRoute(
  admin({ operationId: "adminListUsers", summary: "Users of a company (no password hashes)", errors: [404] }),
  {
    method: "get",
    path: "/companies/{id}/users",
    request: { params: companyParams },
    responses: { 200: json(listOf(adminUserSchema), "The users") },
  },
);

export const createUserRoute = declareRoute(
  admin({ operationId: "adminCreateUser", summary: "Create a user in a company", errors: [400, 404, 409] }),
  {
    method: "post",
    path: "/companies/{id}/users",
    request: { params: companyParams, body: jsonBody(userCreateBody) },
    responses: { 201: json(adminUserSchema, "The user") },
  },
);

export const patchUserRoute = declareRoute(
  admin({ operationId: "adminPatchUser", summary: "Edit, (de)activate, change the role of or move a user", errors: [400, 404, 409] }),
  {
    method: "patch",
    path: "/companies/{id}/users/{userId}",
    request: { params: userParams, body: jsonBody(userPatchBody) },
    responses: { 200: json(adminUserSchema, "The user") },
  },
);

// The body is optional and read by the handler: an empty one, whatever its type, asks for a generated password.
export const resetPasswordRoute = declareRoute(
  admin({ operationId: "adminResetPassword", summary: "Set a password, or generate one (returned once)", errors: [400, 404] }),
  {
    method: "post",
    path: "/companies/{id}/users/{userId}/reset_password",
    request: { params: userParams, body: { required: false, content: { "application/json": { schema: inputJsonSchema(resetBody) } } } },
    responses: { 200: json(detailSchema.extend({ password: z.optional(z.string()) }), "`{detail}` plus `{password}` when generated") },
  },
);

export const changeCoefficientRoute = declareRoute(
  admin({ operationId: "adminChangeCoefficient", summary: "Change a coefficient: a new version of the entry", errors: [400, 404, 409] }),
  {
    method: "patch",
    path: "/dictionary/{name}/{id}",
    request: { params: z.object({ name: dictionaryName, id: entryNumber }), body: jsonBody(coefficientBody) },
    responses: { 200: json(dictionaryEntrySchema, "The new current version") },
  },
);

export const listDocumentsRoute = declareRoute(
  admin({ operationId: "adminListDocuments", summary: "Every document, removed ones too", errors: [] }),
  {
    method: "get",
    path: "/documents",
    responses: { 200: json(listOf(documentSchema), "The documents") },
  },
);

export const documentUploadUrlRoute = declareRoute(
  admin({
    operationId: "adminDocumentUploadUrl",
    summary: "Where to PUT a PDF (≤ 50 MB) for a new document or to replace a document's file",
    description:
      "Checks the declared type (application/pdf, else 415) and size (else 413). Answers a short-lived URL " +
      "(S3 presigned PUT in AWS, the API's PUT /api/v1/uploads/ locally) and an upload_id for …/complete/.",
    errors: [400, 404, 409, 415],
  }),
  {
    method: "post",
    path: "/documents/upload-url",
    request: { body: jsonBody(documentUploadUrlBody) },
    responses: { 200: json(uploadGrantSchema, "The upload URL and upload_id") },
  },
);

export const completeDocumentRoute = declareRoute(
  admin({
    operationId: "adminCompleteDocumentUpload",
    summary: "Register an uploaded PDF: a new document (metadata here) or a document's new file",
    description:
      "Checks what was stored (size, first bytes %PDF-, read by range); a refused file is deleted (400/413/415). " +
      "The upload_id must be the caller's own, unexpired, and for a document.",
    errors: [400, 404, 409, 415],
  }),
  {
    method: "post",
    path: "/documents/complete",
    request: { body: jsonBody(documentCompleteBody) },
    responses: {
      201: json(documentSchema, "The new document"),
      200: json(documentSchema, "The document whose PDF was replaced (or the same answer again)"),
    },
  },
);

export const createDocumentRoute = declareRoute(
  admin({
    operationId: "adminCreateDocument",
    summary: "Upload a normative document (PDF ≤ 50 MB)",
    errors: [400, 409, 415],
    bodyCap: "document",
  }),
  {
    method: "post",
    path: "/documents",
    request: { body: pdfForm(documentCreateSchema, true) },
    responses: { 201: json(documentSchema, "The document") },
  },
);

export const replaceDocumentFileRoute = declareRoute(
  admin({
    operationId: "adminReplaceDocumentFile",
    summary: "Replace a document's PDF",
    errors: [400, 404, 409, 415],
    bodyCap: "document",
  }),
  {
    method: "put",
    path: "/documents/{id}/file",
    request: { params: documentParams, body: pdfForm(z.object({ version }), true) },
    responses: { 200: json(documentSchema, "The document") },
  },
);

export const patchDocumentRoute = declareRoute(
  admin({
    operationId: "adminPatchDocument",
    summary: "Edit a document's metadata, remove (is_deleted) or restore it",
    errors: [400, 404, 409],
  }),
  {
    method: "patch",
    path: "/documents/{id}",
    request: { params: documentParams, body: jsonBody(documentPatchSchema) },
    responses: { 200: json(documentSchema, "The document") },
  },
);

export const listMediaRoute = declareRoute(
  admin({ operationId: "adminListMedia", summary: "Status of both settings videos", errors: [] }),
  {
    method: "get",
    path: "/media",
    responses: { 200: json(listOf(mediaStatusSchema), "Both videos") },
  },
);

export const mediaUploadUrlRoute = declareRoute(
  admin({
    operationId: "adminMediaUploadUrl",
    summary: "Where to PUT a settings video (MP4/WebM ≤ 500 MB)",
    description:
      "Checks the kind (else 404), the declared type (video/mp4 or video/webm, else 415) and size (else 413). " +
      "Answers a short-lived URL (S3 presigned PUT in AWS, PUT /api/v1/uploads/ locally) and an upload_id.",
    errors: [400, 404, 415],
  }),
  {
    method: "post",
    path: "/media/upload-url",
    request: { body: jsonBody(mediaUploadUrlBody) },
    responses: { 200: json(uploadGrantSchema, "The upload URL and upload_id") },
  },
);

export const completeMediaRoute = declareRoute(
  admin({
    operationId: "adminCompleteMediaUpload",
    summary: "Register an uploaded video as its kind's video",
    description:
      "Checks what was stored (size, MP4 ftyp or WebM EBML by its first bytes, read by range, agreeing with the " +
      "declared type); a refused file is deleted (400/413/415).",
    errors: [400, 415],
  }),
  {
    method: "post",
    path: "/media/complete",
    request: { body: jsonBody(mediaCompleteBody) },
    responses: { 200: json(mediaStatusSchema, "Status with a playback URL") },
  },
);

// The raw video, streamed by the handler to storage.
export const uploadMediaRoute = declareRoute(
  admin({
    operationId: "adminUploadMedia",
    summary: "Upload a settings video: the raw MP4/WebM (≤ 500 MB, Content-Length required)",
    errors: [400, 404, 411, 415],
    bodyCap: "video",
  }),
  {
    method: "put",
    path: "/media/{kind}",
    request: { params: mediaParams, body: { required: true, content: videoContent } },
    responses: { 200: json(mediaStatusSchema, "Status with a signed URL") },
  },
);

export const removeMediaRoute = declareRoute(
  admin({ operationId: "adminRemoveMedia", summary: "Remove a settings video", errors: [404] }),
  {
    method: "delete",
    path: "/media/{kind}",
    request: { params: mediaParams },
    responses: { 200: json(detailSchema, "Removed") },
  },
);

const calendarParams = z.object({
  // Exactly four digits: a number would also take «02026», «2026.0» and «+2026».
  year: z
    .string()
    .regex(/^\d{4}$/, "year: ожидается год из четырех цифр")
    .transform(Number)
    .meta({ description: "The year, four digits" }),
});

export const listCalendarRoute = declareRoute(
  admin({ operationId: "adminListCalendar", summary: "The production calendar: every year loaded, oldest first", errors: [] }),
  {
    method: "get",
    path: "/calendar",
    responses: { 200: json(listOf(calendarYearSchema), "The years") },
  },
);

export const createCalendarYearRoute = declareRoute(
  admin({
    operationId: "adminCreateCalendarYear",
    summary: "Load a year of the production calendar: its days off, working weekend days and decree",
    description:
      "Each day must be a date of that year, listed once, in one list only; a day off must be a weekday, a working day a Saturday or a Sunday, " +
      "and the year must keep at least one working day (400). " +
      "A year already loaded is 409. Review deadlines reaching the year are counted by it from then on.",
    errors: [400, 409],
  }),
  {
    method: "post",
    path: "/calendar",
    request: { body: jsonBody(calendarYearCreateSchema) },
    responses: { 201: json(calendarYearSchema, "The year") },
  },
);

export const putCalendarYearRoute = declareRoute(
  admin({
    operationId: "adminPutCalendarYear",
    summary: "Replace a year's days and decree (based on the version shown)",
    description: "The same rules as loading a year; the path's year is four digits (400); a stale version is 409, a year not loaded 404.",
    errors: [400, 404, 409],
  }),
  {
    method: "put",
    path: "/calendar/{year}",
    request: { params: calendarParams, body: jsonBody(calendarYearEditSchema) },
    responses: { 200: json(calendarYearSchema, "The year, version + 1") },
  },
);

export const auditRoute = declareRoute(admin({ operationId: "adminAudit", summary: "The change log, newest first", errors: [400] }), {
  method: "get",
  path: "/audit",
  request: { query: auditQuery },
  responses: { 200: json(listOf(auditEntrySchema), "A page of the log") },
});

/** Every route of v1/admin/ above, in the order http/admin.ts serves them. */
const uploadLimitsSchema = z.object({
  document_max_bytes: z.int().meta({ description: "A normative document's PDF (DOCUMENT_MAX_BYTES)" }),
  video_max_bytes: z.int().meta({ description: "A settings video (VIDEO_MAX_BYTES)" }),
  model_max_bytes: z.int().meta({ description: "A forecast model file" }),
});

export const uploadLimitsRoute = declareRoute(
  admin({
    operationId: "adminUploadLimits",
    summary: "The size caps of the files an admin uploads, as this server applies them",
    errors: [],
  }),
  {
    method: "get",
    path: "/upload_limits",
    responses: { 200: json(uploadLimitsSchema, "The caps in bytes") },
  },
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
] as const;
