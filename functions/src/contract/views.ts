// The shapes of the API's answers that the domain builds and the web reads: each the output type of
// the schema its route declares (schemas/answers.ts), so a shape is written once.
import type * as z from "zod";
import type {
  calculationSchema,
  coefficientSchema,
  dictionaryEntrySchema,
  documentSchema,
  evidenceSchema,
  leftOutSchema,
  projectGraphsSchema,
} from "./schemas/answers";

/** A dictionary item as the API returns it: plain numeric fields (docs/api.md) plus units and sources. */
export type DictionaryEntry = z.output<typeof dictionaryEntrySchema>;

/** An evidence file as users see it: without its storage key. */
export type EvidenceView = z.output<typeof evidenceSchema>;

/** A coefficient a calculation used, as the API shows it. */
export type CoefficientView = z.output<typeof coefficientSchema>;

/** One calculation as the API answers it (domain/calculations.ts calculationView): the common
 *  fields, the coefficients used and the flags, then the type's inputs and results side by side
 *  under their registry names, hence the index signature. */
export type CalculationView = z.output<typeof calculationSchema>;

/** A project's infographics (docs/user-guide.md, «Инфографика»): its charts' data in one answer. */
export type ProjectGraphs = z.output<typeof projectGraphsSchema>;
export type UndergroundBar = ProjectGraphs["underground"][number];
export type OpenMiningBar = ProjectGraphs["open_mining_co2"][number];
export type ForecastSeries = ProjectGraphs["regres_methane"][number];

/** A calculation a total left out and why (D18). */
export type LeftOutView = z.output<typeof leftOutSchema>;

/** A normative document as the documents screen lists it. */
export type DocumentView = z.output<typeof documentSchema>;
