// The route types the web app's typed client is built from (web/src/api/client.ts, hono/client's
// hc): each sub-app's chained routes carry their paths, inputs and answers as declared once with
// their zod schemas. Types only: nothing of the server reaches the browser bundle.
import type { calculationRoutes } from "./http/calculations";
import type { dictionaryRoutes } from "./http/dictionaries";
import type { facilityRoutes } from "./http/facilities";
import type { forecastModelRoutes } from "./http/forecast-models";
import type { inventoryRoutes } from "./http/inventory";
import type { projectRoutes } from "./http/projects";

/** v1/projects/ (mounted there by app.ts). */
export type ProjectRoutes = typeof projectRoutes;

/** v1/facilities/ (mounted there by app.ts). */
export type FacilityRoutes = typeof facilityRoutes;

/** v1/inventory/ (mounted there by app.ts): the year's inventory, totals by year, review and comments. */
export type InventoryRoutes = typeof inventoryRoutes;

/** v1/ (mounted there by app.ts, last): a calculation type's list, create, get, edit, files and templates. */
export type CalculationRoutes = typeof calculationRoutes;

/** v1/dictionary/ (mounted there by app.ts): the reference dictionaries and an entry's versions. */
export type DictionaryRoutes = typeof dictionaryRoutes;

/** v1/forecast_models/ (mounted there by app.ts): the GBDT model versions, their files, upload and activation. */
export type ForecastModelRoutes = typeof forecastModelRoutes;
