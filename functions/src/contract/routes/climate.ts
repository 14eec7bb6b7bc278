// v1/climate-projects/, declared: the stateless evaluation of a climate project's monitoring period
// from its devices' minutes (methodology section 13, D67–D80), what the browser's preview and the
// vectors' tests call. Served by http/climate.ts.
import * as z from "zod";
import {
  climateDayMinutesSchema,
  climateEvaluateSchema,
  climateEvaluationSchema,
  climatePeriodBodySchema,
  climatePeriodRecomputeSchema,
  climatePeriodReviewSchema,
  climatePeriodSchema,
  climatePeriodSummarySchema,
  climateProjectBodySchema,
  climateProjectPatchSchema,
  climateProjectSchema,
  climateProjectSummarySchema,
} from "../schemas/climate";
import { climateReportPatchSchema, climateReportSchema } from "../schemas/climate-report";
import { CLIMATE_SIGNATURE_ROUTES } from "./climate-signatures";
import { fileAnswer, json, listOf, type OwnedId, pathParam, route, storedObject, userAccess, XLSX } from "./declare";
import { LIMITS } from "../schemas/limits";
import { isoDate } from "../schemas/common";
import { fileOrLink, jobStarted } from "./export-jobs";

/** Nothing of a company is read: the figures come in the body. */
const own = userAccess("climate", { scope: "own" });

export const climateEvaluateRoute = route(
  own(
    "climateProjectEvaluate",
    "A climate project's monitoring period per device-hour from its meters' minutes: reductions and carbon units",
    [400, 429],
    "Section 13: each device's hours as minute segments (flow, CH4, pressure and temperature, flame, run status, exhaust " +
      "temperature) give per hour the methane sent and destroyed, the efficiency and its basis, BE, PE_UM, PE_MD and ER; the " +
      "period's electricity, heat, grid electricity and fuels, leakage, the deficit carried and the carbon units (D78); the " +
      "deviations by device and block (D79). Nothing is stored.",
  ),
  { post: "/evaluate", cost: "heavy", body: climateEvaluateSchema, 200: json(climateEvaluationSchema, "The period's figures") },
);

const ownProject: OwnedId = { in: "path", name: "id", object: "climateProject" };
/** Takes a project id: another company's is 404. */
const projectScoped = userAccess("climate", { scope: "company", ids: [ownProject] });
const idParams = z.object({ id: pathParam("Climate project id") });

export const listClimateProjectsRoute = route(own("listClimateProjects", "The company's climate projects, the last changed first", []), {
  get: "/",
  cost: "light",
  200: json(listOf(climateProjectSummarySchema), "The projects"),
});

export const createClimateProjectRoute = route(
  own(
    "createClimateProject",
    "Store a climate project: its facility, dates, methodology slot and devices with the meters of its monitoring plan",
    [400],
    "Section 13.1: each device names the emission point that feeds it and, by their codes in the facility's sensor register, " +
      "the meters its kind needs (flow and CH4 always; pressure and temperature for a flow at actual conditions; the flame " +
      "detector of an open flare; the exhaust temperature of an enclosed one and its analyser in the measured option; the run " +
      "status of an engine or a boiler), each of the kind its channel takes. A missing, unknown or mistyped meter is a 400 naming it.",
  ),
  { post: "/", cost: "light", body: climateProjectBodySchema, 201: json(climateProjectSchema, "The project, version 1") },
);

const project = storedObject(projectScoped, { path: "/{id}", params: idParams }, climateProjectSchema, "The project");

export const getClimateProjectRoute = project.get("getClimateProject", "One climate project as stored");

export const patchClimateProjectRoute = project.patch(
  "patchClimateProject",
  "Change, archive (archived true) or restore a climate project",
  climateProjectPatchSchema,
  { description: "The plan is checked again against the facility's register; a stale version is 409." },
);

export const climateDayMinutesRoute = route(
  projectScoped(
    "climateDayMinutes",
    "A day's stored readings of the meters of the project's plan, for the screen's check of the computation in the browser",
    [400, 404],
    "the day on the company's clock (date, yyyy-MM-dd), inside the project's dates and begun; each meter of " +
      "the plan with its kind, its поверка dates as instants and its readings in the day as a period reads them. The browser " +
      "folds them into hours (D70) and evaluates them with the core's code, as a period and POST …/evaluate/ do. Nothing is stored.",
  ),
  {
    get: "/{id}/minutes",
    cost: "heavy",
    params: idParams,
    query: z.object({ date: isoDate().meta({ description: "yyyy-MM-dd on the company's clock" }) }),
    200: json(climateDayMinutesSchema, "The day's readings of the plan's meters"),
  },
);

