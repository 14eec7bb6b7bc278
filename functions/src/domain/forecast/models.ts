// Forecast models (regres_methane): the default XGBoost and LightGBM files shipped in
// forecast/default-models, and replacements an admin uploads. A model is parsed and test-predicted
// before it is accepted; every version stays stored, so a calculation can always name the model
// it used. Parsed models are kept per process by version id, within a byte budget.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  chooseEngine,
  HORIZONS,
  horizonLabel,
  isHorizon,
  LAG_FEATURES,
  PRESSURE_FEATURES,
  loadModel,
  parseModel,
  predict,
  type GbdtModel,
  type ParsedModel,
} from "@core/gbdt";
import { FORECAST_FEATURES, FORECAST_METHOD_TITLES, FORECAST_METHODS, type ForecastMethod } from "@core/registry";
import type { Actor, Deps } from "../context";
import { recordChange } from "../audit";
import { Conflict, Forbidden, Invalid, invalidAt, NotFound, TooLarge, UnsupportedMedia } from "../errors";
import { newId } from "../ids";
import { byteBudgetCache, type ByteBudgetCache } from "../byte-budget-cache";
import type { ForecastModelVersion } from "../../ports";
import type { ModelDescription } from "../../ports/model-scoring";
import { keptState } from "../../ports/runtime";
import { fileSize } from "../../contract/schemas/uploads";
import { LIMITS } from "../../contract/schemas/limits";

/** The data columns of docs/api.md (regres_methane rows, the registry's); a model may use any of them, in any order. */
export { FORECAST_FEATURES };
export const MAX_MODEL_BYTES = LIMITS.forecast.modelBytes;
/** The most a company's own trained models may take together (every version it keeps, archived too). */
export const COMPANY_MODEL_BYTES = LIMITS.forecast.companyModelBytes;

/** The bytes of the company's own model versions (one stored before sizes were kept counts none). */
export async function companyModelBytes(deps: Pick<Deps, "repos">, company: string): Promise<number> {
  const versions = await Promise.all(FORECAST_METHODS.map((method) => deps.repos.forecastModels.list(method)));
  return versions.flat().reduce((sum, v) => sum + (v.company === company ? (v.file_bytes ?? 0) : 0), 0);
}

/** A company whose own models already take COMPANY_MODEL_BYTES trains no more: refused before the training. */
export async function checkCompanyModelRoom(deps: Pick<Deps, "repos">, company: string): Promise<void> {
  const held = await companyModelBytes(deps, company);
  if (held + MAX_MODEL_BYTES > COMPANY_MODEL_BYTES) {
    throw new Invalid(
      `Модели компании уже занимают ${fileSize(held)} из ${fileSize(COMPANY_MODEL_BYTES)}, а новая может занять до ${fileSize(MAX_MODEL_BYTES)}: ` +
        "обратитесь к администратору платформы, чтобы удалить лишние версии",
    );
  }
}

const DEFAULT_FILES: Record<ForecastMethod, string> = {
  xgboost: "methane-xgboost.json",
  lightgbm: "methane-lightgbm.txt",
};

/** A shipped model's text: from source in functions/src/forecast/default-models; in a Lambda bundle,
 *  whose import.meta.url is the bundle itself, from default-models/ beside it (infra/lib/stack.ts copies
 *  the files there for the functions that forecast). */
const defaultModelText = (file: string) => {
  const fromSource = fileURLToPath(new URL(`../../forecast/default-models/${file}`, import.meta.url));
  const besideBundle = fileURLToPath(new URL(`./default-models/${file}`, import.meta.url));
  return readFileSync(existsSync(fromSource) || !existsSync(besideBundle) ? fromSource : besideBundle, "utf8");
};

const DEFAULT_DESCRIPTION: Record<ForecastMethod, string> = {
  xgboost: "Модель по умолчанию: XGBoost 1.7.4, 150 деревьев, RMSE на тестовой выборке 0,115 %",
  lightgbm: "Модель по умолчанию: LightGBM 4.5.0, 150 деревьев, RMSE на тестовой выборке 0,112 %",
};

export function forecastMethod(value: unknown): ForecastMethod {
  if (value === "xgboost" || value === "lightgbm") return value;
  throw invalidAt("method", "выберите метод xgboost или lightgbm");
}

/** The parsed models a process keeps, at most MODEL_CACHE_BYTES of their files together (a parsed
 *  model takes a few times its file in memory): the least recently used is parsed again when asked. */
export const MODEL_CACHE_BYTES = 64 * 1024 * 1024;
/** The parsed models a host keeps for scoring in its own process (a scoring thread keeps its own). */
export const parsedModels = keptState("parsed models", () => byteBudgetCache<GbdtModel>(MODEL_CACHE_BYTES));

