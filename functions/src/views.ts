// The shapes of the API's answers that the domain builds and the web reads: types only, with no
// import that reaches the domain, the adapters or Node, so the web's type check (web/tsconfig.json)
// takes them through contracts.ts without the server's implementation.
import type { LeftOutReason } from "@core/inventory";
import type { ValueUncertainty, Verification } from "./dictionaries/reference-data";
import type { Calculation, CoefficientUse, NormativeDocument } from "./ports";
import type { Project } from "./schemas/project";

/** A dictionary item as the API returns it: plain numeric fields (SPEC 3) plus units and sources. */
export interface DictionaryEntry {
  id: number;
  name: string;
  [field: string]: unknown;
  units: Record<string, string>;
  sources: Record<string, string>;
  /** How far each default is checked against its document; only the admin screen shows it. */
  verification?: Record<string, Verification>;
  /** The values' uncertainties (methodology-uncertainty.md), source as users read it; a field
   *  without one is taken as exact. */
  uncertainty?: Record<string, ValueUncertainty>;
  version: number;
  effective_from: string;
}

/** An evidence file as users see it: without its storage key. */
export type EvidenceView = Omit<NonNullable<CoefficientUse["evidence"]>, "key">;

/** A coefficient a calculation used, as the API shows it. */
export type CoefficientView = Omit<CoefficientUse, "evidence"> & { evidence?: EvidenceView };

/** One calculation as the API answers it (SPEC 3, domain/calculations.ts calculationView): the
 *  common fields, the coefficients used and the flags, then the type's inputs and results side by
 *  side under their registry names, hence the index signature. */
export type CalculationView = Omit<Calculation, "inputs" | "results" | "company" | "file" | "coefficients"> & {
  /** D12: the GWP set stored is not the one in force for the project's year. */
  gwp_not_in_force?: boolean;
  coefficients: Record<string, CoefficientView>;
  /** D10: custom coefficients without a justification or outside their plausible band. */
  flags: string[];
  file_data?: { name: string; size: number; format: string; uploaded_at: string };
  /** D20 (lists only): why it cannot be changed now, its year being approved. */
  locked?: string;
  [field: string]: unknown;
};

export interface UndergroundBar {
  id: string;
  name: string;
  res_co2: number;
  res_ch4: number;
}

export interface OpenMiningBar {
  id: string;
  name: string;
  /** The chart sorts by ef compared as a 6-decimal string (3.149000 diesel, 3.026000 fuel). */
  ef: number;
  res_co2: number;
}

export interface ForecastSeries {
  id: string;
  name: string;
  /** Day number (1-based row position) and the forecast methane concentration, %. */
  points: Array<{ day: number; result: number }>;
}

/** A project's infographics (SPEC 2 «Инфографика»): its charts' data in one answer. */
export interface ProjectGraphs {
  project: Project;
  underground: UndergroundBar[];
  open_mining_co2: OpenMiningBar[];
  regres_methane: ForecastSeries[];
  /** D18: what the bars leave out («Не учтены: 1 альтернативный расчет»), null: nothing. */
  not_counted: string | null;
  left_out: LeftOutView[];
}

/** A calculation a total left out and why (D18). */
export interface LeftOutView {
  id: string;
  type: string;
  name: string;
  reason: LeftOutReason;
}

/** A normative document as the documents screen lists it. */
export interface DocumentView {
  id: string;
  title: string;
  number: string;
  date: string;
  kind: NormativeDocument["kind"];
  kind_label: string;
  issuer: string;
  source_url: string;
  source_label: string;
  /** Shipped with the product (catalogue.json) rather than added by an admin. */
  catalogue: boolean;
  file: { name: string; size: number; uploaded_at: string } | null;
  /** Same-origin API path; null until a PDF is uploaded (the page then links to source_url). */
  download_url: string | null;
  is_deleted: boolean;
  version: number;
  updated_at: string;
}
