// /admin over the API (functions/src/http/admin.ts). Every call is checked server-side; the page
// only hides what a staff user could not use anyway.
import { useQuery } from "@tanstack/react-query";
import { api, isApiError, typedClient, type ListPage } from "../../api/client";
import type { DictionaryRoutes, ForecastModelRoutes } from "../../../../functions/src/contracts";
import type {
  AdminAuditEntry,
  Company as StoredCompany,
  ForecastModelVersion as StoredModelVersion,
  Role,
  User,
} from "../../../../functions/src/ports";
import type { ForecastMethod } from "../../../../wasm-core/src/registry";
import type { NormativeDocument } from "../documents/api";
import type { MediaStatus } from "../settings/SettingsVideos";

/** The server's own shapes (functions/src/ports.ts); the API always sends a company's version. */
export type Company = Omit<StoredCompany, "version"> & { version: number };
export type { Role };
/** A user as the admin API shows it: never the password hash. */
export type AdminUser = Omit<User, "password_hash">;
export type AuditEntry = AdminAuditEntry;

/** One stored version of a forecast model, as v1/forecast_models/ shows it (without the storage key). */
export type ForecastModelVersion = Omit<StoredModelVersion, "blob_key">;
export type { ForecastMethod };

export interface ForecastModels {
  results: { method: ForecastMethod; versions: ForecastModelVersion[] }[];
  count: number;
}

/** v1/forecast_models/ and v1/dictionary/, typed from the server's route declarations
 *  (functions/src/http/forecast-models.ts, dictionaries.ts). */
const forecastModels = typedClient<ForecastModelRoutes>("v1/forecast_models");
const dictionaries = typedClient<DictionaryRoutes>("v1/dictionary");

export const adminKeys = {
  companies: ["admin", "companies"] as const,
  users: (companyId: string) => ["admin", "companies", companyId, "users"] as const,
  documents: ["admin", "documents"] as const,
  media: ["admin", "media"] as const,
  audit: (page: number) => ["admin", "audit", page] as const,
  auditAll: ["admin", "audit"] as const,
  /** The same key the forecast dialog reads the list by, so a change here reaches it too. */
  forecastModels: ["forecast-models"] as const,
};

export function useCompanies() {
  return useQuery({ queryKey: adminKeys.companies, queryFn: () => api.get<ListPage<Company>>("v1/admin/companies/") });
}

export function useCompanyUsers(companyId: string | undefined) {
  return useQuery({
    queryKey: adminKeys.users(companyId ?? ""),
    queryFn: () => api.get<ListPage<AdminUser>>(`v1/admin/companies/${encodeURIComponent(companyId!)}/users/`),
    enabled: Boolean(companyId),
  });
}

export function useAdminDocuments() {
  return useQuery({ queryKey: adminKeys.documents, queryFn: () => api.get<ListPage<NormativeDocument>>("v1/admin/documents/") });
}

export function useAdminMedia() {
  return useQuery({ queryKey: adminKeys.media, queryFn: () => api.get<ListPage<MediaStatus>>("v1/admin/media/") });
}

export function useForecastModelList() {
  return useQuery({
    queryKey: adminKeys.forecastModels,
    // The route declares a method as a string; the server lists FORECAST_METHODS only.
    queryFn: async () => (await forecastModels((c) => c.index.$get())) as ForecastModels,
    staleTime: 0,
  });
}

/** PATCH v1/forecast_models/{method}/{id}/ (admin): the version new forecasts use from now on. */
export function activateForecastModel(method: ForecastMethod, id: string): Promise<ForecastModelVersion> {
  return forecastModels((c) => c[":method"][":id"].$patch({ param: { method, id }, json: { is_active: true } }));
}

export const AUDIT_PAGE_SIZE = 20;

export function useAudit(page: number) {
  return useQuery({
    queryKey: adminKeys.audit(page),
    queryFn: () => api.get<ListPage<AuditEntry>>(`v1/admin/audit/?limit=${AUDIT_PAGE_SIZE}&offset=${(page - 1) * AUDIT_PAGE_SIZE}`),
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
  if (!isApiError(error)) return undefined;
  const match = /^([a-z_]+): (.*)$/s.exec(error.detail);
  if (!match || !(fields as readonly string[]).includes(match[1])) return undefined;
  return { name: match[1] as F, errors: [match[2]] };
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
};
