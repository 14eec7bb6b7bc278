// Calculations (docs/api.md; docs/methodology.md, Calculation types): create, list, read, update and archive, each
// stored with everything needed to audit it later (methodology D9): its inputs, results, every
// coefficient with the dictionary entry and version it came from, the GWP set, the methodology
// version and, for file-based types, the uploaded file. The numbers come from wasm-core only.
import type { SensitivityParams } from "@core/emissions";
import { evaluateFormula } from "../calculation-formula";
import {
  METHANE_BASES,
  CALCULATION_TYPES,
  METHODOLOGY_VERSION,
  REGISTRY,
  isCalculationType,
  type CalculationType,
  type FormulaType,
  type MethaneBasis,
} from "@core/registry";
import { plainReference } from "../../dictionaries/reference-data";
import { checkedActor, withActor, type Actor, type Deps, type PendingActor } from "../context";
import { inventoryRoleFor, roleOf, type InventoryRole } from "@core/inventory";
import { periodProblem } from "@core/source-periods";
import { basisOf } from "@core/methane-balance";
import { MINE_GAS_FUEL_ENTRY } from "@core/types/fields";
import { coefficientFlags, gwpNotInForce, resolveCoefficients, type CoefficientRequest } from "../reference/coefficients";
import { Conflict, fromCore, Invalid, invalidAt, NotFound } from "../errors";
import { newId } from "../ids";
import { type CapPlace, takePlace, withPlace } from "../caps";
import { getProject } from "./projects";
import { guardFrozen, startedGuard } from "../inventory/freeze";
import { handOverYearWrite } from "../inventory/writes";
import { gwpSetInForce } from "../reference/gwp-years";
import { oneDictionaryCheck } from "../reference/dictionaries";
import { damagedRefusal, getCalculation, getStoredCalculation, supportedType } from "../calculation-lookup";
import { damageOf, STALE_CALCULATION } from "../calculation-shape";
import { deleteUnnamedEvidence, evidenceView } from "./evidence";
import type { CalculationView, CoefficientView } from "../../contract/views";
import { fillingBlanksReader, sensitivityReader } from "./series";
import { calculationPoint, drainagePoints, withPointWrite } from "../company/emission-points";
import { measurementNotes, periodsRequest, periodsResults, requestedPeriods } from "./measured-periods";
import { MEASUREMENT_NOTE_NAMES } from "@core/measured-release";
import { enteredRequest } from "./entered-units";
import { checkInputs, checkResults, withProjectLines } from "../inventory/magnitudes";
import {
  forecastFromColumns,
  forecastFromFile,
  forecastRowsFromFile,
  forecastRowsFromJson,
  forecastRun,
  forecastModelId,
  forecastSettings,
  runForecast,
} from "../forecast/forecast";
import { takePreviewColumns, uploadDigest } from "../forecast/preview-columns";
import { forecastRowsOf, storeForecastJson, storeForecastRows, type ForecastKeptRow } from "../forecast/rows";
import { forecastMethod } from "../forecast/models";
import { forecastRowBytesWindow } from "../forecast/results";
import { FORECAST_DATA_PAGE_MAX } from "../../contract/schemas/common";
import { HEAVY_FORECAST_ROWS, HEAVY_UPLOAD_BYTES, MAX_FORECASTS_PER_PROJECT, heavyWork } from "../heavy-work";
import { detectFormat, readUpload, type UploadedFile } from "../../files/tabular";
import { TABULAR_CONTENT_TYPES } from "../../contract/schemas/uploads";
import { calculationNameSchema } from "../../contract/schemas/calculation-body";
import type { StoredCalculation, CoefficientUse, Page, PageRequest, ProjectState, StoredFile } from "../../ports";
import type { Project } from "../../contract/schemas/project";
import { LIMITS } from "../../contract/schemas/limits";

type FileType = "filling_blanks" | "sensitivity";
export { getCalculation, getStoredCalculation, supportedType };

type SupportedType = CalculationType;

const isFileType = (type: CalculationType): type is FileType => REGISTRY[type].kind === "file";

export interface CalculationInput extends CoefficientRequest {
  name?: unknown;
  project?: unknown;
  inventory_role?: InventoryRole;
  /** D19: the part of the project's dates it covers; null or absent: the project's dates. */
  period?: unknown;
  /** D25: the emission point of the project's facility; null or absent: the facility as a whole. */
  point?: unknown;
  /** D35: the drainage points whose gas a flare, boiler or engine burns; null or absent: the facility's. */
  drainage_points?: unknown;
  file?: UploadedFile;
}

