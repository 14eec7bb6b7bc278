// The route types the web app's typed client is built from (web/src/api/client.ts, hono/client's
// hc): each group of the mount table (mounts.ts) with its declared routes (routes/*.ts), which
// carry their paths, inputs and answers as declared once with their zod schemas. Types only, from
// the declarations alone: nothing of the server reaches the browser bundle, and the web's type
// check never reaches the domain, the adapters or Node (web/tsconfig.json).
import type { Mount } from "./mounts";
import type { ABATEMENT_ROUTES } from "./routes/abatement";
import type { ADMIN_ROUTES } from "./routes/admin";
import type { TOKEN_ROUTES } from "./routes/auth";
import type { CALCULATION_ROUTES } from "./routes/calculations";
import type { CLIMATE_ROUTES } from "./routes/climate";
import type { Served } from "./routes/declare";
import type { DICTIONARY_ROUTES } from "./routes/dictionaries";
import type { REFERENCE_ROUTES } from "./routes/reference";
import type { DIRECT_UPLOAD_ROUTES } from "./routes/direct-uploads";
import type { DOCUMENT_ROUTES } from "./routes/documents";
import type { EVIDENCE_ROUTES } from "./routes/evidence";
import type { EXPORT_JOB_ROUTES } from "./routes/export-jobs";
import type { EXPORT_ROUTES } from "./routes/exports";
import type { FACILITY_ROUTES } from "./routes/facilities";
import type { INSTRUMENT_ROUTES } from "./routes/instruments";
import type { READINGS_AUDIT_ROUTES } from "./routes/readings-audit";
import type { MONITORING_PUSH_ROUTES, MONITORING_ROUTES } from "./routes/monitoring";
import type { FORECAST_MODEL_ROUTES } from "./routes/forecast-models";
import type { FORECAST_ROUTES } from "./routes/forecast";
import type { GRAPH_ROUTES } from "./routes/graphs";
import type { INVENTORY_ROUTES } from "./routes/inventory";
import type { INVENTORY_REPORT_ROUTES } from "./routes/inventory-report";
import type { MEDIA_ROUTES, MEDIA_STREAM_ROUTES } from "./routes/media";
import type { OPENAPI_ROUTES } from "./routes/openapi";
import type { PROJECT_ROUTES } from "./routes/projects";
import type { SIGNING_KEY_ROUTES } from "./routes/signing-keys";
import type { UNCERTAINTY_ROUTES } from "./routes/uncertainty";
import type { USER_ROUTES } from "./routes/users";
import type { WEBHOOK_ROUTES } from "./routes/webhooks";
import type { OWN_FACTOR_ROUTES } from "./routes/own-factors";

/** The declared routes of each group of the mount table. */
export interface MountRoutes {
  token: typeof TOKEN_ROUTES;
  openapi: typeof OPENAPI_ROUTES;
  mediaStream: typeof MEDIA_STREAM_ROUTES;
  directUploads: typeof DIRECT_UPLOAD_ROUTES;
  signingKeys: typeof SIGNING_KEY_ROUTES;
  monitoringPush: typeof MONITORING_PUSH_ROUTES;
  users: typeof USER_ROUTES;
  projects: typeof PROJECT_ROUTES;
  graphs: typeof GRAPH_ROUTES;
  uncertainty: typeof UNCERTAINTY_ROUTES;
  exports: typeof EXPORT_ROUTES;
  dictionaries: typeof DICTIONARY_ROUTES;
  reference: typeof REFERENCE_ROUTES;
  forecastModels: typeof FORECAST_MODEL_ROUTES;
  forecast: typeof FORECAST_ROUTES;
  documents: typeof DOCUMENT_ROUTES;
  media: typeof MEDIA_ROUTES;
  admin: typeof ADMIN_ROUTES;
  facilities: typeof FACILITY_ROUTES;
  instruments: typeof INSTRUMENT_ROUTES;
  readingsAudit: typeof READINGS_AUDIT_ROUTES;
  inventory: typeof INVENTORY_ROUTES;
  inventoryReport: typeof INVENTORY_REPORT_ROUTES;
  abatement: typeof ABATEMENT_ROUTES;
  climate: typeof CLIMATE_ROUTES;
  monitoring: typeof MONITORING_ROUTES;
  webhooks: typeof WEBHOOK_ROUTES;
  ownFactors: typeof OWN_FACTOR_ROUTES;
  evidence: typeof EVIDENCE_ROUTES;
  exportJobs: typeof EXPORT_JOB_ROUTES;
  calculations: typeof CALCULATION_ROUTES;
}

/** Every group of the mount table has its routes above, and nothing else is there (a type error otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type EveryMountHasRoutes = Holds<Same<keyof MountRoutes, Mount>>;

/** The type of the sub-app serving a group of the mount table, as hono/client's hc reads it. */
export type RoutesOf<M extends Mount> = Served<MountRoutes[M]>;
