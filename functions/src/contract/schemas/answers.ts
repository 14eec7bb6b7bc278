// The shapes of the API's answers, as the OpenAPI document states them (http/openapi-routes.ts).
// The routes declare them, so the type checker holds each handler's answer to its schema.
import * as z from "zod";
import { COEFFICIENT_SOURCE_KINDS } from "@core/coefficient-sources";
import {
  EMISSION_POINT_KINDS,
  FACILITY_KINDS,
  INVENTORY_ROLES,
  ORDER_371_CATEGORIES,
  STATUS_LABELS,
  type EmissionPointKind,
  type FacilityKind,
  type InventoryRole,
  type InventoryStatus,
  type Order371Category,
} from "@core/inventory";
import { FORECAST_METHODS } from "@core/registry";
import { DISTRIBUTIONS, UNCERTAINTY_ORIGINS } from "@core/uncertainty-core";
import { MEDIA_KINDS, ROLES } from "./common";
import { MINE_DUTIES } from "@core/sensor-checks";
import { DOCUMENT_KINDS, type DocumentKind } from "./document";

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
  responsible_name: z.optional(z.string()),
  responsible_position: z.optional(z.string()),
  responsible_phone: z.optional(z.string()),
  responsible_email: z.optional(z.string()),
  time_zone: z.optional(
    z.string().meta({ description: "IANA zone whose calendar dates the company's documents print; absent: Asia/Novokuznetsk" }),
  ),
  version: z.optional(z.int()),
  created_at: z.optional(z.string()),
  updated_at: z.optional(z.string()),
});

/** GET users/get_me/: the user without the password hash, with the company's requisites. */
export const signedInUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  position: z.optional(z.string()),
  role: z.enum(ROLES),
  duty: z.optional(z.nullable(z.enum(MINE_DUTIES))).meta({
    description: "the duty whose confirmation of a gassing book entry the user gives; or whose signature of a sensor check",
  }),
  is_active: z.boolean(),
  created_at: z.string(),
  session_generation: z.optional(z.int()),
  company: companySchema,
});

/** v1/inventory/years/ (one year). */
export const yearTotalsSchema = z.object({
  year: z.int(),
  total_t_co2e: z.number(),
  by_category: z.record(z.string(), z.number()).meta({ description: "t CO2-eq by Order 371 category (1, 2, 3, 18)" }),
  not_counted: z.string().meta({ description: "D18: what the year's total left out, in Russian; empty: nothing" }),
  approved_version: z.optional(z.int().meta({ description: "D32: the year stands approved; its figures are this version's" })),
  live_if_reopened_t_co2e: z.optional(
    z.number().meta({ description: "D32: an approved year's live recomputation, what it would be if reopened" }),
  ),
});

// v1/inventory/trend/: the company's years side by side, each its own inventory's figures.

/** A year's line of the trend, by IPCC code and gas, as reported and as comparable. */
const trendLine = {
  category: z.int(),
  category_label: z.string(),
  ipcc_code: z.string(),
  ipcc_label: z.string(),
  gas: z.enum(["CH4", "CO2"]),
  t: z.number(),
  t_co2e: z.number(),
};
const coalFields = {
  underground_t: z.optional(z.number().meta({ description: "8.1: coal mined underground, t (the mining lines' volume)" })),
  open_pit_t: z.optional(z.number().meta({ description: "8.1: coal mined in open pits, t" })),
};
const trendChange = z.object({
  from_year: z.int(),
  t_co2e: z.number(),
  pct: z.optional(z.number().meta({ description: "absent when the year before totalled 0" })),
});
const factorChange = z.object({
  calculation: z.string(),
  calculation_name: z.string(),
  coefficient: z.string(),
  coefficient_label: z.string(),
  item_name: z.string().meta({ description: "The dictionary entry" }),
  before: z.number().meta({ description: "The value the calculation was computed with" }),
  after: z.number().meta({ description: "The entry's value for the comparison year" }),
});
export const trendSchema = z.object({
  from: z.int(),
  to: z.int(),
  facility: z.nullable(z.string()),
  comparable: z
    .object({ year: z.int(), gwp: z.object({ name: z.string(), gwp_ch4: z.number() }) })
    .meta({ description: "The conditions every year's `comparable` is brought to: the year's GWP set and factor versions" }),
  years: z.array(
    z.object({
      year: z.int(),
      status: z.string().meta({ description: "The year's review status" }),
      draft: z.boolean().meta({ description: "Not approved: live figures, «черновик»" }),
      approved_version: z.nullable(z.int()).meta({ description: "D32: the approved version whose figures these are" }),
      gwp: z.object({ name: z.string(), gwp_ch4: z.number() }),
      total_t_co2e: z.number(),
      lines: z.array(z.object(trendLine)),
      categories: z.array(z.object({ category: z.int(), category_label: z.string(), t_co2e: z.number() })),
      facilities: z.array(
        z.object({
          id: z.nullable(z.string()),
          name: z.string(),
          t_co2e: z.number(),
          ...coalFields,
          intensity: z.optional(z.number().meta({ description: "t CO2-eq per t of coal mined" })),
        }),
      ),
      coal: z.object({ ...coalFields, total_t: z.optional(z.number()) }),
      intensity: z.optional(
        z.object({ total: z.optional(z.number()), underground: z.optional(z.number()), open_pit: z.optional(z.number()) }).meta({
          description: "t CO2-eq per t of coal mined: the company's, and the facilities mining underground and in open pits apart",
        }),
      ),
      methane: z.optional(
        z.object({
          drained_t: z.number().meta({ description: "t CH4 captured at drainage stations (D25)" }),
          destroyed_t: z.number().meta({ description: "t CH4 destroyed by flares and use (D17)" }),
          destroyed_share_pct: z.optional(z.number().meta({ description: "destroyed as % of drained" })),
        }),
      ),
      change: z.optional(trendChange),
      method_changes: z.optional(
        z
          .array(
            z.object({
              category: z.int(),
              ipcc_code: z.string(),
              gas: z.enum(["CH4", "CO2"]),
              before: z.array(z.string()).meta({ description: "The line's methods the year before" }),
              after: z.array(z.string()).meta({ description: "Its methods this year" }),
            }),
          )
          .meta({ description: "Lines both years report whose method changed (a tier, or measured → estimated)" }),
      ),
      comparable: z
        .object({
          gwp_changed: z.boolean().meta({ description: "The year's own GWP set differs from the comparison's" }),
          total_t_co2e: z.number(),
          lines: z.array(
            z.object({
              ...trendLine,
              changes: z.optional(z.array(factorChange).meta({ description: "The factors recomputed on this line" })),
            }),
          ),
          categories: z.array(z.object({ category: z.int(), category_label: z.string(), t_co2e: z.number() })),
          facilities: z.array(
            z.object({ id: z.nullable(z.string()), name: z.string(), t_co2e: z.number(), intensity: z.optional(z.number()) }),
          ),
          intensity: z.optional(
            z.object({ total: z.optional(z.number()), underground: z.optional(z.number()), open_pit: z.optional(z.number()) }),
          ),
          changes: z.array(factorChange).meta({ description: "Every dictionary factor of the year's calculations recomputed" }),
          change: z.optional(trendChange),
        })
        .meta({
          description:
            "«В сопоставимых условиях»: the year's counted calculations at the comparison's GWP set, each dictionary factor at " +
            "its value for the comparison year (changed ones recomputed by the core from the stored inputs), folded as the inventory folds",
        }),
    }),
  ),
});

