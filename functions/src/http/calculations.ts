// v1/{type}/ (docs/api.md) served: the declarations are in routes/calculations.ts.
import { readTypedNumber } from "@core/typed-numbers";
import type { Context, MiddlewareHandler } from "hono";
import {
  ALL_TYPES,
  calculationView,
  checkReadOnlyFields,
  createCalculation,
  getStoredCalculation,
  getCalculationFile,
  calculationReadJson,
  listCalculations,
  patchCalculation,
  supportedType,
} from "../domain/calculations/calculations";
import { invalidAt, NotFound, UnsupportedMedia } from "../domain/errors";
import { getCalculation } from "../domain/calculation-lookup";
import { calculationLock } from "../domain/inventory/freeze";
import { previewCalculationUpload } from "../domain/calculations/upload-preview";
import { forecastChart, forecastRowsPage } from "../domain/forecast/results";
import { templateCsv, templateFor } from "../contract/templates";
import { inventorySourceOf } from "@core/inventory";
import type { UploadedFile } from "../files/tabular";
import type { StoredCalculation } from "../ports";
import { attachmentDisposition } from "../files/file-names";
import type { AppEnv } from "./env";
import { pendingActorOf } from "./auth";
import { withActor, type Actor } from "../domain/context";
import { routeApp } from "./openapi-routes";
import {
  createRoute,
  dataUpdateBody,
  dataUpdateRoute,
  FORECAST_ROWS_PAGE_SIZE,
  fileRoute,
  forecastChartRoute,
  forecastRowsRoute,
  getRoute,
  listRoute,
  patchRoute,
  singleRoute,
  templateRoute,
} from "../contract/routes/calculations";
import { DEFAULT_PAGE_SIZE } from "../contract/routes/projects";
import { FORECAST_DATA_PAGE_MAX } from "../contract/schemas/common";
import {
  calculationBodySchema,
  formValues,
  splitBody,
  takesForm,
  withoutAnswerFields,
  type BodyMode,
} from "../contract/schemas/calculation-body";
import { parseWith, readJson } from "./validate";
import { readUploadForm } from "./multipart";
import { slotBeforeBody } from "./heavy-file";

/** An answer already serialised (domain calculationReadJson), sent as c.json would send it; typed as
 *  the route's declared JSON answer, which its bytes are. */
const jsonBytes = (c: Context<AppEnv>, body: Uint8Array) =>
  c.body(body as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "application/json" }) as never;

/** The page of a forecast's rows a read of it answers (`data`). */
const dataPage = (query: { limit?: number; offset?: number }) => ({
  limit: query.limit ?? FORECAST_DATA_PAGE_MAX,
  offset: query.offset ?? 0,
});
import { FILE_UPLOAD_FIELD, FILE_UPLOAD_NAME_FIELD, withForecastUpload } from "../domain/forecast/uploads";
import { isCalculationType } from "@core/registry";
import { notFoundResponse } from "./errors";

/** The body of a create or edit, JSON or (a type that takes a file) a multipart form, checked
 *  against the type's own schema (contract/schemas/calculation-body.ts); a dry run's fields may
 *  all be left out but the file; an edit's is read against the calculation it edits (`current`). */