/** A model file as text, checked: parses, matches the method, uses only known data columns (and the
 *  named `features` its training kept: an earlier round), and predicts a finite number for a row of
 *  typical values and for a row of missing ones. */
async function accept(
  method: ForecastMethod,
  text: string,
  features: readonly string[] = [],
): Promise<{ parsed: ParsedModel; model: GbdtModel }> {
  let parsed: ParsedModel;
  try {
    parsed = parseModel(text);
  } catch (error) {
    throw invalidAt("file", `файл не является поддерживаемой моделью: ${(error as Error).message}`);
  }
  if (parsed.library !== method) {
    throw invalidAt("file", `это модель ${parsed.library}, а выбран метод ${method}`);
  }
  if (!isHorizon(parsed.horizon)) {
    throw invalidAt("file", `горизонт модели ${parsed.horizon} мин не из допустимых (${HORIZONS.join(", ")} мин)`);
  }
  // A nowcast that read the measured y of its own moment would be told the answer.
  const ahead = [...FORECAST_FEATURES, ...features, ...LAG_FEATURES, ...PRESSURE_FEATURES];
  const known: readonly string[] = parsed.horizon > 0 ? ahead : [...FORECAST_FEATURES, ...features];
  const unknown = parsed.featureNames.filter((f) => !known.includes(f));
  if (unknown.length > 0) {
    throw invalidAt("file", `модель использует признаки ${unknown.join(", ")}, которых нет в данных (${known.join(", ")})`);
  }
  const model = await loadModel(parsed);
  // Readings, the named features missing, y(t), y a step and an hour before, the hour's mean, no change
  // over 10, 30 and 60 min; a pressure of 98 kPa, steady over the hour.
  const readings = [1400, 1400, 35, 100, 0.5, 16000, 35];
  const typical = [[...readings, ...features.map(() => Number.NaN), 0.7, 0.7, 0.7, 0.7, 0, 0, 0, 98, 0], ahead.map(() => Number.NaN)];
  const predictions = predict(model, typical, ahead);
  if (![...predictions].every(Number.isFinite)) throw invalidAt("file", "пробный прогноз модели дал нечисловой результат");
  return { parsed, model };
}

/** A model file's description as its version records it (its engine, library, horizon, features, trees). */
/** A model file as text checked (accept) and described: the parse a version's upload costs. */
export async function checkModelFile(method: ForecastMethod, text: string, features?: readonly string[]): Promise<ModelDescription> {
  return describe((await accept(method, text, features)).parsed);
}

function describe(parsed: ParsedModel): ModelDescription {
  // The same choice loadModel makes for this file: QuickScorer or the tree walk, and why.
  const choice = chooseEngine(parsed.forest);
  return {
    engine: choice.engine,
    engine_reason: choice.reason,
    library: parsed.library,
    library_version: parsed.version,
    objective: parsed.objective,
    horizon: parsed.horizon,
    feature_names: parsed.featureNames,
    num_trees: parsed.numTrees,
  };
}

/** Registers the shipped default models as version 1 where a method has none yet. */
export async function seedDefaultModels(deps: Deps): Promise<number> {
  let written = 0;
  for (const method of FORECAST_METHODS) {
    if ((await deps.repos.forecastModels.list(method)).length > 0) continue;
    const file = DEFAULT_FILES[method];
    const text = defaultModelText(file);
    const { parsed } = await accept(method, text);
    const id = newId();
    const blobKey = `models/${method}/${id}`;
    await deps.blobs.put(blobKey, new TextEncoder().encode(text), "application/octet-stream");
    await deps.repos.forecastModels.create({
      method,
      id,
      version: 1,
      ...describe(parsed),
      blob_key: blobKey,
      file_name: file,
      description: DEFAULT_DESCRIPTION[method],
      is_active: true,
      uploaded_at: deps.clock.now().toISOString(),
      uploaded_by: "system",
    });
    written += 1;
  }
  // The default lagged models are checked (parsed) once per process: at its start, not in the
  // first request that names a model.
  await defaultLaggedModels(deps);
  return written;
}

/** The active model is the nowcast's; a model that looks ahead is chosen in the forecast itself. */
const laggedNotActive = () =>
  invalidAt(
    "is_active",
    "модель прогноза вперед не делается активной: ее выбирают в форме прогноза вместе с горизонтом (без выбора берется самая новая модель компании на этот горизонт)",
  );

/** The platform's default lagged models (tools/forecast-models/, default-models/README.md), one per
 *  horizon: shipped files served as they are, version 1 of their horizon, never stored in the table. */
