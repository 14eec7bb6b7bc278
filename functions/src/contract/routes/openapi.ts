// GET /api/openapi.json, declared: the OpenAPI 3.1 document itself, public. Served (and the
// document built) by http/openapi.ts.
import * as z from "zod";
import { access, json, route } from "./declare";

const meta = access("meta", "public", { scope: "public" });

export const openApiRoute = route(meta("openapi", "This document", []), {
  get: "/openapi.json",
  cost: "light",
  200: json(
    z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }),
    "OpenAPI 3.1 document",
  ),
});

/** The route of /api/openapi.json, as http/openapi.ts serves it. */
export const OPENAPI_ROUTES = [openApiRoute] as const;
