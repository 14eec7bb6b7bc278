// v1/inventory/, declared: the company's inventory of a reporting year, totals per year, review
// and sign-off, comments. Served by http/inventory.ts.
import * as z from "zod";
import { REVIEW_ACTIONS, type ReviewAction } from "@core/inventory";
import {
  detailSchema,
  inventoryCalculationSchema,
  inventoryCommentSchema,
  inventoryReviewSchema,
  inventorySchema,
  yearUncertaintySchema,
  yearTotalsSchema,
  trendSchema,
  trendSettingsAnswerSchema,
  TREND_TARGET_GASES,
} from "../schemas/answers";
import { booleanParam, COMMENT_MAX_CHARS, pageParams } from "../schemas/common";
import { fileAnswer, json, listOf, type OwnedId, pathParam, route, userAccess, XLSX } from "./declare";
import { LIMITS } from "../schemas/limits";
import { measuredVsEstimatedSchema } from "../schemas/measured-vs-estimated";

export const inventoryQuery = z.object({
  year: z.optional(z.string().meta({ description: "The reporting year, e.g. 2025" })),
  /** A facility of the company; none: the whole company. */
  facility: z.optional(
    z.string().max(LIMITS.id, "ожидается идентификатор площадки").meta({ description: "A facility of the company; none: all" }),
  ),
});
const facilityInQuery: OwnedId = { in: "query", name: "facility", object: "facility" };
/** The inventory's routes (its report's too: inventory-report.ts): of the caller's company, or of the facility the query or the body names. */
export const ownInventory = userAccess("inventory", { scope: "own" });
export const facilityInventory = userAccess("inventory", { scope: "company", ids: [facilityInQuery] });
const facilityInBodyInventory = userAccess("inventory", { scope: "company", ids: [{ in: "body", name: "facility", object: "facility" }] });

export const inventoryRoute = route(
  facilityInventory(
    "getInventory",
    "The year's inventory: primary calculations by Order 371 category, IPCC code and gas at the year's GWP, threshold and checks",
    [400, 404],
    "Counts the primary calculations of the projects whose reporting year is `year` (of one facility when given); " +
      "CH4 in t CO2-eq with the GWP set in force for that year; alternatives are listed and never summed.",
  ),
  { get: "/", cost: "light", query: inventoryQuery, 200: json(inventorySchema, "The inventory") },
);

export const inventoryCalculationsQuery = inventoryQuery.extend({
  line: z.optional(
    z
      .string()
      .regex(/^\d{1,2}\|[0-9A-Za-z.]{1,32}\|(CH4|CO2)$/, "ожидается строка инвентаризации «категория|код МГЭИК|газ»")
      .meta({ description: "A line of the inventory, `category|ipcc_code|gas`, e.g. `3|1.B.1.a.i.1|CH4`; none: every line" }),
  ),
  counted: booleanParam.meta({ description: "true: the calculations the total counts; false: the ones it leaves out (D18)" }),
  check: z.optional(
    z
      .string()
      .regex(
        new RegExp(`^[a-z_]{1,40}(\\|[0-9A-Za-z.:#/_@-]{0,${LIMITS.id}}){1,3}$`),
        "ожидается ключ списка проверки (поле list проверки в ответе v1/inventory/)",
      )
      .meta({ description: "A check's `list` from GET v1/inventory/: the calculations behind it (9.1)" }),
  ),
  ...pageParams(),
});

export const inventoryCalculationsRoute = route(
  facilityInventory(
    "inventoryCalculations",
    "The calculations of the year's inventory, of one line when given, paged (`limit` ≤ 100, default 20), by period and name",
    [400, 404],
    "Reads only the calculations of the year's projects whose types can make the line: what GET v1/inventory/ counts " +
      "in `categories[].count`, one page at a time.",
  ),
  {
    get: "/calculations",
    cost: "light",
    query: inventoryCalculationsQuery,
    200: json(listOf(inventoryCalculationSchema), "A page of the calculations"),
  },
);

