// GET /api/openapi.json, declared: the OpenAPI 3.1 document itself, public. Served (and the
// document built) by http/openapi.ts.
import * as z from "zod";
import { declareRoute, json } from "./declare";

export const openApiRoute = declareRoute(
  { operationId: "openapi", summary: "This document", tag: "meta", auth: "public", isolation: { scope: "public" }, errors: [] },
  {
    method: "get",
    path: "/openapi.json",
    responses: {
      200: json(
        z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }),
        "OpenAPI 3.1 document",
      ),
    },
  },
);

/** The route of /api/openapi.json, as http/openapi.ts serves it. */
export const OPENAPI_ROUTES = [openApiRoute] as const;