const LAGGED_FILE = (horizon: number) => `methane-xgboost-h${horizon}.json`;
const DEFAULT_MODELS_PREFIX = "default-models/";
const DEFAULT_UPLOADED_AT = "2026-11-25T00:00:00.000Z";
/** The default lagged models, checked once per host. */
const laggedModels = keptState("lagged models", (): { models?: Promise<ForecastModelVersion[]> } => ({}));

/** The default lagged XGBoost models, one per horizon above 0, checked once per host (laggedModels). */
export function defaultLaggedModels(deps: Pick<Deps, "runtime">): Promise<ForecastModelVersion[]> {
  const lagged = deps.runtime.kept(laggedModels);
  lagged.models ??= Promise.all(
    HORIZONS.filter((h) => h > 0).map(async (horizon) => {
      const file = LAGGED_FILE(horizon);
      const { parsed } = await accept("xgboost", defaultModelText(file));
      return {
        method: "xgboost" as const,
        id: `xgboost-h${horizon}`,
        version: 1,
        ...describe(parsed),
        blob_key: `${DEFAULT_MODELS_PREFIX}${file}`,
        file_name: file,
        description: `Модель по умолчанию на ${horizonLabel(horizon)} вперед: XGBoost 1.7.4, ${parsed.numTrees} деревьев, по измеренной концентрации за последний час и показаниям датчиков`,
        is_active: false,
        uploaded_at: DEFAULT_UPLOADED_AT,
        uploaded_by: "system",
      };
    }),
  );
  return lagged.models;
}

/**
 * The model a forecast of `method` at `horizon` minutes runs: the version named by `id` (the
 * company's own or the platform's, not archived, of that horizon), else for the nowcast the
 * company's active model (activeModelVersion), else the company's newest own model of that horizon
 * or the platform's default one.
 */
export async function forecastModelFor(
  deps: Pick<Deps, "repos" | "runtime">,
  method: ForecastMethod,
  company: string,
  horizon: number,
  id?: string,
): Promise<ForecastModelVersion> {
  if (id) {
    const version = (await defaultLaggedModels(deps)).find((v) => v.id === id) ?? (await deps.repos.forecastModels.get(method, id));
    if (!version || version.method !== method || (version.company !== undefined && version.company !== company)) {
      throw invalidAt("model_id", `такой модели ${FORECAST_METHOD_TITLES[method]} нет`);
    }
    if (version.archived) throw invalidAt("model_id", "модель в архиве не используется в прогнозах: сначала верните ее из архива");
    if ((version.horizon ?? 0) !== horizon) {
      throw invalidAt(
        "model_id",
        `модель прогнозирует на ${horizonLabel(version.horizon ?? 0)} вперед, а выбран горизонт ${horizonLabel(horizon)}`,
      );
    }
    return version;
  }
  if (horizon === 0) return activeModelVersion(deps as Deps, method, company);
  const own = (await deps.repos.forecastModels.list(method))
    .filter((v) => v.company === company && !v.archived && (v.horizon ?? 0) === horizon)
    .at(-1);
  if (own) return own;
  const fallback = method === "xgboost" ? (await defaultLaggedModels(deps)).find((v) => v.horizon === horizon) : undefined;
  if (!fallback) throw invalidAt("horizon", `для прогноза на ${horizonLabel(horizon)} вперед есть модели XGBoost: выберите метод xgboost`);
  return fallback;
}

/** The platform's versions and the company's own (never another company's). */
export async function listForecastModels(deps: Deps, method: ForecastMethod, company: string) {
  return (await deps.repos.forecastModels.list(method)).filter((v) => v.company === undefined || v.company === company);
}

export async function getForecastModel(deps: Deps, method: ForecastMethod, id: string, company: string): Promise<ForecastModelVersion> {
  const version =
    (await defaultLaggedModels(deps)).find((v) => v.id === id && v.method === method) ?? (await deps.repos.forecastModels.get(method, id));
  if (!version || (version.company !== undefined && version.company !== company)) throw new NotFound("Модель не найдена");
  return version;
}

/** The model a company's forecasts of `method` run: its own active version when it chose one, else the platform's. */
export async function activeModelVersion(deps: Deps, method: ForecastMethod, company: string): Promise<ForecastModelVersion> {
  const versions = await deps.repos.forecastModels.list(method);
  const own = versions.filter((v) => v.is_active && !v.archived && v.company === company).at(-1);
  if (own) return own;
  const active = versions.filter((v) => v.is_active && v.company === undefined).at(-1);
  if (!active) throw new Conflict(`Для метода ${method} нет активной модели: обратитесь к администратору`);
  return active;
}

