// v1/forecast_models/, declared: the XGBoost and LightGBM models behind regres_methane, their
// files, upload and activation (admin). Served by http/forecast-models.ts.
import * as z from "zod";
import { forecastCalibrationSchema, forecastModelSchema } from "../schemas/answers";
import { MODEL_DESCRIPTION_MAX } from "../schemas/limits";
import { exportJobSchema } from "./export-jobs";
import { FORECAST_UPLOAD_FIELDS } from "../schemas/calculation-body";
import { access, binaryFile, formBody, json, pathParam, route, userAccess } from "./declare";

export const activateBody = z.object({ is_active: z.literal(true, "можно только выбрать модель активной (true)") });

/** A company's own version changed by its people: chosen for its forecasts (true) or left for the
 *  platform's (false), its description (how the company names it), archived or restored. */
export const ownModelBody = z
  .object({
    is_active: z.optional(z.boolean("ожидается true или false")),
    description: z.optional(z.string("ожидается строка").max(MODEL_DESCRIPTION_MAX, `не длиннее ${MODEL_DESCRIPTION_MAX} символов`)),
    archived: z.optional(z.boolean("ожидается true или false")),
  })
  .refine((b) => b.is_active !== undefined || b.description !== undefined || b.archived !== undefined, {
    message: "Укажите, что изменить: is_active, description или archived",
  });

const PLATFORM_WIDE = {
  scope: "platform",
  note: "forecast models are platform-wide, besides a company's own trained versions, which only that company lists and reads (another company's id is 404)",
} as const;
const ADMINS_CHANGE = { scope: "platform", note: "forecast models are platform-wide; only admins change them (staff 403)" } as const;
/** Every company lists and reads the platform's models; admins change them; a company's own
 *  versions (trained, calibrated) are its people's. */
const platformModels = userAccess("forecast models", PLATFORM_WIDE);
const adminModels = access("forecast models", "admin", ADMINS_CHANGE);
const ownModels = userAccess("forecast models", { scope: "own" });

/** The method in the path; another one answers 400 (domain/forecast/models.ts). */
const methodParam = pathParam("Forecast method: xgboost or lightgbm");
const versionId = pathParam("Model version id");
const methodParams = z.object({ method: methodParam });
const versionParams = z.object({ method: methodParam, id: versionId });
const versionIdParams = z.object({ id: versionId });
const modelFiles = { "application/json": binaryFile("XGBoost JSON"), "text/plain": binaryFile("LightGBM text") };

export const listRoute = route(platformModels("listForecastModels", "Model versions per forecast method", []), {
  get: "/",
  cost: "light",
  200: json(
    z.object({
      results: z.array(
        z.object({
          method: z.string(),
          versions: z.array(forecastModelSchema),
          horizons: z
            .array(forecastModelSchema)
            .optional()
            .meta({ description: "the platform's default models that forecast ahead, one per horizon (XGBoost)" }),
        }),
      ),
      count: z.int(),
    }),
    "Per method",
  ),
});

export const activeFileRoute = route(
  platformModels("activeForecastModelFile", "The active model file of a method (the browser runs it for the live preview)", [404]),
  {
    get: "/{method}/active/file",
    cost: "light",
    params: methodParams,
    200: { description: "XGBoost JSON or LightGBM text", content: modelFiles },
  },
);

export const fileRoute = route(platformModels("forecastModelFile", "A model version's file by its id (immutable, cacheable)", [404]), {
  get: "/{method}/{id}/file",
  cost: "light",
  params: versionParams,
  200: { description: "XGBoost JSON or LightGBM text", content: modelFiles },
});

// The form is read by the handler after the role check, so it is described, not validated, here.
export const uploadRoute = route(
  adminModels(
    "uploadForecastModel",
    "Upload a model version (admin); parsed and test-predicted first; recorded in the admin change log",
    [400, 404],
  ),
  {
    post: "/{method}",
    cost: "heavy",
    params: methodParams,
    body: formBody({
      type: "object",
      properties: {
        file: { type: "string", format: "binary", description: "XGBoost JSON or LightGBM text model" },
        description: { type: "string" },
        activate: { type: "string", enum: ["true", "false"] },
      },
      description: "file, or file_upload (a history sent straight to storage)",
    }),
    bodyCap: "form",
    201: json(forecastModelSchema, "The model version"),
  },
);

