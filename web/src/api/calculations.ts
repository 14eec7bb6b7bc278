// Calculations over the API (docs/api.md): lists per project, type, archive flag and page; one
// calculation (single_calc); create, update and archive, as JSON or as a multipart form with a
// file; the regression's data_update; templates and uploaded source files. Dictionaries, the wasm
// core and the active forecast models the dialogs need are cached here too.
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import {
  api,
  ApiError,
  archiveListQuery,
  encoded,
  jsonBody,
  pageQuery,
  routePath,
  typedClient,
  type Client,
  type ListPage,
} from "./client";
import type { CalculationType, ForecastMethod, FormulaType } from "@core/registry";
import type { InventoryRole } from "@core/inventory";
import type {
  Dictionary as DictionaryAnswer,
  CalculationCreateBody,
  CalculationPatchBody,
  CalculationView,
  DictionaryEntry,
  ForecastCalibrationView,
  ForecastChart,
  ForecastModelVersion,
  ForecastRowsPage,
} from "@server/contract";
import { FORECAST_DATA_PAGE_MAX, LIMITS, MAX_TABULAR_UPLOAD_BYTES } from "@server/contract";

export type { ForecastCalibrationView, ForecastChart, ForecastRowsPage };
import { statisticsKey } from "./profile";
import { saveBlob } from "../shared/saveBlob";

export type { DictionaryEntry };

export const CALCULATIONS_PAGE_SIZE = LIMITS.page.calculations;

/** The API's flat calculation (docs/api.md) as the server builds it (calculationView): common fields,
 *  coefficients and flags, then the type's inputs, settings and results side by side under their
 *  registry names. Those flat inputs and results are why it keeps an index signature
 *  (`[field: string]: unknown`: the server's view spreads them in, and TypeScript drops the index
 *  signature of a spread record). The server stores `type` as a string; the web narrows it to the
 *  registry's types. */
export type Calculation = CalculationView & { type: CalculationType; [field: string]: unknown };

/** A coefficient a calculation used, as the API shows it (an evidence file without its storage key). */
export type CoefficientUse = CalculationView["coefficients"][string];

export type Dictionary = DictionaryAnswer;

/** {type}/, typed from the server's route declarations (functions/src/http/calculations.ts). */
const calculations = typedClient("calculations");
const projects = typedClient("projects");
const dictionaries = typedClient("dictionaries");
const forecastModels = typedClient("forecastModels");
const forecast = typedClient("forecast");

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The history last sent straight to storage for a preview: the dry run keeps the stored file, so
 *  the save of the same file names it again instead of sending its megabytes a second time; the
 *  save uses it up (docs/api.md «Large histories»). Known by the file's name, size, type and date. */
let previewed: { signature: string; key: Promise<string> } | undefined;

const signatureOf = (file: File) => JSON.stringify([file.name, file.size, file.type, file.lastModified]);

async function uploadHistory(file: File): Promise<string> {
  const contentType = /\.xlsx$/i.test(file.name) ? XLSX_TYPE : "text/csv";
  const grant = await forecast((c) => c["upload-url"].$post({ json: { content_type: contentType, size: file.size, name: file.name } }));
  await api.putFile(grant.url, file, grant.headers);
  return grant.file_upload;
}

/** A forecast's or a calibration's history over the request cap (a year of 10-minute readings) goes
 *  straight to storage (docs/api.md «Large histories»): POST forecast/upload-url/, the file PUT to
 *  the granted URL, and the form then names the stored file (file_upload) instead of carrying it.
 *  A preview's upload (`use: "preview"`) is kept for the save of the same file, which takes it
 *  (`reused` tells so: a save whose stored file has meanwhile expired sends it again, `fresh`).
 *  A smaller file stays in the form as it is. */
