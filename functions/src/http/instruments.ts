// Issue 118 served: the facility's sensors' checks; the declarations are in routes/instruments.ts.
import { listChecks, recordCheck, signCheck } from "../domain/monitoring/instruments/sensor-checks";
import { getCheckIntervals, putCheckIntervals, sensorCheckStates } from "../domain/monitoring/instruments/check-states";
import { listVerifications, recordVerification } from "../domain/monitoring/instruments/verifications";
import { handOver, journalSignatures, listHandovers, signJournal, takeOver } from "../domain/monitoring/handover/handover";
import { routeApp } from "./openapi-routes";
import * as routes from "../contract/routes/instruments";

export const instrumentRoutes = routeApp()
  .openapi(routes.listFacilityChecksRoute, async (c) =>
    c.json(await listChecks(c.get("deps"), c.get("actor"), c.req.valid("param").id, undefined, c.req.valid("query")), 200),
  )
  .openapi(routes.listSensorChecksRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await listChecks(c.get("deps"), c.get("actor"), id, sensor, c.req.valid("query")), 200);
  })
  .openapi(routes.recordSensorCheckRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await recordCheck(c.get("deps"), c.get("actor"), id, sensor, c.req.valid("json")), 201);
  })
  .openapi(routes.signSensorCheckRoute, async (c) => {
    const { id, sensor, check } = c.req.valid("param");
    return c.json(await signCheck(c.get("deps"), c.get("actor"), id, sensor, check, c.req.valid("json")), 200);
  })
  .openapi(routes.sensorCheckDueRoute, async (c) =>
    c.json(await sensorCheckStates(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
  )
  .openapi(routes.getCheckIntervalsRoute, async (c) =>
    c.json(await getCheckIntervals(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
  )
  .openapi(routes.putCheckIntervalsRoute, async (c) =>
    c.json(await putCheckIntervals(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(routes.listVerificationsRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await listVerifications(c.get("deps"), c.get("actor"), id, sensor), 200);
  })
  .openapi(routes.recordVerificationRoute, async (c) => {
    const { id, sensor } = c.req.valid("param");
    return c.json(await recordVerification(c.get("deps"), c.get("actor"), id, sensor, c.req.valid("json")), 201);
  })
  .openapi(routes.listHandoversRoute, async (c) =>
    c.json(await listHandovers(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(routes.handOverRoute, async (c) =>
    c.json(await handOver(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(routes.takeOverRoute, async (c) => {
    const { id, handover } = c.req.valid("param");
    return c.json(await takeOver(c.get("deps"), c.get("actor"), id, handover), 200);
  })
  .openapi(routes.journalSignaturesRoute, async (c) =>
    c.json(await journalSignatures(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("query").date), 200),
  )
  .openapi(routes.signJournalRoute, async (c) =>
    c.json(await signJournal(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  );
