// an earlier round served: the facility's sensors' checks; the declarations are in routes/instruments.ts.
import { dateText } from "@core/company-clock";
import { listChecks, recordCheck, signCheck } from "../domain/monitoring/instruments/sensor-checks";
import { getCheckIntervals, putCheckIntervals, sensorCheckStates } from "../domain/monitoring/instruments/check-states";
import {
  attachCertificateFile,
  getCertificateFile,
  listVerifications,
  recordVerification,
} from "../domain/monitoring/instruments/verifications";
import { readUploadForm } from "./multipart";
import { handOver, journalSignatures, listHandovers, signJournal, takeOver } from "../domain/monitoring/handover/handover";
import { CHECKS_TITLE, REGISTER_TITLE, checksDocument, registerDocument } from "../domain/monitoring/instruments/documents";
import { HANDOVERS_TITLE, handoversDocument } from "../domain/monitoring/handover/handovers-document";
import { heavyFile } from "../domain/heavy-work";
import { attachmentDisposition } from "../files/file-names";
import { EXPORT_FORMATS } from "../export/formats";
import type { MonitoringFile } from "../ports";
import type { AppEnv } from "./env";
import { routeApp } from "./openapi-routes";
import { storedFileAnswer } from "./stored-file";
import * as routes from "../contract/routes/instruments";
import type { Context } from "hono";

const CONTENT_TYPES = { xlsx: EXPORT_FORMATS.xlsx.contentType, pdf: "application/pdf" } as const;

/** A document rendered by the spreadsheet worker in the user's and the company's heavy-work slot, as the answer. */
async function documentAnswer(c: Context<AppEnv>, file: MonitoringFile, name: string) {
  const deps = c.get("deps");
  const bytes = await heavyFile(deps, c.get("actor"), () => deps.spreadsheets.monitoringFile(file));
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": CONTENT_TYPES[file.format],
    "Content-Disposition": attachmentDisposition(`${name}.${file.format}`),
    "Cache-Control": "no-store",
  }) as never;
}

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
  .openapi(routes.attachCertificateRoute, async (c) => {
    const form = await readUploadForm(c, "file", "Свидетельство");
    const { id, sensor, verification } = c.req.valid("param");
    return c.json(await attachCertificateFile(c.get("deps"), c.get("actor"), id, sensor, verification, form.file), 200);
  })
  .openapi(routes.downloadCertificateRoute, async (c) => {
    const { id, sensor, verification } = c.req.valid("param");
    const file = await getCertificateFile(c.get("deps"), c.get("actor"), id, sensor, verification);
    return storedFileAnswer(c, file, "Свидетельство о поверке");
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
  )
  .openapi(routes.checksFileRoute, async (c) => {
    const { format, ...query } = c.req.valid("query");
    const document = await checksDocument(c.get("deps"), c.get("actor"), c.req.valid("param").id, query);
    return documentAnswer(
      c,
      { kind: "sensor_checks", document, format },
      `${CHECKS_TITLE} ${document.facility_name} ${dateText(document.from, "UTC")} ${dateText(document.to, "UTC")}`,
    );
  })
  .openapi(routes.handoversFileRoute, async (c) => {
    const { format, ...query } = c.req.valid("query");
    const document = await handoversDocument(c.get("deps"), c.get("actor"), c.req.valid("param").id, query);
    return documentAnswer(
      c,
      { kind: "handovers", document, format },
      `${HANDOVERS_TITLE} ${document.facility_name} ${dateText(document.from, "UTC")} ${dateText(document.to, "UTC")}`,
    );
  })
  .openapi(routes.registerFileRoute, async (c) => {
    const document = await registerDocument(c.get("deps"), c.get("actor"), c.req.valid("param").id);
    return documentAnswer(c, { kind: "sensor_register", document, format: "xlsx" }, `${REGISTER_TITLE} ${document.facility_name}`);
  });
