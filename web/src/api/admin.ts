// /admin over the API (functions/src/http/admin.ts). Every call is checked server-side; the page
// only hides what a staff user could not use anyway.
import { useQuery } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { fieldErrors } from "../shared/fieldErrors";
import { isApiError, jsonBody, pageQuery, typedClient, type Client, type ListPage } from "./client";
import type {
  AdminUser,
  AuditEntry,
  CalendarYear,
  Company as AnsweredCompany,
  DictionaryEntry,
  ForecastModelVersion,
  Role,
} from "@server/contract";
import type { ForecastMethod } from "@core/registry";
import type { NormativeDocument } from "./documents";
import type { MediaStatus } from "./media";
import type { DirectUpload, UploadGrant } from "./directUpload";
import { LIMITS } from "@server/contract";

/** The API always sends a company's version. */
export type Company = Omit<AnsweredCompany, "version"> & { version: number };
export type { AdminUser, AuditEntry, CalendarYear, ForecastMethod, ForecastModelVersion, Role };

export interface ForecastModels {
  results: { method: ForecastMethod; versions: ForecastModelVersion[] }[];
  count: number;
}

/** admin/, forecast_models/ and dictionary/, typed from the server's route declarations
 *  (functions/src/contract/routes/admin.ts, forecast-models.ts, dictionaries.ts). */
const admin = typedClient("admin");
type Admin = Client<"admin">;
const forecastModels = typedClient("forecastModels");
const dictionaries = typedClient("dictionaries");

export const adminKeys = {
  companies: ["admin", "companies"] as const,
  users: (companyId: string) => ["admin", "companies", companyId, "users"] as const,
  documents: ["admin", "documents"] as const,
  media: ["admin", "media"] as const,
  calendar: ["admin", "calendar"] as const,
  audit: (page: number) => ["admin", "audit", page] as const,
  uploadLimits: ["admin", "upload-limits"] as const,
  auditAll: ["admin", "audit"] as const,
  /** The same key the forecast dialog reads the list by, so a change here reaches it too. */
  forecastModels: ["forecast-models"] as const,
};

/** The route declares a company's version and creation time optional (companySchema); the admin
 *  API always sends both. */
const asCompany = (company: unknown) => company as Company;

export function useCompanies() {
  return useQuery({
    queryKey: adminKeys.companies,
    queryFn: async (): Promise<ListPage<Company>> => {
      const answer = await admin((c) => c.companies.$get());
      return { ...answer, results: answer.results.map(asCompany) };
    },
  });
}

/** The requisites of a new company (companyCreateSchema), sent as they are when editing one too. */
export type CompanyBody = InferRequestType<Admin["companies"]["$post"]>["json"];

/** POST admin/companies/. */
export async function createCompany(body: CompanyBody): Promise<Company> {
  return asCompany(await admin((c) => c.companies.$post({ json: body })));
}

/** PATCH admin/companies/{id}/: the requisites, based on the version shown. */
export async function patchCompany(company: Company, body: CompanyBody): Promise<Company> {
  return asCompany(
    await admin((c) => c.companies[":id"].$patch({ param: { id: company.id }, json: { ...body, version: company.version } })),
  );
}

export function useCompanyUsers(companyId: string | undefined) {
  return useQuery({
    queryKey: adminKeys.users(companyId ?? ""),
    queryFn: (): Promise<ListPage<AdminUser>> => admin((c) => c.companies[":id"].users.$get({ param: { id: companyId! } })),
    enabled: Boolean(companyId),
  });
}

/** POST admin/companies/{id}/users/. */
export function createUser(
  companyId: string,
  body: InferRequestType<Admin["companies"][":id"]["users"]["$post"]>["json"],
): Promise<AdminUser> {
  return admin((c) => c.companies[":id"].users.$post({ param: { id: companyId }, json: body }));
}

/** PATCH admin/companies/{id}/users/{userId}/: names and role, (de)activation, or a move to another company. */
export function patchUser(
  companyId: string,
  userId: string,
  body: InferRequestType<Admin["companies"][":id"]["users"][":userId"]["$patch"]>["json"],
): Promise<AdminUser> {
  return admin((c) => c.companies[":id"].users[":userId"].$patch({ param: { id: companyId, userId }, json: body }));
}

/** POST …/users/{userId}/reset_password/: the password given, or a generated one (answered once).
 *  The route reads its optional body itself (described as a JSON schema, which hc cannot type). */
export function resetPassword(companyId: string, userId: string, password?: string): Promise<{ password?: string }> {
  return admin((c) =>
    c.companies[":id"].users[":userId"].reset_password.$post({ param: { id: companyId, userId } }, jsonBody(password ? { password } : {})),
  );
}

/** PATCH admin/dictionary/{name}/{id}/: a coefficient's new version. */
export function changeCoefficient(
  name: string,
  id: number,
  body: InferRequestType<Admin["dictionary"][":name"][":id"]["$patch"]>["json"],
): Promise<DictionaryEntry> {
  return admin((c) => c.dictionary[":name"][":id"].$patch({ param: { name, id: String(id) }, json: body }));
}

export function useAdminDocuments() {
  return useQuery({
    queryKey: adminKeys.documents,
    queryFn: (): Promise<ListPage<NormativeDocument>> => admin((c) => c.documents.$get()),
  });
}

/** PATCH admin/documents/{id}/: the metadata, or is_deleted, based on the version shown. */
export function patchDocument(id: string, body: InferRequestType<Admin["documents"][":id"]["$patch"]>["json"]): Promise<NormativeDocument> {
  return admin((c) => c.documents[":id"].$patch({ param: { id }, json: body }));
}

