// D104–D105 served: the cut-offs not confirmed and the hand measurements; the declarations are in
// routes/readings-audit.ts.
import type { Context } from "hono";
import { CUTOFFS_TITLE, answerCutoff, confirmCutoff, cutoffsDocument, listCutoffs } from "../domain/monitoring/derive/cutoff-audit";
import {
  HAND_TITLE,
  handMeasurementsDocument,
  listHandMeasurements,
  recordHandMeasurement,
} from "../domain/monitoring/derive/hand-measurements";
import { heavyFile } from "../domain/heavy-work";
import { attachmentDisposition } from "../files/file-names";
import { EXPORT_FORMATS } from "../export/formats";
import type { MonitoringFile } from "../ports";
import type { AppEnv } from "./env";
import { routeApp } from "./openapi-routes";
import * as routes from "../contract/routes/readings-audit";

const CONTENT_TYPES = { xlsx: EXPORT_FORMATS.xlsx.contentType, pdf: "application/pdf" } as const;

/** A document rendered by the spreadsheet worker in the user's and the company's heavy-work slot. */
async function documentAnswer(c: Context<AppEnv>, file: MonitoringFile, name: string) {
  const deps = c.get("deps");
  const bytes = await heavyFile(deps, c.get("actor"), () => deps.spreadsheets.monitoringFile(file));
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": CONTENT_TYPES[file.format],
    "Content-Disposition": attachmentDisposition(`${name}.${file.format}`),
    "Cache-Control": "no-store",
  }) as never;
}

export const readingsAuditRoutes = routeApp()
  .openapi(routes.listCutoffsRoute, async (c) =>
    c.json(await listCutoffs(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(routes.answerCutoffRoute, async (c) => {
    const { id, cutoff } = c.req.valid("param");
    return c.json(await answerCutoff(c.get("deps"), c.get("actor"), id, cutoff, c.req.valid("json")), 200);
  })
  .openapi(routes.confirmCutoffRoute, async (c) => {
    const { id, cutoff } = c.req.valid("param");
    return c.json(await confirmCutoff(c.get("deps"), c.get("actor"), id, cutoff, c.req.valid("json")), 200);
  })
  .openapi(routes.cutoffsFileRoute, async (c) => {
    const { format, ...query } = c.req.valid("query");
    const document = await cutoffsDocument(c.get("deps"), c.get("actor"), c.req.valid("param").id, query);
    return documentAnswer(
      c,
      { kind: "cutoffs", document, format },
      `${CUTOFFS_TITLE} ${document.facility_name} ${document.from} ${document.to}`,
    );
  })
  .openapi(routes.listHandMeasurementsRoute, async (c) =>
    c.json(await listHandMeasurements(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(routes.recordHandMeasurementRoute, async (c) =>
    c.json(await recordHandMeasurement(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(routes.handMeasurementsFileRoute, async (c) => {
    const { format, ...query } = c.req.valid("query");
    const document = await handMeasurementsDocument(c.get("deps"), c.get("actor"), c.req.valid("param").id, query);
    return documentAnswer(
      c,
      { kind: "hand_measurements", document, format },
      `${HAND_TITLE} ${document.facility_name} ${document.from} ${document.to}`,
    );
  });