export const statisticsSchema = z.object({
  projects: z.object({ active: z.int(), archived: z.int() }),
  calculations: z.record(z.string(), z.int()).meta({ description: "Calculations that are not deleted, per type" }),
  years: z.array(yearTotalsSchema).meta({
    description:
      "D26: per reporting year, the inventory's total (primary calculations of projects not archived, netted, CH4 at the year's GWP); never summed across years",
  }),
  not_counted: z.string().meta({ description: "D18: what the totals left out, in Russian; empty: nothing" }),
  computed_at: z.string().meta({ description: "When a change was last added to the figures (ISO 8601)" }),
});

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  start_date: z.iso.date(),
  end_date: z.iso.date(),
  reporting_year: z.int().meta({
    description: "Picks the GWP set in force (methodology D12); when none was given, and for older projects, the end date's year.",
  }),
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

/** D18: what a total left out, as a sentence («Не учтены: 2 альтернативных расчета») and one by one. */
export const leftOutSchema = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  reason: z.enum(["other_project", "other_year", "other_facility", "archived", "analysis", "alternative", "duplicate"]),
});
const notCountedFields = {
  not_counted: z.nullable(z.string()).meta({ description: "What the total left out, in Russian; null: nothing" }),
  left_out: z.array(leftOutSchema),
};

/** One facility-year's methane balance, t CH4 (the inventory lists one per facility; the infographics show their project's). */
export const balanceRowSchema = z
  .object({
    facility: z.nullable(z.string()),
    facility_name: z.string(),
    released_t: z.number(),
    destroyed_t: z.number(),
    emitted_t: z.number(),
    gross_t: z.number(),
    // Absent from versions approved before they were kept apart.
    mining_gross_t: z.optional(
      z.number().meta({ description: "The gross mining figures, without post-mining: what the netting comes off" }),
    ),
    post_mining_t: z.optional(z.number().meta({ description: "Post-mining methane, never netted" })),
    net_t: z.number(),
    flared_t: z.number(),
    used_t: z.number(),
    vented_t: z.number(),
    netted_t: z.number(),
    // Absent from versions approved before the slip was kept apart.
    slip_t: z.optional(z.number()),
    co2_gross_t: z.optional(z.number().meta({ description: "D28: t CO2 of the gross measured mining figures" })),
    co2_netted_t: z.optional(
      z.number().meta({
        description: "D28: t CO2 the burnt drained gas carried, reported with the combustion lines and taken off 1.B.1.a.i.1's CO2",
      }),
    ),
    by_point: z.optional(
      z
        .array(
          z.object({
            point: z.nullable(z.string()),
            gross_t: z.number(),
            netted_t: z.number(),
            co2_gross_t: z.number(),
            co2_netted_t: z.number(),
          }),
        )
        .meta({
          description:
            "D35: per mining point (null: calculations naming none), t: its gross figures and what the netting took off them for the gas it fed to flares, boilers and engines — never off a ventilation shaft. Absent from versions approved before it was kept",
        }),
    ),
    // D25: present when the facility's calculations name emission points.
    ventilation_t: z.optional(z.number()),
    drained_t: z.optional(z.number()),
    drained_vented_t: z.optional(z.number()),
    streams: z.optional(
      z.array(
        z.object({
          point: z.string(),
          name: z.string(),
          kind: z.enum(Object.keys(EMISSION_POINT_KINDS) as [EmissionPointKind, ...EmissionPointKind[]]),
          route: z.enum(["atmosphere", "drained", "flared", "used", "mine"]),
          t: z.number(),
          to_air_t: z.optional(
            z.number().meta({ description: "D35, a mining stream: what of it reached the air (its figure less what was taken off it)" }),
          ),
        }),
      ),
    ),
  })
  .meta({
    description:
      "D17: per facility, t CH4: released (Σ gross + Σ net, and the gas sent to flares and use when every mining figure is net), destroyed (sent to flares and use less the unburnt slip), vented (mining gas not sent), emitted = vented + slip + post-mining; D25 by stream where calculations name points: ventilation_t (to the atmosphere), drained_t (captured at drainage stations), drained_vented_t (drained and not destroyed: each drainage point's figure less what the netting took off it), streams per point; netted_t (destroyed + slip_t, the flares' unburnt CH4 their own 1.B.1.a.i.4 lines report) came off 1.B.1.a.i.1",
  });

/** GET projects/{id}/graphs/: everything the infographics screen draws. */
export const projectGraphsSchema = z.object({
  project: projectSchema,
  underground: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      res_co2: z.number(),
      res_ch4: z.number(),
      subtracted_ch4: z.number().meta({
        description:
          "D17, D26: t CH4 the facility-year's netting takes off this gross figure («− направлено на сжигание (факел, котельная)»); 0: none",
      }),
    }),
  ),
  open_mining_co2: z.array(z.object({ id: z.string(), name: z.string(), ef: z.number(), res_co2: z.number() })),
  open_mining_ch4: z.array(z.object({ id: z.string(), name: z.string(), res_ch4: z.number() })),
  monthly_ch4: z
    .array(
      z.object({
        point: z.nullable(z.string()),
        name: z.string(),
        kind: z.enum(Object.keys(EMISSION_POINT_KINDS) as [EmissionPointKind, ...EmissionPointKind[]]),
        months: z.array(z.object({ month: z.string().meta({ description: "YYYY-MM" }), t: z.number() })),
      }),
    )
    .meta({
      description:
        "D14, D25: t CH4 each emission point released by month, from the measured periods of the project's counted calculations (a period across months shared by its days); null point: the facility as a whole",
    }),
  balance: z.optional(
    balanceRowSchema.meta({ description: "D17: the methane balance of the project's facility-year; absent: it has none" }),
  ),
  regres_methane: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      points: z.array(z.object({ day: z.int(), result: z.number() })).meta({ description: "Day (1-based row) and forecast methane, %" }),
    }),
  ),
  totals: z
    .object({
      gross_t_co2e: z.number(),
      subtracted_t_co2e: z.number(),
      t_co2e: z.number(),
      gwp: z.string().meta({ description: "The GWP set applied: the reporting year's" }),
    })
    .meta({
      description:
        "D26: the project's counted calculations of every inventory type at its reporting year's GWP, what its facility-year's netting takes off them and the netted total (its part of the facility's inventory total)",
    }),
  ...notCountedFields,
});

const distribution = z.enum(DISTRIBUTIONS);
const origin = z.enum(UNCERTAINTY_ORIGINS);

