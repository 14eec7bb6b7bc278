// v1/inventory/{year}/report/: the year's 296-FZ report passport as xlsx or PDF
// (export/inventory-report.ts), rendered behind the SpreadsheetWorker port like project exports.
import * as z from "zod";
import { parseInventoryYear } from "../domain/inventory";
import { passportFormat } from "../export/formats";
import { downloadLinkSchema } from "../schemas/answers";
import { attachmentDisposition } from "./download";
import type { OwnedId } from "../routes/declare";
import { routeApp } from "./openapi-routes";
import { binaryFile, declareRoute, pathParam } from "../routes/declare";

const reportQuery = z.object({
  format: z.optional(z.string().meta({ description: "xlsx or pdf" })),
  facility: z.optional(
    z.string().max(64, "facility: ожидается идентификатор площадки").meta({ description: "A facility of the company; none: all" }),
  ),
});
const facilityInQuery: OwnedId = { in: "query", name: "facility", object: "facility" };

const reportRoute = declareRoute(
  {
    operationId: "inventoryReport",
    summary: "The year's 296-FZ report passport (xlsx or PDF): requisites, sources with their coefficients, totals, threshold, checks",
    description:
      "Mirrors what a company types into the registry's form; not a registry upload format. " +
      "Any other format: 400. A file too large to answer inline: `{download_url, file_name}`.",
    tag: "inventory",
    auth: "user",
    isolation: { scope: "company", ids: [facilityInQuery] },
    errors: [400, 404],
  },
  {
    method: "get",
    path: "/{year}/report",
    request: { params: z.object({ year: pathParam("Reporting year, e.g. 2025") }), query: reportQuery },
    responses: {
      200: {
        description: "The file (Content-Disposition: attachment), or where to fetch a large one",
        content: {
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": binaryFile(),
          "application/pdf": binaryFile(),
          "application/json": { schema: downloadLinkSchema },
        },
      },
    },
  },
);

export const inventoryReportRoutes = routeApp().openapi(reportRoute, async (c) => {
  const q = c.req.valid("query");
  const year = parseInventoryYear(c.req.valid("param").year);
  const format = passportFormat(q.format);
  const result = await c.get("deps").spreadsheets.inventoryReport(c.get("actor"), { year, format, facility: q.facility || undefined });
  // As project exports (http/exports.ts): a large file is a storage address the client navigates to.
  if (result.kind === "redirect") {
    return c.json({ download_url: result.url, file_name: result.fileName }, 200, { "Cache-Control": "no-store" });
  }
  return c.body(result.body as ReadableStream<Uint8Array<ArrayBuffer>>, 200, {
    "Content-Type": result.contentType,
    "Content-Disposition": attachmentDisposition(result.fileName),
    "Cache-Control": "no-store",
  });
});