// The form is read by the handler (a file of up to 200 000 rows), so it is described, not validated, here.
export const trainRoute = route(
  ownModels(
    "trainForecastModel",
    "Train an XGBoost model on the company's history (features with Russian headers, y, optional t) and store it as a version of the company's own, with the training's summary; recorded in the admin change log. Where the host runs training jobs (AWS, the local host) the training is a job: 202, then ask status_url until done, whose model_id names the stored version",
    [400, 413, 415, 429],
  ),
  {
    post: "/{method}/train",
    cost: "heavy",
    params: methodParams,
    body: formBody({
      type: "object",
      properties: {
        file: { type: "string", format: "binary", description: "History: .xlsx or .csv, the forecast's data columns, y, optional t" },
        params: { type: "string", description: "JSON object of training parameters by XGBoost's names (n_estimators, max_depth, ...)" },
        horizon: {
          type: "string",
          enum: ["0", "10", "30", "60", "120", "360"],
          description:
            "minutes ahead (default 0, the nowcast): above 0 the model learns y(t + h) from the readings and the measured y of the last hour, and needs the time column",
        },
        features: {
          type: "string",
          description:
            "a JSON array of the history's own column headers beyond x1…x15 the model also reads (the working's channels: the face meter, the shearer's run status and position), e.g. [\"Метан у забоя, %\"]; kept by name in the model, each then required in a forecast's rows",
        },
        description: { type: "string" },
        activate: {
          type: "string",
          enum: ["true", "false"],
          description: "true: the company's forecasts use it from now on (the nowcast only; a model ahead is picked in the forecast)",
        },
      },
      description: "file, or file_upload (a history sent straight to storage)",
    }),
    bodyCap: "form",
    201: json(forecastModelSchema, "The trained model version (a host that runs no training jobs)"),
    202: json(
      exportJobSchema,
      "The training job started (AWS, the local host): ask status_url until done; model_id then names the version",
    ),
  },
);

export const activateRoute = route(
  adminModels("activateForecastModel", "Make a model version the active one (admin); recorded in the admin change log", [400, 404]),
  {
    patch: "/{method}/{id}",
    cost: "light",
    params: versionParams,
    body: activateBody,
    200: json(forecastModelSchema, "The model version"),
  },
);

export const ownModelRoute = route(
  ownModels(
    "changeOwnForecastModel",
    "A company's own (trained) version, by its people: use it for the company's forecasts (is_active true) or go back to the platform's (false), rename it (description), archive or restore it (archived); recorded in the admin change log",
    [400, 404],
    "A platform version or another company's is 404. An archived version is never used: archiving the one in use returns the company to the platform's model, and choosing an archived one is 400.",
  ),
  {
    patch: "/{method}/{id}/own",
    cost: "light",
    params: versionParams,
    body: ownModelBody,
    200: json(forecastModelSchema, "The version as changed"),
  },
);

export const calibrateRoute = route(
  ownModels(
    "calibrateForecastModel",
    "Calibrate a model version on a longwall's history (features and measured y): split-conformal quantiles at 80, 90 and 95 %, " +
      "stored for the caller's company (staff) or for every company (admin, for=all)",
    [400, 403, 404, 413, 415],
  ),
  {
    post: "/{id}/calibration",
    cost: "heavy",
    params: versionIdParams,
    body: formBody({
      type: "object",
      properties: {
        file: { type: "string", format: "binary", description: "The forecast upload's .xlsx or .csv with the y column (and t)" },
        ...FORECAST_UPLOAD_FIELDS,
        for: { type: "string", enum: ["company", "all"], description: "company (default for staff) or all (admins only, their default)" },
      },
      description: "file, or file_upload (a history sent straight to storage)",
    }),
    bodyCap: "form",
    201: json(forecastCalibrationSchema, "The calibration stored"),
  },
);

export const calibrationRoute = route(
  ownModels(
    "forecastModelCalibration",
    "The calibration serving the caller's company for a model version (its own, else an admin's for all); 404 when none",
    [404],
  ),
  {
    get: "/{id}/calibration",
    cost: "light",
    params: versionIdParams,
    200: json(forecastCalibrationSchema, "The calibration with its residuals and observed ranges"),
  },
);

/** Every route of v1/forecast_models/ above, in the order http/forecast-models.ts serves them. */
export const FORECAST_MODEL_ROUTES = [
  listRoute,
  activeFileRoute,
  fileRoute,
  uploadRoute,
  trainRoute,
  activateRoute,
  ownModelRoute,
  calibrateRoute,
  calibrationRoute,
] as const;
