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
} from "../domain/monitoring/ingest/register";
import { importSensorList, previewSensorList } from "../domain/monitoring/ingest/sensor-import";
import { sensorCompleteness, sensorDay, sensorGaps } from "../domain/monitoring/days/sensor-data";
import { SENSOR_LIST, SENSOR_LIST_TEMPLATE, templateCsv } from "../contract/templates";
import { attachmentDisposition } from "../files/file-names";
import { readUploadForm } from "./multipart";
import { routeApp } from "./openapi-routes";
import * as routes from "../contract/routes/facilities";

export const facilityRoutes = routeApp()
  .openapi(routes.listRoute, async (c) => c.json(await listFacilities(c.get("deps"), c.get("actor")), 200))
  .openapi(routes.createRoute, async (c) => c.json(await createFacility(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(routes.getRoute, async (c) => c.json(await getFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(routes.patchRoute, async (c) =>
    c.json(await patchFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.listPointsRoute, async (c) => c.json(await listPoints(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(routes.createPointRoute, async (c) =>
    c.json(await createPoint(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(routes.getPointRoute, async (c) => {
    const { id, point } = c.req.valid("param");
    return c.json(await getPoint(c.get("deps"), c.get("actor"), id, point), 200);
  })
  .openapi(routes.patchPointRoute, async (c) => {
    const { id, point } = c.req.valid("param");
    return c.json(await patchPoint(c.get("deps"), c.get("actor"), id, point, c.req.valid("json")), 200);
  })
  .openapi(routes.listSensorsRoute, async (c) => c.json(await listSensors(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(routes.createSensorRoute, async (c) =>
    c.json(await createSensor(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(routes.sensorListTemplateRoute, async (c) => {
    await getFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id);
    const csv = c.req.valid("query").format === "csv";
    // The .xlsx is made with exceljs behind the SpreadsheetWorker port, as a calculation's template.
    const body = csv ? templateCsv(SENSOR_LIST_TEMPLATE) : await c.get("deps").spreadsheets.template(SENSOR_LIST);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": csv ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": attachmentDisposition(`Шаблон — ${SENSOR_LIST_TEMPLATE.title}.${csv ? "csv" : "xlsx"}`),
    });
  })
  .openapi(routes.importSensorsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const dryRun = ["1", "true"].includes(c.req.valid("query").dry_run ?? "");
    const { file } = await readUploadForm(c, "file_data", "Датчики.csv");
    if (dryRun) return c.json(await previewSensorList(c.get("deps"), c.get("actor"), id, file), 200);
    return c.json(await importSensorList(c.get("deps"), c.get("actor"), id, file), 201);
  })
  .openapi(routes.sensorCompletenessRoute, async (c) =>
    c.json(await sensorCompleteness(c.get("deps"), c.get("actor"), c.req.valid("param").id, Number(c.req.valid("query").year)), 200),
  )
  .openapi(routes.getSensorRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await getSensor(c.get("deps"), c.get("actor"), id, sensor), 200);
  })
  .openapi(routes.sensorGapsRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await sensorGaps(c.get("deps"), c.get("actor"), id, sensor, c.req.valid("query")), 200);
  })
  .openapi(routes.sensorDayRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await sensorDay(c.get("deps"), c.get("actor"), id, sensor, c.req.valid("query").date), 200);
  })
  .openapi(routes.patchSensorRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await patchSensor(c.get("deps"), c.get("actor"), id, sensor, c.req.valid("json")), 200);
  })
  .openapi(routes.retireSensorRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await retireSensor(c.get("deps"), c.get("actor"), id, sensor), 200);
  })
  .openapi(routes.listGatewayKeysRoute, async (c) =>
    c.json(await listGatewayKeys(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
  )
  .openapi(routes.createGatewayKeyRoute, async (c) =>
    c.json(await createGatewayKey(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(routes.revokeGatewayKeyRoute, async (c) => {
    const { id, key } = c.req.valid("param");
    return c.json(await revokeGatewayKey(c.get("deps"), c.get("actor"), id, key), 200);
  });