export interface CalculationPatch extends CoefficientRequest {
  name?: unknown;
  inventory_role?: InventoryRole;
  /** D19: a new period; null: the project's dates again. */
  period?: unknown;
  /** D25: another emission point of the project's facility; null: the facility as a whole. */
  point?: unknown;
  /** D35: other drainage points; null: the facility's. */
  drainage_points?: unknown;
  is_deleted?: boolean;
  is_active?: boolean;
  version?: number;
  file?: UploadedFile;
}

/** D15: only a type the inventory sums has a role in it. */
/** D15, D22: the role stored, in one call into the core (inventoryRoleFor). */
function inventoryRoleOf(type: SupportedType, role: InventoryRole | undefined): InventoryRole | undefined {
  try {
    return inventoryRoleFor(type, role);
  } catch (error) {
    throw fromCore(error);
  }
}

/** D19: the period as stored (undefined: the project's dates), within the project's dates. */
function calculationPeriod(value: unknown, project: { start_date: string; end_date: string }): StoredCalculation["period"] {
  if (value === undefined || value === null) return undefined;
  const problem = periodProblem(value, project);
  if (problem) throw invalidAt(problem.field, problem.message);
  const { from, to } = value as { from: string; to: string };
  return { from, to };
}

/** D28: a boiler or engine takes the gas composition only for drained gas (the mine-gas entry,
 *  whose factor is ρ CO2), and W_CO2 only with the W_CH4 it goes with. */
function checkComposition(type: SupportedType, values: Record<string, unknown>, uses: Record<string, CoefficientUse>): void {
  if (type !== "disposal_co2_stat_sources") return;
  const given = (name: string) => typeof values[name] === "number" && (values[name] as number) > 0;
  if (!given("w_ch4") && !given("w_co2")) return;
  const ef = uses.ef;
  if (ef?.dictionary !== "get_disposal_co2_stat_sources" || ef.item_id !== MINE_GAS_FUEL_ENTRY) {
    throw invalidAt("w_ch4", "состав газа указывают только для топлива «Каптированный шахтный метан»");
  }
  if (!given("w_ch4")) throw invalidAt("w_ch4", "укажите содержание CH4 в смеси вместе с содержанием CO2");
}

/** D17: the basis of an underground mine methane figure; kept on an edit that does not send it. */
function methaneBasis(type: SupportedType, sent: unknown, previous?: StoredCalculation): MethaneBasis | undefined {
  const fallback = basisOf(type, previous?.inputs ?? {});
  if (sent === undefined || sent === null) return fallback;
  if (!fallback) throw invalidAt("basis", "валовый или чистый выброс указывают только для расчетов метана подземной добычи");
  if (!METHANE_BASES.includes(sent as MethaneBasis)) throw invalidAt("basis", "ожидается gross (валовый выброс) или net (чистый выброс)");
  return sent as MethaneBasis;
}

function calculationName(value: unknown): string {
  const name = calculationNameSchema.safeParse(value);
  if (!name.success) throw invalidAt("name", name.error.issues[0].message);
  return name.data;
}

function stored(values: Record<string, unknown>): Record<string, number | string> {
  return Object.fromEntries(
    Object.entries(values).filter((e): e is [string, number | string] => typeof e[1] === "number" || typeof e[1] === "string"),
  );
}

function textInput(values: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const value = values[field];
  if (value === undefined || value === null || (typeof value === "string" && !value.trim())) {
    if (required) throw invalidAt(field, "укажите название столбца");
    return undefined;
  }
  if (typeof value !== "string") throw invalidAt(field, "ожидается текст");
  return value.trim();
}

async function computeFile(
  type: FileType,
  name: string,
  values: Record<string, unknown>,
  file: UploadedFile,
): Promise<Record<string, unknown>> {
  if (type === "filling_blanks") {
    const nameValue = textInput(values, "name_value", true)!;
    const nameElement = textInput(values, "name_element", false);
    return { elements: await readUpload(file, fillingBlanksReader(nameValue, nameElement, name)) };
  }
  const params = Object.fromEntries(REGISTRY.sensitivity.settings.map((s) => [s.name, values[s.name]]));
  try {
    return { elements: await readUpload(file, sensitivityReader(params as Partial<SensitivityParams>, name)) };
  } catch (error) {
    throw fromCore(error);
  }
}

function fileKey(actor: Actor, calculationId: string, format: string): string {
  return `uploads/${actor.company}/${calculationId}/${newId()}.${format}`;
}

