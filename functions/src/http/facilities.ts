// v1/facilities/: a company's facilities (list, create, one, PATCH).
import * as z from "zod";
import { createFacility, getFacility, listFacilities, patchFacility } from "../domain/facilities";
import { facilityCreateSchema, facilityPatchSchema } from "../schemas/facility";
import { facilitySchema } from "../schemas/answers";
import type { OwnedId } from "./openapi";
import { declareRoute, json, jsonBody, pathParam, routeApp } from "./openapi-routes";

const facilityIdParams = z.object({ id: pathParam("Facility id") });
const ownFacility: OwnedId = { in: "path", name: "id", object: "facility" };

const listRoute = declareRoute(
  {
    operationId: "listFacilities",
    summary: "The company's facilities, by name",
    tag: "facilities",
    auth: "user",
    isolation: { scope: "own" },
    errors: [],
  },
  { method: "get", path: "/", responses: { 200: json(z.array(facilitySchema), "The facilities") } },
);

const createRoute = declareRoute(
  {
    operationId: "createFacility",
    summary: "Add a facility (mine, open pit, plant)",
    tag: "facilities",
    auth: "user",
    isolation: { scope: "own" },
    errors: [400],
  },
  {
    method: "post",
    path: "/",
    request: { body: jsonBody(facilityCreateSchema) },
    responses: { 201: json(facilitySchema, "The facility") },
  },
);

const getRoute = declareRoute(
  {
    operationId: "getFacility",
    summary: "One facility",
    tag: "facilities",
    auth: "user",
    isolation: { scope: "company", ids: [ownFacility] },
    errors: [404],
  },
  { method: "get", path: "/{id}", request: { params: facilityIdParams }, responses: { 200: json(facilitySchema, "The facility") } },
);

const patchRoute = declareRoute(
  {
    operationId: "patchFacility",
    summary: "Edit a facility",
    tag: "facilities",
    auth: "user",
    isolation: { scope: "company", ids: [ownFacility] },
    errors: [400, 404, 409],
  },
  {
    method: "patch",
    path: "/{id}",
    request: { params: facilityIdParams, body: jsonBody(facilityPatchSchema) },
    responses: { 200: json(facilitySchema, "The facility, version + 1") },
  },
);

export const facilityRoutes = routeApp()
  .openapi(listRoute, async (c) => c.json(await listFacilities(c.get("deps"), c.get("actor")), 200))
  .openapi(createRoute, async (c) => c.json(await createFacility(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => c.json(await getFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(patchRoute, async (c) =>
    c.json(await patchFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  );
