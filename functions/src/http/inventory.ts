// v1/inventory/ served (domain/inventory/year.ts): the declarations are in routes/inventory.ts.
import { getInventory, inventoryTotalsByYear, listInventoryCalculations, parseInventoryYear } from "../domain/inventory/year";
import { addComment, listComments, removeComment } from "../domain/inventory/comments";
import { getVersionText, listVersions } from "../domain/inventory/versions";
import { setCoalProcessed } from "../domain/inventory/activity";
import { getCoalOutput, setCoalOutput } from "../domain/calculations/coal-output";
import { reviewStep, wholeYear } from "../domain/inventory/whole-year";
import { measuredVsEstimated } from "../domain/monitoring/minutes/measured-vs-estimated";
import type { Actor, Deps } from "../domain/context";
import { addTarget, recalculateBaseYear, removeTarget, setBaseYear, setSignificance } from "../domain/inventory/targets";
import { invalidAt } from "../domain/errors";
import { attachmentDisposition } from "../files/file-names";
import { routeApp } from "./openapi-routes";
import { heavyFile } from "../domain/heavy-work";
import { XLSX } from "../contract/routes/declare";
import * as routes from "../contract/routes/inventory";

/** The trend, computed once per the company's data, off the request thread where the host can
 *  (domain/inventory/whole-year.ts). */
const trendOf = (deps: Deps, actor: Actor, from: number, to: number, facility: string | undefined, gwpSet: number | undefined) =>
  wholeYear(deps, actor, { read: "trend", from, to, facility, gwp_set: gwpSet });

