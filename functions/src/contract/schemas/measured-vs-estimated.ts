// Issue 109 (methodology section 14, D81–D86): what an underground mine measured against what its
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
    months: z.array(measuredMonthSchema),
  }),
  estimated: z.nullable(
    z.object({
      ch4_t: z.number(),
      u_pct: z.number(),
      method: z.string(),
      ef: z.nullable(z.number()).meta({ description: "The estimate's factor, m³ CH4/t (several: their coal-weighted mean)" }),
      role: z.enum(["counted", "alternative"]).meta({ description: "D81: the counted estimate, else the one kept «для сравнения»" }),
      calculations: z.array(z.string()),
      monthly_basis: z.enum(["coal", "days"]).meta({ description: "D85: the monthly share by coal mined in the month, or by days" }),
      months: z.array(z.object({ month: z.string(), ch4_t: z.number() })),
    }),
  ),
  coal_t: z.nullable(z.number()).meta({ description: "Coal mined, t: the estimate's activity data" }),
  difference_t: z.nullable(z.number()).meta({ description: "Measured − estimated, t CH4" }),
  difference_pct: z.nullable(z.number()).meta({ description: "The difference over the estimate, %" }),
  combined_t: z.nullable(z.number()).meta({ description: "D84: √((U_m·M)² + (U_e·E)²)/100, t CH4" }),
  consistent: z.nullable(z.boolean()).meta({ description: "D84: |difference| ≤ combined_t" }),
  implied_ef_m3_per_t: z.nullable(z.number()).meta({ description: "D83: measured × 1000 / (coal × 0,67), m³ CH4/t" }),
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
});

export const measuredVsEstimatedSchema = z.object({
  year: z.int(),
  approved_version: z.nullable(z.int()).meta({ description: "An approved year compares its version's calculations (D40)" }),
  facilities: z.array(mineComparisonSchema),
});

export type MeasuredVsEstimated = z.output<typeof measuredVsEstimatedSchema>;
