// The mount table: where each group of declared routes (routes/*.ts) is mounted under /api/, in
// the order app.ts mounts them. Public groups (their own credential or none) come before the
// bearer token is required. A prefix is written here once: the server mounts by it, the document
// is generated from it (http/openapi.ts), and the web's typed client reaches a group by its name
// (web/src/api/client.ts typedClient; its route types: route-types.ts RoutesOf). Plain data, as
// the web bundle carries it.
export const MOUNTS = {
  token: { prefix: "/token", access: "public" },
  openapi: { prefix: "/", access: "public" },
  // <video> sends no bearer header: the stream checks its signed URL token itself.
  mediaStream: { prefix: "/v1/media", access: "public" },
  // The local stand-in for a presigned PUT (admin uploads): its signed token is its credential.
  directUploads: { prefix: "/v1/uploads", access: "public" },
  // the keys a verifier checks a version's signature with; nothing secret.
  signingKeys: { prefix: "/v1/signing-keys", access: "public" },
  // A mine's gateway pushes with its gateway key, not a user's token: the route checks either itself.
  monitoringPush: { prefix: "/v1/telemetry", access: "public" },
  users: { prefix: "/v1/users", access: "user" },
  projects: { prefix: "/v1/projects", access: "user" },
  graphs: { prefix: "/v1/projects", access: "user" },
  uncertainty: { prefix: "/v1/projects", access: "user" },
  exports: { prefix: "/v1/projects", access: "user" },
  dictionaries: { prefix: "/v1/dictionary", access: "user" },
  // the permissible methane concentrations by the act in force.
  reference: { prefix: "/v1/reference", access: "user" },
  forecastModels: { prefix: "/v1/forecast_models", access: "user" },
  forecast: { prefix: "/v1/forecast", access: "user" },
  documents: { prefix: "/v1/documents", access: "user" },
  media: { prefix: "/v1/media", access: "user" },
  admin: { prefix: "/v1/admin", access: "user" },
  facilities: { prefix: "/v1/facilities", access: "user" },
  instruments: { prefix: "/v1/facilities", access: "user" },
  // D104–D105: the cut-offs not confirmed and the hand measurements.
  readingsAudit: { prefix: "/v1/facilities", access: "user" },
  inventory: { prefix: "/v1/inventory", access: "user" },
  inventoryReport: { prefix: "/v1/inventory", access: "user" },
  abatement: { prefix: "/v1/abatement", access: "user" },
  climate: { prefix: "/v1/climate-projects", access: "user" },
  monitoring: { prefix: "/v1/telemetry", access: "user" },
  webhooks: { prefix: "/v1/company/webhooks", access: "user" },
  // D107: the company's own factors, kept from values typed into calculations.
  ownFactors: { prefix: "/v1/company/factors", access: "user" },
  // Last: /v1/{type}/ would otherwise shadow the named resources above.
  evidence: { prefix: "/v1", access: "user" },
  exportJobs: { prefix: "/v1/export_jobs", access: "user" },
  calculations: { prefix: "/v1", access: "user" },
} as const satisfies Record<string, { prefix: string; access: "public" | "user" }>;

/** A group of routes by its name in the mount table. */
export type Mount = keyof typeof MOUNTS;
