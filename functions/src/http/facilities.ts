// v1/facilities/ served: the declarations are in routes/facilities.ts.
import { createFacility, getFacility, listFacilities, patchFacility } from "../domain/company/facilities";
import { createPoint, getPoint, listPoints, patchPoint } from "../domain/company/emission-points";
import {
  createGatewayKey,
  createSensor,
  getSensor,
  listGatewayKeys,
  listSensors,
  patchSensor,
  retireSensor,
  revokeGatewayKey,
} from "../domain/telemetry/register";
import { routeApp } from "./openapi-routes";
import {
  createPointRoute,
  createRoute,
  getPointRoute,
  getRoute,
  listPointsRoute,
  listRoute,
  patchPointRoute,
  patchRoute,
  listSensorsRoute,
  createSensorRoute,
  getSensorRoute,
  patchSensorRoute,
  retireSensorRoute,
  listGatewayKeysRoute,
  createGatewayKeyRoute,
  revokeGatewayKeyRoute,
} from "../contract/routes/facilities";

export const facilityRoutes = routeApp()
  .openapi(listRoute, async (c) => c.json(await listFacilities(c.get("deps"), c.get("actor")), 200))
  .openapi(createRoute, async (c) => c.json(await createFacility(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => c.json(await getFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(patchRoute, async (c) =>
    c.json(await patchFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(listPointsRoute, async (c) => c.json(await listPoints(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(createPointRoute, async (c) =>
    c.json(await createPoint(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(getPointRoute, async (c) => {
    const { id, point } = c.req.valid("param");
    return c.json(await getPoint(c.get("deps"), c.get("actor"), id, point), 200);
  })
  .openapi(patchPointRoute, async (c) => {
    const { id, point } = c.req.valid("param");
    return c.json(await patchPoint(c.get("deps"), c.get("actor"), id, point, c.req.valid("json")), 200);
  })
  .openapi(listSensorsRoute, async (c) => c.json(await listSensors(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(createSensorRoute, async (c) =>
    c.json(await createSensor(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(getSensorRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await getSensor(c.get("deps"), c.get("actor"), id, sensor), 200);
  })
  .openapi(patchSensorRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await patchSensor(c.get("deps"), c.get("actor"), id, sensor, c.req.valid("json")), 200);
  })
  .openapi(retireSensorRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await retireSensor(c.get("deps"), c.get("actor"), id, sensor), 200);
  })
  .openapi(listGatewayKeysRoute, async (c) => c.json(await listGatewayKeys(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(createGatewayKeyRoute, async (c) =>
    c.json(await createGatewayKey(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(revokeGatewayKeyRoute, async (c) => {
    const { id, key } = c.req.valid("param");
    return c.json(await revokeGatewayKey(c.get("deps"), c.get("actor"), id, key), 200);
  });