async function readBody<M extends BodyMode>(
  c: Context<AppEnv>,
  mode: M,
  dryRun = false,
  current?: { calculation: StoredCalculation; actor: Actor },
) {
  const type = supportedType(c.req.param("type")!);
  const schema = calculationBodySchema(type, mode);
  let raw: unknown;
  let file: UploadedFile | undefined;
  let upload: { key: string; name?: string } | undefined;
  if (isMultipart(c)) {
    // Formula types take JSON, but for one with an upload (underground's measurement periods, D14).
    if (!takesForm(type)) throw new UnsupportedMedia("Для этого типа расчета отправляйте JSON");
    const form = await readUploadForm(c, "file_data", "data");
    // A forecast's history sent straight to storage (domain/forecast/uploads.ts): named by its key.
    const { [FILE_UPLOAD_FIELD]: uploadKey, [FILE_UPLOAD_NAME_FIELD]: uploadName, ...fields } = form.fields;
    if (uploadKey !== undefined) {
      if (type !== "regres_methane") throw invalidAt(FILE_UPLOAD_FIELD, "загруженный в хранилище файл принимает только прогноз метана");
      if (form.file) throw invalidAt(FILE_UPLOAD_FIELD, "отправьте либо файл (file_data), либо ключ загруженного файла");
    }
    const read = formValues(type, fields, (text) => {
      const number = readTypedNumber(text);
      return number.ok ? number.value : undefined;
    });
    if (read.notJson) throw invalidAt(read.notJson, "ожидается JSON");
    raw = read.body;
    file = form.file;
    upload = uploadKey !== undefined ? { key: uploadKey, name: uploadName } : undefined;
  } else raw = await readJson(c);
  if (current) {
    // The specification's client edits by sending back what it fetched (docs/api.md).
    const sent = withoutAnswerFields(type, raw, calculationView(current.calculation));
    await checkReadOnlyFields(c.get("deps"), current.actor, current.calculation, sent.readOnly);
    raw = sent.body;
  }
  const body = parseWith(dryRun ? schema.partial() : schema, raw) as Record<string, unknown>;
  return { type, ...splitBody<M>(type, body), file, upload };
}

/** Runs `use` with the request's file: the form's, or the history its `file_upload` names, read
 *  from storage and deleted once `use` has run — kept after a dry run (`keep`), for the save that
 *  follows the preview to name it again (domain/forecast/uploads.ts). */
function withFile<T>(
  c: Context<AppEnv>,
  body: { file?: UploadedFile; upload?: { key: string; name?: string } },
  use: (file: UploadedFile | undefined) => Promise<T>,
  keep = false,
): Promise<T> {
  if (!body.upload) return use(body.file);
  return withForecastUpload(c.get("deps"), c.get("actor"), body.upload.key, body.upload.name, use, keep);
}

/** A form (a create, an edit or a preview with a file), whatever its size, takes its heavy-work slot
 *  (heavy-work.ts) before its body is read, and the domain's evaluation runs in it: a burst of
 *  uploads beyond the in-flight bound is refused at once, without the server holding every body in
 *  memory. */
const uploadSlot: MiddlewareHandler<AppEnv> = async (c, next) => {
  if ((c.req.method !== "POST" && c.req.method !== "PATCH") || !isMultipart(c)) return next();
  const release = await slotBeforeBody(c);
  try {
    c.set("actor", { ...c.get("actor"), heavySlot: true });
    await next();
  } finally {
    await release();
  }
};

/** this mount comes last, so `/:type` catches every unknown path under v1/; a type
 *  the registry does not know (`all` lists every type's) is the router's 404 before any slot, query
 *  or body is looked at. */
const knownType: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.param("type") ?? "";
  if (isCalculationType(type) || (type === ALL_TYPES && c.req.method === "GET")) return next();
  return notFoundResponse(c);
};

function withUploadSlots<A extends ReturnType<typeof routeApp>>(app: A): A {
  app.use("/:type", knownType);
  app.use("/:type/*", knownType);
  app.use("/:type", uploadSlot);
  app.use("/:type/:id", uploadSlot);
  return app;
}

