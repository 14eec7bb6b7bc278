// v1/facilities/, declared: a company's facilities (list, create, one, PATCH). Served by
// http/facilities.ts.
import * as z from "zod";
import { facilityCreateSchema, facilityPatchSchema } from "../schemas/facility";
import { facilitySchema } from "../schemas/answers";
import { declareRoute, json, jsonBody, pathParam, type OwnedId } from "./declare";

const facilityIdParams = z.object({ id: pathParam("Facility id") });
const ownFacility: OwnedId = { in: "path", name: "id", object: "facility" };

export const listRoute = declareRoute(
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

export const createRoute = declareRoute(
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

export const getRoute = declareRoute(
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

export const patchRoute = declareRoute(
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

/** Every route of v1/facilities/ above, in the order http/facilities.ts serves them. */
export const FACILITY_ROUTES = [listRoute, createRoute, getRoute, patchRoute] as const;
