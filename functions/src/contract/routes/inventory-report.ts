// v1/inventory/{year}/report/, declared: the year's 296-FZ report passport as xlsx or PDF; and an
// approved version's verification pack (D34), rendered by the same worker.
// Served by http/inventory-report.ts.
import * as z from "zod";
import { downloadLinkSchema } from "../schemas/answers";
import { exportJobSchema } from "./export-jobs";
import { binaryFile, declareRoute, pathParam, type OwnedId, userAccess } from "./declare";

const versionInQuery = z.optional(
  z.string().max(8, "version: ожидается номер утвержденной версии").meta({ description: "An approved version (D32); none: the latest" }),
);
const reportQuery = z.object({
  format: z.optional(
    z.string().meta({
      description:
        "xlsx or pdf: the passport; calculations: the year's counted calculations as one xlsx, a row per gas with its facility, point, IPCC line and netted figure",
    }),
  ),
  facility: z.optional(
    z.string().max(64, "facility: ожидается идентификатор площадки").meta({ description: "A facility of the company; none: all" }),
  ),
  version: versionInQuery,
});
const facilityInQuery: OwnedId = { in: "query", name: "facility", object: "facility" };
const ownInventory = userAccess("inventory", { scope: "own" });
const facilityInventory = userAccess("inventory", { scope: "company", ids: [facilityInQuery] });

export const reportRoute = declareRoute(
  facilityInventory({
    operationId: "inventoryReport",
    summary: "The year's 296-FZ report passport (xlsx or PDF): requisites, sources with their coefficients, totals, threshold, checks",
    description:
      "Mirrors what a company types into the registry's form; not a registry upload format. " +
      "Any other format: 400. `version`: the passport of that approved version, with the requisites it froze (D32); a version not approved: 404. A file too large to answer inline: `{download_url, file_name}`.",
    errors: [400, 404, 413, 429],
  }),
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
      202: {
        description: "Near its bound, where the host runs jobs (AWS): the job started; ask status_url until done (docs/security.md)",
        content: { "application/json": { schema: exportJobSchema } },
      },
    },
  },
);

export const packRoute = declareRoute(
  ownInventory({
    operationId: "inventoryVersionPack",
    summary:
      "An approved version's verification pack (zip): snapshot, calculations, coefficients, evidence, passports, manifest, verify.py",
    description:
      "D34: snapshot.json (the stored canonical JSON, RFC 8785, whose SHA-256 the version list shows), version.json, " +
      "calculations/NNNN.json (each calculation's inputs, results, coefficients and gases), coefficients.csv (value, unit, source, tier), " +
      "evidence/ (the files the calculations' own coefficients name), passport.pdf and passport.xlsx of the version, rules.json, " +
      "manifest.json (every file's SHA-256) and verify.py, which recomputes every line, the netting, the totals and the hash with " +
      "Python 3's standard library and exits non-zero naming what differs. Another company's, a missing or an unapproved version: 404. " +
      "A file too large to answer inline: `{download_url, file_name}`.",
    errors: [400, 404, 413, 429],
  }),
  {
    method: "get",
    path: "/{year}/versions/{version}/pack",
    request: {
      params: z.object({ year: pathParam("Reporting year, e.g. 2025"), version: pathParam("Version number, 1, 2, …") }),
    },
    responses: {
      200: {
        description: "The zip (Content-Disposition: attachment), or where to fetch a large one",
        content: {
          "application/zip": binaryFile(),
          "application/json": { schema: downloadLinkSchema },
        },
      },
      202: {
        description: "Near its bound, where the host runs jobs: the job started; ask status_url until done (docs/security.md)",
        content: { "application/json": { schema: exportJobSchema } },
      },
    },
  },
);

/** The routes of v1/inventory/{year}/report/ and a version's pack, as http/inventory-report.ts serves them. */
export const INVENTORY_REPORT_ROUTES = [reportRoute, packRoute] as const;