export const yearUncertaintyQuery = inventoryQuery.extend({
  base: z.optional(z.string().meta({ description: "A base year before `year`, for the trend and its key categories" })),
});

export const yearUncertaintyRoute = route(
  facilityInventory(
    "inventoryUncertainty",
    "The year's uncertainty and key categories by IPCC line and gas, on the netted lines at the year's GWP",
    [400, 404],
    "Per line and gas: the net emission, the activity-data and factor uncertainties of its gross figure, the destroyed gas " +
      "subtracted and the line's uncertainty by Eq. 3.2 with the subtracted term (D27); the total's Approach 1 uncertainty, " +
      "a Monte Carlo run (100 000 trials, seed 1) and key categories by level (Approach 1 and 2) and, with `base`, by trend. " +
      "`npm run inventory -- uncertainty` gives the same figures from the lines' columns.",
  ),
  { get: "/uncertainty", cost: "shared", query: yearUncertaintyQuery, 200: json(yearUncertaintySchema, "The year's uncertainty") },
);

export const measuredVsEstimatedQuery = inventoryQuery.extend({
  format: z.optional(z.enum(["xlsx"], { error: "ожидается xlsx" }).meta({ description: "xlsx: the same as a workbook" })),
});

export const measuredVsEstimatedRoute = route(
  facilityInventory(
    "inventoryMeasuredVsEstimated",
    "Per underground mine: the year's measured gross CH4 of its mining line against its estimate from coal, with the verdict and why they differ; or its xlsx (?format=xlsx)",
    [400, 404],
    "Methodology section 14 (D81–D86): the counted measured calculations (formula 3.1) of the mine's ventilation shafts and drainage " +
      "stations, gross, against its IPCC estimate of 1.B.1.a.i.1 (the counted one, else the one kept «для сравнения»), each with its " +
      "Approach 1 uncertainty; the difference, `consistent` when it is within √((U_m·M)² + (U_e·E)²)/100, the factor the measurement " +
      "implies at 0,67 kg/m³, the months and the explanations (months not measured with the t they would carry, substituted minutes, " +
      "points without their own АГК channels, months whose readings moved since acceptance, drained gas against the balance). " +
      "An approved year compares its version's calculations.",
  ),
  {
    get: "/measured-vs-estimated",
    cost: "shared",
    query: measuredVsEstimatedQuery,
    200: {
      description: "The comparison, or its xlsx",
      content: { "application/json": { schema: measuredVsEstimatedSchema }, ...fileAnswer("The xlsx", XLSX).content },
    },
  },
);

export const yearsRoute = route(
  ownInventory("inventoryYears", "Totals per reporting year (primary calculations, each year at its own GWP)", []),
  { get: "/years", cost: "light", 200: json(z.array(yearTotalsSchema), "Totals per year") },
);

export const trendQuery = z.object({
  from: z.string("укажите начальный год").meta({ description: "The first reporting year, e.g. 2020" }),
  to: z.string("укажите конечный год").meta({ description: "The last reporting year (at most 30 years from `from`)" }),
  facility: inventoryQuery.shape.facility,
  gwp_set: z.optional(
    z.string().meta({ description: "The GWP set (its id in get_gwp) every year's `comparable` takes; default the set in force for `to`" }),
  ),
});

export const trendRoute = route(
  facilityInventory(
    "inventoryTrend",
    "The company's years side by side: each year's inventory figures, coal mined, intensity, methane destroyed, change",
    [400, 404],
    "Per reporting year from `from` to `to` (at most 30) with a counted calculation: that year's own inventory figures as " +
      "GET v1/inventory/?year= answers them (an approved year its approved version's, any other marked `draft`) by IPCC line " +
      "and gas, facility and category; the coal mined from the mining lines' volume and t CO2-eq per t; the methane drained " +
      "and destroyed; the change against the year before in the range. Each year also «в сопоставимых условиях» (`comparable`): " +
      "at one GWP set and each dictionary factor at its value for `to`, the calculations whose factor changed recomputed from their " +
      "stored inputs, each line naming what changed.",
  ),
  { get: "/trend", cost: "shared", query: trendQuery, 200: json(trendSchema, "The years") },
);

