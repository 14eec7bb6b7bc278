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
import { uploadPreviewSchema } from "../schemas/upload-preview";
import { dayQuery, monthQuery, sensorCompletenessSchema, sensorDayViewSchema, sensorGapsSchema, yearQuery } from "../schemas/sensor-data";
import { LIMITS } from "../schemas/limits";
import { fileAnswer, fileForm, json, type OwnedId, pathParam, route, storedObject, userAccess, XLSX, dryRunQuery } from "./declare";

const facilityIdParams = z.object({ id: pathParam("Facility id") });
const pointIdParams = z.object({ id: pathParam("Facility id"), point: pathParam("Emission point id") });
const ownFacility: OwnedId = { in: "path", name: "id", object: "facility" };
const ownFacilities = userAccess("facilities", { scope: "own" });
/** Takes a facility id: isolation by company. */
const facilityScoped = userAccess("facilities", { scope: "company", ids: [ownFacility] });

export const listRoute = route(ownFacilities("listFacilities", "The company's facilities, by name", []), {
  get: "/",
  cost: "light",
  200: json(z.array(facilitySchema), "The facilities"),
});

export const createRoute = route(ownFacilities("createFacility", "Add a facility (mine, open pit, plant)", [400]), {
  post: "/",
  cost: "light",
  body: facilityCreateSchema,
  201: json(facilitySchema, "The facility"),
});

const facility = storedObject(facilityScoped, { path: "/{id}", params: facilityIdParams }, facilitySchema, "The facility");

export const getRoute = facility.get("getFacility", "One facility");

export const patchRoute = facility.patch("patchFacility", "Edit a facility", facilityPatchSchema);

export const listPointsRoute = route(
  facilityScoped(
    "listEmissionPoints",
    "The facility's emission points (ventilation shafts, drainage stations, flares, boilers …), by name",
    [404],
    "Archived points (is_active false) are listed too: their calculations and history stay.",
  ),
  { get: "/{id}/points", cost: "light", params: facilityIdParams, 200: json(z.array(emissionPointSchema), "The points") },
);

export const createPointRoute = route(facilityScoped("createEmissionPoint", "Add an emission point to a facility", [400, 404]), {
  post: "/{id}/points",
  cost: "light",
  params: facilityIdParams,
  body: pointCreateSchema,
  201: json(emissionPointSchema, "The point"),
});

const point = storedObject(facilityScoped, { path: "/{id}/points/{point}", params: pointIdParams }, emissionPointSchema, "The point");

export const getPointRoute = point.get("getEmissionPoint", "One emission point of a facility");

export const patchPointRoute = point.patch(
  "patchEmissionPoint",
  "Edit, archive (is_active false) or restore an emission point",
  pointPatchSchema,
);

// D56: the facility's sensor register (the mine's АГК channels) and its gateway keys.
const sensorIdParams = z.object({ id: pathParam("Facility id"), sensor: pathParam("Sensor id") });
const keyIdParams = z.object({ id: pathParam("Facility id"), key: pathParam("Gateway key id") });

export const listSensorsRoute = route(
  facilityScoped("listSensors", "The facility's sensor register, by code", [404], "Retired sensors (is_active false) are listed too."),
  { get: "/{id}/sensors", cost: "light", params: facilityIdParams, 200: json(z.array(sensorSchema), "The sensors") },
);

export const createSensorRoute = route(
  facilityScoped(
    "createSensor",
    "Add a sensor of the mine's gas monitoring (D56)",
    [400, 404, 409],
    "A code of a sensor in service (case aside) is 400; the code is held while it is checked and stored, so of parallel creates of one code one is stored and the others are 409 or 400.",
  ),
  {
    post: "/{id}/sensors",
    cost: "light",
    params: facilityIdParams,
    body: sensorCreateSchema,
    201: json(sensorSchema, "The sensor"),
  },
);

export const sensorListTemplateRoute = route(
  facilityScoped("sensorListTemplate", "The template of the mine's sensor list for import into the register (D56), with an example", [404]),
  {
    get: "/{id}/sensors/template",
    cost: "light",
    params: facilityIdParams,
    // Anything but csv is the workbook.
    query: z.object({
      format: z.optional(z.string().meta({ description: "xlsx (default) or csv (UTF-8 with BOM, `;`, decimal commas)" })),
    }),
    200: fileAnswer("The template", XLSX, "text/csv"),
  },
);

export const dispatchTemplateRoute = route(
  facilityScoped(
    "dispatchTemplate",
    "An example of the dispatch export «Загрузить выгрузку АГК» and «Сверить с выгрузкой АГК» take, for the facility's register",
    [404],
    "CSV in UTF-8 with a byte order mark, «;», a column per sensor in service (the first 8 by code; «М-1» and «V-1» without any), three lines of yesterday's minutes from 10:00 «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on the company's clock, an example value of each sensor's kind with a decimal comma and digits grouped by a space. Every value of it is read by POST v1/telemetry/files/; its values are an example, to be replaced by the export's own.",
  ),
  {
    get: "/{id}/sensors/dispatch-template",
    cost: "light",
    params: facilityIdParams,
    200: fileAnswer("The example export", "text/csv"),
  },
);

