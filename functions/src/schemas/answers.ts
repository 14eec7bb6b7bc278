// The shapes of the API's answers, as the OpenAPI document states them (http/openapi-routes.ts).
// The routes declare them, so the type checker holds each handler's answer to its schema.
import * as z from "zod";

export const tokensSchema = z.object({
  access: z.string(),
  /** Absent when a refresh token is sent again within its grace period (a second tab). */
  refresh: z.optional(z.string()),
});

export const companySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  ogrn: z.string(),
  okved: z.string(),
  inn: z.optional(z.string()),
  kpp: z.optional(z.string()),
  region: z.string(),
  postal_address: z.string(),
  version: z.optional(z.int()),
  updated_at: z.optional(z.string()),
});

/** GET users/get_me/: the user without the password hash, with the company's requisites. */
export const signedInUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(["staff", "admin"]),
  is_active: z.boolean(),
  created_at: z.string(),
  session_generation: z.optional(z.int()),
  company: companySchema,
});

export const statisticsSchema = z.object({
  projects: z.object({ active: z.int(), archived: z.int() }),
  calculations: z.record(z.string(), z.int()).meta({ description: "Calculations that are not deleted, per type" }),
  total_co2e: z.number().meta({ description: "Their CO2-equivalent results summed, t" }),
  computed_at: z.string().meta({ description: "When a change was last added to the figures (ISO 8601)" }),
});

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  start_date: z.iso.date(),
  end_date: z.iso.date(),
  reporting_year: z.optional(z.int().meta({ description: "Picks the GWP set in force (methodology D12); default and for older projects: the end date's year." })),
  facility: z.optional(z.nullable(z.string())),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.int(),
  company: z.string(),
  user: z.string(),
  is_active: z.boolean(),
  is_deleted: z.boolean(),
  version: z.int(),
});

const results = z.record(z.string(), z.number());

/** GET and POST projects/{id}/gwp_recompute/. */
export const gwpRecomputeSchema = z.object({
  reporting_year: z.int(),
  gwp_set: z.object({ id: z.int(), name: z.string(), gwp_ch4: z.number() }),
  results: z.array(
    z.object({
      type: z.string(),
      id: z.string(),
      name: z.string(),
      version: z.int(),
      before: z.object({ gwp_set: z.optional(z.int()), gwp_ch4: z.number(), results }),
      after: z.object({ gwp_set: z.int(), gwp_ch4: z.number(), results }),
    }),
  ),
  count: z.int(),
});

/** GET projects/{id}/graphs/: everything the infographics screen draws. */
export const projectGraphsSchema = z.object({
  project: projectSchema,
  underground: z.array(z.object({ id: z.string(), name: z.string(), res_co2: z.number(), res_ch4: z.number() })),
  open_mining_co2: z.array(z.object({ id: z.string(), name: z.string(), ef: z.number(), res_co2: z.number() })),
  regres_methane: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      points: z.array(z.object({ day: z.int(), result: z.number() })).meta({ description: "Day (1-based row) and forecast methane, %" }),
    }),
  ),
});

const inputUncertainty = z.object({
  lower_pct: z.number(),
  upper_pct: z.number(),
  distribution: z.enum(["normal", "lognormal", "triangular", "uniform"]),
  source: z.optional(z.string()),
  origin: z.optional(z.enum(["dictionary", "activity", "user"])),
});

/** GET projects/{id}/uncertainty/: co2e = Π(common) × Σ terms, per calculation. */
export const uncertaintyModelSchema = z.object({
  project: z.object({ id: z.string(), name: z.string(), is_deleted: z.boolean() }),
  calculations: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      name: z.string(),
      co2e: z.number(),
      inputs: z.array(
        z.object({
          name: z.string(),
          label: z.string(),
          value: z.number(),
          unit: z.string(),
          uncertainty: inputUncertainty,
          share: z.string().meta({ description: "Inputs with the same share are one Monte Carlo draw" }),
        }),
      ),
      common: z.array(z.string()),
      terms: z.array(z.object({ value: z.number(), inputs: z.array(z.string()) })),
    }),
  ),
  count: z.int(),
});

/** A file too large to answer inline: a short-lived storage address the client navigates to. */
export const downloadLinkSchema = z.object({ download_url: z.string(), file_name: z.string() });