/** A reporting year of the path (its report and a version's pack too: inventory-report.ts). */
export const yearParams = z.object({ year: pathParam("Reporting year, e.g. 2025") });
export const versionParams = yearParams.extend({ version: pathParam("Version number, 1, 2, …") });

export const reviewActionSchema = z.object({
  action: z.enum(REVIEW_ACTIONS as [ReviewAction, ...ReviewAction[]], {
    error: `ожидается одно из ${REVIEW_ACTIONS.join(", ")}`,
  }),
  reason: z.optional(z.string("ожидается текст").max(COMMENT_MAX_CHARS, `не более ${COMMENT_MAX_CHARS} символов`)),
  notice_date: z.optional(z.string("ожидается дата ГГГГ-ММ-ДД")),
  date: z.optional(z.string("ожидается дата ГГГГ-ММ-ДД")),
  version: z.int("ожидается целое число"),
});

export const commentSchema = z.object({
  target: z.optional(z.nullable(z.string().max(LIMITS.id, "ожидается идентификатор строки"))),
  text: z.string("введите комментарий").max(COMMENT_MAX_CHARS, `не более ${COMMENT_MAX_CHARS} символов`),
});

export const reviewRoute = route(
  ownInventory(
    "inventoryTransition",
    "Move the year's inventory through review and sign-off (send to review, approve, reopen, submit, accept, refuse, rework done)",
    [400, 403, 409],
    "Approving stores the next version's snapshot (D20) and freezes the year (every change that would reach it answers 409) " +
      "until a reviewer reopens the year with a reason; " +
      "`refuse` takes a reason and the notice date and sets the rework deadline at 20 working days. Every action but sending to review " +
      "is a reviewer's or an admin's (403 otherwise); approve, return and reopen never the one who sent the version (four eyes). " +
      "Sending is refused (409) while the year's inventory has a check of level `error`.",
  ),
  {
    post: "/{year}/review",
    cost: "light",
    params: yearParams,
    body: reviewActionSchema,
    200: json(inventoryReviewSchema, "The review after the transition"),
  },
);

export const commentRoute = route(
  ownInventory(
    "inventoryComment",
    "Comment on the year's inventory or one of its lines (a calculation id or a category line)",
    [400, 404, 409],
    `Each comment is stored on its own (≤ ${COMMENT_MAX_CHARS} characters, 1000 per year): it never changes the review's version. ` +
      "A `version` sent by older clients is ignored. A `target` that is neither a line (`category|ipcc_code|gas`) nor a " +
      "calculation of the company is 404.",
  ),
  { post: "/{year}/comments", cost: "light", params: yearParams, body: commentSchema, 201: json(inventoryCommentSchema, "The comment") },
);

export const listCommentsRoute = route(
  ownInventory("inventoryComments", "The comments on the year's inventory, newest first, paged (`limit` ≤ 100, default 20)", [400]),
  {
    get: "/{year}/comments",
    cost: "light",
    params: yearParams,
    query: z.object(pageParams()),
    200: json(listOf(inventoryCommentSchema), "A page of the comments"),
  },
);

export const removeCommentRoute = route(
  ownInventory(
    "inventoryRemoveComment",
    "Delete a comment: its author, a reviewer or an admin (403 for others; another company's comment 404)",
    [403, 404, 409],
  ),
  {
    delete: "/{year}/comments/{id}",
    cost: "light",
    params: yearParams.extend({ id: pathParam("The comment's id") }),
    200: json(detailSchema, "Deleted"),
  },
);

/** the platform's signature over a version's SHA-256 (RSASSA-PKCS1-v1_5, SHA-256). */
export const versionSignatureSchema = z.object({
  kid: z.string().meta({ description: "The key's id: the first 16 hex digits of its fingerprint (GET v1/signing-keys/)" }),
  alg: z.literal("RS256"),
  fingerprint_sha256: z.string().meta({ description: "SHA-256 of the key's DER (SubjectPublicKeyInfo), hex" }),
  value: z.string().meta({ description: "The signature, base64: over the snapshot's SHA-256 as a digest" }),
});