const periodParams = z.object({ id: pathParam("Climate project id"), period: pathParam("Monitoring period id") });

export const createClimatePeriodRoute = route(
  projectScoped(
    "createClimatePeriod",
    "A monitoring period of the project computed from the stored minutes of its meters, and kept with its inputs and result",
    [400, 404, 409, 429],
    "[start, end) in whole hours of the company's clock (yyyy-MM-ddTHH:00, or a date for its midnight), inside the project's " +
      "dates, over, at most a leap year's 8 784 hours, overlapping none of the project's periods. Per device and hour the " +
      "segments of its meters' minutes (D70: gas channels the minute's mean of valid readings, a proof the minute's every " +
      "reading, the exhaust temperature its minimum; a reading outside its meter's dates in service is invalid), computed as " +
      "evaluate computes them; the deficit carried in is the previous period's (D78). The project's periods are held for the " +
      "request before they are read: a create while another of the project runs is 409, so parallel creates never store two " +
      `overlapping periods. Over ${LIMITS.climate.periodJobMeterHours.toLocaleString("en-US")} meter-hours (the period's hours × ` +
      "the plan's meters), where the host runs jobs, the period is checked here and computed and stored by a job (202, its state " +
      "at status_url, whose period_id names the period once done); the project's periods stay held until the job ends, so a " +
      "create meanwhile is 409. A job that fails says why in Russian (detail) and stores nothing.",
  ),
  {
    post: "/{id}/periods",
    cost: "heavy",
    params: idParams,
    body: climatePeriodBodySchema,
    201: json(climatePeriodSchema, "The period's figures"),
    202: jobStarted("A long period, where the host runs jobs: the job started; ask status_url until done, then read the period"),
  },
);

export const listClimatePeriodsRoute = route(
  projectScoped("listClimatePeriods", "The project's monitoring periods with their totals, the earliest first", [404]),
  { get: "/{id}/periods", cost: "light", params: idParams, 200: json(listOf(climatePeriodSummarySchema), "The periods") },
);

export const getClimatePeriodRoute = storedObject(
  projectScoped,
  { path: "/{id}/periods/{period}", params: periodParams },
  climatePeriodSchema,
  "The period's figures",
).get("getClimatePeriod", "One monitoring period as computed");

export const climatePeriodPackRoute = route(
  projectScoped(
    "climatePeriodPack",
    "A monitoring period's verifier's pack (zip): every meter's readings, the hourly tables, the calibration register, the deviations, the totals, a signed manifest and verify.py",
    [404, 409, 429],
    "D80: minutes/*.csv (each meter of the plan: its readings in the period as the period read them), " +
      "plan.json (the devices, their meters with kind and поверка instants, the hours on the company's clock), register.csv, " +
      "hours/*.csv (each device's hours, a row each: validity, efficiency and its basis, V, M, BE, PE_UM, PE_MD, ER, energy), " +
      "deviations.csv, totals.json (with the carbon units), period.json (the period as stored), manifest.json (every file's " +
      "SHA-256), manifest.sig.json (the platform's signature over it, the keys at GET v1/signing-keys/) and verify.py, which " +
      "recomputes every hour, the deviations and the totals from the readings by methodology section 13 with Python 3's standard " +
      "library and exits 1 naming what differs. The same bytes on every download. Over LIMITS.climate.packPartBytes (the " +
      "registry's 100 MB attachment) the pack comes as a zip of parts, each within it, one manifest over all in the first; " +
      "`python3 verify.py part1.zip part2.zip …` takes them. A period computed before its readings were kept: 409. " +
      "From 20 000 meter-hours (the period's hours × the plan's meters) it is made as a job where the host runs jobs (202). " +
      "A file too large to answer inline: `{download_url, file_name}`.",
  ),
  {
    get: "/{id}/periods/{period}/pack",
    cost: "heavy",
    params: periodParams,
    200: fileOrLink("The zip (Content-Disposition: attachment), or where to fetch a large one", "application/zip"),
    202: jobStarted("A long period's pack, where the host runs jobs: the job started; ask status_url until done"),
  },
);