const inputUncertainty = z.object({
  lower_pct: z.number(),
  upper_pct: z.number(),
  distribution,
  source: z.optional(z.string()),
  origin: z.optional(origin),
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
          share: z.string().meta({
            description:
              "Inputs with the same share are one Monte Carlo draw and one Approach 1 group (D91): a dictionary entry at one version, a value typed as the mine's own with the same value, unit, uncertainty and justification or evidence file (D107), one emission point's instruments, else the calculation's own",
          }),
          entry: z.optional(z.string().meta({ description: "The dictionary entry's name, where the input is one" })),
          typed: z.optional(
            z
              .object({ justification: z.optional(z.string()), evidence: z.optional(z.string()) })
              .meta({ description: "D107: a value typed as the mine's own: the justification or evidence file that makes it one source" }),
          ),
        }),
      ),
      common: z.array(z.string()),
      terms: z.array(z.object({ value: z.number(), inputs: z.array(z.string()) })),
    }),
  ),
  count: z.int(),
  netting: z.nullable(
    z
      .object({
        label: z.string(),
        subtracted_t_co2e: z.number(),
        lower_pct: z.number(),
        upper_pct: z.number(),
        source: z.string(),
        gwp: z.string(),
        netted: z.object({ t_co2e: z.number(), u_pct: z.number(), lower: z.number(), upper: z.number() }).meta({
          description:
            "Methodology 10.1: the netted total and its 95 % interval, by the year's computation (v1/inventory/uncertainty/) on the project's lines, so both pages give one uncertainty for one figure",
        }),
      })
      .meta({
        description:
          "D26, D27: what the facility-year's netting takes off the project's gross figures, t CO2-eq at the reporting year's GWP, with the uncertainty of the destroyed gas as the flares, boilers and engines metered it (methodology 10.1). null: nothing netted",
      }),
  ),
  ...notCountedFields,
});

/** A file too large to answer inline: a short-lived storage address the client navigates to. */
export const downloadLinkSchema = z.object({ download_url: z.string(), file_name: z.string() });

// ---- dictionaries ----

const perField = <S extends z.ZodType>(value: S) => z.record(z.string(), value);

/** A dictionary entry: its numeric fields by name (docs/api.md), plus their units, sources and uncertainties. */
export const dictionaryEntrySchema = z
  .looseObject({
    id: z.int(),
    name: z.string(),
    units: perField(z.string()),
    sources: perField(z.string()),
    verification: z.optional(perField(z.enum(["verified", "transcription", "recalled", "assumption", "changed"]))),
    uncertainty: z.optional(perField(z.object({ lower_pct: z.number(), upper_pct: z.number(), distribution, source: z.string() }))),
    version: z.int(),
    effective_from: z.string(),
  })
  .meta({ description: "Besides these: each field's value, under the field's name" });

export const dictionaryNamesSchema = z.object({ results: z.array(z.object({ name: z.string(), title: z.string() })), count: z.int() });

export const dictionarySchema = z.object({
  name: z.string(),
  title: z.string(),
  labels: perField(z.string()).meta({ description: "Column titles by field" }),
  results: z.array(dictionaryEntrySchema),
  count: z.int(),
});

export const dictionaryHistorySchema = z.object({
  results: z.array(dictionaryEntrySchema.extend({ changed_at: z.string(), changed_by: z.string(), reason: z.string() })),
  count: z.int(),
});

// ---- documents and videos ----

const documentKinds = Object.keys(DOCUMENT_KINDS) as [DocumentKind, ...DocumentKind[]];

export const documentSchema = z.object({
  id: z.string(),
  title: z.string(),
  number: z.string(),
  date: z.string().meta({ description: "yyyy-MM-dd, or empty when the document has no single date" }),
  kind: z.enum(documentKinds),
  kind_label: z.string(),
  issuer: z.string(),
  source_url: z.string(),
  source_label: z.string(),
  catalogue: z.boolean().meta({ description: "Shipped with the product rather than added by an admin" }),
  file: z.nullable(z.object({ name: z.string(), size: z.int(), uploaded_at: z.string() })),
  download_url: z.nullable(z.string()).meta({ description: "Same-origin API path; null until a PDF is uploaded" }),
  is_deleted: z.boolean(),
  version: z.int(),
  updated_at: z.string(),
});

export const mediaStatusSchema = z.object({
  kind: z.enum(MEDIA_KINDS),
  label: z.string(),
  url: z.nullable(z.string()).meta({ description: "Short-lived signed URL for <video src>; null: no video uploaded" }),
  content_type: z.nullable(z.string()),
  size: z.nullable(z.int()),
  uploaded_at: z.nullable(z.string()),
  expires_at: z.nullable(z.string()),
});

/** v1/facilities/ (one facility). */
export const facilitySchema = z.object({
  id: z.string(),
  company: z.string(),
  name: z.string(),
  kind: z.enum(Object.keys(FACILITY_KINDS) as [FacilityKind, ...FacilityKind[]]),
  licence_number: z.string(),
  address: z.string(),
  /** false: archived (its history stays; no «нет данных за … хотя за … были»). */
  is_active: z.boolean(),
  shift_calendar: z
    .optional(
      z.array(z.object({ valid_from: z.string(), shifts: z.union([z.literal(3), z.literal(4), z.literal(2)]), first_start: z.string() })),
    )
    .meta({
      description:
        "D90: the shift calendar's dated entries (shifts a day 3 × 8 h, 4 × 6 h or 2 × 12 h, the first shift's start ЧЧ:ММ); absent: three 8-hour shifts from 00:00 (D64)",
    }),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.int(),
});

/** v1/facilities/{id}/points/: an emission point of a facility (D25). */
export const emissionPointSchema = z.object({
  id: z.string(),
  company: z.string(),
  facility: z.string(),
  name: z.string(),
  kind: z.enum(Object.keys(EMISSION_POINT_KINDS) as [EmissionPointKind, ...EmissionPointKind[]]),
  instrument: z.string().meta({ description: "The measuring instrument (e.g. «расходомер ДРГ.М-2500»)" }),
  frequency: z.string().meta({ description: "How often it is measured (e.g. «непрерывно», «ежесуточно»)" }),
  in_service_from: z.nullable(z.string()),
  in_service_to: z.nullable(z.string()),
  co2_content_pct: z
    .optional(z.nullable(z.number()))
    .meta({ description: "CO2 content of the point's gas, % vol, where no АГК channel measures it; null or absent: not known" }),
  co2_content_source: z
    .optional(z.string())
    .meta({ description: "Where the CO2 content came from (an analysis of samples, the gas's passport)" }),
  meter_after_takeoff: z.optional(z.boolean()).meta({
    description:
      "D92, a drainage station: its flow meter stands after a take-off to use, so accepting its АГК month asks the basis; absent or false: the meter sees all the drained gas (an accepted month is gross)",
  }),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.int(),
});

const inventoryRole = z.enum(INVENTORY_ROLES as [InventoryRole, ...InventoryRole[]]);
const order371Category = z.literal(Object.keys(ORDER_371_CATEGORIES).map(Number) as Order371Category[]);
const gas = z.enum(["CH4", "CO2"]);

const inventoryStatus = z.enum(Object.keys(STATUS_LABELS) as [InventoryStatus, ...InventoryStatus[]]);

/** 8.1: a facility's coal processed in the reporting year. */
export const coalProcessedSchema = z.object({ facility: z.string(), t: z.number() });
/** a facility's coal output in the reporting year, entered once for its production calculations. */
export const coalOutputSchema = z.object({ facility: z.string(), t: z.number() });

