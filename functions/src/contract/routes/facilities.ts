// v1/facilities/, declared: a company's facilities (list, create, one, PATCH). Served by
// http/facilities.ts.
import * as z from "zod";
import { facilityCreateSchema, facilityPatchSchema, pointCreateSchema, pointPatchSchema } from "../schemas/facility";
import { emissionPointSchema, facilitySchema } from "../schemas/answers";
import {
  createdGatewayKeySchema,
  gatewayKeyCreateSchema,
  gatewayKeySchema,
  sensorCreateSchema,
  sensorPatchSchema,
  sensorSchema,
} from "../schemas/sensor";
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

// D56: the facility's sensor register (the mine's АГК channels) and its gateway keys.
const sensorIdParams = z.object({ id: pathParam("Facility id"), sensor: pathParam("Sensor id") });
const keyIdParams = z.object({ id: pathParam("Facility id"), key: pathParam("Gateway key id") });

export const listSensorsRoute = route(
  facilityScoped("listSensors", "The facility's sensor register, by code", [404], "Retired sensors (is_active false) are listed too."),
  { get: "/{id}/sensors", params: facilityIdParams, 200: json(z.array(sensorSchema), "The sensors") },
);

export const createSensorRoute = route(facilityScoped("createSensor", "Add a sensor of the mine's gas monitoring (D56)", [400, 404]), {
  post: "/{id}/sensors",
  params: facilityIdParams,
  body: sensorCreateSchema,
  201: json(sensorSchema, "The sensor"),
});

export const getSensorRoute = route(facilityScoped("getSensor", "One sensor with its register as it was, change by change", [404]), {
  get: "/{id}/sensors/{sensor}",
  params: sensorIdParams,
  200: json(sensorSchema, "The sensor"),
});

export const patchSensorRoute = route(
  facilityScoped(
    "patchSensor",
    "Change a sensor's register entry",
    [400, 404, 409],
    "The change holds from now on: readings before it are read with the entry as it was (D56).",
  ),
  { patch: "/{id}/sensors/{sensor}", params: sensorIdParams, body: sensorPatchSchema, 200: json(sensorSchema, "The sensor, version + 1") },
);

export const retireSensorRoute = route(
  facilityScoped("retireSensor", "Retire a sensor: out of service from today; its readings and history stay", [404, 409]),
  { delete: "/{id}/sensors/{sensor}", params: sensorIdParams, 200: json(sensorSchema, "The retired sensor") },
);

export const listGatewayKeysRoute = route(
  facilityScoped("listGatewayKeys", "The facility's gateway keys, revoked ones too, newest first (never the keys)", [404]),
  { get: "/{id}/gateway-keys", params: facilityIdParams, 200: json(z.array(gatewayKeySchema), "The keys") },
);

export const createGatewayKeyRoute = route(
  facilityScoped(
    "createGatewayKey",
    "Make a gateway key: the answer holds the key, shown this once",
    [400, 403, 404],
    "A gateway pushes readings of this facility's sensors with `Authorization: Gateway <key>`; the key reads nothing. Stored hashed. Reviewers get 403.",
  ),
  {
    post: "/{id}/gateway-keys",
    params: facilityIdParams,
    body: gatewayKeyCreateSchema,
    201: json(createdGatewayKeySchema, "The key, once"),
  },
);

export const revokeGatewayKeyRoute = route(
  facilityScoped("revokeGatewayKey", "Revoke a gateway key: refused from now on, listed as revoked", [403, 404]),
  { delete: "/{id}/gateway-keys/{key}", params: keyIdParams, 200: json(gatewayKeySchema, "The revoked key") },
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
  listSensorsRoute,
  createSensorRoute,
  getSensorRoute,
  patchSensorRoute,
  retireSensorRoute,
  listGatewayKeysRoute,
  createGatewayKeyRoute,
  revokeGatewayKeyRoute,
] as const;
