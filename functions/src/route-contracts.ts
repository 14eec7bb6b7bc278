// The route types the web app's typed client is built from (web/src/api/client.ts, hono/client's
// hc): each sub-app's chained routes carry their paths, inputs and answers as declared once with
// their zod schemas. Types only: nothing of the server reaches the browser bundle.
import type { projectRoutes } from "./http/projects";

/** v1/projects/ (mounted there by app.ts). */
export type ProjectRoutes = typeof projectRoutes;