export const inventoryRoutes = routeApp()
  .openapi(routes.inventoryRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await getInventory(c.get("deps"), c.get("actor"), parseInventoryYear(q.year), q.facility || undefined), 200);
  })
  .openapi(routes.inventoryCalculationsRoute, async (c) => {
    const q = c.req.valid("query");
    const page = await listInventoryCalculations(c.get("deps"), c.get("actor"), {
      year: parseInventoryYear(q.year),
      facility: q.facility || undefined,
      line: q.line,
      counted: q.counted === undefined ? undefined : q.counted === "true",
      check: q.check,
      limit: q.limit ?? 20,
      offset: q.offset ?? 0,
    });
    return c.json(page, 200);
  })
  .openapi(routes.yearUncertaintyRoute, async (c) => {
    const q = c.req.valid("query");
    const base = q.base === undefined ? undefined : parseInventoryYear(q.base, "base");
    const [deps, actor, year, facility] = [c.get("deps"), c.get("actor"), parseInventoryYear(q.year), q.facility || undefined];
    // computed once per the company's data, in a heavy-work slot, off the request thread
    // where the host can (domain/inventory/whole-year.ts).
    return c.json(await wholeYear(deps, actor, { read: "uncertainty", year, facility, base }), 200);
  })
  .openapi(routes.measuredVsEstimatedRoute, async (c) => {
    const q = c.req.valid("query");
    const [deps, actor, year, facility] = [c.get("deps"), c.get("actor"), parseInventoryYear(q.year), q.facility || undefined];
    // in the heavy-read slot like the year's other folds (domain/monitoring/minutes/measured-vs-estimated.ts).
    const comparison = await measuredVsEstimated(deps, actor, year, facility);
    if (!q.format) return c.json(comparison, 200);
    // The workbook through the heavy-file path: in a heavy-work slot and the company's turn.
    const bytes = await heavyFile(deps, actor, () => deps.spreadsheets.comparisonWorkbook(comparison));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": XLSX,
      "Content-Disposition": attachmentDisposition(`Измерено и оценено ${year}.xlsx`),
      "Cache-Control": "no-store",
    }) as never;
  })
  .openapi(routes.yearsRoute, async (c) => c.json(await inventoryTotalsByYear(c.get("deps"), c.get("actor")), 200))
  .openapi(routes.trendRoute, async (c) => {
    const q = c.req.valid("query");
    const [from, to] = [parseInventoryYear(q.from, "from"), parseInventoryYear(q.to, "to")];
    const gwpSet = q.gwp_set === undefined ? undefined : Number(q.gwp_set);
    if (gwpSet !== undefined && !Number.isInteger(gwpSet)) throw invalidAt("gwp_set", "ожидается номер набора ПГП");
    return c.json(await trendOf(c.get("deps"), c.get("actor"), from, to, q.facility || undefined, gwpSet), 200);
  })
  .openapi(routes.trendExportRoute, async (c) => {
    const q = c.req.valid("query");
    const [from, to] = [parseInventoryYear(q.from, "from"), parseInventoryYear(q.to, "to")];
    const gwpSet = q.gwp_set === undefined ? undefined : Number(q.gwp_set);
    if (gwpSet !== undefined && !Number.isInteger(gwpSet)) throw invalidAt("gwp_set", "ожидается номер набора ПГП");
    if (q.view !== undefined && q.view !== "reported" && q.view !== "comparable") {
      throw invalidAt("view", "ожидается reported или comparable");
    }
    const trend = await trendOf(c.get("deps"), c.get("actor"), from, to, q.facility || undefined, gwpSet);
    const bytes = await c.get("deps").spreadsheets.trendWorkbook(trend, q.view ?? "reported");
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": attachmentDisposition(`Динамика ${from}-${to}.xlsx`),
      "Cache-Control": "no-store",
    }) as never;
  })
  .openapi(routes.trendSettingsRoute, async (c) => c.json(await wholeYear(c.get("deps"), c.get("actor"), { read: "trend_settings" }), 200))
  .openapi(routes.baseYearRoute, async (c) => c.json(await setBaseYear(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(routes.baseYearRecalculationRoute, async (c) =>
    c.json(await recalculateBaseYear(c.get("deps"), c.get("actor"), c.req.valid("json")), 200),
  )
  .openapi(routes.significanceRoute, async (c) => c.json(await setSignificance(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(routes.addTargetRoute, async (c) => c.json(await addTarget(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(routes.removeTargetRoute, async (c) => {
    const sent = c.req.valid("query").version;
    const version = sent === undefined ? undefined : Number(sent);
    if (version !== undefined && !Number.isInteger(version)) throw invalidAt("version", "ожидается целое число");
    return c.json(await removeTarget(c.get("deps"), c.get("actor"), c.req.valid("param").id, version), 200);
  })
  .openapi(routes.reviewRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    // Its folds of the year off the request thread where the host can.
    return c.json(await reviewStep(c.get("deps"), c.get("actor"), year, c.req.valid("json")), 200);
  })
  .openapi(routes.commentRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await addComment(c.get("deps"), c.get("actor"), year, c.req.valid("json")), 201);
  })
  .openapi(routes.listCommentsRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    const q = c.req.valid("query");
    return c.json(await listComments(c.get("deps"), c.get("actor"), year, { limit: q.limit ?? 20, offset: q.offset ?? 0 }), 200);
  })
  .openapi(routes.removeCommentRoute, async (c) => {
    const { year, id } = c.req.valid("param");
    await removeComment(c.get("deps"), c.get("actor"), parseInventoryYear(year), id);
    return c.json({ detail: "Комментарий удален" }, 200);
  })
  .openapi(routes.versionsRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await listVersions(c.get("deps"), c.get("actor"), year), 200);
  })
  .openapi(routes.versionRoute, async (c) => {
    const { year, version } = c.req.valid("param");
    if (!/^[1-9]\d{0,5}$/.test(version)) throw invalidAt("version", "ожидается номер версии 1, 2, …");
    const text = await getVersionText(c.get("deps"), c.get("actor"), parseInventoryYear(year), Number(version));
    // The stored bytes as they are (their SHA-256 is the one the version list shows), not
    // re-serialised by c.json: hence the cast to the declared JSON answer.
    return c.body(text, 200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" }) as never;
  })
  .openapi(routes.coalProcessedRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await setCoalProcessed(c.get("deps"), c.get("actor"), year, c.req.valid("json")), 200);
  })
  .openapi(routes.coalOutputRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await getCoalOutput(c.get("deps"), c.get("actor"), year, c.req.valid("query").facility), 200);
  })
  .openapi(routes.setCoalOutputRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await setCoalOutput(c.get("deps"), c.get("actor"), year, c.req.valid("json")), 200);
  });