async function keepFile(deps: Deps, actor: Actor, calculationId: string, file: UploadedFile): Promise<StoredFile> {
  const format = detectFormat(file);
  const key = fileKey(actor, calculationId, format);
  await deps.blobs.put(key, file.bytes, TABULAR_CONTENT_TYPES[format]);
  return {
    key,
    name: file.name.slice(0, LIMITS.name.file),
    size: file.bytes.byteLength,
    format,
    uploaded_at: deps.clock.now().toISOString(),
  };
}

async function storedUpload(deps: Deps, calculation: StoredCalculation): Promise<UploadedFile> {
  const blob = calculation.file && (await deps.blobs.get(calculation.file.key));
  if (!calculation.file || !blob) throw new Conflict("Исходный файл расчета недоступен: загрузите файл заново");
  return { name: calculation.file.name, bytes: blob.body };
}

interface Evaluated {
  inputs: Record<string, number | string>;
  /** D13: values as typed in another unit than the stored one (undefined: none, or no longer). */
  entered?: StoredCalculation["entered"];
  results: Record<string, unknown>;
  coefficients: Record<string, CoefficientUse>;
  gwp_in_force?: StoredCalculation["gwp_in_force"];
}

interface Target {
  company: string;
  id: string;
  name: string;
  /** The project's reporting year: picks the GWP set in force (D12). */
  reporting_year: number;
  /** The project's dates: measurement periods lie within them (D14). */
  dates?: { start: string; end: string };
}

const projectDates = (project: { start_date: string; end_date: string }) => ({ start: project.start_date, end: project.end_date });

const usesGwp = (type: SupportedType) => [...REGISTRY[type].inputs, ...REGISTRY[type].settings].some((f) => f.name === "gwp_ch4");

async function evaluate(
  deps: Deps,
  type: SupportedType,
  target: Target,
  request: CoefficientRequest,
  file: UploadedFile | undefined,
  previous?: StoredCalculation,
): Promise<Evaluated> {
  if (REGISTRY[type].kind === "forecast") return evaluateForecast(deps, target, request, file, previous);
  // The GWP set in force and the coefficients: one check that the cached dictionaries are current.
  deps = oneDictionaryCheck(deps);
  const name = target.name;
  // D12: without gwp_set (and nothing kept from before), the set in force for the project's year.
  const inForce = usesGwp(type) ? await gwpSetInForce(deps, target.reporting_year) : undefined;
  const gwp_in_force = inForce ? { reporting_year: target.reporting_year, set: inForce.id } : undefined;
  if (inForce && request.gwp_set === undefined && !previous?.coefficients.gwp_ch4) request = { ...request, gwp_set: inForce.id };
  // D13: values typed in the user's unit become the canonical ones, kept beside them.
  const { request: canonical, entered } = enteredRequest(REGISTRY[type], request, previous);
  request = canonical;
  // D14: underground by measurement periods (typed or a file) instead of one volume.
  const periods = await requestedPeriods(type, request.values, file, previous, target.dates);
  if (periods) request = periodsRequest(request, periods);
  const { values, uses } = await resolveCoefficients(deps, REGISTRY[type], request, previous?.coefficients, target.reporting_year);
  checkComposition(type, values, uses);
  const basis = methaneBasis(type, request.values.basis, previous);
  if (basis) values.basis = basis;
  // 8.1: the frequency and instruments of a measured release, for the report passport.
  Object.assign(values, measurementNotes(type, request.values));
  const def = REGISTRY[type];
  if (periods) {
    const results = periodsResults(periods, values, uses);
    // The periods' sum is the volume: bounded as one typed would be.
    checkInputs(def, values);
    checkResults(def, results);
    return { inputs: stored(values), entered: undefined, results, coefficients: uses, gwp_in_force };
  }
  if (isFileType(type)) {
    checkInputs(def, values, entered);
    for (const field of REGISTRY[type].inputs) {
      if (field.type === "text") values[field.name] = request.values[field.name];
    }
    if (!file) throw invalidAt("file_data", "загрузите файл .xlsx или .csv");
    return { inputs: stored(values), results: await computeFile(type, name, values, file), coefficients: uses, gwp_in_force };
  }
  // One call into the core: the bounds (once, in the units typed), the formula and the results' bounds.
  const results = evaluateFormula(type as FormulaType, values, entered);
  return { inputs: stored(values), entered, results, coefficients: uses, gwp_in_force };
}

/** regres_methane: rows from a file, from the manual table, or (on an edit that changes only the
 *  method) the rows already stored; predicted by the active model of the method. */
