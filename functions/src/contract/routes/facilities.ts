// v1/facilities/, declared: a company's facilities (list, create, one, PATCH). Served by
// http/facilities.ts.
import * as z from "zod";
import { facilityCreateSchema, facilityPatchSchema, pointCreateSchema, pointPatchSchema } from "../schemas/facility";
import { emissionPointSchema, facilitySchema } from "../schemas/answers";
import { declareRoute, json, jsonBody, pathParam, type OwnedId, userAccess } from "./declare";

const facilityIdParams = z.object({ id: pathParam("Facility id") });
const pointIdParams = z.object({ id: pathParam("Facility id"), point: pathParam("Emission point id") });
const ownFacility: OwnedId = { in: "path", name: "id", object: "facility" };
const ownFacilities = userAccess("facilities", { scope: "own" });
/** Takes a facility id: isolation by company. */
const facilityScoped = userAccess("facilities", { scope: "company", ids: [ownFacility] });

export const listRoute = declareRoute(
  ownFacilities({
    operationId: "listFacilities",
    summary: "The company's facilities, by name",
    errors: [],
  }),
  { method: "get", path: "/", responses: { 200: json(z.array(facilitySchema), "The facilities") } },
);

export const createRoute = declareRoute(
  ownFacilities({
    operationId: "createFacility",
    summary: "Add a facility (mine, open pit, plant)",
    errors: [400],
  }),
  {
    method: "post",
    path: "/",
    request: { body: jsonBody(facilityCreateSchema) },
    responses: { 201: json(facilitySchema, "The facility") },
  },
);

export const getRoute = declareRoute(
  facilityScoped({
    operationId: "getFacility",
    summary: "One facility",
    errors: [404],
  }),
  { method: "get", path: "/{id}", request: { params: facilityIdParams }, responses: { 200: json(facilitySchema, "The facility") } },
);

export const patchRoute = declareRoute(
  facilityScoped({
    operationId: "patchFacility",
    summary: "Edit a facility",
    errors: [400, 404, 409],
  }),
  {
    method: "patch",
    path: "/{id}",
    request: { params: facilityIdParams, body: jsonBody(facilityPatchSchema) },
    responses: { 200: json(facilitySchema, "The facility, version + 1") },
  },
);

export const listPointsRoute = declareRoute(
  facilityScoped({
    operationId: "listEmissionPoints",
    summary: "The facility's emission points (ventilation shafts, drainage stations, flares, boilers …), by name",
    description: "Archived points (is_active false) are listed too: their calculations and history stay.",
    errors: [404],
  }),
  {
    method: "get",
    path: "/{id}/points",
    request: { params: facilityIdParams },
    responses: { 200: json(z.array(emissionPointSchema), "The points") },
  },
);

export const createPointRoute = declareRoute(
  facilityScoped({
    operationId: "createEmissionPoint",
    summary: "Add an emission point to a facility",
    errors: [400, 404],
  }),
  {
    method: "post",
    path: "/{id}/points",
    request: { params: facilityIdParams, body: jsonBody(pointCreateSchema) },
    responses: { 201: json(emissionPointSchema, "The point") },
  },
);

export const getPointRoute = declareRoute(
  facilityScoped({
    operationId: "getEmissionPoint",
    summary: "One emission point of a facility",
    errors: [404],
  }),
  {
    method: "get",
    path: "/{id}/points/{point}",
    request: { params: pointIdParams },
    responses: { 200: json(emissionPointSchema, "The point") },
  },
);

export const patchPointRoute = declareRoute(
  facilityScoped({
    operationId: "patchEmissionPoint",
    summary: "Edit, archive (is_active false) or restore an emission point",
    errors: [400, 404, 409],
  }),
  {
    method: "patch",
    path: "/{id}/points/{point}",
    request: { params: pointIdParams, body: jsonBody(pointPatchSchema) },
    responses: { 200: json(emissionPointSchema, "The point, version + 1") },
  },
);

/** Every route of v1/facilities/ above, in the order http/facilities.ts serves them. */
export const FACILITY_ROUTES = [
  listRoute,
  createRoute,
  getRoute,
  patchRoute,
  listPointsRoute,
  createPointRoute,
  getPointRoute,
  patchPointRoute,
] as const;