/** A PDF straight to storage: for a new document (its metadata with the completion) or as the
 *  file of document `replacing` (based on its version). */
export function documentUpload(
  metadata?: Omit<InferRequestType<Admin["documents"]["complete"]["$post"]>["json"], "upload_id" | "version">,
  replacing?: NormativeDocument,
): DirectUpload<NormativeDocument> {
  const version = replacing?.version;
  return {
    grant: (file): Promise<UploadGrant> =>
      admin((c) => c.documents["upload-url"].$post({ json: { ...file, document: replacing?.id, version } })),
    complete: (upload_id) => admin((c) => c.documents.complete.$post({ json: { ...metadata, version, upload_id } })),
  };
}

export function useAdminMedia() {
  return useQuery({ queryKey: adminKeys.media, queryFn: (): Promise<ListPage<MediaStatus>> => admin((c) => c.media.$get()) });
}

/** A settings video straight to storage, as its kind's video. */
export function mediaUpload(kind: MediaStatus["kind"]): DirectUpload<MediaStatus> {
  return {
    grant: (file): Promise<UploadGrant> => admin((c) => c.media["upload-url"].$post({ json: { ...file, kind } })),
    complete: (upload_id) => admin((c) => c.media.complete.$post({ json: { upload_id } })),
  };
}

/** DELETE admin/media/{kind}/. */
export function removeMedia(kind: MediaStatus["kind"]): Promise<{ detail: string }> {
  return admin((c) => c.media[":kind"].$delete({ param: { kind } }));
}

export function useCalendarYears() {
  return useQuery({ queryKey: adminKeys.calendar, queryFn: (): Promise<ListPage<CalendarYear>> => admin((c) => c.calendar.$get()) });
}

/** POST admin/calendar/: a new year with its days and decree. */
export function createCalendarYear(body: InferRequestType<Admin["calendar"]["$post"]>["json"]): Promise<CalendarYear> {
  return admin((c) => c.calendar.$post({ json: body }));
}

/** PUT admin/calendar/{year}/: the year's days and decree, based on the version shown. */
export function putCalendarYear(year: number, body: InferRequestType<Admin["calendar"][":year"]["$put"]>["json"]): Promise<CalendarYear> {
  return admin((c) => c.calendar[":year"].$put({ param: { year: String(year) }, json: body }));
}

/** GET forecast_models/: the platform's versions and the company's own, per method. */
// The route declares a method as a string; the server lists FORECAST_METHODS only.
export const fetchForecastModels = async () => (await forecastModels((c) => c.index.$get())) as ForecastModels;

export function useForecastModelList() {
  return useQuery({ queryKey: adminKeys.forecastModels, queryFn: fetchForecastModels, staleTime: 0 });
}

/** PATCH forecast_models/{method}/{id}/ (admin): the version new forecasts use from now on. */
export function activateForecastModel(method: ForecastMethod, id: string): Promise<ForecastModelVersion> {
  return forecastModels((c) => c[":method"][":id"].$patch({ param: { method, id }, json: { is_active: true } }));
}

/** GET admin/upload_limits/: the caps this server applies to documents, videos and models. */
export type UploadLimits = InferResponseType<Admin["upload_limits"]["$get"], 200>;

export function useUploadLimits() {
  return useQuery({ queryKey: adminKeys.uploadLimits, queryFn: (): Promise<UploadLimits> => admin((c) => c.upload_limits.$get()) });
}

export const AUDIT_PAGE_SIZE = LIMITS.page.audit;

export function useAudit(page: number) {
  return useQuery({
    queryKey: adminKeys.audit(page),
    queryFn: (): Promise<ListPage<AuditEntry>> => admin((c) => c.audit.$get({ query: pageQuery(page, AUDIT_PAGE_SIZE) })),
    staleTime: 0,
  });
}

export function useDictionaryNames() {
  return useQuery({
    queryKey: ["dictionary", "names"],
    queryFn: () => dictionaries((c) => c.index.$get()),
    staleTime: 10 * 60_000,
  });
}

/** The server names the field first ("ogrn: …"); a form shows the text under that field. */
export function fieldError<F extends string>(error: unknown, fields: readonly F[]): { name: F; errors: string[] } | undefined {
  return fieldErrors(error, fields)?.[0];
}

export function errorText(error: unknown): string {
  return isApiError(error) ? error.detail : "Не удалось выполнить действие";
}

export const ROLE_LABELS: Record<Role, string> = {
  staff: "Сотрудник компании",
  reviewer: "Проверяющий (утверждает инвентаризацию)",
  admin: "Администратор платформы",
};

export const ACTION_LABELS: Record<string, string> = {
  "company.create": "Компания создана",
  "company.update": "Реквизиты компании изменены",
  "user.create": "Пользователь создан",
  "user.update": "Пользователь изменен",
  "user.move": "Пользователь переведен в другую компанию",
  "user.reset_password": "Пароль сброшен",
  "dictionary.change": "Коэффициент изменен",
  "document.create": "Документ добавлен",
  "document.upload": "Файл документа загружен",
  "document.replace": "Файл документа заменен",
  "document.update": "Документ изменен",
  "document.remove": "Документ удален",
  "document.restore": "Документ восстановлен",
  "media.upload": "Видео загружено",
  "media.replace": "Видео заменено",
  "media.remove": "Видео удалено",
  "forecast_model.upload": "Модель прогноза загружена",
  "forecast_model.activate": "Модель прогноза выбрана",
  "calendar.create": "Производственный календарь загружен",
  "calendar.update": "Производственный календарь изменен",
};
