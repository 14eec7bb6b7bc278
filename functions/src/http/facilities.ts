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
import { dispatchTemplate } from "../domain/monitoring/ingest/dispatch-template";
import { minutesRead } from "../domain/monitoring/live/minute-reads";
import { SENSOR_LIST, SENSOR_LIST_TEMPLATE, templateCsv } from "../contract/templates";
import { attachmentDisposition } from "../files/file-names";
import { readUploadForm } from "./multipart";
import { routeApp } from "./openapi-routes";
import type { Actor, Deps } from "../domain/context";
import * as routes from "../contract/routes/facilities";

/** The caller (deps, actor) and a route's facility id with its other id `name` (a point, a sensor, a
 *  gateway key): the first arguments of every domain call about one of the facility's things. */
function callerAnd<N extends string>(
  c: { get(key: "deps"): Deps; get(key: "actor"): Actor; req: { valid(target: "param"): { id: string } & Record<N, string> } },
  name: N,
) {
  const params = c.req.valid("param");
  return [c.get("deps"), c.get("actor"), params.id, params[name]] as const;
}

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
  .openapi(routes.getPointRoute, async (c) => c.json(await getPoint(...callerAnd(c, "point")), 200))
  .openapi(routes.patchPointRoute, async (c) => c.json(await patchPoint(...callerAnd(c, "point"), c.req.valid("json")), 200))
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
  .openapi(routes.dispatchTemplateRoute, async (c) => {
    const file = await dispatchTemplate(c.get("deps"), c.get("actor"), c.req.valid("param").id);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachmentDisposition(file.fileName),
    });
  })
  .openapi(routes.importSensorsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const dryRun = ["1", "true"].includes(c.req.valid("query").dry_run ?? "");
    const { file } = await readUploadForm(c, "file_data", "Датчики.csv");
    if (dryRun) return c.json(await previewSensorList(c.get("deps"), c.get("actor"), id, file), 200);
    return c.json(await importSensorList(c.get("deps"), c.get("actor"), id, file), 201);
  })
  .openapi(routes.sensorCompletenessRoute, async (c) => {
    // A year of every sensor's minutes folded off the request thread.
    const query = { facility: c.req.valid("param").id, year: Number(c.req.valid("query").year) };
    const text = await minutesRead(c.get("deps"), c.get("actor"), { read: "completeness", query });
    return c.body(text, 200, { "Content-Type": "application/json" }) as never;
  })
  .openapi(routes.getSensorRoute, async (c) => c.json(await getSensor(...callerAnd(c, "sensor")), 200))
  // A month's or a day's minutes of a sensor folded off the request thread (128 and 205 ms
  // on it, found by the loop budget).
  .openapi(routes.sensorGapsRoute, async (c) => {
    const [deps, actor, facility, sensor] = callerAnd(c, "sensor");
    const text = await minutesRead(deps, actor, { read: "sensor_gaps", query: { facility, sensor, ...c.req.valid("query") } });
    return c.body(text, 200, { "Content-Type": "application/json" }) as never;
  })
  .openapi(routes.sensorDayRoute, async (c) => {
    const [deps, actor, facility, sensor] = callerAnd(c, "sensor");
    const text = await minutesRead(deps, actor, { read: "sensor_day", query: { facility, sensor, date: c.req.valid("query").date } });
    return c.body(text, 200, { "Content-Type": "application/json" }) as never;
  })
  .openapi(routes.patchSensorRoute, async (c) => c.json(await patchSensor(...callerAnd(c, "sensor"), c.req.valid("json")), 200))
  .openapi(routes.retireSensorRoute, async (c) => c.json(await retireSensor(...callerAnd(c, "sensor")), 200))
  .openapi(routes.listGatewayKeysRoute, async (c) =>
    c.json(await listGatewayKeys(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
  )
  .openapi(routes.createGatewayKeyRoute, async (c) =>
    c.json(await createGatewayKey(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(routes.revokeGatewayKeyRoute, async (c) => c.json(await revokeGatewayKey(...callerAnd(c, "key")), 200));