const isMultipart = (c: Context) => (c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

export const calculationRoutes = withUploadSlots(routeApp())
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const [page, locked] = await Promise.all([
      listCalculations(
        c.get("deps"),
        c.get("actor"),
        c.req.valid("param").type,
        q.project,
        q.is_deleted === "true" ? "archived" : "active",
        { limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0 },
        q.role,
      ),
      calculationLock(c.get("deps"), c.get("actor").company, q.project, c.req.valid("param").type),
    ]);
    const results = page.results.map((calculation) => ({
      ...calculationView(calculation),
      ...(locked && inventorySourceOf(calculation.type) ? { locked } : {}),
    }));
    return c.json({ results, count: page.count, ...(locked ? { locked } : {}) }, 200);
  })
  .openapi(createRoute, async (c) => {
    const dryRun = ["1", "true"].includes(c.req.valid("query").dry_run ?? "");
    const body = await readBody(c, "create", dryRun);
    const { type, common, values } = body;
    if (dryRun) {
      const preview = await withFile(
        c,
        body,
        (file) => previewCalculationUpload(c.get("deps"), c.get("actor"), type, { project: common.project, values, file }),
        true,
      );
      return c.json(preview, 200);
    }
    // The user is read beside the project (http/auth.ts, requireUser).
    const created = await withFile(c, body, (file) =>
      createCalculation(c.get("deps"), pendingActorOf(c), type, { ...common, values, file }),
    );
    return c.json(calculationView(created), 201);
  })
  .openapi(templateRoute, async (c) => {
    const type = supportedType(c.req.valid("param").type);
    const { format, year } = c.req.valid("query");
    const template = templateFor(type, year);
    if (!template) throw new NotFound("Для этого типа расчета шаблона нет");
    const csv = format === "csv";
    // The .xlsx is made with exceljs behind the SpreadsheetWorker port (the worker function in AWS).
    const body = csv ? templateCsv(template) : await c.get("deps").spreadsheets.template(type, year);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": csv ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": attachmentDisposition(`Шаблон — ${template.title}.${csv ? "csv" : "xlsx"}`),
    });
  })
  .openapi(singleRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    return jsonBytes(c, await calculationReadJson(c.get("deps"), c.get("actor"), type, id, dataPage(c.req.valid("query"))));
  })
  .openapi(fileRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    const file = await getCalculationFile(c.get("deps"), c.get("actor"), type, id);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": attachmentDisposition(file.name),
    });
  })
  .openapi(getRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    return jsonBytes(c, await calculationReadJson(c.get("deps"), c.get("actor"), type, id, dataPage(c.req.valid("query"))));
  })
  .openapi(forecastRowsRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    const q = c.req.valid("query");
    const page = await forecastRowsPage(c.get("deps"), c.get("actor"), type, id, {
      limit: q.limit ?? FORECAST_ROWS_PAGE_SIZE,
      offset: q.offset ?? 0,
      above: q.above === "true",
    });
    return c.json(page, 200);
  })
  .openapi(forecastChartRoute, async (c) => {
    const { type, id } = c.req.valid("param");
    return c.json(await forecastChart(c.get("deps"), c.get("actor"), type, id), 200);
  })
  .openapi(dataUpdateRoute, async (c) => {
    // docs/api.md: the regression's data rows (with their ids) edited in a second call after the main PATCH.
    const body = parseWith(dataUpdateBody, await readJson(c));
    const deps = c.get("deps");
    const actor = c.get("actor");
    const { type, id } = c.req.valid("param");
    const current = await getCalculation(deps, actor, type, id);
    if (current.type !== "regres_methane") throw new NotFound("У этого типа расчета нет строк данных");
    const updated = await patchCalculation(deps, actor, current.type, current.id, {
      version: body.version,
      values: { data: body.data, method: current.inputs.method },
    });
    return jsonBytes(c, await calculationReadJson(deps, actor, updated.type, updated.id));
  })
  .openapi(patchRoute, async (c) => {
    const deps = c.get("deps");
    // Another company's calculation is not found before its body is read; the user is read beside
    // it (http/auth.ts, requireUser).
    const who = pendingActorOf(c);
    const [actor, current] = await withActor(who, getStoredCalculation(deps, who, c.req.valid("param").type, c.req.valid("param").id));
    const body = await readBody(c, "patch", false, { calculation: current, actor });
    const { type, common, values } = body;
    const updated = await withFile(c, body, (file) =>
      patchCalculation(deps, actor, type, current.id, { ...common, values, file }, current),
    );
    return c.json(calculationView(updated), 200);
  });
