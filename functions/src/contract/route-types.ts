// The route types the web app's typed client is built from (web/src/api/client.ts, hono/client's
// hc): each sub-app's declared routes (routes/*.ts) carry their paths, inputs and answers as
// declared once with their zod schemas. Types only, from the declarations alone: nothing of the
// server reaches the browser bundle, and the web's type check never reaches the domain, the
// adapters or Node (web/tsconfig.json).
import type { ADMIN_ROUTES } from "./routes/admin";
import type { TOKEN_ROUTES } from "./routes/auth";
import type { CALCULATION_ROUTES } from "./routes/calculations";
import type { Served } from "./routes/declare";
import type { DICTIONARY_ROUTES } from "./routes/dictionaries";
import type { DIRECT_UPLOAD_ROUTES } from "./routes/direct-uploads";
import type { DOCUMENT_ROUTES } from "./routes/documents";
import type { EVIDENCE_ROUTES } from "./routes/evidence";
import type { EXPORT_ROUTES } from "./routes/exports";
import type { FACILITY_ROUTES } from "./routes/facilities";
import type { FORECAST_MODEL_ROUTES } from "./routes/forecast-models";
import type { GRAPH_ROUTES } from "./routes/graphs";
import type { INVENTORY_ROUTES } from "./routes/inventory";
import type { INVENTORY_REPORT_ROUTES } from "./routes/inventory-report";
import type { MEDIA_ROUTES, MEDIA_STREAM_ROUTES } from "./routes/media";
import type { OPENAPI_ROUTES } from "./routes/openapi";
import type { PROJECT_ROUTES } from "./routes/projects";
import type { UNCERTAINTY_ROUTES } from "./routes/uncertainty";
import type { USER_ROUTES } from "./routes/users";

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

/** token/ (mounted there by app.ts, before requireUser): sign in and refresh. */
export type TokenRoutes = Served<typeof TOKEN_ROUTES>;

/** / (mounted at /api by app.ts, before requireUser): the OpenAPI document, openapi.json. */
export type OpenApiRoutes = Served<typeof OPENAPI_ROUTES>;

/** v1/users/ (mounted there by app.ts): the signed-in user and the company's statistics. */
export type UserRoutes = Served<typeof USER_ROUTES>;

/** v1/projects/ (mounted there by app.ts, after ProjectRoutes): a project's infographics data. */
export type GraphRoutes = Served<typeof GRAPH_ROUTES>;

/** v1/projects/ (mounted there by app.ts, after ProjectRoutes): a project's uncertainty model. */
export type UncertaintyRoutes = Served<typeof UNCERTAINTY_ROUTES>;

/** v1/projects/ (mounted there by app.ts, after ProjectRoutes): a project as a txt, xls or xlsx file. */
export type ExportRoutes = Served<typeof EXPORT_ROUTES>;

/** v1/documents/ (mounted there by app.ts): the normative documents and their PDFs. */
export type DocumentRoutes = Served<typeof DOCUMENT_ROUTES>;

/** v1/media/ (mounted there by app.ts): the settings videos with signed URLs. */
export type MediaRoutes = Served<typeof MEDIA_ROUTES>;

/** v1/media/ (mounted there by app.ts, before requireUser): a settings video streamed by its signed URL. */
export type MediaStreamRoutes = Served<typeof MEDIA_STREAM_ROUTES>;

/** v1/uploads/ (mounted there by app.ts, before requireUser): the local stand-in for a presigned PUT. */
export type DirectUploadRoutes = Served<typeof DIRECT_UPLOAD_ROUTES>;

/** v1/admin/ (mounted there by app.ts): companies, users, coefficients, documents, videos and the change log. */
export type AdminRoutes = Served<typeof ADMIN_ROUTES>;

/** v1/inventory/ (mounted there by app.ts, after InventoryRoutes): the year's 296-FZ report passport. */
export type InventoryReportRoutes = Served<typeof INVENTORY_REPORT_ROUTES>;

/** v1/ (mounted there by app.ts, before CalculationRoutes): a custom coefficient's evidence file. */
export type EvidenceRoutes = Served<typeof EVIDENCE_ROUTES>;
