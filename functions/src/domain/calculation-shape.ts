// A stored calculation of the wrong shape (no results, inputs that are not a record, a number result
// that is not a number: written by hand, by an older version or half-way by a tool) must not break
// every read of its company. The repositories hand out only whole calculations in their lists, so
// every read and export skips such a one; the inventory's kept sums mark it (sums.ts, `x:`) and the
// year's checks name it; the admin command lists them (`damaged-calculations`); it can be archived.
import { REGISTRY, isCalculationType } from "@core/registry";
import type { DamagedCalculation } from "../ports";

/** What a write of a calculation changed since it was read gets: the domain's check of the version
 *  and both adapters' conditional writes. */
export const STALE_CALCULATION = "Расчет был изменен другим пользователем. Обновите страницу и повторите.";
/** What a new calculation whose id is taken gets (both adapters). */
export const CALCULATION_EXISTS = "Расчет с таким идентификатором уже существует";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What is wrong with a stored calculation's shape, in Russian; undefined when it is whole. */
export function damageOf(stored: object): string | undefined {
  const item = stored as Record<string, unknown>;
  if (typeof item.name !== "string") return "нет названия";
  if (typeof item.project !== "string") return "не указан проект";
  if (typeof item.type !== "string" || !isCalculationType(item.type)) return "неизвестный тип расчета";
  if (typeof item.created_at !== "string") return "нет даты создания";
  if (!isRecord(item.inputs)) return item.inputs === undefined ? "нет исходных данных" : "исходные данные не в том виде";
  if (!isRecord(item.results)) return item.results === undefined ? "нет результатов" : "результаты не в том виде";
  if (item.coefficients !== undefined && !isRecord(item.coefficients)) return "коэффициенты не в том виде";
  const results = item.results;
  for (const field of REGISTRY[item.type].results) {
    const value = results[field.name];
    if (field.type === "number" && value !== undefined && value !== null && typeof value !== "number") {
      return `результат «${field.label}» не число`;
    }
  }
  return undefined;
}

/** Only the whole calculations of `items` (a repository's list). */
export const wholeOnly = <T extends object>(items: T[]): T[] => items.filter((item) => damageOf(item) === undefined);

/** `item` as a damaged calculation, or undefined when it is whole. */
export function damagedCalculation(item: Record<string, unknown>): DamagedCalculation | undefined {
  const problem = damageOf(item);
  if (problem === undefined) return undefined;
  return {
    id: String(item.id),
    type: String(item.type),
    ...(typeof item.project === "string" ? { project: item.project } : {}),
    name: typeof item.name === "string" ? item.name : String(item.id),
    is_deleted: item.is_deleted === true,
    problem,
  };
}

/** The blob keys stored calculations refer to: the uploaded file, the stored results and, D10, the
 *  evidence files of custom coefficients (domain/calculations/evidence.ts). Read from the stored
 *  shape, so a damaged calculation's files count too. */
export function calculationBlobKeys(items: Record<string, unknown>[]): Set<string> {
  const found = items.flatMap((item) => [
    (item.file as { key?: unknown } | undefined)?.key,
    (item.results as { data_key?: unknown } | undefined)?.data_key,
    ...Object.values((item.coefficients ?? {}) as Record<string, { evidence?: { key?: unknown } }>).map((use) => use.evidence?.key),
  ]);
  return new Set(found.filter((key): key is string => typeof key === "string"));
}
