// v1/inventory/{year}/report/, declared: the year's 296-FZ report passport as xlsx or PDF; and an
// approved version's verification pack (D34), rendered by the same worker.
// Served by http/inventory-report.ts.
import * as z from "zod";
import { facilityInventory, ownInventory, versionParams, yearParams } from "./inventory";
import { fileOrLink, jobStarted } from "./export-jobs";
import { route, XLSX } from "./declare";
import { LIMITS } from "../schemas/limits";

const versionInQuery = z.optional(
  z
    .string()
    .max(LIMITS.text.approvedVersion, "ожидается номер утвержденной версии")
    .meta({ description: "An approved version (D32); none: the latest" }),
);
const reportQuery = z.object({
  format: z.optional(
    z.string().meta({
      description:
        "xlsx or pdf: the passport; calculations: the year's counted calculations as one xlsx, a row per gas with its facility, point, IPCC line and netted figure",
    }),
  ),
  facility: z.optional(
    z.string().max(LIMITS.id, "ожидается идентификатор площадки").meta({ description: "A facility of the company; none: all" }),
  ),
  version: versionInQuery,
});

export const reportRoute = route(
  facilityInventory(
    "inventoryReport",
    "The year's 296-FZ report passport (xlsx or PDF): requisites, sources with their coefficients, totals, threshold, checks",
    [400, 404, 413, 429],
    "Mirrors what a company types into the registry's form; not a registry upload format. " +
      "Any other format: 400. `version`: the passport of that approved version, with the requisites it froze (D32); a version not approved: 404. A file too large to answer inline: `{download_url, file_name}`.",
  ),
  {
    get: "/{year}/report",
    cost: "heavy",
    params: yearParams,
    query: reportQuery,
    200: fileOrLink("The file (Content-Disposition: attachment), or where to fetch a large one", XLSX, "application/pdf"),
    202: jobStarted("Near its bound, where the host runs jobs (AWS): the job started; ask status_url until done (docs/security.md)"),
  },
);

export const packRoute = route(
  ownInventory(
    "inventoryVersionPack",
    "An approved version's verification pack (zip): snapshot, calculations, coefficients, evidence, passports, manifest, verify.py",
    [400, 404, 413, 429],
    "D34: snapshot.json (the stored canonical JSON, RFC 8785, whose SHA-256 the version list shows), version.json, " +
      "calculations/NNNN.json (each calculation's inputs, results, coefficients and gases), coefficients.csv (value, unit, source, tier), " +
      "evidence/ (the files the calculations' own coefficients name), passport.pdf and passport.xlsx of the version, rules.json, " +
      "manifest.json (every file's SHA-256) and verify.py, which recomputes every line, the netting, the totals and the hash with " +
      "Python 3's standard library and exits non-zero naming what differs. Another company's, a missing or an unapproved version: 404. " +
      "A file too large to answer inline: `{download_url, file_name}`.",
  ),
  {
    get: "/{year}/versions/{version}/pack",
    cost: "heavy",
    params: versionParams,
    200: fileOrLink("The zip (Content-Disposition: attachment), or where to fetch a large one", "application/zip"),
    202: jobStarted("Near its bound, where the host runs jobs: the job started; ask status_url until done (docs/security.md)"),
  },
);

/** The routes of v1/inventory/{year}/report/ and a version's pack, as http/inventory-report.ts serves them. */
export const INVENTORY_REPORT_ROUTES = [reportRoute, packRoute] as const;
