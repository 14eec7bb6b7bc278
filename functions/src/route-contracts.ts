// The route types the web app's typed client is built from (web/src/api/client.ts, hono/client's
// hc): each sub-app's declared routes (routes/*.ts) carry their paths, inputs and answers as
// declared once with their zod schemas. Types only, from the declarations alone: nothing of the
// server reaches the browser bundle, and the web's type check never reaches the domain, the
// adapters or Node (web/tsconfig.json).
import type { CALCULATION_ROUTES } from "./routes/calculations";
import type { Served } from "./routes/declare";
import type { DICTIONARY_ROUTES } from "./routes/dictionaries";
import type { FACILITY_ROUTES } from "./routes/facilities";
import type { FORECAST_MODEL_ROUTES } from "./routes/forecast-models";
import type { INVENTORY_ROUTES } from "./routes/inventory";
import type { PROJECT_ROUTES } from "./routes/projects";

/** v1/projects/ (mounted there by app.ts). */
export type ProjectRoutes = Served<typeof PROJECT_ROUTES>;

/** v1/facilities/ (mounted there by app.ts). */
export type FacilityRoutes = Served<typeof FACILITY_ROUTES>;

/** v1/inventory/ (mounted there by app.ts): the year's inventory, totals by year, review and comments. */
export type InventoryRoutes = Served<typeof INVENTORY_ROUTES>;

/** v1/ (mounted there by app.ts, last): a calculation type's list, create, get, edit, files and templates. */
export type CalculationRoutes = Served<typeof CALCULATION_ROUTES>;

/** v1/dictionary/ (mounted there by app.ts): the reference dictionaries and an entry's versions. */
export type DictionaryRoutes = Served<typeof DICTIONARY_ROUTES>;

/** v1/forecast_models/ (mounted there by app.ts): the GBDT model versions, their files, upload and activation. */
export type ForecastModelRoutes = Served<typeof FORECAST_MODEL_ROUTES>;