/** The review and sign-off of a year (domain/inventory/review.ts). */
export const inventoryReviewSchema = z.object({
  company: z.string(),
  year: z.int(),
  status: inventoryStatus,
  snapshot: z.optional(z.object({ version: z.int(), sha256: z.string() })).meta({
    description: "D20: the last approved version (GET …/versions/{n}/ answers its snapshot); kept after a reopen",
  }),
  approved_at: z.optional(z.string()),
  approved_by: z.optional(z.string()),
  notice_date: z.optional(z.iso.date()),
  rework_deadline: z.optional(z.iso.date().meta({ description: "20 working days after the notice, by the production calendar" })),
  rework_deadline_warning: z.optional(
    z.string().meta({ description: "The deadline reached a year without a production calendar: counted Monday to Friday" }),
  ),
  history: z.array(
    z.object({
      action: z.string(),
      from: inventoryStatus,
      to: inventoryStatus,
      by: z.string(),
      by_name: z.optional(z.string()),
      by_role: z.optional(z.string()),
      at: z.string(),
      date: z.optional(z.iso.date()),
      reason: z.optional(z.string()),
    }),
  ),
  comments: z.array(z.object({ id: z.string(), target: z.nullable(z.string()), text: z.string(), by: z.string(), at: z.string() })),
  coal_processed: z.optional(z.array(coalProcessedSchema)).meta({
    description: "8.1: coal processed in the year per facility, t, as entered on the inventory; frozen with the year (D20)",
  }),
  coal_output: z.optional(z.array(coalOutputSchema)).meta({
    description:
      "Coal output (mined) in the year per facility, t, entered once and offered to its production calculations; frozen with the year",
  }),
  last_changed_by: z.optional(z.string()).meta({
    description: "D33: who last changed the year's data (a calculation, project, facility, the coal processed); never approves it",
  }),
  changed_by: z.optional(z.array(z.string())).meta({
    description: "D33: who changed the year's data since its last step; «Доработка завершена» by one of them sends the year for approval",
  }),
  sent: z
    .optional(
      z.object({
        version: z.int().meta({ description: "The review's version the send wrote" }),
        sha256: z
          .string()
          .meta({ description: "SHA-256 of the canonical JSON of what the version would print: inventory and legal entity" }),
        entity_sha256: z.string().meta({ description: "SHA-256 of the legal entity's part alone" }),
        at: z.string(),
      }),
    )
    .meta({ description: "what the last send for review captured; approving compares the version with it" }),
  changed_after_send: z.optional(z.array(z.string())).meta({
    description:
      "what the version would print differently from what was sent (requisites, facilities, points), " +
      "in Russian; approving needs a new send while any",
  }),
  updated_at: z.string(),
  version: z.int().meta({ description: "0: never stored (a draft)" }),
});

/** A reduction target of the company (domain/inventory/targets.ts). */
export const TREND_TARGET_GASES = ["co2e", "CH4", "CO2"] as const;
export const trendTargetSchema = z.object({
  id: z.string(),
  name: z.string(),
  gas: z.enum(TREND_TARGET_GASES).meta({ description: "co2e: t CO2-eq of every gas; CH4 or CO2: t of that gas" }),
  scope: z.enum(["company", "facility"]),
  facility: z.nullable(z.string()).meta({ description: "The facility of a facility target; null for the company" }),
  kind: z.enum(["absolute", "per_tonne"]).meta({ description: "per_tonne: per t of coal mined by the scope" }),
  base_year: z.int(),
  target_year: z.int(),
  percent: z.number().meta({ description: "The reduction from the base year, %: 30 means −30 %" }),
  created_at: z.string(),
  created_by: z.string(),
});

/** The company's base year, its significance threshold and its targets (one stored item). */
export const trendSettingsSchema = z.object({
  base_year: z.nullable(
    z.object({
      year: z.int(),
      reason: z.string(),
      t_co2e: z.number().meta({ description: "The base year's comparable total when it was set or last recalculated" }),
      conditions_year: z.int().meta({ description: "The reporting year whose GWP set and factors that total was computed at" }),
      set_at: z.string(),
      set_by: z.string(),
    }),
  ),
  significance_pct: z.number().meta({ description: "A base-year change above this share offers its recalculation; default 5" }),
  targets: z.array(trendTargetSchema),
  version: z.int().meta({ description: "0: never stored" }),
  updated_at: z.optional(z.string()),
});

/** GET v1/inventory/trend/settings/: the settings, the base year's check and each target's progress. */
export const trendSettingsAnswerSchema = trendSettingsSchema.extend({
  base_year_check: z
    .nullable(
      z.object({
        year: z.int(),
        recorded_t_co2e: z.number().meta({ description: "The base year's comparable total as set or last recalculated" }),
        comparable_t_co2e: z.optional(z.number().meta({ description: "The same under today's GWP set and factors" })),
        change_pct: z.optional(z.number()),
        recalculation_offered: z
          .boolean()
          .meta({ description: "|change_pct| above significance_pct: the screen offers the recalculation" }),
      }),
    )
    .meta({ description: "null without a base year" }),
  targets: z.array(
    trendTargetSchema.extend({
      progress: z.object({
        note: z.optional(z.string().meta({ description: "Why there is no progress (no base-year figures), in Russian" })),
        unit: z.optional(z.string()),
        base_recorded: z.optional(
          z.literal(true).meta({
            description: "D46, the base is the recorded base year's figure (recalculated only once a recalculation is accepted)",
          }),
        ),
        base_value: z.optional(z.number()),
        target_value: z.optional(z.number()),
        path: z.optional(
          z.array(z.object({ year: z.int(), value: z.number() })).meta({ description: "The straight line, base to target" }),
        ),
        latest_year: z.optional(z.int()),
        latest_value: z.optional(z.number()),
        path_value: z.optional(z.number().meta({ description: "The path's value in the latest year" })),
        share_achieved_pct: z.optional(z.number().meta({ description: "Of the reduction asked, how much the latest year has made, %" })),
        on_path: z.optional(z.boolean().meta({ description: "The latest year is at or below the path" })),
      }),
    }),
  ),
});

/** A comment on a year's inventory (domain/inventory/comments.ts). */
export const inventoryCommentSchema = z.object({
  id: z.string(),
  year: z.int(),
  target: z.nullable(z.string()).meta({ description: "A calculation id or a category line; null: the whole year" }),
  text: z.string(),
  by: z.string(),
  by_name: z.optional(z.string().meta({ description: "The author's name as they have it now; absent: they gave none" })),
  at: z.string(),
});

