// every operation the contract declares heavy (routes/declare.ts Cost) takes the
// user's and the company's heavy-work slot here, after the user's pace and before its body or the store
// is read; past the budgets it is refused 429 at once. The slot is given back when the answer is made,
// or by what it was handed on to (a job, a streamed file: domain/heavy-work.ts handOnSlot).
// a JSON request whose work is heavy (an abatement evaluation, create or change; a
// climate period's stateless evaluation) takes its heavy-work slot after the user's pace and before
// its body is read: past the user's or the company's budget it is refused at once, its body unread.
// In the slot the body is parsed once (natively) and its counts (streams, keys, devices, blocks,
// segments) held to their bounds before anything walks it key by key: the text's check
// (text-hygiene.ts) and the route's schema then run in the slot, where the work runs. A 37 000-key
// abatement body took 0,5-0,6 s of the request thread in the text's walk before its 400.
import type { MiddlewareHandler } from "hono";
import { ABATEMENT_OFFERED_CODES } from "../contract/schemas/abatement";
import { ABATEMENT_MAX_OPTIONS, ABATEMENT_MAX_STREAMS, LIMITS } from "../contract/schemas/limits";
import { invalidAt } from "../domain/errors";
import { takeHeavySlot } from "../domain/heavy-work";
import { thresholdsInForce } from "../domain/abatement/evaluate";
import type { AppEnv } from "./env";
import type { Operation } from "./openapi-routes";
import { routeOf } from "./uploads";

/** A count a body's part may reach: `path`'s dots go down a level, `*` through every item of an
 *  array or value of an object; the part is an array (its length) or an object (its keys). */
export interface CountBound {
  path: string;
  max: number;
  message: string;
}

/** The option codes an option may carry (D48): an override names one of them. */
const OFFERED = ABATEMENT_OFFERED_CODES.length;
const abatementCounts: readonly CountBound[] = [
  { path: "streams", max: ABATEMENT_MAX_STREAMS, message: `не больше ${ABATEMENT_MAX_STREAMS} потоков` },
  { path: "options", max: ABATEMENT_MAX_STREAMS, message: `не больше ${ABATEMENT_MAX_STREAMS} ключей` },
  { path: "chosen", max: ABATEMENT_MAX_STREAMS, message: `не больше ${ABATEMENT_MAX_STREAMS} ключей` },
  { path: "overrides", max: ABATEMENT_MAX_STREAMS, message: `не больше ${ABATEMENT_MAX_STREAMS} ключей` },
  { path: "options.*", max: ABATEMENT_MAX_OPTIONS, message: `не больше ${ABATEMENT_MAX_OPTIONS} вариантов` },
  { path: "overrides.*", max: OFFERED, message: `не больше ${OFFERED} ключей` },
];

const { climate } = LIMITS;
const climateCounts: readonly CountBound[] = [
  { path: "devices", max: climate.devices, message: `не более ${climate.devices} устройств` },
  { path: "period.fuels", max: climate.fuels, message: `не более ${climate.fuels} видов топлива` },
  { path: "devices.*.hours", max: climate.blocksPerDevice, message: `не более ${climate.blocksPerDevice} блоков часов` },
  {
    path: "devices.*.hours.*.segments",
    max: climate.segmentsPerHour,
    message: `не более ${climate.segmentsPerHour} отрезков в часе`,
  },
];

/** The heavy JSON routes whose bodies' counts are held to their bounds in the slot, by operation. */
export const HEAVY_BODIES: Readonly<Record<string, readonly CountBound[]>> = {
  abatementEvaluate: abatementCounts,
  createAbatementAssessment: abatementCounts,
  patchAbatementAssessment: abatementCounts,
  climateProjectEvaluate: climateCounts,
};

/** The first part of `body` past its bound, as the field it is at, or undefined. */
export function countPast(body: unknown, bound: CountBound): string | undefined {
  let level: Array<{ value: unknown; at: string }> = [{ value: body, at: "" }];
  for (const step of bound.path.split(".")) {
    const next: typeof level = [];
    for (const { value, at } of level) {
      if (value === null || typeof value !== "object") continue;
      const join = (key: string | number) => (at ? `${at}.${key}` : String(key));
      if (step !== "*") {
        if (Object.hasOwn(value, step)) next.push({ value: (value as Record<string, unknown>)[step], at: join(step) });
      } else if (Array.isArray(value)) value.forEach((item, i) => next.push({ value: item, at: join(i) }));
      else for (const key of Object.keys(value)) next.push({ value: (value as Record<string, unknown>)[key], at: join(key) });
    }
    level = next;
  }
  for (const { value, at } of level) {
    if (value === null || typeof value !== "object") continue;
    if ((Array.isArray(value) ? value.length : Object.keys(value).length) > bound.max) return at;
  }
  return undefined;
}

/** The middleware of the signed-in routes (app.ts, after requireUser and before the text's check). */
export function heavyBodies(operations: Operation[]): MiddlewareHandler<AppEnv> {
  const lightWithBounds = operations.filter((op) => HEAVY_BODIES[op.operationId] !== undefined && op.cost !== "heavy");
  if (lightWithBounds.length > 0)
    throw new Error(`heavy bodies of light routes: ${lightWithBounds.map((op) => op.operationId).join(", ")}`);
  // Found among every route, in the router's order: `/v1/{type}/{id}/` must not take another's path.
  const find = routeOf(operations);
  return async (c, next) => {
    const op = find(c.req.method, c.req.path);
    if (op?.cost !== "heavy") return next();
    const slot = await takeHeavySlot(c.get("deps"), c.get("actor"));
    let handedOn = false;
    const handOn = () => {
      if (handedOn) return undefined;
      handedOn = true;
      slot.uncount();
      return slot;
    };
    try {
      c.set("actor", { ...c.get("actor"), heavySlot: { handOn } });
      if (!HEAVY_BODIES[op.operationId]) return await next();
      const type = (c.req.header("content-type") ?? "").toLowerCase();
      const climateMath = c.get("deps").climateMath;
      if (op.operationId === "climateProjectEvaluate" && climateMath?.climateBody && type.startsWith("application/json")) {
        // Where the host runs the evaluation off the request thread, its body goes there unparsed and is
        // checked there (scoring-thread.ts): this thread reads its bytes and sends the answer's text.
        const answer = await climateMath.climateBody(c.get("actor").company, new Uint8Array(await c.req.arrayBuffer()));
        return c.body(answer, 200, { "Content-Type": "application/json" });
      }
      const abatementMath = c.get("deps").abatementMath;
      if (op.operationId === "abatementEvaluate" && abatementMath?.abatementBody && type.startsWith("application/json")) {
        // The same for abatement's stateless evaluation, with the §4.10 thresholds in force.
        const thresholds = (await thresholdsInForce(c.get("deps"))).values;
        const answer = await abatementMath.abatementBody(c.get("actor").company, new Uint8Array(await c.req.arrayBuffer()), thresholds);
        return c.body(answer, 200, { "Content-Type": "application/json" });
      }
      if (type.startsWith("application/json")) {
        // Parsed once: the text's check and the route's schema read the same parse (Hono keeps it).
        const body = await c.req.json().catch(() => undefined);
        for (const bound of HEAVY_BODIES[op.operationId]) {
          const at = countPast(body, bound);
          if (at !== undefined) throw invalidAt(at, bound.message);
        }
      }
      await next();
    } finally {
      if (!handedOn) await slot();
    }
  };
}
