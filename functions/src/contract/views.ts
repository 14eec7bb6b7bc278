// The shapes of the API's answers that the domain builds and the web reads: each the output type of
// the schema its route declares (schemas/answers.ts), so a shape is written once.
import type * as z from "zod";
import type { CalculationType, REGISTRY } from "@core/registry";
import type {
  calculationSchema,
  coefficientSchema,
  dictionaryEntrySchema,
  documentSchema,
  evidenceSchema,
  forecastCalibrationSchema,
  forecastChartSchema,
  forecastRowsPageSchema,
  leftOutSchema,
  projectGraphsSchema,
  balanceRowSchema,
  downloadLinkSchema,
} from "./schemas/answers";
import type { exportJobSchema } from "./routes/export-jobs";

/** A dictionary item as the API returns it: plain numeric fields (docs/api.md) plus units and sources. */
export type DictionaryEntry = z.output<typeof dictionaryEntrySchema>;

/** An evidence file as users see it: without its storage key. */
export type EvidenceView = z.output<typeof evidenceSchema>;

/** A coefficient a calculation used, as the API shows it. */
export type CoefficientView = z.output<typeof coefficientSchema>;

/** One calculation as the API answers it (domain/calculations/calculations.ts calculationView): the common
 *  fields, the coefficients used and the flags, then the type's inputs and results side by side
 *  under their registry names, hence the index signature. */
export type CalculationView = z.output<typeof calculationSchema>;

type Registry = typeof REGISTRY;
type ValueOf<F> = F extends { readonly type: "number" }
  ? number
  : F extends { readonly type: "text" | "choice" }
    ? string
    : F extends { readonly type: "table"; readonly columns: infer Columns extends readonly { readonly name: string }[] }
      ? ByName<Columns>[]
      : unknown;
type ByName<Fields extends readonly { readonly name: string }[]> = { [F in Fields[number] as F["name"]]: ValueOf<F> };

/** One calculation of type T as the API answers it: CalculationView with the type's results and
 *  (when stored: an optional input may be absent) inputs and settings under their registry names,
 *  numbers, texts and tables' rows typed as the registry declares them (wasm-core/src/registry.ts). */
export type CalculationOf<T extends CalculationType> = CalculationView & { type: T } & ByName<Registry[T]["results"]> &
  Partial<ByName<Registry[T]["inputs"]>> &
  Partial<ByName<Registry[T]["settings"]>>;

/** A project's infographics (docs/user-guide.md, «Инфографика»): its charts' data in one answer. */
export type ProjectGraphs = z.output<typeof projectGraphsSchema>;
export type UndergroundBar = ProjectGraphs["underground"][number];
export type OpenMiningBar = ProjectGraphs["open_mining_co2"][number];
export type ForecastSeries = ProjectGraphs["regres_methane"][number];
/** D17: a facility-year's methane balance, t CH4. */
export type BalanceRowView = z.output<typeof balanceRowSchema>;

/** A calculation a total left out and why (D18). */
export type LeftOutView = z.output<typeof leftOutSchema>;

/** A normative document as the documents screen lists it. */
export type DocumentView = z.output<typeof documentSchema>;

/** A model version's calibration as GET v1/forecast_models/{id}/calibration/ answers it. */
export type ForecastCalibrationView = z.output<typeof forecastCalibrationSchema>;

/** A page of a forecast's rows (GET v1/regres_methane/{id}/rows/). */
export type ForecastRowsPage = z.output<typeof forecastRowsPageSchema>;

/** A forecast's history thinned for its chart (GET v1/regres_methane/{id}/chart/). */
export type ForecastChart = z.output<typeof forecastChartSchema>;

/** An export, a report passport or a training made as a job: its state as GET v1/export_jobs/{id}/
 *  answers it, and the answer that started it (with status_url). */
export type ExportJobView = z.output<typeof exportJobSchema>;

/** A file too large to answer inline: its short-lived address and name. */
export type DownloadLinkView = z.output<typeof downloadLinkSchema>;