export async function modelText(deps: Pick<Deps, "blobs">, version: ForecastModelVersion): Promise<string> {
  if (version.blob_key.startsWith(DEFAULT_MODELS_PREFIX)) return defaultModelText(version.blob_key.slice(DEFAULT_MODELS_PREFIX.length));
  const blob = await deps.blobs.get(version.blob_key);
  if (!blob) throw new NotFound(`Файл модели ${version.file_name} не найден`);
  return new TextDecoder().decode(blob.body);
}

/** A model's file as it is sent: a stored one streamed from the blob store where it can be read by
 *  range (a download never holds the file whole), a shipped one or another store's as its text. */
export async function modelFileBody(
  deps: Pick<Deps, "blobs">,
  version: ForecastModelVersion,
): Promise<{ body: ReadableStream<Uint8Array> | string; size?: number }> {
  const { stat, getRange } = deps.blobs;
  if (version.blob_key.startsWith(DEFAULT_MODELS_PREFIX) || !stat || !getRange) return { body: await modelText(deps, version) };
  const found = await stat.call(deps.blobs, version.blob_key);
  const body = found && (await getRange.call(deps.blobs, version.blob_key, 0, Math.max(0, found.size - 1)));
  if (!found || !body) throw new NotFound(`Файл модели ${version.file_name} не найден`);
  return { body, size: found.size };
}

/** The runnable model of a stored version, parsed once while `cache` keeps it (the host's
 *  parsedModels, or a scoring thread's own). */
export function runnableModel(
  deps: Pick<Deps, "blobs">,
  version: ForecastModelVersion,
  cache: ByteBudgetCache<GbdtModel> | undefined,
): Promise<GbdtModel> {
  const parse = async () => {
    const text = await modelText(deps, version);
    return { value: await loadModel(text), bytes: text.length };
  };
  return cache ? cache.get(version.id, parse) : parse().then((parsed) => parsed.value);
}

export function requireAdmin(actor: Actor) {
  if (actor.role !== "admin") throw new Forbidden("Загружать и выбирать модели может только администратор");
}

export async function uploadForecastModel(
  deps: Deps,
  actor: Actor,
  method: ForecastMethod,
  file: { name: string; bytes: Uint8Array },
  description: string,
  activate: boolean,
): Promise<ForecastModelVersion> {
  requireAdmin(actor);
  if (file.bytes.byteLength > MAX_MODEL_BYTES) throw new TooLarge(`Файл модели больше ${fileSize(MAX_MODEL_BYTES)}`);
  return storeModelVersion(deps, actor, method, { bytes: file.bytes, fileName: file.name, description, activate });
}

/** A model file checked (parsed, test-predicted) and stored as the method's next version: a
 *  platform one, or the company's own with `company` (a trained model, with its `training`). */
export async function storeModelVersion(
  deps: Pick<Deps, "repos" | "blobs" | "clock" | "modelScoring">,
  actor: Pick<Actor, "id" | "email">,
  method: ForecastMethod,
  file: {
    bytes: Uint8Array;
    fileName: string;
    description: string;
    activate: boolean;
    company?: string;
    training?: ForecastModelVersion["training"];
    /** The history's own columns a trained model reads beyond x1 … x15. */
    features?: readonly string[];
  },
): Promise<ForecastModelVersion> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(file.bytes);
  } catch {
    throw new UnsupportedMedia("Модель должна быть текстовым файлом: XGBoost JSON или LightGBM text");
  }
  // Parsed off the request thread where the host scores models there (a 20 MB file takes seconds).
  const described = await (deps.modelScoring?.check(method, text, file.features) ?? checkModelFile(method, text, file.features));
  if (file.activate && described.horizon > 0) throw laggedNotActive();
  const versions = await deps.repos.forecastModels.list(method);
  const id = newId();
  const blobKey = `models/${method}/${id}`;
  await deps.blobs.put(blobKey, file.bytes, "application/octet-stream");
  const model: ForecastModelVersion = {
    method,
    id,
    version: (versions.at(-1)?.version ?? 0) + 1,
    ...described,
    blob_key: blobKey,
    file_bytes: file.bytes.byteLength,
    file_name: file.fileName.slice(0, LIMITS.name.file),
    description: file.description.trim().slice(0, LIMITS.text.modelDescription),
    is_active: false,
    uploaded_at: deps.clock.now().toISOString(),
    uploaded_by: actor.email,
    ...(file.company ? { company: file.company } : {}),
    ...(file.training ? { training: file.training } : {}),
    ...(file.features?.length ? { features: [...file.features] } : {}),
  };
  try {
    await deps.repos.forecastModels.create(model);
  } catch (error) {
    await deps.blobs.delete(blobKey);
    throw error;
  }
  const previous = file.activate ? versions.find((v) => v.is_active && v.company === file.company) : undefined;
  if (file.activate) {
    await deps.repos.forecastModels.activate(method, id);
    model.is_active = true;
  }
  // Uploaded and activated at once: the model active before is what the change replaced.
  await recordModelChange(deps, actor, file.training ? "forecast_model.train" : "forecast_model.upload", method, previous, model);
  return model;
}