export const importSensorsRoute = route(
  facilityScoped(
    "importSensors",
    "Import the mine's sensor list (.xlsx or .csv) into the facility's register",
    [400, 404, 409, 413, 415, 429],
    "A multipart form with `file_data`, headed as the template (`sensors/template/`). Every row is read and checked as a sensor's create is (its point by name, its kind and role in words or by name, dates ДД.ММ.ГГГГ); the first refused row answers 400 naming its row and column, and nothing is stored. " +
      "The list's codes are held while they are stored: a code another request holds, or a sensor of one stored while the file was read, is 409 and nothing is stored. " +
      "With `dry_run=1` nothing is stored: the answer (200) is the list as read — the first 20 rows and up to 20 refused rows below them, their count, each column's header and unit — and every row the save would refuse, with its row and column.",
  ),
  {
    post: "/{id}/sensors/import",
    cost: "heavy",
    params: facilityIdParams,
    query: dryRunQuery("list"),
    body: fileForm(".xlsx or .csv headed as the template"),
    bodyCap: "form",
    200: json(uploadPreviewSchema, "The dry run: the list as read and its problems (nothing stored)"),
    201: json(z.array(sensorSchema), "The sensors made, in the list's order"),
  },
);

// D58–D62 per sensor, read with a user's token (a gateway key reads nothing): the «Датчики» screens.
const ADVISORY = "Advisory: computed from the mine's АГК readings; protective cut-off stays with the mine's own system.";

export const sensorCompletenessRoute = route(
  facilityScoped(
    "sensorCompleteness",
    "Per sensor and month of a year, the minutes in service valid, substituted and without data (D62)",
    [400, 404],
    `Every sensor of the facility (retired ones with months in the year too), by code; a month only while the sensor was in service, up to now, on the company's clock: without a date put in service, from the day it was registered or of the month's first reading where one came before (a month before both is left out, never 0 %). ${ADVISORY}`,
  ),
  {
    get: "/{id}/sensors/completeness",
    cost: "heavy",
    params: facilityIdParams,
    query: yearQuery,
    200: json(z.array(sensorCompletenessSchema), "The sensors with their months"),
  },
);

const sensor = storedObject(facilityScoped, { path: "/{id}/sensors/{sensor}", params: sensorIdParams }, sensorSchema, "The sensor");

export const getSensorRoute = sensor.get("getSensor", "One sensor with its register as it was, change by change");

export const sensorGapsRoute = route(
  facilityScoped(
    "sensorGaps",
    "A sensor's gaps in a month: each run of minutes without a valid value, substituted as D60 says or left without data",
    [400, 404],
    `D60 (40 CFR 98.325(b)): the mean of the valid values before and after, the first after, the last before; over 24 h not substituted. D58's flags of the gap's minutes counted. At most ${LIMITS.monitoring.gapsListed} gaps a page (\`limit\`, \`offset\`); \`count\` says how many. ${ADVISORY}`,
  ),
  {
    get: "/{id}/sensors/{sensor}/gaps",
    cost: "light",
    params: sensorIdParams,
    query: monthQuery,
    200: json(sensorGapsSchema, "The month's minutes and gaps"),
  },
);

export const sensorDayRoute = route(
  facilityScoped(
    "sensorDay",
    "A sensor's day on the company's clock, minute by minute: its means, D58 flags, the values counted and the levels",
    [400, 404],
    ADVISORY,
  ),
  {
    get: "/{id}/sensors/{sensor}/day",
    cost: "light",
    params: sensorIdParams,
    query: dayQuery,
    200: json(sensorDayViewSchema, "The day"),
  },
);

export const patchSensorRoute = sensor.patch("patchSensor", "Change a sensor's register entry", sensorPatchSchema, {
  description: "The change holds from now on: readings before it are read with the entry as it was (D56).",
});

export const retireSensorRoute = route(
  facilityScoped("retireSensor", "Retire a sensor: out of service from today; its readings and history stay", [404, 409]),
  { delete: "/{id}/sensors/{sensor}", cost: "light", params: sensorIdParams, 200: json(sensorSchema, "The retired sensor") },
);

export const listGatewayKeysRoute = route(
  facilityScoped("listGatewayKeys", "The facility's gateway keys, revoked ones too, newest first (never the keys)", [404]),
  { get: "/{id}/gateway-keys", cost: "light", params: facilityIdParams, 200: json(z.array(gatewayKeySchema), "The keys") },
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
    cost: "light",
    params: facilityIdParams,
    body: gatewayKeyCreateSchema,
    201: json(createdGatewayKeySchema, "The key, once"),
  },
);

export const revokeGatewayKeyRoute = route(
  facilityScoped("revokeGatewayKey", "Revoke a gateway key: refused from now on, listed as revoked", [403, 404]),
  { delete: "/{id}/gateway-keys/{key}", cost: "light", params: keyIdParams, 200: json(gatewayKeySchema, "The revoked key") },
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
  sensorListTemplateRoute,
  dispatchTemplateRoute,
  importSensorsRoute,
  sensorCompletenessRoute,
  getSensorRoute,
  sensorGapsRoute,
  sensorDayRoute,
  patchSensorRoute,
  retireSensorRoute,
  listGatewayKeysRoute,
  createGatewayKeyRoute,
  revokeGatewayKeyRoute,
] as const;
