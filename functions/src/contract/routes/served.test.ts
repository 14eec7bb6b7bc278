// The web's typed client takes its types from the declarations (contract/route-types.ts); the server
// serves sub-apps built from the same declarations. Each sub-app must serve exactly its declared
// routes, so the client's types are the routes that answer.
import { describe, expect, it } from "vitest";
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import { adminRoutes } from "../../http/admin";
import { tokenRoutes } from "../../http/auth";
import { calculationRoutes } from "../../http/calculations";
import { dictionaryRoutes } from "../../http/dictionaries";
import { directUploadRoutes } from "../../http/direct-uploads";
import { documentRoutes } from "../../http/documents";
import { evidenceRoutes } from "../../http/evidence";
import { exportRoutes } from "../../http/exports";
import { facilityRoutes } from "../../http/facilities";
import { forecastModelRoutes } from "../../http/forecast-models";
import { forecastRoutes } from "../../http/forecast";
import { graphRoutes } from "../../http/graphs";
import { inventoryRoutes } from "../../http/inventory";
import { inventoryReportRoutes } from "../../http/inventory-report";
import { mediaRoutes, mediaStreamRoutes } from "../../http/media";
import { openApiRoutes } from "../../http/openapi";
import { projectRoutes } from "../../http/projects";
import { signingKeyRoutes } from "../../http/signing-keys";
import { uncertaintyRoutes } from "../../http/uncertainty";
import { userRoutes } from "../../http/users";
import { ADMIN_ROUTES } from "./admin";
import { TOKEN_ROUTES } from "./auth";
import { CALCULATION_ROUTES } from "./calculations";
import { DICTIONARY_ROUTES } from "./dictionaries";
import { DIRECT_UPLOAD_ROUTES } from "./direct-uploads";
import { DOCUMENT_ROUTES } from "./documents";
import { EVIDENCE_ROUTES } from "./evidence";
import { EXPORT_ROUTES } from "./exports";
import { FACILITY_ROUTES } from "./facilities";
import { FORECAST_MODEL_ROUTES } from "./forecast-models";
import { FORECAST_ROUTES } from "./forecast";
import { GRAPH_ROUTES } from "./graphs";
import { INVENTORY_ROUTES } from "./inventory";
import { INVENTORY_REPORT_ROUTES } from "./inventory-report";
import { MEDIA_ROUTES, MEDIA_STREAM_ROUTES } from "./media";
import { OPENAPI_ROUTES } from "./openapi";
import { PROJECT_ROUTES } from "./projects";
import { SIGNING_KEY_ROUTES } from "./signing-keys";
import { UNCERTAINTY_ROUTES } from "./uncertainty";
import { USER_ROUTES } from "./users";

const served = (app: OpenAPIHono<any, any, any>) =>
  app.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [`${d.route.method} ${d.route.path} ${d.route.operationId}`] : []));
const declared = (routes: readonly RouteConfig[]) => routes.map((r) => `${r.method} ${r.path} ${r.operationId}`);

describe("typed sub-apps serve their declarations", () => {
  it.each([
    ["v1/projects", projectRoutes, PROJECT_ROUTES],
    ["v1/facilities", facilityRoutes, FACILITY_ROUTES],
    ["v1/inventory", inventoryRoutes, INVENTORY_ROUTES],
    ["v1/{type}", calculationRoutes, CALCULATION_ROUTES],
    ["v1/dictionary", dictionaryRoutes, DICTIONARY_ROUTES],
    ["v1/forecast_models", forecastModelRoutes, FORECAST_MODEL_ROUTES],
    ["v1/forecast", forecastRoutes, FORECAST_ROUTES],
    ["token", tokenRoutes, TOKEN_ROUTES],
    ["openapi.json", openApiRoutes, OPENAPI_ROUTES],
    ["v1/users", userRoutes, USER_ROUTES],
    ["v1/projects (graphs)", graphRoutes, GRAPH_ROUTES],
    ["v1/projects (uncertainty)", uncertaintyRoutes, UNCERTAINTY_ROUTES],
    ["v1/projects (exports)", exportRoutes, EXPORT_ROUTES],
    ["v1/documents", documentRoutes, DOCUMENT_ROUTES],
    ["v1/media", mediaRoutes, MEDIA_ROUTES],
    ["v1/media (stream)", mediaStreamRoutes, MEDIA_STREAM_ROUTES],
    ["v1/uploads", directUploadRoutes, DIRECT_UPLOAD_ROUTES],
    ["v1/signing-keys", signingKeyRoutes, SIGNING_KEY_ROUTES],
    ["v1/admin", adminRoutes, ADMIN_ROUTES],
    ["v1/inventory (report)", inventoryReportRoutes, INVENTORY_REPORT_ROUTES],
    ["v1/{type} (evidence)", evidenceRoutes, EVIDENCE_ROUTES],
  ] as const)("%s", (_mount, app, routes) => {
    expect(served(app)).toEqual(declared(routes));
  });
});