async function evaluateForecast(
  deps: Deps,
  target: Target,
  request: CoefficientRequest,
  file: UploadedFile | undefined,
  previous?: StoredCalculation,
): Promise<Evaluated> {
  const method = forecastMethod(request.values.method);
  // The level, limit and warning level an edit leaves out stay as they were.
  const chosen = { ...previous?.inputs, ...request.values };
  const settings = forecastSettings(chosen);
  const modelId = forecastModelId(chosen);
  const run = await forecastRun(deps, target.company, method, settings, modelId);
  const inputs = { method, ...settings, ...(modelId ? { model_id: modelId } : {}) };
  // A stored upload whose preview this process read: its columns, the file not read again (they hold
  // x1 … x15 alone: a model that reads named features reads the file).
  const named = run.version.features ?? [];
  const upload = file?.upload;
  const columns =
    upload && named.length === 0
      ? takePreviewColumns(deps, target.company, upload, () => uploadDigest(file.bytes), deps.clock.now().getTime())
      : undefined;
  if (columns || (file && file.bytes.byteLength > HEAVY_UPLOAD_BYTES)) {
    // A large upload's parse and prediction run off the request thread where the host can (the
    // local server's worker threads, README › Security «Пределы»); the rows come back as JSON.
    const computed = columns
      ? await (deps.uploadFiles?.forecastFromColumns(columns, run) ?? forecastFromColumns(deps, columns, run))
      : await (deps.uploadFiles?.forecastFromFile(file!, run) ?? forecastFromFile(deps, file!, run));
    const dataKey = await storeForecastJson(deps, target.company, target.id, computed.json);
    return { inputs, results: { ...computed.summary, data_key: dataKey }, coefficients: {} };
  }
  let rows: ForecastKeptRow[];
  if (file) rows = await forecastRowsFromFile(file, named, run.version);
  else if (request.values.data !== undefined) rows = forecastRowsFromJson(request.values.data, named);
  else if (typeof previous?.results.data_key === "string") rows = await forecastRowsOf(deps, previous);
  else throw invalidAt("data", "добавьте строки данных или загрузите файл (file_data)");
  const forecast = await runForecast(deps, run, rows);
  const dataKey = await storeForecastRows(deps, target.company, target.id, forecast.rows);
  return { inputs, results: { ...forecast.summary, data_key: dataKey }, coefficients: {} };
}

/** The write is stored with the year its lock counted it begun: the table's stream ends it. */
function handedOver(actor: Actor, guarded: { year?: number }) {
  if (guarded.year !== undefined) handOverYearWrite(actor.company, guarded.year);
}

export async function createCalculation(
  deps: Deps,
  user: Actor | PendingActor,
  typeName: string,
  input: CalculationInput,
): Promise<StoredCalculation> {
  const type = supportedType(typeName);
  const name = calculationName(input.name);
  if (typeof input.project !== "string" || !input.project) throw invalidAt("project", "укажите проект");
  const who = "actor" in user ? user : checkedActor(user);
  // The cached dictionaries are checked while the project is read (a forecast uses none).
  if (REGISTRY[type].kind !== "forecast") deps = oneDictionaryCheck(deps);
  // The signed-in user (when authentication left it to this read) is read with the project: one BatchGet.
  const [actor, project] = await withActor(who, getProject(deps, who, input.project));
  if (project.is_deleted) throw new Conflict("Проект находится в архиве: восстановите его, чтобы добавлять расчеты");
  // The freeze guard's conditional update goes side by side with the write's counter (the
  // repository awaits both before it writes): one round trip for the two.
  const guarded = startedGuard(guardFrozen(deps, actor, { kind: "calculation", after: { type }, project }));

  const inventoryRole = inventoryRoleOf(type, input.inventory_role);
  const period = calculationPeriod(input.period, project);
  const point = await calculationPoint(deps, actor, type, input.point, project.facility);
  const drainage = await drainagePoints(deps, actor, type, input.drainage_points, project.facility);
  const id = newId();
  const write = async (): Promise<StoredCalculation> => {
    const target = { company: actor.company, id, name, reporting_year: project.reporting_year, dates: projectDates(project) };
    const evaluated = await boundedEvaluation(deps, actor, type, input.file, input.values, undefined, () =>
      evaluate(deps, type, target, input, input.file),
    );
    // The file is kept only once it has been read successfully: a rejected upload stores nothing.
    let file: StoredCalculation["file"];
    try {
      file = input.file ? await keepFile(deps, actor, id, input.file) : undefined;
    } catch (error) {
      if (typeof evaluated.results.data_key === "string") await deps.blobs.delete(evaluated.results.data_key);
      throw error;
    }
    const now = deps.clock.now().toISOString();
    const calculation: StoredCalculation = {
      id,
      type,
      project: project.id,
      company: actor.company,
      name,
      is_active: true,
      is_deleted: false,
      version: 1,
      ...(inventoryRole ? { inventory_role: inventoryRole } : {}),
      ...(period ? { period } : {}),
      ...(point ? { point } : {}),
      ...(drainage ? { drainage_points: drainage } : {}),
      ...evaluated,
      ...(file ? { file } : {}),
      methodology_version: METHODOLOGY_VERSION,
      created_at: now,
      created_by: actor.email,
      updated_at: now,
      updated_by: actor.email,
    };
    try {
      const create = () =>
        withProjectLines(deps, actor.company, calculation, undefined, guarded.promise, (guard) =>
          deps.repos.calculations.create(calculation, guard),
        );
      await (point || drainage ? withPointWrite(deps, actor, project, create) : create());
      handedOver(actor, await guarded.promise);
    } catch (error) {
      await discardWrittenBlobs(deps, calculation);
      throw error;
    }
    return calculation;
  };
  return guarded.settledBefore(() => (REGISTRY[type].kind === "forecast" ? withForecastPlace(deps, actor, project.id, write) : write()));
}

