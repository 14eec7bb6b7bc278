// v1/forecast_models/: the XGBoost and LightGBM models behind regres_methane. Everyone signed in
// can see them and download the active file (the browser runs it for the live preview); only an
// admin uploads a new version or chooses the active one.
import type { Context } from "hono";
import type { ForecastModelVersion } from "../ports";
import * as z from "zod";
import {
  FORECAST_METHODS,
  activateForecastModel,
  activeModelVersion,
  forecastMethod,
  getForecastModel,
  listForecastModels,
  modelText,
  modelView,
  requireAdmin,
  uploadForecastModel,
} from "../domain/forecast-models";
import { Invalid } from "../domain/errors";
import { forecastModelSchema } from "../schemas/answers";
import type { AppEnv } from "./env";
import { binaryFile, declareRoute, json, jsonBody, pathParam, routeApp, type Access } from "./openapi-routes";

export async function modelFile(c: Context<AppEnv>, version: ForecastModelVersion, cacheControl: string): Promise<Response> {
  return c.body(await modelText(c.get("deps"), version), 200, {
    "Content-Type": version.library === "xgboost" ? "application/json" : "text/plain; charset=utf-8",
    "X-Model-Id": version.id,
    "X-Model-Version": String(version.version),
    "Cache-Control": cacheControl,
  });
}

export const activateBody = z.object({ is_active: z.literal(true, "is_active: можно только выбрать модель активной (true)") });

const PLATFORM_WIDE = { scope: "platform", note: "forecast models are platform-wide" } as const;
const ADMINS_CHANGE = { scope: "platform", note: "forecast models are platform-wide; only admins change them (staff 403)" } as const;
const models = (access: Omit<Access, "tag">): Access => ({ ...access, tag: "forecast models" });

/** The method in the path; another one answers 400 (domain/forecast-models.ts). */
const methodParam = pathParam("Forecast method: xgboost or lightgbm");
const versionId = pathParam("Model version id");
/** zod-openapi types a JSON or text answer by its schema; a model file is passed through as it is stored. */
const fileAnswer = (response: Response) => response as never;
const modelFiles = { "application/json": binaryFile("XGBoost JSON"), "text/plain": binaryFile("LightGBM text") };

const listRoute = declareRoute(
  models({
    operationId: "listForecastModels",
    summary: "Model versions per forecast method",
    auth: "user",
    isolation: PLATFORM_WIDE,
    errors: [],
  }),
  {
    method: "get",
    path: "/",
    responses: {
      200: json(
        z.object({ results: z.array(z.object({ method: z.string(), versions: z.array(forecastModelSchema) })), count: z.int() }),
        "Per method",
      ),
    },
  },
);

const activeFileRoute = declareRoute(
  models({
    operationId: "activeForecastModelFile",
    summary: "The active model file of a method (the browser runs it for the live preview)",
    auth: "user",
    isolation: PLATFORM_WIDE,
    errors: [404],
  }),
  {
    method: "get",
    path: "/{method}/active/file",
    request: { params: z.object({ method: methodParam }) },
    responses: { 200: { description: "XGBoost JSON or LightGBM text", content: modelFiles } },
  },
);

const fileRoute = declareRoute(
  models({
    operationId: "forecastModelFile",
    summary: "A model version's file by its id (immutable, cacheable)",
    auth: "user",
    isolation: PLATFORM_WIDE,
    errors: [404],
  }),
  {
    method: "get",
    path: "/{method}/{id}/file",
    request: { params: z.object({ method: methodParam, id: versionId }) },
    responses: { 200: { description: "XGBoost JSON or LightGBM text", content: modelFiles } },
  },
);

// The form is read by the handler after the role check, so it is described, not validated, here.
const uploadRoute = declareRoute(
  models({
    operationId: "uploadForecastModel",
    summary: "Upload a model version (admin); parsed and test-predicted first; recorded in the admin change log",
    auth: "admin",
    isolation: ADMINS_CHANGE,
    errors: [400, 404],
  }),
  {
    method: "post",
    path: "/{method}",
    request: {
      params: z.object({ method: methodParam }),
      body: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: {
                file: { type: "string", format: "binary", description: "XGBoost JSON or LightGBM text model" },
                description: { type: "string" },
                activate: { type: "string", enum: ["true", "false"] },
              },
              required: ["file"],
            },
          },
        },
      },
    },
    responses: { 201: json(forecastModelSchema, "The model version") },
  },
);

const activateRoute = declareRoute(
  models({
    operationId: "activateForecastModel",
    summary: "Make a model version the active one (admin); recorded in the admin change log",
    auth: "admin",
    isolation: ADMINS_CHANGE,
    errors: [400, 404],
  }),
  {
    method: "patch",
    path: "/{method}/{id}",
    request: { params: z.object({ method: methodParam, id: versionId }), body: jsonBody(activateBody) },
    responses: { 200: json(forecastModelSchema, "The model version") },
  },
);

export const forecastModelRoutes = routeApp()
  .openapi(listRoute, async (c) => {
    const deps = c.get("deps");
    const results = await Promise.all(
      FORECAST_METHODS.map(async (method) => ({ method, versions: (await listForecastModels(deps, method)).map(modelView) })),
    );
    return c.json({ results, count: results.length }, 200);
  })
  .openapi(activeFileRoute, async (c) => {
    const deps = c.get("deps");
    const version = await activeModelVersion(deps, forecastMethod(c.req.valid("param").method));
    // Which version is active may change; the id in the header tells the client which one it got.
    return fileAnswer(await modelFile(c, version, "private, max-age=60"));
  })
  .openapi(fileRoute, async (c) => {
    const deps = c.get("deps");
    const { method, id } = c.req.valid("param");
    const version = await getForecastModel(deps, forecastMethod(method), id);
    // A stored version never changes, so the browser may keep it.
    return fileAnswer(await modelFile(c, version, "private, max-age=31536000, immutable"));
  })
  .openapi(uploadRoute, async (c) => {
    // The role first: a staff user learns nothing about the form it sent.
    requireAdmin(c.get("actor"));
    const method = forecastMethod(c.req.valid("param").method);
    let form: Record<string, string | File>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new Invalid("Ожидается форма multipart/form-data с файлом модели (file)");
    }
    const file = form.file;
    if (!(file instanceof File)) throw new Invalid("file: прикрепите файл модели");
    const model = await uploadForecastModel(
      c.get("deps"),
      c.get("actor"),
      method,
      { name: file.name || "model", bytes: new Uint8Array(await file.arrayBuffer()) },
      typeof form.description === "string" ? form.description : "",
      form.activate === "true",
    );
    return c.json(modelView(model), 201);
  })
  .openapi(activateRoute, async (c) => {
    const { method, id } = c.req.valid("param");
    const model = await activateForecastModel(c.get("deps"), c.get("actor"), forecastMethod(method), id);
    return c.json(modelView(model), 200);
  });