export const versionSummarySchema = z.object({
  version: z.int().meta({ description: "1, 2, … per year: each approval (or finished rework) stores the next" }),
  sha256: z.string().meta({ description: "SHA-256 (hex) of the snapshot's canonical JSON, as GET …/versions/{n}/ answers it" }),
  approved_at: z.string(),
  approved_by: z.string(),
  total_t_co2e: z.number(),
  signature: z.optional(versionSignatureSchema),
});

/** A stored version (domain/inventory/versions.ts InventorySnapshot): its own fields, and the year
 *  and its changes as they stood at the approval, kept as they were written then (a version never
 *  changes, so an older one may hold fewer fields than today's year page). */
export const inventorySnapshotSchema = z.object({
  company: z.string(),
  year: z.int(),
  version: z.int(),
  previous: z.nullable(z.int()).meta({ description: "The version before, or null for the first" }),
  action: z.string().meta({ description: "What stored it: an approval or a finished rework" }),
  approved_at: z.string(),
  approved_by: z.string(),
  sent_by: z.optional(z.string()).meta({ description: "Who sent the version approved for review (four eyes: never approved_by)" }),
  inventory: z.looseObject({}).meta({
    description: "The year as approved: lines with each calculation's inputs, results and coefficients, GWP, totals, checks",
  }),
  changes: z.nullable(z.looseObject({})).meta({ description: "What changed against the version before; null for the first" }),
  legal_entity: z.optional(
    z
      .looseObject({ requisites: z.looseObject({}), facilities: z.array(z.looseObject({})) })
      .meta({ description: "D32: the requisites, the person responsible, the facilities and their points as approved" }),
  ),
});

export const versionsRoute = route(
  ownInventory(
    "inventoryVersions",
    "The year's approved versions (D20), oldest first: number, SHA-256, who approved and when, total",
    [400],
  ),
  { get: "/{year}/versions", cost: "light", params: yearParams, 200: json(z.array(versionSummarySchema), "The versions") },
);

export const versionRoute = route(
  ownInventory(
    "inventoryVersion",
    "One approved version's snapshot: the stored canonical JSON, whose SHA-256 the version list shows",
    [400, 404],
    "The whole inventory as approved: lines with each calculation's inputs, results and coefficients, GWP, totals, " +
      "checks, who and when, and what changed against the version before. Another company's or an unknown version: 404.",
  ),
  {
    get: "/{year}/versions/{version}",
    cost: "light",
    params: versionParams,
    200: json(inventorySnapshotSchema, "The snapshot, byte for byte as stored (its SHA-256 is the listed one)"),
  },
);

/** A facility's figure of coal in the year, kept with the review: the facility, the tonnes (null
 *  removes it; `empty` and `negative` say what is wrong with them) and the review's version. */
const facilityCoal = (empty: string, negative: string) => ({
  facility: z.string("выберите площадку").min(1, "выберите площадку").max(LIMITS.id, "ожидается идентификатор площадки"),
  t: z.nullable(z.number(empty).check(z.gte(0, negative), z.lte(1e9, "не более 1 000 000 000 т"))),
  version: z.int("ожидается целое число"),
});

/** 8.1: a facility's coal processed in the year, t; null removes it. */
export const coalProcessedBody = z.object(
  facilityCoal("введите количество переработанного угля, т", "количество угля не может быть отрицательным"),
);

export const coalProcessedRoute = route(
  facilityInBodyInventory(
    "inventoryCoalProcessed",
    "Set or clear a facility's coal processed in the year (t), printed with the report's activity data",
    [400, 404, 409],
    "Kept with the year's review: it freezes with the year (409 while approved, sent or accepted) and an approved " +
      "version's report prints it as approved. `version` is the review's; a stale one answers 409.",
  ),
  {
    put: "/{year}/coal_processed",
    cost: "light",
    params: yearParams,
    body: coalProcessedBody,
    200: json(inventoryReviewSchema, "The review with the figure"),
  },
);