/** An upload's parse and a forecast of many rows (up to 100 000 through the model) are heavy
 *  work: at most a few in flight per user and per company (heavy-work.ts). */
function boundedEvaluation(
  deps: Deps,
  actor: Actor,
  type: SupportedType,
  file: UploadedFile | undefined,
  values: Record<string, unknown>,
  previous: StoredCalculation | undefined,
  evaluation: () => Promise<Evaluated>,
): Promise<Evaluated> {
  const forecastRows = Array.isArray(values.data) ? values.data.length : Number(previous?.results.rows ?? 0);
  const heavy = file !== undefined || (REGISTRY[type].kind === "forecast" && forecastRows > HEAVY_FORECAST_ROWS);
  return heavy ? heavyWork(deps, actor, evaluation) : evaluation();
}

const forecastCap = (projectId: string) => `FORECASTS#PROJECT#${projectId}`;

/** docs/security.md: a project holds at most MAX_FORECASTS_PER_PROJECT active forecasts, so its
 *  detailed export and charts stay within their bounds. A place is taken (one conditional update)
 *  before a forecast is created or restored, given back when that write fails or it is archived. */
const forecastPlace = (deps: Deps, actor: Actor, projectId: string): CapPlace => ({
  cap: forecastCap(projectId),
  limit: MAX_FORECASTS_PER_PROJECT,
  count: async () => (await deps.repos.calculations.listAllByProject(actor.company, projectId, "regres_methane", "active")).length,
  refusal: () =>
    new Invalid(
      `В проекте не более ${MAX_FORECASTS_PER_PROJECT} действующих прогнозов метана (по 100 000 строк): создайте новый проект или переместите прогноз в архив`,
    ),
});

async function takeForecastPlace(deps: Deps, actor: Actor, projectId: string): Promise<void> {
  await takePlace(deps, actor.company, forecastPlace(deps, actor, projectId));
}

const giveForecastPlace = (deps: Deps, actor: Actor, projectId: string) => deps.repos.caps.give(actor.company, forecastCap(projectId));

/** `write` of a new forecast inside a place of the project's cap. */
const withForecastPlace = <T>(deps: Deps, actor: Actor, projectId: string, write: () => Promise<T>): Promise<T> =>
  withPlace(deps, actor.company, forecastPlace(deps, actor, projectId), write);

/** The blobs an evaluation wrote for `next` (its upload, its forecast rows) that `current` does
 *  not refer to: a refused or failed write removes them, so a refused request stores nothing. */
async function discardWrittenBlobs(deps: Deps, next: StoredCalculation, current?: StoredCalculation): Promise<void> {
  const written = [next.file?.key, next.results.data_key].filter((key): key is string => typeof key === "string");
  const kept = new Set([current?.file?.key, current?.results.data_key]);
  await Promise.all(written.filter((key) => !kept.has(key)).map((key) => deps.blobs.delete(key)));
}

/** The uploaded source file of a file-based calculation, for download. */
export async function getCalculationFile(deps: Deps, actor: Actor, typeName: string, id: string) {
  const calculation = await getCalculation(deps, actor, typeName, id);
  if (!calculation.file) throw new NotFound("У расчета нет исходного файла");
  const blob = await deps.blobs.get(calculation.file.key);
  if (!blob) throw new NotFound("Исходный файл расчета не найден");
  return { name: calculation.file.name, ...blob };
}

