// v1/{type}/ (docs/api.md), declared: list, create, single_calc, the uploaded file, templates, update /
// archive and the forecast's data_update, for every type of the registry. Served by
// http/calculations.ts.
import * as z from "zod";
import { CALCULATION_TYPES } from "@core/registry";
import { INVENTORY_ROLES, type InventoryRole } from "@core/inventory";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "@core/gwp-in-force";
import { TEMPLATES } from "../templates";
import { calculationSchema, forecastChartSchema, forecastRowsPageSchema } from "../schemas/answers";
import { uploadPreviewSchema } from "../schemas/upload-preview";
import { FORECAST_DATA_PAGE_MAX, booleanParam, idString, pageParams } from "../schemas/common";
import { calculationFormBody, calculationJsonBody, forecastRowsSchema } from "../schemas/calculation-body";
import { fileAnswer, inputJsonSchema, json, listOf, type OwnedId, pathParam, route, userAccess, XLSX, dryRunQuery } from "./declare";
import { LIMITS } from "../schemas/limits";

export const listQuery = z.object({
  ...pageParams(),
  project: idString("укажите проект").min(1, "укажите проект"),
  is_active: booleanParam,
  is_deleted: booleanParam,
  /** D18: only primary (counted in the totals) or only alternative calculations. */
  role: z.optional(
    z
      .enum(INVENTORY_ROLES as [InventoryRole, ...InventoryRole[]], {
        error: "ожидается primary (основной) или alternative (альтернативный)",
      })
      .meta({ description: "Only the calculations of this «Учет»; the analysis types have none" }),
  ),
});

/** PATCH {id}/data_update/: a forecast's rows (the domain checks each and names row and column). */
export const dataUpdateBody = z.object({
  data: forecastRowsSchema,
  version: z.optional(z.number("ожидается целое число").check(z.int())),
});

/** The calculation type in the path; another one answers 404 (domain/calculations/calculations.ts). */
export const calculationTypeParam = pathParam("Calculation type of the registry").meta({ enum: [...CALCULATION_TYPES] });
/** The list also takes `all`: a project's calculations of every type at once. */
const listTypeParam = pathParam("Calculation type of the registry, or all").meta({ enum: [...CALCULATION_TYPES, "all"] });
const typeParams = z.object({ type: calculationTypeParam });
const calculationParams = typeParams.extend({ id: pathParam("Calculation id") });
const ownCalculation: OwnedId = { in: "path", name: "id", object: "calculation" };
/** Takes a calculation id: isolation by company. */
export const calculationScoped = userAccess("calculations", { scope: "company", ids: [ownCalculation] });
/** The list names its project in the query, a new calculation in its body. */
const projectInQuery = userAccess("calculations", { scope: "company", ids: [{ in: "query", name: "project", object: "project" }] });
const projectInBody = userAccess("calculations", { scope: "company", ids: [{ in: "body", name: "project", object: "project" }] });
const templates = userAccess("calculations", { scope: "platform", note: "templates are the same for every company; no id" });

const calculationAnswer = (description: string) => json(calculationSchema, description);
/** One schema per type (schemas/calculation-body.ts), as JSON, or as a multipart form with
 *  `file_data` for the types that take a file. Documented here and checked by the handler against
 *  the type in the path. */
const calculationBody = (mode: "create" | "patch") => ({
  required: true,
  content: { "application/json": { schema: calculationJsonBody(mode) }, "multipart/form-data": { schema: calculationFormBody(mode) } },
});

export const listRoute = route(
  projectInQuery(
    "listCalculations",
    "A project's calculations of one type, or of every type with `all` in place of the type, newest first",
    [400, 404],
  ),
  {
    get: "/{type}",
    cost: "light",
    params: z.object({ type: listTypeParam }),
    query: listQuery,
    200: json(
      listOf(calculationSchema).extend({
        locked: z.optional(z.string()).meta({
          description: "D20, D32: why the project's calculations of this type cannot be added or changed now (its year is frozen)",
        }),
      }),
      "A page of calculations",
    ),
  },
);

export const createRoute = route(
  projectInBody(
    "createCalculation",
    "Create (compute and store) a calculation",
    [400, 404, 409, 415, 429],
    "JSON for every type but filling_blanks and sensitivity; multipart with `file_data` for underground (measurement periods, optional), regres_methane (optional), filling_blanks, sensitivity. " +
      "With `dry_run=1` and a file: nothing is stored; the answer (200) is the file as read — the first 20 rows and up to 20 refused rows below them, their count, each column's header and unit — and every row the save would refuse, with its sheet, row and column.",
  ),
  {
    post: "/{type}",
    // Light as JSON (typed inputs under the JSON cap, read with the user); a form with a file takes its
    // heavy-work slot before its body at the mount (http/calculations.ts uploadSlot).
    cost: "light",
    params: typeParams,
    query: dryRunQuery("file"),
    body: calculationBody("create"),
    bodyCap: "form",
    200: json(uploadPreviewSchema, "The dry run: the file as read and its problems (nothing stored)"),
    201: calculationAnswer("The calculation"),
  },
);

