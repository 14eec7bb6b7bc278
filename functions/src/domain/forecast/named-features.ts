// the working's own channels as a model's inputs. A model sees the forecast's x1 … x15
// and, where its training named them (`features`), columns of the history beyond them — the face meter,
// the shearer's run status and position — kept by their names in the model's file and in its version.
// A forecast's row carries each by that name (a stored row: under `features`); a row without one is
// refused naming it, a row whose value is empty reads it as missing, as XGBoost does.
import { headerKey } from "@core/registry";
import { LAG_FEATURES, PRESSURE_FEATURES } from "@core/gbdt";
import type { ColumnSpec, TableSpec } from "../../files/tabular";
import { invalidAt } from "../errors";
import type { ForecastKeptRow } from "../../ports";
import { LIMITS } from "../../contract/schemas/limits";

const MAX_NAMED_FEATURES = LIMITS.forecast.namedFeatures;
const MAX_FEATURE_NAME = LIMITS.forecast.featureName;

/** The reader's column of a named feature: found by its own header, required. */
export const namedColumn = (name: string): ColumnSpec => ({
  name,
  label: name,
  required: true,
  kind: "number",
  headers: [headerKey(name)],
});

/** A table's spec with the named features' columns after its own. */
export const withNamedColumns = (spec: TableSpec, features: readonly string[]): TableSpec =>
  features.length === 0 ? spec : { ...spec, columns: [...spec.columns, ...features.map(namedColumn)] };

/**
 * The form's `features` (a JSON array of the history's column headers), checked against the table's own
 * columns: a header the table already reads (x1 … x15, y, t, the pressure) is not a feature of its own,
 * nor a name the model gives its lags; none twice.
 */
export function namedFeatures(raw: unknown, spec: TableSpec): string[] {
  if (raw === undefined || raw === null || raw === "") return [];
  let names: unknown = raw;
  if (typeof raw === "string") {
    try {
      names = JSON.parse(raw);
    } catch {
      throw invalidAt("features", 'ожидается массив JSON с заголовками столбцов файла, например ["Метан у забоя, %"]');
    }
  }
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string" || n.trim() === "")) {
    throw invalidAt("features", 'ожидается массив JSON с заголовками столбцов файла, например ["Метан у забоя, %"]');
  }
  if (names.length > MAX_NAMED_FEATURES) throw invalidAt("features", `не больше ${MAX_NAMED_FEATURES} собственных столбцов`);
  const read = new Set(spec.columns.flatMap((c) => c.headers ?? [headerKey(c.name)]));
  const taken = new Set<string>([...LAG_FEATURES, ...PRESSURE_FEATURES, ...spec.columns.map((c) => c.name), "features"]);
  const seen = new Set<string>();
  return (names as string[]).map((raw) => {
    const name = raw.trim();
    if (name.length > MAX_FEATURE_NAME)
      throw invalidAt("features", `«${name.slice(0, 40)}…»: заголовок не длиннее ${MAX_FEATURE_NAME} знаков`);
    const key = headerKey(name);
    if (key === "") throw invalidAt("features", `«${name}»: в заголовке нет ни буквы, ни цифры`);
    if (taken.has(name) || read.has(key) || read.has(headerKey(name.replace(/\s*[,(].*$/s, "")))) {
      throw invalidAt("features", `столбец «${name}» уже читается как столбец данных прогноза: назовите только столбцы сверх x1…x15`);
    }
    if (seen.has(key)) throw invalidAt("features", `столбец «${name}» назван дважды`);
    seen.add(key);
    return name;
  });
}

/** A named feature's value: any finite number (a position, a temperature below 0), empty for missing. */
export function namedValue(value: unknown, refuse: (message: string) => Error): number | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value !== "number" || !Number.isFinite(value)) throw refuse("ожидается число");
  return value;
}

/** The named features a row sent as JSON carries (each by its name, null for missing); undefined when none. */
export function namedValues(
  row: Record<string, unknown>,
  features: readonly string[],
  where: (name: string, message: string) => Error,
): Record<string, number | null> | undefined {
  if (features.length === 0) return undefined;
  const out: Record<string, number | null> = {};
  for (const name of features) {
    if (!(name in row)) throw where(name, `нет столбца «${name}», который читает модель`);
    out[name] = namedValue(row[name], (message) => where(name, `«${name}»: ${message}`));
  }
  return out;
}

/** The value of a row's named feature (NaN: missing); a row without it is refused, naming the column. */
export function namedCell(row: Pick<ForecastKeptRow, "id" | "features">, name: string): number {
  const values = row.features;
  if (!values || !(name in values)) throw invalidAt("data", `в строке ${row.id} нет столбца «${name}», который читает модель`);
  return values[name] ?? Number.NaN;
}