/** The list's type standing for every type at once (a project's calculations across types). */
export const ALL_TYPES = "all";

export async function listCalculations(
  deps: Deps,
  actor: Actor,
  typeName: string,
  projectId: string,
  state: ProjectState,
  page: PageRequest,
  /** D18: only the calculations of this «Учет» (an analysis type has none and is left out). */
  role?: InventoryRole,
): Promise<Page<StoredCalculation>> {
  if (typeName === ALL_TYPES || role !== undefined) return listFiltered(deps, actor, { typeName, projectId, state, page, role });
  const type = supportedType(typeName);
  // The project only has to be the caller's: checked while the page is read.
  const [, listed] = await Promise.all([
    getProject(deps, actor, projectId),
    deps.repos.calculations.list(actor.company, projectId, type, state, page),
  ]);
  return listed;
}

/** Across types or by role: the project's lists read whole, merged newest first, then paged. A
 *  project holds tens of calculations, not thousands (forecast rows live in the blob store). */
async function listFiltered(
  deps: Deps,
  actor: Actor,
  {
    typeName,
    projectId,
    state,
    page,
    role,
  }: { typeName: string; projectId: string; state: ProjectState; page: PageRequest; role?: InventoryRole },
): Promise<Page<StoredCalculation>> {
  const types = typeName === ALL_TYPES ? CALCULATION_TYPES : [supportedType(typeName)];
  await getProject(deps, actor, projectId);
  const lists = await Promise.all(types.map((type) => deps.repos.calculations.listAllByProject(actor.company, projectId, type, state)));
  const matching = lists
    .flat()
    .filter((c) => role === undefined || roleOf(c) === role)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
  return { results: matching.slice(page.offset, page.offset + page.limit), count: matching.length };
}

const changeableFields = (type: SupportedType): Set<string> =>
  new Set([...REGISTRY[type].inputs, ...REGISTRY[type].settings].map((f) => f.name as string));

/** The answer's read-only fields an edit sent back (contract withoutAnswerFields): left as they are,
 *  but a change of what cannot change is refused, another company's project as not found. */
export async function checkReadOnlyFields(
  deps: Deps,
  actor: Actor,
  current: StoredCalculation,
  sent: Record<string, unknown>,
): Promise<void> {
  if (sent.project !== undefined && sent.project !== current.project) {
    await getProject(deps, actor, String(sent.project));
    throw invalidAt("project", "расчет не переносится в другой проект — создайте его в нужном проекте");
  }
  if (sent.id !== undefined && sent.id !== current.id) throw invalidAt("id", "идентификатор расчета не меняется");
  if (sent.type !== undefined && sent.type !== current.type) {
    throw invalidAt("type", "тип расчета не меняется — создайте расчет нужного типа");
  }
}

/** Update (recomputes when an input, coefficient or file changes), soft delete and restore. The
 *  handler passes the calculation when it has read it already. */
export async function patchCalculation(
  deps: Deps,
  actor: Actor,
  typeName: string,
  id: string,
  patch: CalculationPatch,
  loaded?: StoredCalculation,
): Promise<StoredCalculation> {
  const type = supportedType(typeName);
  const current = loaded ?? (await getStoredCalculation(deps, actor, type, id));
  if (patch.version !== undefined && patch.version !== current.version) {
    throw new Conflict(STALE_CALCULATION);
  }
  if (damageOf(current) !== undefined) return archiveDamaged(deps, actor, current, patch);
  const changesValues =
    Object.keys(patch.values).some((k) => changeableFields(type).has(k) && patch.values[k] !== current.inputs[k]) ||
    patch.dictionary_items !== undefined ||
    patch.gwp_set !== undefined ||
    patch.uncertainty !== undefined ||
    patch.justifications !== undefined ||
    patch.values.entered !== undefined ||
    (patch.values.basis !== undefined && patch.values.basis !== current.inputs.basis) ||
    MEASUREMENT_NOTE_NAMES.some((k) => patch.values[k] !== undefined && patch.values[k] !== current.inputs[k]) ||
    patch.file !== undefined;
  // The project is read once; the cached dictionaries are checked while it is read (an edit that
  // recomputes reads them).
  if (changesValues && REGISTRY[type].kind !== "forecast") deps = oneDictionaryCheck(deps);
  const project = await getProject(deps, actor, current.project);
  const guarded = startedGuard(guardFrozen(deps, actor, { kind: "calculation", before: current, after: current, project }));
  return guarded.settledBefore(() => patchGuarded(deps, actor, type, current, patch, changesValues, project, guarded.promise));
}