export async function activateForecastModel(deps: Deps, actor: Actor, method: ForecastMethod, id: string) {
  const chosen = await deps.repos.forecastModels.get(method, id);
  // A company's own model is chosen by its own people; a platform model only by an administrator.
  if (!chosen || (chosen.company !== undefined && chosen.company !== actor.company)) {
    if (!chosen) requireAdmin(actor);
    throw new NotFound("Модель не найдена");
  }
  if (chosen.company === undefined) requireAdmin(actor);
  if (chosen.archived) throw invalidAt("is_active", "модель в архиве не используется в прогнозах: сначала верните ее из архива");
  if ((chosen.horizon ?? 0) > 0) throw laggedNotActive();
  const previous = (await deps.repos.forecastModels.list(method)).find((v) => v.is_active && v.company === chosen.company);
  // Choosing the model already in use changes nothing, and logs nothing.
  if (previous?.id === id) return chosen;
  await deps.repos.forecastModels.activate(method, id);
  const active = (await deps.repos.forecastModels.get(method, id))!;
  await recordModelChange(deps, actor, "forecast_model.activate", method, previous, active);
  return active;
}

/** What a company's people change of its own version (PATCH v1/forecast_models/{method}/{id}/own/). */
export interface OwnModelChange {
  is_active?: boolean;
  description?: string;
  archived?: boolean;
}

/**
 * A company's own (trained) version, changed by its people: used by the company's forecasts or not
 * (then the platform's active model serves them), described (renamed), archived or restored. An
 * archived version is never used: archiving the one in use returns the company to the platform's.
 * A platform version or another company's is 404, for an admin too (the platform's are chosen by
 * PATCH v1/forecast_models/{method}/{id}/). Recorded in the change log when anything changed.
 */
export async function changeOwnModel(
  deps: Deps,
  actor: Actor,
  method: ForecastMethod,
  id: string,
  change: OwnModelChange,
): Promise<ForecastModelVersion> {
  const model = await deps.repos.forecastModels.get(method, id);
  if (!model || model.company === undefined || model.company !== actor.company) throw new NotFound("Модель не найдена");
  const archived = change.archived ?? model.archived ?? false;
  if (change.is_active === true && (model.horizon ?? 0) > 0) throw laggedNotActive();
  if (change.is_active === true && archived) {
    throw invalidAt("is_active", "модель в архиве не используется в прогнозах: сначала верните ее из архива");
  }
  const description =
    change.description === undefined ? model.description : change.description.trim().slice(0, LIMITS.text.modelDescription);
  const isActive = archived ? false : (change.is_active ?? model.is_active);
  if (description === model.description && archived === (model.archived ?? false) && isActive === model.is_active) return model;
  // Chosen: the company's other versions stop serving (the repository's activate); the rest alone.
  if (isActive && !model.is_active) await deps.repos.forecastModels.activate(method, id);
  await deps.repos.forecastModels.update(method, id, { description, archived, is_active: isActive });
  const changed = (await deps.repos.forecastModels.get(method, id))!;
  await recordModelChange(deps, actor, "forecast_model.change", method, model, changed);
  return changed;
}

/** How the /admin change log names a model version, in the words of the models screen. */
/** Notes a change of a model version in the audit trail: the version as it is now, and the one it
 *  replaced or was before (null when none). */
function recordModelChange(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Pick<Actor, "id" | "email">,
  action: string,
  method: ForecastMethod,
  before: ForecastModelVersion | undefined,
  after: ForecastModelVersion,
) {
  return recordChange(deps, actor, {
    action,
    target_type: "forecast_model",
    target_id: `${method}/${after.id}`,
    target_label: modelLabel(after),
    before: before ? modelView(before) : null,
    after: modelView(after),
  });
}

const modelLabel = (model: ForecastModelVersion) =>
  `Модель прогноза ${FORECAST_METHOD_TITLES[model.method]}, версия ${model.version} (${model.file_name})`;

export function modelView(model: ForecastModelVersion) {
  const { blob_key: _key, ...visible } = model;
  return visible;
}
