// The one Hono app. Hosts (local.ts, lambda.ts) build it from injected ports; no route logic
// lives in a host.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Deps } from "./domain/context";
import { MAX_UPLOAD_BYTES } from "./files/tabular";
import { MAX_TABULAR_UPLOAD_TEXT } from "./schemas/uploads";
import { requireUser, tokenRoutes, type ClientAddressOf } from "./http/auth";
import type { AppEnv } from "./http/env";
import { errorResponse, notFoundResponse } from "./http/errors";
import { projectRoutes } from "./http/projects";
import { dictionaryRoutes } from "./http/dictionaries";
import { calculationRoutes } from "./http/calculations";
import { evidenceRoutes } from "./http/evidence";
import { forecastModelRoutes } from "./http/forecast-models";
import { userRoutes } from "./http/users";
import { adminRoutes } from "./http/admin";
import { adminUploadLimits } from "./http/uploads";
import { documentRoutes } from "./http/documents";
import { mediaRoutes, mediaStreamRoutes } from "./http/media";
import { directUploadRoutes } from "./http/direct-uploads";
import { graphRoutes } from "./http/graphs";
import { uncertaintyRoutes } from "./http/uncertainty";
import { exportRoutes } from "./http/exports";
import { facilityRoutes } from "./http/facilities";
import { inventoryRoutes } from "./http/inventory";
import { inventoryReportRoutes } from "./http/inventory-report";
import { openApiRoutes } from "./http/openapi";

export interface AppOptions {
  clientAddressOf: ClientAddressOf;
}

export function createApi(deps: Deps, options: AppOptions) {
  const api = new Hono<AppEnv>({ strict: false });
  api.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  const tooLarge = bodyLimit({
    maxSize: deps.config.jsonBodyLimitBytes,
    onError: (c) => c.json({ detail: "Слишком большой запрос" }, 413),
  });
  // Uploads may be larger than JSON bodies: the file cap plus room for the form's other fields.
  const uploadTooLarge = bodyLimit({
    maxSize: MAX_UPLOAD_BYTES + 256 * 1024,
    onError: (c) => c.json({ detail: `Файл больше ${MAX_TABULAR_UPLOAD_TEXT}` }, 413),
  });
  // Admin uploads (PDF 50 MB, video 500 MB) get their own caps; everything else keeps the two above.
  const adminUpload = adminUploadLimits(deps.config);
  api.use("*", (c, next) =>
    (adminUpload(c) ??
      ((c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data") ? uploadTooLarge : tooLarge))(c, next),
  );
  api.route("/token", tokenRoutes(options.clientAddressOf));
  // Public: the route table as OpenAPI 3.1 (http/openapi.ts).
  api.route("/", openApiRoutes);
  // <video> sends no bearer header: the media stream checks its signed URL token itself, so it is
  // mounted before requireUser (it answers, and requireUser is never reached for it).
  api.route("/v1/media", mediaStreamRoutes);
  // The local stand-in for a presigned PUT (admin uploads): its signed token is its credential.
  api.route("/v1/uploads", directUploadRoutes);
  api.use("/v1/*", requireUser);
  api.route("/v1/users", userRoutes);
  api.route("/v1/projects", projectRoutes);
  api.route("/v1/projects", graphRoutes);
  api.route("/v1/projects", uncertaintyRoutes);
  api.route("/v1/projects", exportRoutes);
  api.route("/v1/dictionary", dictionaryRoutes);
  api.route("/v1/forecast_models", forecastModelRoutes);
  api.route("/v1/documents", documentRoutes);
  api.route("/v1/media", mediaRoutes);
  api.route("/v1/admin", adminRoutes);
  api.route("/v1/facilities", facilityRoutes);
  api.route("/v1/inventory", inventoryRoutes);
  api.route("/v1/inventory", inventoryReportRoutes);
  // Last: /v1/{calcType}/ would otherwise shadow the named resources above.
  api.route("/v1", evidenceRoutes);
  api.route("/v1", calculationRoutes);
  api.onError(errorResponse);

  const app = new Hono({ strict: false });
  // A refused body (too large, wrong type, no token) may be left unread, and the server then
  // closes the connection shortly after the answer: saying so in the answer keeps a keep-alive
  // client from sending its next request into a closing connection.
  app.use("*", async (c, next) => {
    await next();
    const hasBody = Number(c.req.header("content-length") ?? 0) > 0 || c.req.header("transfer-encoding") !== undefined;
    if (c.res.status === 413 || (c.res.status >= 400 && hasBody)) c.res.headers.set("Connection", "close");
  });
  app.route("/api", api);
  app.onError(errorResponse);
  app.notFound(notFoundResponse);
  return app;
}

export type ApiApp = ReturnType<typeof createApi>;
