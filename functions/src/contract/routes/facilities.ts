// v1/facilities/, declared: a company's facilities (list, create, one, PATCH). Served by
// http/facilities.ts.
import * as z from "zod";
import { facilityCreateSchema, facilityPatchSchema, pointCreateSchema, pointPatchSchema } from "../schemas/facility";
import { emissionPointSchema, facilitySchema } from "../schemas/answers";
import { json, type OwnedId, pathParam, route, userAccess } from "./declare";

const facilityIdParams = z.object({ id: pathParam("Facility id") });
const pointIdParams = z.object({ id: pathParam("Facility id"), point: pathParam("Emission point id") });
const ownFacility: OwnedId = { in: "path", name: "id", object: "facility" };
const ownFacilities = userAccess("facilities", { scope: "own" });
/** Takes a facility id: isolation by company. */
const facilityScoped = userAccess("facilities", { scope: "company", ids: [ownFacility] });

export const listRoute = route(ownFacilities("listFacilities", "The company's facilities, by name", []), {
  get: "/",
  200: json(z.array(facilitySchema), "The facilities"),
});

export const createRoute = route(ownFacilities("createFacility", "Add a facility (mine, open pit, plant)", [400]), {
  post: "/",
  body: facilityCreateSchema,
  201: json(facilitySchema, "The facility"),
});

export const getRoute = route(facilityScoped("getFacility", "One facility", [404]), {
  get: "/{id}",
  params: facilityIdParams,
  200: json(facilitySchema, "The facility"),
});

export const patchRoute = route(facilityScoped("patchFacility", "Edit a facility", [400, 404, 409]), {
  patch: "/{id}",
  params: facilityIdParams,
  body: facilityPatchSchema,
  200: json(facilitySchema, "The facility, version + 1"),
});

export const listPointsRoute = route(
  facilityScoped(
    "listEmissionPoints",
    "The facility's emission points (ventilation shafts, drainage stations, flares, boilers …), by name",
    [404],
    "Archived points (is_active false) are listed too: their calculations and history stay.",
  ),
  { get: "/{id}/points", params: facilityIdParams, 200: json(z.array(emissionPointSchema), "The points") },
);

export const createPointRoute = route(facilityScoped("createEmissionPoint", "Add an emission point to a facility", [400, 404]), {
  post: "/{id}/points",
  params: facilityIdParams,
  body: pointCreateSchema,
  201: json(emissionPointSchema, "The point"),
});

export const getPointRoute = route(facilityScoped("getEmissionPoint", "One emission point of a facility", [404]), {
  get: "/{id}/points/{point}",
  params: pointIdParams,
  200: json(emissionPointSchema, "The point"),
});

export const patchPointRoute = route(
  facilityScoped("patchEmissionPoint", "Edit, archive (is_active false) or restore an emission point", [400, 404, 409]),
  {
    patch: "/{id}/points/{point}",
    params: pointIdParams,
    body: pointPatchSchema,
    200: json(emissionPointSchema, "The point, version + 1"),
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