/** a facility's coal output in the year, t; null removes it. `follow`: the production
 *  calculations (ids) that take it as their coal production. */
export const coalOutputBody = z.object({
  ...facilityCoal("введите добычу угля, т", "добыча угля не может быть отрицательной"),
  follow: z.optional(
    z
      .array(z.string().max(LIMITS.id, "ожидаются идентификаторы расчетов"), "ожидается список расчетов")
      .max(LIMITS.count.follow, `не более ${LIMITS.count.follow} расчетов`),
  ),
});

const coalOutputCalculationSchema = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  project: z.string(),
  project_name: z.string(),
  volume_t: z.number().meta({ description: "Its coal production, t" }),
  inventory_role: z.enum(["primary", "alternative"]),
});

export const coalOutputSchema = z.object({
  facility: z.string(),
  year: z.int(),
  t: z.nullable(z.number()).meta({ description: "The coal output, t; null: not entered" }),
  calculations: z.array(coalOutputCalculationSchema).meta({
    description: "The facility's active calculations of the year that take coal production (coal handling, Tier 1, open pit), by name",
  }),
});

export const coalOutputQuery = z.object({
  facility: z.string().max(LIMITS.id, "ожидается идентификатор площадки").meta({ description: "A facility of the company" }),
});

export const coalOutputRoute = route(
  facilityInventory(
    "inventoryCoalOutput",
    "A facility's coal output in the year (t) and its calculations that take coal production",
    [400, 404],
    "The figure the calculation dialog offers for coal production, and the production calculations a change may carry it to.",
  ),
  {
    get: "/{year}/coal_output",
    cost: "light",
    params: yearParams,
    query: coalOutputQuery,
    200: json(coalOutputSchema, "The figure (null: not entered) and the calculations"),
  },
);

export const setCoalOutputRoute = route(
  facilityInBodyInventory(
    "inventorySetCoalOutput",
    "Set or clear a facility's coal output in the year (t); the calculations in `follow` take it as their production",
    [400, 404, 409],
    "Kept with the year's review: it freezes with the year (409 while approved, sent or accepted). Each calculation in `follow` " +
      "(a production calculation of the facility-year, else 400) is edited as PATCH edits it, before the figure is stored; " +
      "`version` is the review's, a stale one answers 409.",
  ),
  {
    put: "/{year}/coal_output",
    cost: "light",
    params: yearParams,
    body: coalOutputBody,
    200: json(
      z.object({ review: inventoryReviewSchema, updated: z.array(z.string()).meta({ description: "The calculations edited" }) }),
      "The review with the figure and the calculations that took it",
    ),
  },
);

export const trendExportQuery = trendQuery.extend({
  view: z.optional(z.string().meta({ description: "reported (default) or comparable" })),
});

export const trendExportRoute = route(
  facilityInventory(
    "inventoryTrendExport",
    "The trend's table as xlsx: per year the total, change, categories, coal, intensity and methane destroyed",
    [400, 404],
    "`view=comparable` writes the comparable figures (at the GWP set and factors of `to`, or `gwp_set`).",
  ),
  {
    get: "/trend/export",
    cost: "heavy",
    query: trendExportQuery,
    200: fileAnswer("The xlsx", XLSX),
  },
);

const settingsVersion = z.int("ожидается целое число").meta({ description: "The settings' version read (0: never stored)" });
const reasonField = z
  .string("укажите причину")
  .trim()
  .min(1, "укажите причину")
  .max(COMMENT_MAX_CHARS, `не более ${COMMENT_MAX_CHARS} символов`);
const yearField = () => z.int("ожидается год, например 2020");

