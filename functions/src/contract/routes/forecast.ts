// v1/forecast/, declared: what-if along one feature and the air needed, for one row of a
// longwall's readings and a model version (domain/forecast/what-if.ts). Served by http/forecast.ts.
import * as z from "zod";
import { idString } from "../schemas/common";
import { FORECAST_FEATURES } from "@core/registry";
import { forecastCalibrationSchema, uploadGrantSchema } from "../schemas/answers";
import { MAX_FORECAST_UPLOAD_BYTES } from "../schemas/uploads";
import { declaredFile } from "./admin";
import { json, route, userAccess } from "./declare";

/** Calibrations are read for the caller's company; nothing of another company is reachable. */
const own = userAccess("forecast", { scope: "own" });

const featureRowSchema = z.record(z.string(), z.unknown()).meta({
  description: `The row's features (${FORECAST_FEATURES.join(", ")}): a number ≥ 0 or null (missing); and each of the model's named features (its \`features\`) by its name, required`,
});
const levelSchema = z.number().optional().meta({ description: "The interval's level, %: 80, 90 (default) or 95" });
const limitSchema = z.number().optional().meta({ description: "The CH4 limit, % (default 1,0)" });

const pointSchema = z.object({
  value: z.number().meta({ description: "the varied feature's value" }),
  result: z.number().meta({ description: "forecast CH4, %" }),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
  p_exceed: z.number().nullable().meta({ description: "the chance (0–1) of reaching the limit" }),
});
const modelSchema = z.object({
  id: z.string(),
  method: z.string(),
  version: z.int(),
  library: z.string(),
  library_version: z.string(),
  description: z.string(),
});
const calibrationSummarySchema = forecastCalibrationSchema.omit({ residuals: true, ranges: true }).nullable();
/** What an answer along a feature (what-if, air needed) says first: the model and its calibration, the
 *  interval's level, the limit and the feature. */
const alongFeature = {
  model: modelSchema,
  calibration: calibrationSummarySchema,
  level: z.number(),
  limit: z.number(),
  feature: z.string(),
};

export const whatIfBody = z.object({
  model: idString().meta({ description: "The model version's id" }),
  row: featureRowSchema,
  vary: z.object({
    feature: z.string().meta({ description: "The feature to vary" }),
    from: z.number(),
    to: z.number(),
    steps: z.number().optional().meta({ description: "Equal steps from `from` to `to` (1–1000, default 20): steps + 1 points" }),
  }),
  level: levelSchema,
  limit: limitSchema,
});

export const airNeededBody = z.object({
  model: idString().meta({ description: "The model version's id" }),
  row: featureRowSchema.meta({
    description: `The row's features (${FORECAST_FEATURES.join(", ")}) and optionally y, the measured CH4 % (absent: the model's forecast for the row)`,
  }),
  limit: limitSchema,
  confidence: levelSchema,
  inflow: z.number().optional().meta({ description: "measured methane inflow into the longwall's air, m³/min (absent: y·x1/100)" }),
  intake: z.number().optional().meta({ description: "CH4 in the intake air, % (default 0)" }),
  range: z
    .tuple([z.number(), z.number()])
    .optional()
    .meta({ description: "the air flow range to search and show, m³/min (default: the calibration's observed range)" }),
});

export const whatIfRoute = route(
  own(
    "forecastWhatIf",
    "The forecast of one row along one feature, with the interval and the chance of reaching the limit where calibrated",
    [400, 404],
  ),
  {
    post: "/what_if",
    cost: "light",
    body: whatIfBody,
    200: json(z.object({ ...alongFeature, points: z.array(pointSchema) }), "The points along the feature"),
  },
);

