// v1/forecast_models/: the XGBoost and LightGBM models behind regres_methane. Everyone signed in
// can see them and download the active file (the browser runs it for the live preview); only an
// admin uploads a new version or chooses the active one.
import { Hono, type Context } from "hono";
import type { ForecastModelVersion } from "../ports";
import * as z from "zod/mini";
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
import type { AppEnv } from "./env";
import { parseWith, readJson } from "./validate";

export async function modelFile(c: Context<AppEnv>, version: ForecastModelVersion, cacheControl: string) {
  return c.body(await modelText(c.get("deps"), version), 200, {
    "Content-Type": version.library === "xgboost" ? "application/json" : "text/plain; charset=utf-8",
    "X-Model-Id": version.id,
    "X-Model-Version": String(version.version),
    "Cache-Control": cacheControl,
  });
}

export const activateBody = z.object({ is_active: z.literal(true, "is_active: можно только выбрать модель активной (true)") });

export const forecastModelRoutes = new Hono<AppEnv>({ strict: false })
  .get("/", async (c) => {
    const deps = c.get("deps");
    const results = await Promise.all(
      FORECAST_METHODS.map(async (method) => ({ method, versions: (await listForecastModels(deps, method)).map(modelView) })),
    );
    return c.json({ results, count: results.length }, 200);
  })
  .get("/:method/active/file", async (c) => {
    const deps = c.get("deps");
    const version = await activeModelVersion(deps, forecastMethod(c.req.param("method")));
    // Which version is active may change; the id in the header tells the client which one it got.
    return modelFile(c, version, "private, max-age=60");
  })
  .get("/:method/:id/file", async (c) => {
    const deps = c.get("deps");
    const version = await getForecastModel(deps, forecastMethod(c.req.param("method")), c.req.param("id"));
    // A stored version never changes, so the browser may keep it.
    return modelFile(c, version, "private, max-age=31536000, immutable");
  })
  .post("/:method", async (c) => {
    // The role first: a staff user learns nothing about the form it sent.
    requireAdmin(c.get("actor"));
    const method = forecastMethod(c.req.param("method"));
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
  .patch("/:method/:id", async (c) => {
    parseWith(activateBody, await readJson(c));
    const model = await activateForecastModel(c.get("deps"), c.get("actor"), forecastMethod(c.req.param("method")), c.req.param("id"));
    return c.json(modelView(model), 200);
  });