/** A calculation of a year's inventory (domain/inventory/year.ts): v1/inventory/calculations, the passport. */
export const inventoryCalculationSchema = z.object({
  id: z.string(),
  type: z.string(),
  type_title: z.string(),
  name: z.string(),
  project: z.object({ id: z.string(), name: z.string() }),
  facility: z.nullable(z.string()),
  point: z.nullable(z.string()).meta({ description: "D25: the emission point of its facility; null: the facility as a whole" }),
  drainage_points: z.optional(
    z.array(z.string()).meta({
      description: "D35, a flare, boiler or engine: the drainage points whose gas it burns; absent: the facility's drainage points",
    }),
  ),
  inventory_role: inventoryRole,
  counted: z.boolean(),
  not_counted: z.optional(
    z.string().meta({
      description: "D43: why a primary calculation is not counted: «Не учтен: дубликат — нужно решение» while it duplicates another",
    }),
  ),
  category: order371Category,
  ipcc_code: z.string(),
  period: z.object({ from: z.string(), to: z.string() }).meta({
    description: "D19, D42: the days it covers from first to last: its measurement periods', else its own period, else its project's dates",
  }),
  covered: z.optional(
    z.array(z.object({ from: z.string(), to: z.string() })).meta({
      description: "D42: the periods it covers when its measurement periods leave days between them; absent: `period` whole",
    }),
  ),
  method: z.string(),
  notes: z.array(z.string()).meta({ description: "D16, D22: notes on the line («включая выбросы после добычи», …)" }),
  gases: z
    .array(z.object({ gas, t: z.number(), t_co2e: z.number() }))
    .meta({ description: "The calculation's own results (gross where its basis is gross), CH4 at the year's GWP" }),
  netting: z.optional(
    z.array(z.object({ gas, t: z.number(), t_co2e: z.number() })).meta({
      description:
        "D17, D26: what the facility-year's netting takes off this counted gross mining figure («− направлено на сжигание (факел, котельная)»), per gas; its share of the gas the facility destroyed. Absent: nothing",
    }),
  ),
  coefficients: z.record(z.string(), z.looseObject({ value: z.number(), unit: z.string(), source: z.string() })),
  flags: z.array(z.string()),
  updated_at: z.string(),
});

/** v1/inventory/?year= (domain/inventory/year.ts): the year's figures from the kept sums, whatever the
 *  company's size; the calculations behind a line are paged by v1/inventory/calculations. */
export const inventorySchema = z.object({
  year: z.int(),
  review: inventoryReviewSchema,
  facility: z.nullable(z.string()),
  gwp: z.object({ set: z.int(), name: z.string(), gwp_ch4: z.number(), source: z.string() }),
  categories: z.array(
    z.object({
      category: order371Category,
      category_label: z.string(),
      ipcc_code: z.string(),
      ipcc_label: z.string(),
      gas,
      t: z.number(),
      t_co2e: z.number(),
      count: z.int().meta({ description: "How many counted calculations make the line" }),
    }),
  ),
  facilities: z.array(z.object({ id: z.nullable(z.string()), name: z.string(), t_co2e: z.number() })),
  total_t_co2e: z.number(),
  threshold: z.object({ limit_t_co2e: z.number(), regulated: z.boolean(), company_t_co2e: z.number() }),
  checks: z.array(
    z.object({
      level: z.enum(["error", "warning", "info"]),
      code: z.string(),
      message: z.string(),
      calculations: z
        .array(z.string())
        .meta({ description: "At most 5 of the calculations the check concerns (check_calculations has them)" }),
      count: z.optional(z.int().meta({ description: "9.1: how many calculations the check concerns, when it stands for a list" })),
      list: z.optional(
        z.string().meta({ description: "9.1: pass as `check` to v1/inventory/calculations to page every calculation behind it" }),
      ),
    }),
  ),
  check_calculations: z
    .array(z.object({ id: z.string(), name: z.string(), type: z.string(), project: z.object({ id: z.string(), name: z.string() }) }))
    .meta({ description: "The calculations the checks name, to open them" }),
  years: z.array(yearTotalsSchema),
  approved: z.optional(
    z
      .object({
        version: z.int(),
        live_if_reopened: z.object({ total_t_co2e: z.number(), company_t_co2e: z.number() }),
      })
      .meta({
        description:
          "D32: the year stands approved: categories, facilities, totals, threshold and balance are this version's; " +
          "the live recomputation is only what the year would show if reopened",
      }),
  ),
  balance: z.array(balanceRowSchema),
});

const rankedLine = z.object({
  id: z.string().meta({ description: "The line, `category|ipcc_code|gas`" }),
  share: z.number(),
  cumulative: z.number(),
  key: z.boolean(),
});

/** v1/inventory/uncertainty/?year= (domain/inventory/uncertainty.ts): the year's uncertainty and key
 *  categories by IPCC line and gas, on the netted lines at the year's GWP (D26, D27). */
export const yearUncertaintySchema = z.object({
  year: z.int(),
  facility: z.nullable(z.string()),
  base_year: z.nullable(z.int()),
  gwp: z.object({ set: z.int(), name: z.string(), gwp_ch4: z.number(), source: z.string() }),
  approved_version: z.optional(z.int().meta({ description: "D32: the lines are this approved version's" })),
  lines: z.array(
    z.object({
      id: z.string().meta({ description: "`category|ipcc_code|gas`, as v1/inventory/calculations takes `line`" }),
      category: order371Category,
      category_label: z.string(),
      ipcc_code: z.string(),
      ipcc_label: z.string(),
      gas,
      count: z.int(),
      without_uncertainty: z.int().meta({ description: "Counted calculations of the line whose inputs carry no uncertainty" }),
      t_co2e: z.number().meta({ description: "The line as the inventory reports it (net), t CO2-eq at the year's GWP" }),
      gross_t_co2e: z.number(),
      destroyed_t_co2e: z
        .number()
        .meta({ description: "D17, D28: what the netting takes off the line («− направлено на сжигание (факел, котельная)»)" }),
      ad_u: z
        .number()
        .meta({ description: "Activity-data uncertainty of the gross figure, % (Eq. 3.2 over its calculations' sources of error, D91)" }),
      ef_u: z.number().meta({ description: "Emission-factor uncertainty of the gross figure, %" }),
      destroyed_u: z.number().meta({ description: "Uncertainty of the destroyed gas, %" }),
      shared_sources: z
        .array(
          z.object({
            kind: z.enum(["factor", "instruments"]).meta({
              description:
                "D91: one dictionary entry at one version or one value typed as the mine's own with one justification (D107), or one emission point's instruments",
            }),
            label: z.string().meta({ description: "The group in words, as the screen names it" }),
            count: z.int().meta({ description: "Calculations of the line that share it" }),
            t_co2e: z.number().meta({ description: "Their gross figure, t CO2-eq" }),
            u_pct: z.number().meta({ description: "The group's uncertainty, its terms added linearly, %" }),
          }),
        )
        .meta({
          description:
            "D91: the sources of error several calculations of the line share; each group's absolute uncertainty adds linearly before the groups combine by Eq. 3.2",
        }),
      u_pct: z.number().meta({ description: "D27: the line's uncertainty, Eq. 3.2 with the subtracted term, %" }),
      lower: z.number(),
      upper: z.number(),
      base_t_co2e: z.nullable(z.number().meta({ description: "The base year's line at this year's GWP; null without `base`" })),
    }),
  ),
  destroyed_source: z.string(),
  total: z.object({ t_co2e: z.number(), u_pct: z.number(), lower: z.number(), upper: z.number() }),
  monte_carlo: z.nullable(
    z.object({
      trials: z.int(),
      seed: z.int(),
      mean: z.number(),
      p2_5: z.number(),
      p97_5: z.number(),
      half_width_pct: z.number(),
    }),
  ),
  key_level: z.array(rankedLine).meta({ description: "Approach 1 level (Eq. 4.1), key up to 95 % cumulative" }),
  key_level_approach2: z.array(rankedLine).meta({ description: "Approach 2 level (L·U), key up to 90 % cumulative" }),
  trend: z.nullable(
    z
      .object({
        base_year: z.int(),
        base_t_co2e: z.number(),
        trend_pct: z.number(),
        trend_uncertainty_pp: z.number(),
        key_trend: z.array(rankedLine).meta({ description: "Approach 1 trend (Eq. 4.2), key up to 95 % cumulative" }),
      })
      .meta({
        description:
          "With `base`: the trend from the base year (at this year's GWP set); null without it or when the base year has no emissions",
      }),
  ),
});

