// v1/projects/{id}/export_to_{txt|xls|xlsx}/ (SPEC 7): the project as a file. detail=true asks for
// the detailed workbook, decimals (0..4, the client's `comma` setting) for the number formats.
import * as z from "zod";
import { exportFormat } from "../export/formats";
import { downloadLinkSchema } from "../schemas/answers";
import { booleanParam } from "../schemas/common";
import { attachmentDisposition } from "./download";
import { routeApp } from "./openapi-routes";
import { binaryFile, declareRoute, pathParam } from "../routes/declare";
import { projectScoped } from "../routes/projects";

export const exportQuery = z.object({
  detail: booleanParam,
  decimals: z.optional(
    z.coerce
      .number("decimals: ожидается целое число от 0 до 4")
      .int("decimals: ожидается целое число от 0 до 4")
      .gte(0, "decimals: ожидается целое число от 0 до 4")
      .lte(4, "decimals: ожидается целое число от 0 до 4"),
  ),
});

// The format is part of the last segment (export_to_xlsx), which Hono's trie router can only match
// as a whole: a parameter with a pattern, named `action` in the document.
const exportRoute = declareRoute(
  projectScoped({
    operationId: "exportProject",
    summary: "The project as a txt, xls or xlsx file",
    description: "Any other format: 400 «Unsupported file type». A file too large to answer inline: `{download_url, file_name}`.",
    errors: [400, 404],
  }),
  {
    method: "get",
    path: "/{id}/:action{export_to_[^/]*}",
    request: {
      params: z.object({
        id: pathParam("Project id"),
        action: z
          .string()
          .regex(/^export_to_/)
          .meta({ description: "export_to_txt, export_to_xls or export_to_xlsx" }),
      }),
      query: exportQuery,
    },
    responses: {
      200: {
        description: "The file (Content-Disposition: attachment, named after the project), or where to fetch a large one",
        content: {
          "text/plain": binaryFile(),
          "application/vnd.ms-excel": binaryFile(),
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": binaryFile(),
          "application/json": { schema: downloadLinkSchema },
        },
      },
    },
  },
);

export const exportRoutes = routeApp().openapi(exportRoute, async (c) => {
  const { id, action } = c.req.valid("param");
  const format = exportFormat(action.slice("export_to_".length));
  const q = c.req.valid("query");
  // Rendered behind the SpreadsheetWorker port: in this process locally, by the worker function in AWS.
  const result = await c.get("deps").spreadsheets.exportProject(c.get("actor"), id, format, {
    detail: q.detail === "true",
    decimals: q.decimals,
  });
  // A file too large for a Lambda answer is handed out as a short-lived storage address. Not as a
  // 302: the browser fetches exports with the bearer token, and a followed cross-origin redirect
  // would be blocked by the CSP's connect-src; the client navigates to the address instead.
  if (result.kind === "redirect") {
    return c.json({ download_url: result.url, file_name: result.fileName }, 200, { "Cache-Control": "no-store" });
  }
  return c.body(result.body as ReadableStream<Uint8Array<ArrayBuffer>>, 200, {
    "Content-Type": result.contentType,
    "Content-Disposition": attachmentDisposition(result.fileName),
    "Cache-Control": "no-store",
  });
});