export const getClimateReportRoute = route(
  projectScoped(
    "getClimateReport",
    "The period's report on implementation in the order of Order 248's form: its sections as JSON, or the file (?format=xlsx|pdf)",
    [400, 404],
    "Sections 1–15 (methodology 13.4): in each what the platform fills from its data (the project, the executor's requisites, " +
      "the facility, the devices, the methodology with its version and parameters, the monitoring plan with its meters and " +
      "their dates of verification, the period's hours summarised, BE, PE, LE, ER and carbon units, the deviations with their " +
      "rules), every figure written as the screen shows it, and the fields the executor writes («заполняется исполнителем»), " +
      "empty until written. The file holds the same sections in the same order, dated on the company's clock.",
  ),
  {
    get: "/{id}/periods/{period}/report",
    cost: "heavy",
    params: periodParams,
    query: z.object({
      format: z
        .enum(["xlsx", "pdf"], "ожидается xlsx или pdf")
        .optional()
        .meta({ description: "none: the sections as JSON; xlsx or pdf: the file" }),
    }),
    200: {
      description: "The report's sections, or the file",
      content: { "application/json": { schema: climateReportSchema }, ...fileAnswer("The file", XLSX, "application/pdf").content },
    },
  },
);

export const patchClimateReportRoute = route(
  projectScoped(
    "patchClimateReport",
    "Write the executor's fields of the period's report on implementation («заполняется исполнителем»)",
    [400, 404, 409],
    "fields: the hand-written fields by key (the others stay as stored); version: the version read, 0 before the first save; " +
      "a stale one is 409. Each change is in the company's change log.",
  ),
  {
    patch: "/{id}/periods/{period}/report",
    cost: "light",
    params: periodParams,
    body: climateReportPatchSchema,
    200: json(climateReportSchema, "The report, its version + 1"),
  },
);

export const reviewClimatePeriodRoute = route(
  projectScoped(
    "reviewClimatePeriod",
    "Approve a monitoring period (four eyes) or withdraw its approval",
    [400, 403, 404, 409],
    "As a year is approved (D20, D32, D33): `approve` is a reviewer's or an administrator's other than the person who computed " +
      "the period; it stores a snapshot of the project's plan, the legal entity, the period's inputs and figures (RFC 8785 JSON, " +
      "its SHA-256 on the period) and freezes the period: it answers from the snapshot, recomputing it is 409, and readings of its " +
      "meters written into its hours later only flag it (readings_changed). `withdraw` takes a reason, by a reviewer or an " +
      "administrator other than the person who computed it. A stale version is 409. Each step is in the history and the change log.",
  ),
  {
    post: "/{id}/periods/{period}/review",
    cost: "light",
    params: periodParams,
    body: climatePeriodReviewSchema,
    200: json(climatePeriodSchema, "The period, version + 1"),
  },
);

export const recomputeClimatePeriodRoute = route(
  projectScoped(
    "recomputeClimatePeriod",
    "A monitoring period computed again from the minutes stored now",
    [400, 404, 409, 429],
    "With the figures the executor gave it and the deficit its previous period carries now; whoever computes it may no longer " +
      "approve it. An approved period is frozen: 409 saying how to withdraw the approval first. A stale version is 409. A long " +
      "period (as a create's), where the host runs jobs, is computed again by a job (202; period_id once done; the same request " +
      "while it waits or runs is that job; a failure, a stale version among them, says why and changes nothing).",
  ),
  {
    post: "/{id}/periods/{period}/recompute",
    cost: "heavy",
    params: periodParams,
    body: climatePeriodRecomputeSchema,
    200: json(climatePeriodSchema, "The period, version + 1"),
    202: jobStarted("A long period, where the host runs jobs: the job started; ask status_url until done, then read the period"),
  },
);

/** The routes of v1/climate-projects/, as http/climate.ts serves them. */
export const CLIMATE_ROUTES = [
  climateEvaluateRoute,
  listClimateProjectsRoute,
  createClimateProjectRoute,
  getClimateProjectRoute,
  patchClimateProjectRoute,
  climateDayMinutesRoute,
  createClimatePeriodRoute,
  listClimatePeriodsRoute,
  getClimatePeriodRoute,
  climatePeriodPackRoute,
  ...CLIMATE_SIGNATURE_ROUTES,
  getClimateReportRoute,
  patchClimateReportRoute,
  reviewClimatePeriodRoute,
  recomputeClimatePeriodRoute,
] as const;
