// v1/projects/{id}/export_to_{txt|xls|xlsx}/ (docs/api.md), declared: the project as a file. detail=true
// asks for the detailed workbook, decimals (0..4, the client's `comma` setting) for the number
// formats. Served by http/exports.ts.
import * as z from "zod";

import { fileOrLink, jobStarted } from "./export-jobs";
import { booleanParam } from "../schemas/common";
import { pathParam, route, XLSX } from "./declare";
import { projectScoped } from "./projects";

export const exportQuery = z.object({
  detail: booleanParam,
  decimals: z.optional(
    z.coerce
      .number("ожидается целое число от 0 до 4")
      .int("ожидается целое число от 0 до 4")
      .gte(0, "ожидается целое число от 0 до 4")
      .lte(4, "ожидается целое число от 0 до 4"),
  ),
});

// The format is part of the last segment (export_to_xlsx), which Hono's trie router can only match
// as a whole: a parameter with a pattern, named `action` in the document. The pattern spells «/» as
// \x2f, so hono/client, which splits a path at its slashes, can fill it (the web's routePath).
export const exportRoute = route(
  projectScoped(
    "exportProject",
    "The project as a txt, xls or xlsx file",
    [400, 404, 413, 429],
    "Any other format: 400 «Unsupported file type». A file too large to answer inline: `{download_url, file_name}`. Over a size bound (docs/security.md): 413. More heavy operations in flight than the user's or the company's bound: 429 with Retry-After.",
  ),
  {
    get: "/{id}/:action{export_to_[^\\x2f]*}",
    cost: "heavy",
    params: z.object({
      id: pathParam("Project id"),
      action: z
        .string()
        .regex(/^export_to_/)
        .meta({ description: "export_to_txt, export_to_xls or export_to_xlsx" }),
    }),
    query: exportQuery,
    200: fileOrLink(
      "The file (Content-Disposition: attachment, named after the project), or where to fetch a large one",
      "text/plain",
      "application/vnd.ms-excel",
      XLSX,
    ),
    202: jobStarted("Near its bound, where the host runs jobs (AWS): the job started; ask status_url until done (docs/security.md)"),
  },
);

/** The route of v1/projects/{id}/export_to_…/, as http/exports.ts serves it. */
export const EXPORT_ROUTES = [exportRoute] as const;