async function patchGuarded(
  deps: Deps,
  actor: Actor,
  type: SupportedType,
  current: StoredCalculation,
  patch: CalculationPatch,
  changesValues: boolean,
  project: Project,
  guard: Promise<{ year?: number }>,
): Promise<StoredCalculation> {
  const renames = patch.name !== undefined && patch.name !== current.name;
  if (!REGISTRY[type].editable && (changesValues || renames)) {
    throw new Invalid("Расчет этого типа нельзя изменить: создайте новый");
  }

  const forecast = REGISTRY[type].kind === "forecast";
  let restoredForecast = false;
  let next: StoredCalculation = { ...current };
  if (patch.inventory_role !== undefined) next.inventory_role = inventoryRoleOf(type, patch.inventory_role);
  if (patch.period !== undefined) {
    const period = calculationPeriod(patch.period, project);
    if (period) next.period = period;
    else delete next.period;
  }
  if (patch.point !== undefined) {
    const point = await calculationPoint(deps, actor, type, patch.point, project.facility, current.point);
    if (point) next.point = point;
    else delete next.point;
  }
  if (patch.drainage_points !== undefined) {
    const drainage = await drainagePoints(deps, actor, type, patch.drainage_points, project.facility, current.drainage_points);
    if (drainage) next.drainage_points = drainage;
    else delete next.drainage_points;
  }
  try {
    if (renames) next.name = calculationName(patch.name);
    // A file-based calculation is recomputed on a rename too: its element names follow the name.
    if (changesValues || (renames && isFileType(type))) {
      const values = { ...current.inputs, ...patch.values };
      const file = patch.file ?? (isFileType(type) ? await storedUpload(deps, current) : undefined);
      const target = {
        company: actor.company,
        id: current.id,
        name: next.name,
        reporting_year: project.reporting_year,
        dates: projectDates(project),
      };
      const evaluated = await boundedEvaluation(deps, actor, type, file, values, current, () =>
        evaluate(deps, type, target, { ...patch, values }, file, current),
      );
      next = { ...next, ...evaluated, methodology_version: METHODOLOGY_VERSION };
      if (patch.file) next.file = await keepFile(deps, actor, current.id, patch.file);
    }
    const isDeleted = patch.is_deleted ?? (patch.is_active !== undefined ? !patch.is_active : current.is_deleted);
    if (!isDeleted && current.is_deleted) {
      if (project.is_deleted) throw new Conflict("Проект находится в архиве: сначала восстановите проект");
      if (forecast) {
        await takeForecastPlace(deps, actor, project.id);
        restoredForecast = true;
      }
    }
    next = {
      ...next,
      is_deleted: isDeleted,
      is_active: !isDeleted,
      version: current.version + 1,
      updated_at: deps.clock.now().toISOString(),
      updated_by: actor.email,
    };
    const replace = () =>
      withProjectLines(deps, actor.company, next, current, guard, (lines) => deps.repos.calculations.replace(next, current.version, lines));
    // D25: a point newly named, or named again by a restore, is of the project's facility now.
    const namesPoint = next.point !== undefined && !next.is_deleted && (patch.point !== undefined || current.is_deleted);
    if (namesPoint && patch.point === undefined) await calculationPoint(deps, actor, type, next.point, project.facility, next.point);
    // D35: so are drainage points newly named, or named again by a restore.
    const namesDrainage =
      next.drainage_points !== undefined && !next.is_deleted && (patch.drainage_points !== undefined || current.is_deleted);
    if (namesDrainage && patch.drainage_points === undefined) {
      await drainagePoints(deps, actor, type, next.drainage_points, project.facility, next.drainage_points);
    }
    await (namesPoint || namesDrainage ? withPointWrite(deps, actor, project, replace) : replace());
    handedOver(actor, await guard);
  } catch (error) {
    if (restoredForecast) await giveForecastPlace(deps, actor, current.project);
    await discardWrittenBlobs(deps, next, current);
    throw error;
  }
  if (forecast && next.is_deleted && !current.is_deleted) await giveForecastPlace(deps, actor, current.project);
  // D10: an evidence file the saved calculation no longer names (the value is no longer custom).
  await deleteUnnamedEvidence(deps, current, next);
  // The replaced upload is kept: the previous versions of the calculation referred to it.
  return next;
}

/** A stored calculation of the wrong shape (domain/calculation-shape.ts) can be archived and nothing
 *  else: its inputs cannot be recomputed nor its figures read. Under the year's write guard, as any
 *  calculation write. */
