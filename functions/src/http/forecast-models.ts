// v1/forecast_models/: the XGBoost and LightGBM models behind regres_methane. Everyone signed in
// can see them and download the active file (the browser runs it for the live preview); only an
// admin uploads a new version or chooses the active one.
import { wholeList } from "../contract/routes/declare";
import type { Context } from "hono";
import type { ForecastModelVersion } from "../ports";
import type { UploadedFile } from "../files/tabular";
import {
  activateForecastModel,
  activeModelVersion,
  changeOwnModel,
  forecastMethod,
  getForecastModel,
  listForecastModels,
  defaultLaggedModels,
  modelFileBody,
  modelView,
  requireAdmin,
  uploadForecastModel,
} from "../domain/forecast/models";
import { Invalid, invalidAt } from "../domain/errors";
import { FORECAST_METHODS } from "@core/registry";
import type { AppEnv } from "./env";
import { routeApp } from "./openapi-routes";
import {
  activateRoute,
  activeFileRoute,
  calibrateRoute,
  calibrationRoute,
  fileRoute,
  listRoute,
  ownModelRoute,
  trainRoute,
  uploadRoute,
} from "../contract/routes/forecast-models";
import { calibrationFor, calibrationSummaryFor, calibrationView, modelById } from "../domain/forecast/calibration";
import { calibrateForecastModel } from "../domain/forecast/calibrating";
import { NotFound } from "../domain/errors";
import { readUploadForm } from "./multipart";
import { heavyWork } from "../domain/heavy-work";
import {
  startTrainingJob,
  trainForecastModel,
  trainingFeatures,
  trainingHorizon,
  trainingParams,
  trainsAsJob,
} from "../domain/forecast/training";
import { jobAnswer, slotBeforeBody } from "./heavy-file";
import { FILE_UPLOAD_FIELD, FILE_UPLOAD_NAME_FIELD, withForecastUpload } from "../domain/forecast/uploads";

export async function modelFile(c: Context<AppEnv>, version: ForecastModelVersion, cacheControl: string): Promise<Response> {
  const { body, size } = await modelFileBody(c.get("deps"), version);
  return c.body(body, 200, {
    ...(size === undefined ? {} : { "Content-Length": String(size) }),
    "Content-Type": version.library === "xgboost" ? "application/json" : "text/plain; charset=utf-8",
    "X-Model-Id": version.id,
    "X-Model-Version": String(version.version),
    "Cache-Control": cacheControl,
  });
}

/** zod-openapi types a JSON or text answer by its schema; a model file is passed through as it is stored. */
const fileAnswer = (response: Response) => response as never;