export const templateRoute = route(
  templates(
    "calculationTemplate",
    `An upload template with an example (types: ${Object.keys(TEMPLATES).join(", ")}; others 404)`,
    [400, 404],
  ),
  {
    get: "/{type}/template",
    cost: "light",
    params: typeParams,
    // Anything but csv is the workbook.
    query: z.object({
      format: z.optional(z.string().meta({ description: "xlsx (default) or csv (UTF-8 with BOM, `;`, decimal commas)" })),
      year: z.optional(
        z.coerce
          .number(`ожидается год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`)
          .check(
            z.int(`ожидается год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`),
            z.gte(REPORTING_YEAR_MIN, `ожидается год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`),
            z.lte(REPORTING_YEAR_MAX, `ожидается год от ${REPORTING_YEAR_MIN} до ${REPORTING_YEAR_MAX}`),
          )
          .meta({ description: "The example's dates in this year (the project's reporting year)" }),
      ),
    }),
    200: fileAnswer("The template", XLSX, "text/csv"),
  },
);

/** GET {id}/ and single_calc/: a forecast's `data` is `limit` rows (1–1 000, default 1 000) from `offset`. */
export const forecastDataQuery = z.object({
  limit: z
    .optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(FORECAST_DATA_PAGE_MAX)))
    .meta({ description: `A forecast's rows in \`data\`: at most ${FORECAST_DATA_PAGE_MAX} (the default)` }),
  offset: z.optional(z.coerce.number().check(z.int(), z.gte(0))).meta({ description: "The first of them (0 by default)" }),
});
const FORECAST_DATA_PAGED = `A forecast (regres_methane) gives its rows as a page: \`data\` holds \`limit\` of them (at most ${FORECAST_DATA_PAGE_MAX}) from \`offset\`, \`data_count\` counts them all; \`rows/\` pages them for its table, \`chart/\` thins them for its chart.`;

export const singleRoute = route(
  calculationScoped("singleCalculation", "One calculation (a forecast with a page of its data rows)", [400, 404], FORECAST_DATA_PAGED),
  {
    get: "/{type}/{id}/single_calc/{n}",
    cost: "light",
    params: calculationParams.extend({ n: pathParam("Kept from the original client; any value") }),
    query: forecastDataQuery,
    200: calculationAnswer("The calculation"),
  },
);

export const fileRoute = route(calculationScoped("calculationFile", "The uploaded source file of a calculation", [404]), {
  get: "/{type}/{id}/file",
  cost: "light",
  params: calculationParams,
  200: fileAnswer("The file as uploaded", "text/csv", XLSX),
});

export const getRoute = route(
  calculationScoped("getCalculation", "One calculation (same answer as single_calc)", [400, 404], FORECAST_DATA_PAGED),
  { get: "/{type}/{id}", cost: "light", params: calculationParams, query: forecastDataQuery, 200: calculationAnswer("The calculation") },
);

/** The results table's page of a forecast's rows (docs/user-guide.md: 5 rows a page). */
export const FORECAST_ROWS_PAGE_SIZE = LIMITS.page.forecastRows;
/** GET {id}/rows/: `limit` (1–100, default 5) rows from `offset`; `above=true`: only those above the limit. */
export const forecastRowsQuery = z.object({ ...pageParams(), above: booleanParam });

export const forecastRowsRoute = route(
  calculationScoped(
    "forecastRows",
    "A page of a forecast's rows (regres_methane; other types 404)",
    [400, 404],
    "The results table's page: `limit` rows (1–100, default 5) from `offset`, of every row or, with `above=true`, of the rows whose forecast is above the forecast's limit. `count` counts them all.",
  ),
  {
    get: "/{type}/{id}/rows",
    cost: "light",
    params: calculationParams,
    query: forecastRowsQuery,
    200: json(forecastRowsPageSchema, "A page of rows"),
  },
);

export const forecastChartRoute = route(
  calculationScoped(
    "forecastChart",
    "A forecast's measured vs forecast values with the band, thinned for its chart (regres_methane; other types 404)",
    [404],
    "At most 2 000 rows: a longer forecast is cut into buckets of consecutive rows, each sent as its lowest and highest measured and forecast value, and every row at or above the forecast's warning level is sent while they are at most 1 000; a peak is never smoothed away. `peak` is the row with the highest forecast.",
  ),
  { get: "/{type}/{id}/chart", cost: "light", params: calculationParams, 200: json(forecastChartSchema, "The chart's points") },
);

// Read by the handler (readJson): a form labelled body answers 415, as before the document was generated.
export const dataUpdateRoute = route(
  calculationScoped(
    "forecastDataUpdate",
    "Edit a forecast's data rows and predict again (regres_methane; other types 404)",
    [400, 404, 409, 429],
  ),
  {
    patch: "/{type}/{id}/data_update",
    cost: "heavy",
    params: calculationParams,
    body: { required: true, content: { "application/json": { schema: inputJsonSchema(dataUpdateBody) } } },
    200: calculationAnswer(`The forecast with the first ${FORECAST_DATA_PAGE_MAX} of its rows`),
  },
);

export const patchRoute = route(
  calculationScoped(
    "patchCalculation",
    "Edit (recomputed when an input changes), archive or restore a calculation",
    [400, 404, 409, 415, 429],
  ),
  {
    patch: "/{type}/{id}",
    // Light as JSON (typed inputs under the JSON cap, read with the user); a form with a file takes its
    // heavy-work slot before its body at the mount (http/calculations.ts uploadSlot).
    cost: "light",
    params: calculationParams,
    body: calculationBody("patch"),
    bodyCap: "form",
    200: calculationAnswer("The calculation"),
  },
);

/** Every route of v1/{type}/ above, in the order http/calculations.ts serves them. */
export const CALCULATION_ROUTES = [
  listRoute,
  createRoute,
  templateRoute,
  singleRoute,
  fileRoute,
  getRoute,
  forecastRowsRoute,
  forecastChartRoute,
  dataUpdateRoute,
  patchRoute,
] as const;
