// The web's typed client takes its types from the declarations (route-contracts.ts); the server
// serves sub-apps built from the same declarations. Each sub-app must serve exactly its declared
// routes, so the client's types are the routes that answer.
import { describe, expect, it } from "vitest";
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import { calculationRoutes } from "../http/calculations";
import { dictionaryRoutes } from "../http/dictionaries";
import { facilityRoutes } from "../http/facilities";
import { forecastModelRoutes } from "../http/forecast-models";
import { inventoryRoutes } from "../http/inventory";
import { projectRoutes } from "../http/projects";
import { CALCULATION_ROUTES } from "./calculations";
import { DICTIONARY_ROUTES } from "./dictionaries";
import { FACILITY_ROUTES } from "./facilities";
import { FORECAST_MODEL_ROUTES } from "./forecast-models";
import { INVENTORY_ROUTES } from "./inventory";
import { PROJECT_ROUTES } from "./projects";

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
  ] as const)("%s", (_mount, app, routes) => {
    expect(served(app)).toEqual(declared(routes));
  });
});