export const forecastModelRoutes = routeApp()
  .openapi(listRoute, async (c) => {
    const deps = c.get("deps");
    const company = c.get("actor").company;
    const results = await Promise.all(
      FORECAST_METHODS.map(async (method) => ({
        method,
        versions: await Promise.all(
          (await listForecastModels(deps, method, company)).map(async (version) => ({
            ...modelView(version),
            calibration: await calibrationSummaryFor(deps, company, version),
          })),
        ),
        horizons: await Promise.all(
          (await defaultLaggedModels(deps))
            .filter((version) => version.method === method)
            .map(async (version) => ({
              ...modelView(version),
              calibration: await calibrationSummaryFor(deps, company, version),
            })),
        ),
      })),
    );
    return c.json(wholeList(results), 200);
  })
  .openapi(activeFileRoute, async (c) => {
    const deps = c.get("deps");
    const version = await activeModelVersion(deps, forecastMethod(c.req.valid("param").method), c.get("actor").company);
    // Which version is active may change; the id in the header tells the client which one it got.
    return fileAnswer(await modelFile(c, version, "private, max-age=60"));
  })
  .openapi(fileRoute, async (c) => {
    const deps = c.get("deps");
    const { method, id } = c.req.valid("param");
    const version = await getForecastModel(deps, forecastMethod(method), id, c.get("actor").company);
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
    if (!(file instanceof File)) throw invalidAt("file", "прикрепите файл модели");
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
  .openapi(trainRoute, async (c) => {
    const method = forecastMethod(c.req.valid("param").method);
    if (method !== "xgboost") throw invalidAt("method", "обучить в платформе можно модель XGBoost (xgboost)");
    const deps = c.get("deps");
    const actor = c.get("actor");
    // The slot before the form (a history of megabytes) is read; the job holds it until it ends,
    // the training inside the call until it answers.
    const slot = await slotBeforeBody(c);
    try {
      const { fields, file } = await readUploadForm(c, "file", "history.csv");
      const wanted = {
        params: trainingParams(fields.params),
        horizon: trainingHorizon(fields.horizon),
        features: trainingFeatures(fields.features),
        description: fields.description ?? "",
        activate: fields.activate === "true",
      };
      const train = async (history: UploadedFile) => {
        // A job where the host runs training jobs (AWS: the job function; the local host: a thread).
        if (trainsAsJob(deps)) return jobAnswer(c, await startTrainingJob(deps, actor, history, wanted, slot));
        const model = await trainForecastModel(deps, { ...actor, heavySlot: true }, history, wanted);
        await slot();
        return c.json(modelView(model), 201);
      };
      const upload = fields[FILE_UPLOAD_FIELD];
      if (upload === undefined) {
        if (!file) throw invalidAt("file", "прикрепите файл истории (.xlsx или .csv)");
        return await train(file);
      }
      // A history sent straight to storage (domain/forecast/uploads.ts): up to a year of 10-minute
      // readings, more than a request carries; read, handed to the training and deleted.
      if (file) throw invalidAt(FILE_UPLOAD_FIELD, "отправьте либо файл (file), либо ключ загруженного файла");
      return await withForecastUpload(deps, actor, upload, fields[FILE_UPLOAD_NAME_FIELD], train);
    } catch (error) {
      // Given back once (a job that failed to start gave it back already).
      await slot();
      throw error;
    }
  })
  .openapi(activateRoute, async (c) => {
    const { method, id } = c.req.valid("param");
    const model = await activateForecastModel(c.get("deps"), c.get("actor"), forecastMethod(method), id);
    return c.json(modelView(model), 200);
  })
  .openapi(ownModelRoute, async (c) => {
    const { method, id } = c.req.valid("param");
    const model = await changeOwnModel(c.get("deps"), c.get("actor"), forecastMethod(method), id, c.req.valid("json"));
    return c.json(modelView(model), 200);
  })
  .openapi(calibrateRoute, async (c) => {
    const deps = c.get("deps");
    const actor = c.get("actor");
    // Reading and forecasting a year of 10-minute rows is heavy work (domain/heavy-work.ts).
    const calibration = await heavyWork(deps, actor, async () => {
      const { fields, file } = await readUploadForm(c, "file", "history.csv");
      const upload = fields[FILE_UPLOAD_FIELD];
      if (upload === undefined) return calibrateForecastModel(deps, actor, c.req.valid("param").id, file, fields.for);
      // A history sent straight to storage (domain/forecast/uploads.ts), read and then deleted.
      if (file) throw invalidAt(FILE_UPLOAD_FIELD, "отправьте либо файл (file), либо ключ загруженного файла");
      return withForecastUpload(deps, actor, upload, fields[FILE_UPLOAD_NAME_FIELD], (stored) =>
        calibrateForecastModel(deps, actor, c.req.valid("param").id, stored, fields.for),
      );
    });
    return c.json(calibrationView(calibration), 201);
  })
  .openapi(calibrationRoute, async (c) => {
    const deps = c.get("deps");
    const version = await modelById(deps, c.req.valid("param").id, c.get("actor").company);
    const calibration = await calibrationFor(deps, c.get("actor").company, version);
    if (!calibration) throw new NotFound("Модель не откалибрована: загрузите историю с фактической концентрацией");
    return c.json(calibrationView(calibration), 200);
  });