export const baseYearBody = z.object({ year: yearField(), reason: reasonField, version: settingsVersion });
export const baseYearRecalculationBody = z.object({ reason: reasonField, version: settingsVersion });
export const significanceBody = z.object({
  significance_pct: z.number("введите порог значимости, %").check(z.gt(0, "порог должен быть больше 0 %"), z.lte(100, "не более 100 %")),
  version: settingsVersion,
});
export const targetBody = z.object({
  name: z
    .string("введите название цели")
    .trim()
    .min(1, "введите название цели")
    .max(LIMITS.name.target, `не более ${LIMITS.name.target} символов`),
  gas: z.enum(TREND_TARGET_GASES, { error: "ожидается co2e, CH4 или CO2" }),
  scope: z.enum(["company", "facility"], { error: "ожидается company или facility" }),
  facility: z.optional(z.nullable(z.string().max(LIMITS.id, "ожидается идентификатор площадки"))),
  kind: z.enum(["absolute", "per_tonne"], { error: "ожидается absolute или per_tonne" }),
  base_year: yearField(),
  target_year: yearField(),
  percent: z.number("введите снижение, %").check(z.gt(0, "снижение должно быть больше 0 %"), z.lte(100, "не более 100 %")),
  version: settingsVersion,
});

const settingsAnswer = json(trendSettingsAnswerSchema, "The settings, the base year's check and the targets' progress");

export const trendSettingsRoute = route(
  ownInventory(
    "inventoryTrendSettings",
    "The company's base year, significance threshold and targets, with the base year's check and each target's progress",
    [],
    "Read under today's reporting year's GWP set and factors (the comparable figures of GET v1/inventory/trend/): the base year's " +
      "total as recorded and now, and whether its recalculation is offered (the change above `significance_pct`); per target the " +
      "base and target values, the straight-line path, the latest year's value, the share achieved and whether it is on the path.",
  ),
  { get: "/trend/settings", cost: "shared", 200: settingsAnswer },
);

export const baseYearRoute = route(
  ownInventory(
    "inventoryBaseYear",
    "Set the base year (a year with counted calculations) and why; its comparable total is recorded and the change logged",
    [400, 409],
  ),
  { put: "/trend/base_year", cost: "light", body: baseYearBody, 200: settingsAnswer },
);

export const baseYearRecalculationRoute = route(
  ownInventory(
    "inventoryBaseYearRecalculation",
    "Accept the base year's recalculation: its total under today's GWP set and factors, logged with the reason (before → after)",
    [400, 409],
  ),
  { post: "/trend/base_year/recalculate", cost: "light", body: baseYearRecalculationBody, 200: settingsAnswer },
);

export const significanceRoute = route(
  ownInventory("inventorySignificance", "Set the significance threshold of the base year's recalculation, % (default 5)", [400, 409]),
  { put: "/trend/significance", cost: "light", body: significanceBody, 200: settingsAnswer },
);

export const addTargetRoute = route(
  facilityInBodyInventory(
    "inventoryAddTarget",
    "Add a reduction target: gas or CO2-eq, the company or a facility, absolute or per t of coal, base year, target year, %",
    [400, 404, 409],
  ),
  { post: "/trend/targets", cost: "light", body: targetBody, 201: settingsAnswer },
);

export const removeTargetRoute = route(
  ownInventory("inventoryRemoveTarget", "Delete a target (`version`: the settings' version read)", [400, 404, 409]),
  {
    delete: "/trend/targets/{id}",
    cost: "light",
    params: z.object({ id: pathParam("The target's id") }),
    query: z.object({ version: z.optional(z.string().meta({ description: "The settings' version read; a stale one 409" })) }),
    200: settingsAnswer,
  },
);

/** Every route of v1/inventory/ above, in the order http/inventory.ts serves them. */
export const INVENTORY_ROUTES = [
  inventoryRoute,
  inventoryCalculationsRoute,
  yearUncertaintyRoute,
  measuredVsEstimatedRoute,
  yearsRoute,
  trendRoute,
  trendExportRoute,
  trendSettingsRoute,
  baseYearRoute,
  baseYearRecalculationRoute,
  significanceRoute,
  addTargetRoute,
  removeTargetRoute,
  reviewRoute,
  commentRoute,
  listCommentsRoute,
  removeCommentRoute,
  versionsRoute,
  versionRoute,
  coalProcessedRoute,
  coalOutputRoute,
  setCoalOutputRoute,
] as const;