export async function directHistory(
  form: FormData,
  field: string,
  use: "preview" | "save" | "fresh" = "save",
): Promise<{ form: FormData; reused: boolean }> {
  const file = form.get(field);
  if (!(file instanceof File) || file.size <= MAX_TABULAR_UPLOAD_BYTES) return { form, reused: false };
  const signature = signatureOf(file);
  let reused = false;
  let key: Promise<string>;
  if (use !== "fresh" && previewed?.signature === signature) {
    key = previewed.key;
    reused = true;
  } else {
    key = uploadHistory(file);
    if (use === "preview") {
      const entry = { signature, key };
      previewed = entry;
      // A failed upload is not offered to the save.
      key.catch(() => {
        if (previewed === entry) previewed = undefined;
      });
    }
  }
  // The save uses the stored file up, whatever its answer.
  if (use !== "preview" && previewed?.signature === signature) previewed = undefined;
  const next = new FormData();
  for (const [name, value] of form.entries()) if (name !== field) next.append(name, value);
  next.set("file_upload", await key);
  next.set("file_upload_name", file.name);
  return { form: next, reused };
}

/** A calculation as the routes declare it (answers.ts calculationSchema: a loose object). */
type CalculationAnswer = InferResponseType<Client<"calculations">[":type"][":id"]["$get"], 200>;

/** The routes' loose calculation as the web's Calculation: the server builds every answer with
 *  calculationView, and only ever stores the registry's types. */
const asCalculation = (answer: CalculationAnswer) => answer as Calculation;

const calculationsKey = ["calculations"] as const;

/** The list of every type at once (GET all/, D18). */
export const ALL_TYPES = "all";
export type ListType = CalculationType | typeof ALL_TYPES;

export interface CalculationsView {
  projectId: string;
  type: ListType | undefined;
  archived: boolean;
  page: number;
  /** D18: only the calculations of this «Учет». */
  role?: InventoryRole;
}

export function useProject(projectId: string) {
  return useQuery({
    queryKey: ["projects", "detail", projectId],
    queryFn: () => projects((c) => c[":id"].$get({ param: { id: projectId } })),
  });
}

export function useCalculations({ projectId, type, archived, page, role }: CalculationsView) {
  return useQuery({
    queryKey: [...calculationsKey, type, "list", projectId, archived, page, role],
    // locked: why nothing of this type can be added to the project now (its year is frozen, D32).
    queryFn: async (): Promise<ListPage<Calculation> & { locked?: string }> => {
      const answer = await calculations((c) =>
        c[":type"].$get({
          param: { type: type! },
          query: {
            project: projectId,
            ...archiveListQuery(archived, page, CALCULATIONS_PAGE_SIZE),
            ...(role ? { role } : {}),
          },
        }),
      );
      return { ...answer, results: answer.results.map(asCalculation) };
    },
    enabled: type !== undefined,
    placeholderData: keepPreviousData,
    // docs/user-guide.md: choosing a type (again) reloads its list; a cached page shows meanwhile.
    staleTime: 0,
  });
}

/** One calculation as stored; the list row (same shape) shows meanwhile. A forecast's read answers
 *  its rows a page at a time (at most FORECAST_DATA_PAGE_MAX): its edit dialog edits them all, so
 *  the pages are read one after another. */
export function useCalculation(type: CalculationType, id: string, row?: Calculation, enabled = true) {
  return useQuery({
    queryKey: [...calculationsKey, type, "detail", id],
    queryFn: async () => {
      const read = async (offset: number) =>
        asCalculation(
          await calculations((c) =>
            c[":type"][":id"].single_calc[":n"].$get({
              param: { type, id, n: "1" },
              query: { limit: String(FORECAST_DATA_PAGE_MAX), offset: String(offset) },
            }),
          ),
        );
      const first = await read(0);
      if (!Array.isArray(first.data) || typeof first.data_count !== "number") return first;
      const data = [...first.data];
      while (data.length < first.data_count) {
        const page = await read(data.length);
        if (!Array.isArray(page.data) || page.data.length === 0) break;
        data.push(...page.data);
      }
      return { ...first, data };
    },
    enabled,
    placeholderData: row,
    // Edit must start from the stored version, never from a cached one.
    staleTime: 0,
  });
}

/** A page of a stored forecast's rows (GET regres_methane/{id}/rows/): the results table asks
 *  the page it shows, of every row or of those above the limit, never all 52 560 at once. */