async function archiveDamaged(deps: Deps, actor: Actor, current: StoredCalculation, patch: CalculationPatch): Promise<StoredCalculation> {
  const archives = patch.is_deleted === true || (patch.is_deleted === undefined && patch.is_active === false);
  if (!archives) throw damagedRefusal(current, damageOf(current)!);
  if (current.is_deleted) return current;
  const next: StoredCalculation = {
    ...current,
    is_deleted: true,
    is_active: false,
    version: current.version + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  if (typeof current.project !== "string") {
    await deps.repos.calculations.replace(next, current.version);
    return next;
  }
  const project = await getProject(deps, actor, current.project);
  const guarded = startedGuard(guardFrozen(deps, actor, { kind: "calculation", before: current, after: next, project }));
  return guarded.settledBefore(async () => {
    await deps.repos.calculations.replace(next, current.version, guarded.promise);
    handedOver(actor, await guarded.promise);
    return next;
  });
}

/** One calculation's read as the API answers it, as JSON bytes: a forecast's page of rows goes in
 *  as its stored bytes (forecast/rows.ts rowBytesBetween), so reading 1 000 rows neither parses nor
 *  serialises them again — a page of 20 columns costs the server about 1 ms instead of 16. */
export async function calculationReadJson(
  deps: Deps,
  actor: Actor,
  typeName: string,
  id: string,
  page: { limit: number; offset: number } = { limit: FORECAST_DATA_PAGE_MAX, offset: 0 },
): Promise<Uint8Array> {
  const calculation = await getCalculation(deps, actor, typeName, id);
  if (typeof calculation.results.data_key !== "string") return new TextEncoder().encode(JSON.stringify(calculationView(calculation)));
  const { rows, count } = await forecastRowBytesWindow(deps, actor, calculation, page.offset, Math.min(page.limit, FORECAST_DATA_PAGE_MAX));
  // A mark no stored text can hold (a new id each read) stands where the rows go.
  const mark = `rows-${newId()}`;
  const text = JSON.stringify(calculationView({ ...calculation, results: { ...calculation.results, data: mark, data_count: count } }));
  const at = text.indexOf(`"${mark}"`);
  const encoder = new TextEncoder();
  const [before, after] = [encoder.encode(`${text.slice(0, at)}[`), encoder.encode(`]${text.slice(at + mark.length + 2)}`)];
  const body = new Uint8Array(before.length + rows.length + after.length);
  body.set(before);
  body.set(rows, before.length);
  body.set(after, before.length + rows.length);
  return body;
}

/** The API's flat shape (docs/api.md): common fields, inputs and results side by side, plus the audit. */
export function calculationView(calculation: StoredCalculation): CalculationView {
  const { inputs, results, company: _company, file, coefficients, ...common } = calculation;
  // One of the wrong shape (archived, or sent back to archive it) shows what it has in common only.
  if (damageOf(calculation) !== undefined) return { ...common, inventory_role: null, coefficients: {}, flags: [] } as never;
  const { data_key: _dataKey, ...visibleResults } = results;
  // D12: a GWP set other than the one in force for the project's year is kept but flagged.
  const notInForce = gwpNotInForce(calculation);
  // D17: a calculation stored before the basis existed reads as its type's default.
  const basis = basisOf(calculation.type, inputs);
  return {
    ...common,
    ...(basis ? { basis } : {}),
    inventory_role: roleOf(calculation),
    ...(notInForce !== undefined ? { gwp_not_in_force: notInForce } : {}),
    coefficients: plainCoefficients(coefficients),
    // D10: custom coefficients without a justification or outside their plausible band.
    flags: isCalculationType(calculation.type) ? coefficientFlags(REGISTRY[calculation.type], coefficients) : [],
    ...inputs,
    ...visibleResults,
    ...(file ? { file_data: { name: file.name, size: file.size, format: file.format, uploaded_at: file.uploaded_at } } : {}),
  };
}

/** Older calculations recorded their references with provenance tags; users read them plain.
 *  An evidence file is shown without its storage key. */
function plainCoefficients(coefficients: Record<string, CoefficientUse>): Record<string, CoefficientView> {
  return Object.fromEntries(
    Object.entries(coefficients ?? {}).map(([name, use]) => [
      name,
      {
        ...use,
        ...(use.reference ? { reference: plainReference(use.reference) } : {}),
        ...(use.evidence ? { evidence: evidenceView(use.evidence) } : {}),
      },
    ]),
  );
}
