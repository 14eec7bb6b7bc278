// methodology section 14, D81–D86: what an underground mine measured against what its
// inventory estimates, per mine and year (domain/inventory/measured-vs-estimated.ts).
import * as z from "zod";

const measuredSource = z.enum(["agk", "periods", "mixed"]).meta({
  description: "agk: months accepted from the АГК; periods: measurement periods entered or uploaded; mixed: both",
});

const measuredMonthSchema = z.object({
  month: z.string().meta({ description: "yyyy-MM" }),
  ch4_t: z.nullable(z.number()).meta({ description: "Measured gross CH4 of the month, t (its periods by days); null: none" }),
  source: z.nullable(measuredSource),
  completeness: z.nullable(z.number()).meta({
    description: "0–1: an accepted month's minutes (D62), else the hours its periods cover; the least of its points",
  }),
  points: z.array(
    z.object({
      point: z.string(),
      point_name: z.string(),
      ch4_t: z.number(),
      source: measuredSource,
      completeness: z.number(),
    }),
  ),
});

export const explanationKinds = [
  "month_missing",
  "substituted",
  "no_channels",
  "readings_moved",
  "drained_balance",
  "drained_net",
  "no_estimate",
  "counted_side",
  "months_not_ended",
  "scope",
  "factor",
] as const;

export const mineComparisonSchema = z.object({
  facility: z.string(),
  facility_name: z.string(),
  measured: z.object({
    ch4_t: z
      .number()
      .meta({ description: "D81: Σ CH4 of the counted measured calculations of the mine's shafts and drainage stations, gross" }),
    u_pct: z.number().meta({ description: "D82: Approach 1, % (95 %), as the year's uncertainty computes a gross line" }),
    calculations: z.array(z.string()),
    coverage: z
      .object({
        months: z.int().meta({ description: "D93: ended months in which every shaft and drainage station in service has a measurement" }),
        hours_pct: z.number().meta({ description: "The year's hours of its points in service that a measurement covers, %" }),
      })
      .meta({ description: "D93: how much of the year is measured" }),
    months: z.array(measuredMonthSchema),
  }),
  estimated: z.nullable(
    z.object({
      ch4_t: z.number(),
      u_pct: z.number(),
      method: z.string(),
      ef: z.nullable(z.number()).meta({ description: "The estimate's factor, m³ CH4/t (several: their coal-weighted mean)" }),
      role: z.enum(["counted", "alternative", "not_counted"]).meta({
        description:
          "D81: the counted estimate, else the one kept «для сравнения», else a primary one the year leaves out beside the measured months (a duplicate of them, D43): compared all the same, an explanation `counted_side` saying the measurement counts",
      }),
      calculations: z.array(z.string()),
      monthly_basis: z.enum(["coal", "days"]).meta({ description: "D85: the monthly share by coal mined in the month, or by days" }),
      months: z.array(z.object({ month: z.string(), ch4_t: z.number() })),
    }),
  ),
  coal_t: z.nullable(z.number()).meta({ description: "Coal mined, t: the estimate's activity data" }),
  scope: z.enum(["year", "measured_months"]).meta({
    description: "D93: the whole year (every month in scope), or the measured months against the estimate's share of them",
  }),
  compared: z
    .nullable(
      z.object({
        months: z.array(z.string()).meta({ description: "yyyy-MM, the months in scope" }),
        measured_ch4_t: z.number(),
        estimated_ch4_t: z.number().meta({ description: "The estimate's share of those months (D85: by coal, else by days)" }),
        coal_t: z.nullable(z.number()).meta({ description: "Coal of those months, t" }),
      }),
    )
    .meta({ description: "D93: what the difference, the bound and the implied factor are of; null: nothing to compare" }),
  difference_t: z.nullable(z.number()).meta({ description: "Measured − estimated over the compared months, t CH4" }),
  difference_pct: z.nullable(z.number()).meta({ description: "The difference over the estimate, %" }),
  combined_t: z.nullable(z.number()).meta({ description: "D84: √((U_m·M)² + (U_e·E)²)/100, t CH4" }),
  consistent: z
    .nullable(z.boolean())
    .meta({ description: "D84: |difference| ≤ combined_t; D93: null with fewer than 9 months in scope («судить рано»)" }),
  verdict_reason: z.nullable(z.string()).meta({ description: "D93: why there is no verdict: «судить рано: измерено N из 12 месяцев»" }),
  implied_ef_m3_per_t: z
    .nullable(z.number())
    .meta({ description: "D83, D93: measured × 1000 / (coal × 0,67) over the compared months, m³ CH4/t" }),
  density_kg_m3: z.number(),
  explanations: z.array(
    z.object({
      kind: z.enum(explanationKinds),
      text: z.string(),
      t: z.optional(z.number()).meta({ description: "t CH4 it carries, where known" }),
      month: z.optional(z.string()),
      point: z.optional(z.string()),
      calculation: z.optional(z.string()),
    }),
  ),
  explanation_totals: z
    .array(
      z.object({
        kind: z.enum(explanationKinds),
        count: z.int(),
        t: z.optional(z.number()).meta({ description: "Σ t CH4 of its lines that carry one" }),
        text: z.string().meta({ description: "«не измерено или не принято: 11 месяцев, ≈ 6 150 т CH4»" }),
      }),
    )
    .meta({ description: "D93: a total per kind, shown before the explanations' lines" }),
});

export const measuredVsEstimatedSchema = z.object({
  year: z.int(),
  approved_version: z.nullable(z.int()).meta({ description: "An approved year compares its version's calculations (D40)" }),
  facilities: z.array(mineComparisonSchema),
});

export type MeasuredVsEstimated = z.output<typeof measuredVsEstimatedSchema>;