// ---- forecast models ----

/** The chance of reaching the limit against the base rate (wasm-core/src/gbdt/probability.ts). */
const probabilityCheck = z.object({
  limit: z.number(),
  rows: z.int().meta({ description: "rows with a chance and a known fact" }),
  events: z.int().meta({ description: "of them, facts at or above the limit" }),
  base_rate: z.number().meta({ description: "the share of rows at or above the limit every row is given as its chance" }),
  base_source: z.enum(["calibration", "history"]).meta({ description: "the calibration's share, or the scored rows' own" }),
  brier: z.number(),
  base_brier: z.number(),
  skill: z.number().nullable().meta({ description: "1 − brier / base_brier; null where the base rate scores 0" }),
  reliable: z
    .boolean()
    .nullable()
    .meta({ description: "the chance scores better than the base rate; null with fewer than 200 rows or 20 facts at the limit" }),
  table: z
    .array(
      z.object({
        from: z.number(),
        to: z.number(),
        rows: z.int(),
        mean_p: z.number().nullable(),
        observed: z.number().nullable().meta({ description: "the share of the bin's rows whose fact reached the limit" }),
        holds: z.boolean().nullable().optional().meta({
          description:
            "D108 (b): the observed share within 0,1 + 2,576 binomial σ of the mean chance; null with fewer than 30 rows (absent: stored before)",
        }),
      }),
    )
    .meta({ description: "the reliability table: the chance in tenths" }),
  event: z.enum(["window_max", "value"]).optional().meta({
    description:
      "D108 (a): the event judged — any minute mean at or above the limit within the horizon (the window's maximum), or at a horizon of 0 the row's own value (absent: stored before, the value at the target minute)",
  }),
  horizon: z.int().optional().meta({ description: "minutes of the event's window" }),
  gain: z
    .object({
      difference: z.number().meta({ description: "Brier − base Brier on the rows" }),
      lo: z.number().nullable(),
      hi: z.number().nullable(),
      blocks: z.int().meta({ description: "days the bootstrap resampled" }),
      holds: z.boolean().meta({ description: "the 90 % interval lies below zero" }),
    })
    .optional()
    .meta({
      description:
        "D108 (b): the day-block bootstrap's 90 % interval of Brier − base Brier (2 000 seeded resamples); the chance is shown only where it holds (absent: stored before)",
    }),
  sentence: z.string(),
});

/** D108 (a): the window maxima's residuals about the forecast by its level's bin (wasm-core/src/gbdt/probability.ts). */
const eventCalibrationSchema = z.object({
  rows: z.int(),
  quantiles: z.object({ "80": z.number().nullable(), "90": z.number().nullable(), "95": z.number().nullable() }),
  residuals: z.array(z.number()),
  bins: z.array(
    z.object({
      below: z.number().nullable(),
      rows: z.int(),
      quantiles: z.object({ "80": z.number().nullable(), "90": z.number().nullable(), "95": z.number().nullable() }),
      residuals: z.array(z.number()),
    }),
  ),
  level_floor: z.number(),
});

/** D108 (d): a baseline's own band calibration: its residuals by level bin and the scales fitted on them. */
const baselineBandSchema = eventCalibrationSchema.extend({
  scales: z.object({
    limit: z.number(),
    warning: z.number(),
    levels: z.record(z.enum(["80", "90", "95"]), z.object({ slots: z.array(z.number()), near: z.number() })),
  }),
});

/** A model version's calibration as its users see it (domain/forecast/calibration.ts). */
export const forecastCalibrationSchema = z
  .object({
    method: z.enum(FORECAST_METHODS),
    model_id: z.string(),
    model_version: z.int(),
    scope: z.enum(["company", "all"]).meta({ description: "the company's own, or an admin's for every company without one" }),
    rows: z.int().meta({ description: "rows with a measured y the quantiles come from" }),
    period: z
      .object({ from: z.union([z.string(), z.number()]), to: z.union([z.string(), z.number()]) })
      .nullable()
      .meta({ description: "the rows' first and last t (ISO date-time or step number)" }),
    quantiles: z
      .object({ "80": z.number().nullable(), "90": z.number().nullable(), "95": z.number().nullable() })
      .meta({ description: "split-conformal half-widths of the interval, % CH4 (null: too few rows)" }),
    residuals: z.array(z.number()).optional().meta({ description: "signed residuals y − forecast, ascending, at most 2 001" }),
    ranges: z
      .record(z.string(), z.tuple([z.number(), z.number()]))
      .optional()
      .meta({ description: "each feature's observed [min, max]" }),
    bins: z
      .array(
        z.object({
          below: z
            .number()
            .nullable()
            .meta({ description: "the bin holds forecasts below this, % (null: no bound), at or above the bin before" }),
          rows: z.int(),
          quantiles: z.object({ "80": z.number().nullable(), "90": z.number().nullable(), "95": z.number().nullable() }),
          residuals: z.array(z.number()).meta({ description: "the bin's signed residuals, ascending, at most 501" }),
        }),
      )
      .optional()
      .meta({
        description: "bins of the forecast's level with their own half-widths and residuals (absent: stored before them, one width)",
      }),
    level_floor: z.number().optional().meta({
      description:
        "where present, the bins' half-widths and residuals are shares of the forecast's level max(forecast, level_floor), not % CH4 (absent: stored before)",
    }),
    change_weight: z.number().min(0).max(1).optional().meta({
      description:
        "D96 (a): a model ahead's change weight w in [0, 1], fitted once on the calibration's rows and applied to every forecast (absent: a nowcast, or stored before it: refitted on each request's rows)",
    }),
    scales: z
      .object({
        limit: z.number(),
        warning: z.number(),
        levels: z.record(z.enum(["80", "90", "95"]), z.object({ slots: z.array(z.number()), near: z.number() })),
      })
      .optional()
      .meta({
        description:
          "D96 (a): the band's scales fitted once on the calibration's rows, per level: each bin's below and at or above the warning level, and the limit's for the upper side near the limit (absent: stored before them, the band updated on each request's rows)",
      }),
    time_of_day: z.array(z.number().nullable()).optional().meta({
      description:
        "D108 (e): the mean measured y at each of the 24 hours of the day (the rows' clock) over the calibration's rows — the time-of-day baseline, fixed with the version (null: an hour without a fact; absent: stored before, or rows without date-times)",
    }),
    baselines: z
      .object(
        Object.fromEntries(
          (["persistence", "mean", "time_of_day"] as const).map((name) => [name, baselineBandSchema.optional()]),
        ) as Record<"persistence" | "mean" | "time_of_day", z.ZodOptional<typeof baselineBandSchema>>,
      )
      .optional()
      .meta({
        description:
          "D108 (d): each baseline's own band calibration on the same rows (its residuals by level bin and fitted scales): a baseline shown in the model's place is shown with its band, not the model's (absent: stored before)",
      }),
    event: eventCalibrationSchema.optional().meta({
      description:
        "D108 (a): the chance's own calibration — the window's maximum ahead (any minute at or above the limit within the horizon) about the forecast, by its level's bin; fitted once and applied to every request (absent: stored before, the chance of the value at the target minute)",
    }),
    probability: probabilityCheck.optional().meta({
      description:
        "the chance of reaching 1 % on the calibration's later half from its earlier half, against the earlier half's share at 1 % (absent: stored before it, or too few rows)",
    }),
    file_name: z.string(),
    calibrated_at: z.string(),
    calibrated_by: z.string(),
  })
  .meta({ id: "ForecastCalibration" });