export const airNeededRoute = route(
  own(
    "forecastAirNeeded",
    "The air the longwall needs by the ventilation formula Q = 100·q/(C_limit − C_in) with the interval's margin, and beside it the model's what-if along x1 (points outside its training range flagged) and the least x1 inside that range from which the forecast's upper bound stays below the limit",
    [400, 404, 409],
  ),
  {
    post: "/air_needed",
    cost: "light",
    body: airNeededBody,
    200: json(
      z.object({
        ...alongFeature,
        recommended: z.number().nullable().meta({
          description:
            "the air to recommend, m³/min: the larger of the formula Q = 100·(q + margin)/(C_limit − C_in) and the model's x1 (never below the formula); null when C_in ≥ the limit",
        }),
        recommended_by: z
          .enum(["formula", "model"])
          .nullable()
          .meta({ description: "which of the two `recommended` is; null with no recommendation" }),
        model_below_formula: z
          .boolean()
          .meta({ description: "the model's x1 is below the formula's: shown beside it, never as a lower bound" }),
        recommendation: z.string().meta({
          description:
            "the recommendation in Russian: the formula's, with its inflow, margin and intake, or the model's where it asks for more",
        }),
        formula: z.object({
          inflow: z.number().meta({ description: "q, m³/min" }),
          inflow_source: z.enum(["measured", "concentration"]),
          concentration: z.number().nullable().meta({ description: "the y (%) q was computed from: measured, else forecast" }),
          intake: z.number(),
          limit: z.number(),
          margin: z.number().meta({ description: "the interval's half-width at the confidence as inflow, m³/min" }),
          needed: z.number().nullable(),
        }),
        what_if: z
          .array(pointSchema.extend({ outside: z.boolean().meta({ description: "outside the model's training (calibration) range" }) }))
          .meta({ description: "the model's forecast along x1 over the range, 21 points; those outside are never used for the answer" }),
        outside_label: z.string().meta({ description: "how a point outside is flagged: «вне данных обучения»" }),
        reachable: z.boolean().meta({ description: "the model's search (beside the formula): reachable inside the data it learned from" }),
        x1: z.number().nullable().meta({ description: "the model's least x1, m³/min; null when unreachable in the range" }),
        range: z
          .tuple([z.number(), z.number()])
          .meta({ description: "where the model searched: the user's range within x1's observed range in the calibration, m³/min" }),
        at: pointSchema
          .nullable()
          .meta({ description: "the forecast at x1 (unreachable: at the range's top); null when no point is inside" }),
        below: pointSchema.nullable().meta({ description: "the forecast at the next lower x1 step, whose upper bound reaches the limit" }),
        detail: z.string().meta({ description: "the answer in Russian" }),
      }),
      "The air needed",
    ),
  },
);

export const forecastUploadUrlBody = z.object(declaredFile);

export const forecastUploadUrlRoute = route(
  own(
    "forecastUploadUrl",
    `Where to PUT a forecast's or a calibration's history (.csv or .xlsx, ≤ ${MAX_FORECAST_UPLOAD_BYTES / 1048576} MB) straight to storage`,
    [400, 413, 415, 429],
    "Checks the declared type (text/csv or the .xlsx type, else 415) and size (else 413), and takes the size from the user's " +
      "and the company's budgets of histories uploaded and not yet used (else 429 with Retry-After). Answers a URL valid for 15 minutes " +
      "(an S3 presigned PUT of exactly the declared size in AWS, the API's PUT /api/v1/uploads/ locally, good for one PUT) and " +
      "file_upload, the object's key: the forecast (POST/PATCH v1/regres_methane/) or the calibration names it in its form " +
      "instead of the file; it is read, checked as the file would be and deleted after that one use (a dry run reads it and keeps it for the save).",
  ),
  {
    post: "/upload-url",
    cost: "light",
    body: forecastUploadUrlBody,
    200: json(
      uploadGrantSchema.extend({
        file_upload: z.string().meta({
          description:
            "The uploaded object's key (forecast-uploads/{company}/{user}/{day}/{id}.csv|xlsx): send it as the form's file_upload",
        }),
      }),
      "The upload URL and the key",
    ),
  },
);

/** Every route of v1/forecast/ above, in the order http/forecast.ts serves them. */
export const FORECAST_ROUTES = [whatIfRoute, airNeededRoute, forecastUploadUrlRoute] as const;