export function useForecastRows(id: string, page: number, pageSize: number, above: boolean) {
  return useQuery({
    queryKey: [...calculationsKey, "regres_methane", "rows", id, page, pageSize, above],
    queryFn: async (): Promise<ForecastRowsPage> =>
      calculations((c) =>
        c[":type"][":id"].rows.$get({
          param: { type: "regres_methane", id },
          query: { ...pageQuery(page, pageSize), above: above ? "true" : "false" },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** A stored forecast's measured vs forecast values with the band, thinned by the server to at most
 *  2 000 points, and its row with the highest forecast (GET regres_methane/{id}/chart/). */
export function useForecastChart(id: string) {
  return useQuery({
    queryKey: [...calculationsKey, "regres_methane", "chart", id],
    queryFn: async (): Promise<ForecastChart> =>
      calculations((c) => c[":type"][":id"].chart.$get({ param: { type: "regres_methane", id } })),
  });
}

const dictionaryQuery = (name: string) => ({
  // Same key and shape as the reference-dictionary screen, so both share one cache entry.
  queryKey: ["dictionary", name] as const,
  queryFn: (): Promise<Dictionary> => dictionaries((c) => c[":name"].$get({ param: { name } })),
  staleTime: 10 * 60_000,
});

/** Several dictionaries at once: entries by name once all have loaded. */
export function useDictionaries(names: readonly string[]) {
  return useQueries({
    queries: names.map(dictionaryQuery),
    combine: (results) => ({
      data: results.every((r) => r.data) ? Object.fromEntries(results.map((r, i) => [names[i], r.data as Dictionary])) : undefined,
      error: results.find((r) => r.error)?.error as ApiError | undefined,
      refetch: () => Promise.all(results.map((r) => r.refetch())),
    }),
  });
}

function useInvalidateCalculations() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: calculationsKey });
    void client.invalidateQueries({ queryKey: statisticsKey });
  };
}

/** POST {type}/: the body is the type's schema of the contract (calculation-body.ts). */
export function useCreateCalculation<T extends FormulaType>(type: T) {
  const invalidate = useInvalidateCalculations();
  return useMutation<Calculation, ApiError, CalculationCreateBody<T>>({
    mutationFn: (body) => createCalculation(type, body),
    onSuccess: invalidate,
  });
}

/** The POST's other answer is a dry run's (?dry_run=1, UploadPreview.tsx), never asked for here. */
const createCalculation = async <T extends CalculationType>(type: T, body: CalculationCreateBody<T>) =>
  asCalculation(
    (await calculations<unknown>((c) => c[":type"].$post({ param: { type }, query: {} }, jsonBody(body)))) as CalculationAnswer,
  );

const patchCalculation = async <T extends CalculationType>(type: T, id: string, body: CalculationPatchBody<T>) =>
  asCalculation(await calculations((c) => c[":type"][":id"].$patch({ param: { type, id } }, jsonBody(body))));

/** Edit, archive and restore: one PATCH carrying the version we hold (409 when someone saved first). */
export function usePatchCalculation<T extends CalculationType>(type: T) {
  const invalidate = useInvalidateCalculations();
  return useMutation<Calculation, ApiError, { id: string; body: CalculationPatchBody<T> }>({
    mutationFn: ({ id, body }) => patchCalculation(type, id, body),
    // Reload on failure too: after a 409 the list must show the newer version.
    onSettled: invalidate,
  });
}

export const ARCHIVE = { is_deleted: true, is_active: false } as const;
export const RESTORE = { is_deleted: false, is_active: true } as const;

// ---- file-based types and the regression ---------------------------------------------------------

/** POST {type}/ or PATCH {type}/{id}/: where a calculation's form is sent. */
const calculationPath = (type: CalculationType, id?: string) =>
  routePath("calculations", (c) =>
    id ? c[":type"][":id"].$path({ param: encoded({ type, id }) }) : c[":type"].$path({ param: { type }, query: {} }),
  );

/** A create or an edit as JSON (the type's body of the contract), or a multipart form with its file. */
export type Body<T extends CalculationType = CalculationType> =
  | { kind: "create"; body: CalculationCreateBody<T> }
  | { kind: "patch"; body: CalculationPatchBody<T> }
  | { kind: "form"; form: FormData };

/** POST or PATCH of a body built by forecast.ts / series.ts: JSON, or multipart when a file is attached
 *  (a forecast's history larger than a request goes straight to storage first: directHistory). */
export async function sendBody<T extends CalculationType>(type: T, body: Body<T>, id?: string): Promise<Calculation> {
  if (body.kind === "form") {
    const method = id ? "PATCH" : "POST";
    if (type !== "regres_methane") return api.upload<Calculation>(method, await calculationPath(type, id), body.form);
    const sent = await directHistory(body.form, "file_data");
    try {
      return await api.upload<Calculation>(method, await calculationPath(type, id), sent.form);
    } catch (error) {
      // The preview's stored file is gone (a day unused): the file is sent again, once.
      if (!(sent.reused && error instanceof ApiError && error.status === 404)) throw error;
      return api.upload<Calculation>(method, await calculationPath(type, id), (await directHistory(body.form, "file_data", "fresh")).form);
    }
  }
  if (body.kind === "patch") return patchCalculation(type, id!, body.body);
  return createCalculation(type, body.body);
}

/** PATCH …/data_update/ (docs/api.md): the regression's rows with their ids; answers with the rows recomputed. */
export function sendDataUpdate(id: string, data: unknown[], version: number): Promise<Calculation> {
  return calculations((c) =>
    c[":type"][":id"].data_update.$patch({ param: { type: "regres_methane", id } }, jsonBody({ data, version })),
  ).then(asCalculation);
}

/** A save that may take several calls (the regression's PATCH then data_update): the lists reload after it, failed or not. */
export function useSaveCalculation() {
  const invalidate = useInvalidateCalculations();
  return useMutation<Calculation, ApiError, () => Promise<Calculation>>({
    mutationFn: (run) => run(),
    onSettled: invalidate,
  });
}

/** GET {type}/template/ (?format=csv, ?year= the project's reporting year, for the example's dates)
 *  saved under the server's name. */
export async function downloadTemplate(type: CalculationType, format: "xlsx" | "csv", year?: number): Promise<void> {
  const query = { ...(format === "csv" ? { format: "csv" } : {}), ...(year ? { year: String(year) } : {}) };
  const file = await api.download(await routePath("calculations", (c) => c[":type"].template.$path({ param: { type }, query })));
  saveBlob(file.blob, file.fileName ?? `template.${format}`);
}

/** GET {type}/{id}/file/: the uploaded source file of a calculation. */
export async function downloadSourceFile(calculation: Calculation): Promise<void> {
  const { type, id } = calculation;
  const file = await api.download(await routePath("calculations", (c) => c[":type"][":id"].file.$path({ param: encoded({ type, id }) })));
  const stored = calculation.file_data as { name?: string } | undefined;
  saveBlob(file.blob, file.fileName ?? stored?.name ?? "data");
}

export type { ForecastModelVersion };

export interface ForecastModels {
  /** `horizons`: the platform's default models ahead, one per horizon (XGBoost). */
  results: { method: ForecastMethod; versions: ForecastModelVersion[]; horizons?: ForecastModelVersion[] }[];
  count: number;
}

/** The models a forecast `horizon` minutes ahead may pick: the company's own of that horizon (not
 *  archived, newest first), then the platform's default one. */
export function horizonModels(models: ForecastModels | undefined, method: ForecastMethod, horizon: number): ForecastModelVersion[] {
  const entry = models?.results.find((r) => r.method === method);
  const own = (entry?.versions ?? []).filter((v) => v.company !== undefined && !v.archived && (v.horizon ?? 0) === horizon).reverse();
  return [...own, ...(entry?.horizons ?? []).filter((v) => v.horizon === horizon)];
}

/** GET forecast_models/: every version per method; the active one is what a new forecast uses. */
export function useForecastModels() {
  return useQuery({
    queryKey: ["forecast-models"],
    // The route declares a method as a string; the server lists FORECAST_METHODS only.
    queryFn: async () => (await forecastModels((c) => c.index.$get())) as ForecastModels,
    staleTime: 60_000,
  });
}

/** The version a new forecast of the company runs, as the server chooses it (domain/forecast/models.ts,
 *  activeModelVersion): the company's own chosen one (never an archived one), else the platform's. */
export function activeModel(models: ForecastModels | undefined, method: ForecastMethod): ForecastModelVersion | undefined {
  const versions = models?.results.find((r) => r.method === method)?.versions ?? [];
  const own = versions.filter((v) => v.is_active && !v.archived && v.company !== undefined).at(-1);
  return own ?? versions.filter((v) => v.is_active && v.company === undefined).at(-1);
}

export interface PreviewModel {
  /** X-Model-Id of the file: the version the preview predicts with. */
  id: string;
  version: number;
  library: string;
  libraryVersion: string;
  /** Predictions for row-major rows whose columns `order` names (NaN = missing), as the server's predict. */
  predict(rows: Float64Array, order: readonly string[]): Float64Array;
}

/**
 * The active model of a method, loaded into the browser's gbdt.wasm for the live preview: the file
 * is fetched once per model id (versions never change once stored), parsed and kept for the visit.
 * The GBDT entry is imported on first use, so only the forecast dialog downloads it.
 */
export function usePreviewModel(method: ForecastMethod, activeId: string | undefined) {
  return useQuery({
    queryKey: ["forecast-model-file", method, activeId],
    enabled: activeId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30 * 60_000,
    queryFn: async (): Promise<PreviewModel> => {
      // By id, not "active": the preview must run exactly the version the list calls active.
      const file = await api.download(await modelFilePath(method, activeId!));
      const id = file.headers.get("X-Model-Id") ?? "";
      const gbdt = await import("@core/gbdt/browser");
      const model = await gbdt.loadModel(await file.blob.text());
      return {
        id,
        version: Number(file.headers.get("X-Model-Version")),
        library: model.library,
        libraryVersion: model.version,
        predict: (rows, order) => gbdt.predict(model, rows, order),
      };
    },
  });
}

/** POST forecast_models/{id}/calibration/ for the user's company (docs/api.md): the history with
 *  its measured y as the form's `file`, or, larger than a request (a year of 10-minute readings),
 *  straight to storage first and named by `file_upload` (directHistory), as a forecast's is. */
export async function calibrateForCompany(modelId: string, file: File): Promise<ForecastCalibrationView> {
  const form = new FormData();
  form.set("for", "company");
  form.set("file", file, file.name);
  const sent = (await directHistory(form, "file", "fresh")).form;
  const path = await routePath("forecastModels", (c) => c[":id"].calibration.$path({ param: encoded({ id: modelId }) }));
  return api.upload<ForecastCalibrationView>("POST", path, sent);
}

/** A model version's calibration for the user's company (docs/api.md), or null when it has none. */
/** GET forecast_models/{id}/calibration/: null on 404 (the model is not calibrated). */
export function useForecastCalibration(modelId: string | undefined) {
  return useQuery({
    queryKey: ["forecast-calibration", modelId],
    enabled: modelId !== undefined,
    staleTime: 60_000,
    queryFn: async (): Promise<ForecastCalibrationView | null> => {
      try {
        return (await forecastModels((c) => c[":id"].calibration.$get({ param: { id: modelId! } }))) as ForecastCalibrationView;
      } catch (error) {
        if ((error as ApiError).status === 404) return null;
        throw error;
      }
    },
  });
}

/** GET forecast_models/{method}/{id}/file/: a stored model version's file. */
const modelFilePath = (method: ForecastMethod, id: string) =>
  routePath("forecastModels", (c) => c[":method"][":id"].file.$path({ param: encoded({ method, id }) }));

/**
 * A stored model version loaded into the browser's gbdt.wasm, with the core's what-if and air
 * needed beside it (the same code the API runs): fetched once per version id, which never changes.
 */
export function useForecastModelCore(method: ForecastMethod | undefined, modelId: string | undefined) {
  return useQuery({
    queryKey: ["forecast-model-core", method, modelId],
    enabled: method !== undefined && modelId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30 * 60_000,
    queryFn: async () => {
      const file = await api.download(await modelFilePath(method!, modelId!));
      const gbdt = await import("@core/gbdt/browser");
      return { gbdt, model: await gbdt.loadModel(await file.blob.text()) };
    },
  });
}