export const forecastModelSchema = z.object({
  method: z.enum(FORECAST_METHODS),
  id: z.string(),
  version: z.int().meta({ description: "1, 2, … per method" }),
  library: z.string(),
  library_version: z.string(),
  objective: z.string(),
  horizon: z.int().optional().meta({
    description: "minutes ahead the model forecasts (10, 30, 60, 120, 360); 0 or absent: the nowcast, from the readings of the same moment",
  }),
  feature_names: z.array(z.string()),
  features: z.optional(z.array(z.string())).meta({
    description:
      "the history's own columns beyond x1…x15 the model reads (the working's channels), by their headers; a forecast's rows carry each by that name",
  }),
  num_trees: z.int(),
  engine: z.enum(["quickscorer", "walk"]).optional().meta({ description: "inference engine chosen when the model was stored" }),
  engine_reason: z.string().optional().meta({ description: "why that engine, in Russian" }),
  file_name: z.string(),
  description: z.string(),
  is_active: z.boolean(),
  uploaded_at: z.string(),
  uploaded_by: z.string(),
  calibration: forecastCalibrationSchema
    .nullable()
    .optional()
    .meta({ description: "the calibration serving the caller's company, without residuals; null: not calibrated" }),
  company: z.string().optional().meta({ description: "the company whose own trained model this is; absent: a platform model" }),
  archived: z.boolean().optional().meta({ description: "a company's own version put aside: listed, never used" }),
  file_bytes: z.int().optional().meta({ description: "the model file's size in bytes (absent: stored before sizes were kept)" }),
  training: z
    .object({
      rows: z.int(),
      train_rows: z.int(),
      valid_rows: z.int(),
      stopping_rows: z.int().optional().meta({
        description: "of the held-out rows, those that chose the number of trees (early stopping); absent before an earlier release",
      }),
      calibration_rows: z.int().optional().meta({
        description:
          "of the held-out rows, those neither trained on nor used to stop: the version's calibration rows; absent before an earlier release",
      }),
      validation: z.enum(["time", "random"]).meta({ description: "validation rows: the latest by t, or a seeded draw" }),
      period: z
        .union([z.object({ from: z.string(), to: z.string() }), z.object({ from: z.number(), to: z.number() })])
        .nullable()
        .meta({ description: "the rows' time span (ISO date-times or step numbers); null without t" }),
      ranges: z.array(
        z.object({ feature: z.string(), label: z.string(), min: z.number().nullable(), max: z.number().nullable(), missing: z.int() }),
      ),
      target: z.object({ min: z.number(), max: z.number(), mean: z.number() }),
      y_mean: z
        .number()
        .optional()
        .meta({ description: "the mean measured y of the training rows, %: the back-test's «mean» baseline; absent before it was kept" }),
      horizon: z.int().optional().meta({ description: "minutes ahead the model was trained for; absent: 0, the nowcast" }),
      step: z.int().optional().meta({
        description:
          "the step of the rows it was trained on, whole minutes (their times' median gap); a model ahead is fed rows of that step only. Absent: without t, or trained before it was kept",
      }),
      skipped_rows: z
        .int()
        .optional()
        .meta({ description: "rows left out for want of the measured target (y, or y(t) and y(t + h) ahead)" }),
      params: z.record(z.string(), z.union([z.number(), z.string()])),
      rounds: z.array(z.object({ round: z.int(), train_rmse: z.number(), valid_rmse: z.number().nullable() })),
      rounds_trained: z.int(),
      num_trees: z.int(),
      train_rmse: z.number(),
      valid_rmse: z.number().nullable(),
      importance: z.array(z.object({ feature: z.string(), label: z.string(), share: z.number(), gain: z.number(), splits: z.int() })),
      seconds: z.number(),
    })
    .optional()
    .meta({ description: "what a model trained in the product was trained on (rows, period, ranges) and how it went" }),
});

// ---- calculations ----

/** A value's uncertainty as a calculation used it (D23); none: exact. From the value's dictionary
 *  entry, from the activity-uncertainty entry `item_id` (version `item_version`) of an activity
 *  input, or set by the user in the calculation dialog; `source` as users read it: the document,
 *  or what the user or administrator wrote. */
export const usedUncertaintySchema = z.object({
  lower_pct: z.number(),
  upper_pct: z.number(),
  distribution,
  source: z.string(),
  origin,
  item_id: z.optional(z.int()),
  item_version: z.optional(z.int()),
});

/** A custom coefficient's evidence file as users see it (D10): without its storage key. */
export const evidenceSchema = z.object({ name: z.string(), size: z.int(), format: z.string(), uploaded_at: z.string() });

/** A coefficient a calculation used (D9, D10). */
export const coefficientSchema = z.object({
  value: z.number(),
  unit: z.string(),
  source: z.enum(COEFFICIENT_SOURCE_KINDS),
  dictionary: z.optional(z.string()),
  item_id: z.optional(z.int()),
  item_name: z.optional(z.string()),
  item_version: z.optional(z.int()),
  reference: z.optional(z.string()),
  uncertainty: z.optional(usedUncertaintySchema),
  justification: z.optional(z.string()),
  evidence: z.optional(evidenceSchema),
});

/** A calculation, flat: the common fields, the type's inputs and results under their registry
 *  names, and the coefficients it used. */
export const calculationSchema = z
  .looseObject({
    id: z.string(),
    type: z.string(),
    name: z.string(),
    project: z.string(),
    is_active: z.boolean(),
    is_deleted: z.boolean(),
    version: z.int(),
    created_at: z.string(),
    created_by: z.string(),
    updated_at: z.string(),
    updated_by: z.string(),
    methodology_version: z.string(),
    inventory_role: z
      .nullable(inventoryRole)
      .meta({ description: "D15: primary or alternative; null: a type the inventory does not sum (an analysis)" }),
    period: z
      .optional(z.object({ from: z.string(), to: z.string() }))
      .meta({ description: "D19: the part of the project's dates the calculation covers; absent: the project's dates." }),
    point: z.optional(z.string()).meta({
      description: "D25: the emission point of its project's facility (measured and destruction types); absent: the facility as a whole",
    }),
    drainage_points: z.optional(z.array(z.string())).meta({
      description:
        "D35, flares, boilers and engines of drained gas: the drainage points whose gas it burns; absent: the facility's drainage points (its one, or shared by their drained methane)",
    }),
    basis: z.optional(
      z.enum(["gross", "net"]).meta({ description: "D17: underground mine methane, gross or net of what is flared or used" }),
    ),
    coefficients: z.record(z.string(), coefficientSchema).meta({
      description: `Per field: value, unit, source (${COEFFICIENT_SOURCE_KINDS.join(" | ")}); a custom one carries \`justification\` and may carry \`evidence\`.`,
    }),
    flags: z.array(z.string()).meta({
      description:
        "D10: `custom_without_justification:<field>` and `custom_out_of_range:<field>` (outside the plausible band); D23: `custom_without_uncertainty:<field>` (the dictionary field's band applies).",
    }),
    file_data: z.optional(z.object({ name: z.string(), size: z.int(), format: z.string(), uploaded_at: z.string() })),
    gwp_in_force: z
      .optional(z.object({ reporting_year: z.int(), set: z.int() }))
      .meta({ description: "D12: the project's reporting year and the GWP set in force for it when last computed" }),
    gwp_not_in_force: z.optional(z.boolean()).meta({ description: "D12: the GWP set stored is not the one in force for the year" }),
    locked: z
      .optional(z.string())
      .meta({ description: "D20, in lists: why it cannot be edited, archived or restored now (its reporting year is frozen)" }),
    entered: z
      .optional(z.record(z.string(), z.object({ value: z.number(), unit: z.string() })))
      .meta({ description: "D13: inputs typed in another unit than the stored (canonical) one, as entered." }),
    data: z.optional(z.array(z.looseObject({ id: z.int() }))).meta({
      description: "A forecast's rows, in its read (GET {id}/, single_calc/): a page of at most 1 000 from `offset`; never in a list",
    }),
    data_count: z.optional(z.int()).meta({ description: "A forecast's rows in all, beside its page `data`" }),
  })
  .meta({ description: "Besides these: the type's inputs and results under their registry names (wasm-core/src/registry.ts)." });

/** A forecast's stored row (regres_methane): its features x1…x15 (null: missing), the measured `y`
 *  and time `t` when the history carried them, its `result` and, the model being calibrated, `lo`,
 *  `hi` and `p_exceed`. */
const forecastPointFields = {
  id: z.int(),
  t: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  y: z.optional(z.nullable(z.number())),
  result: z.number(),
  lo: z.optional(z.nullable(z.number())),
  hi: z.optional(z.nullable(z.number())),
};

const forecastRowFields = {
  ...forecastPointFields,
  p_atm: z.optional(z.nullable(z.number())).meta({ description: "The barometric pressure, кПа, where the history carried it" }),
  p_exceed: z.optional(z.nullable(z.number())),
  model_result: z.optional(z.nullable(z.number())).meta({
    description: "The model's own figure, where the model lost to persistence on the history's back-test and `result` is persistence's",
  }),
  features: z.optional(z.record(z.string(), z.nullable(z.number()))).meta({
    description: "The model's own named features (its `features`: the working's channels), each by its name (null: missing)",
  }),
};

/** A forecast's row as the server keeps it, its features aside (ports/forecast.ts ForecastKeptRow). */
export const forecastKeptRowSchema = z.object(forecastRowFields);

export const forecastRowSchema = z
  .looseObject(forecastRowFields)
  .meta({ description: "Besides these: the features x1, x2, x7, x8, x12, x13, x15 (null: missing)." });

/** GET v1/regres_methane/{id}/rows/: a page of a forecast's rows, the table's. */
export const forecastRowsPageSchema = z.object({
  results: z.array(forecastRowSchema),
  count: z.int().meta({ description: "Rows in all (with `above`: rows whose forecast is above the forecast's limit)" }),
});

/** GET v1/regres_methane/{id}/chart/: measured vs forecast with the band, thinned for the chart. */
export const forecastChartSchema = z.object({
  rows: z.int().meta({ description: "The forecast's rows in all" }),
  points: z.array(z.object(forecastPointFields)).meta({
    description:
      "At most 2 000 rows in row order: all of them, or each bucket of consecutive rows as its lowest and highest measured and forecast value, with every row at or above the warning level while they are at most 1 000",
  }),
  peak: z
    .nullable(forecastRowSchema)
    .meta({ description: "The row with the highest forecast (the what-if panel starts from it); null: no rows" }),
});

// ---- administration ----

/** A user as /admin sees one: everything but the password hash. */
export const adminUserSchema = signedInUserSchema.extend({ company: z.string() });

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor_id: z.string(),
  actor_email: z.string(),
  action: z.string().meta({ description: "e.g. company.create, user.update, dictionary.change, document.replace, media.upload" }),
  target_type: z.string(),
  target_id: z.string(),
  target_label: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});

/** GET users/company/audit/: one change of the company's own requisites or of one of its facilities
 *  (domain/company/requisites-audit.ts), each changed field with its value before and after, as shown. */
export const requisitesChangeSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor_email: z.string(),
  target_type: z.enum([
    "company",
    "facility",
    "point",
    "sensor",
    "gateway_key",
    "webhook",
    "base_year",
    "coal_output",
    "accepted_month",
    "accepted_month_basis",
    "climate_project",
    "climate_signature",
    "climate_report",
    "climate_period",
  ]),
  target_label: z
    .string()
    .meta({ description: "The company's or the facility's name after the change; a point's with its facility's: «Ствол (Шахта)»" }),
  created: z.boolean().meta({ description: "The facility or point (or company) was created by this change" }),
  changes: z.array(
    z.object({
      field: z.string(),
      label: z.string().meta({ description: "The field's name in Russian, as on Профиль" }),
      before: z.string(),
      after: z.string(),
    }),
  ),
});

/** A year of the production calendar (domain/reference/production-calendar.ts). */
export const calendarYearSchema = z.object({
  year: z.int(),
  decree: z.object({ title: z.string(), number: z.string(), date: z.string().meta({ description: "yyyy-MM-dd, or empty" }) }),
  days_off: z.array(z.iso.date()).meta({ description: "Weekdays that are days off: holidays and days off moved there" }),
  working_days: z.array(z.iso.date()).meta({ description: "Saturdays and Sundays made working days by the decree" }),
  version: z.int(),
  updated_at: z.string(),
  updated_by: z.string(),
});

/** The answer of the upload-url routes (domain/files/direct-uploads.ts, http/UPLOADS.md). */
export const uploadGrantSchema = z.object({
  url: z.string().meta({ description: "Where to PUT the file: an S3 presigned URL in AWS, /api/v1/uploads/?token=… locally" }),
  method: z.literal("PUT"),
  headers: z
    .record(z.string(), z.string())
    .meta({ description: "Send exactly these with the PUT (Content-Type; in AWS also If-None-Match and x-amz-tagging, which are signed)" }),
  upload_id: z.string().meta({ description: "Signed token for …/complete/" }),
  expires_at: z.string().meta({ description: "When the URL stops working (ISO 8601)" }),
});

export const detailSchema = z.object({ detail: z.string() });
