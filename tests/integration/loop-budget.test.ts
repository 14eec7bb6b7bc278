// no request holds the request thread over 50 ms, checked by measurement for every
// operation of the OpenAPI document (tests/support/loop-budget.ts: the fixture, each operation's valid
// request, how it is measured). A route whose work grows with stored data and runs on the request thread
// fails here naming its operation, whatever its `x-cost` says. In `npm test` the fixture is modest (the
// demo year and 12 meters more with 6 h of minutes); `npm run test:deep` grows it to the 200
// meters with 30 h (tests/support/depth.ts).
import { loadavg } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "@server/local/server";
import { DEEP, bySize } from "../support/depth";
import {
  LOOP_BUDGET_MS,
  NOT_YET_MEASURED,
  OVER_BUDGET_AT_SIZE,
  REQUESTS,
  loopBudgetServer,
  measured,
  type Fixture,
} from "../support/loop-budget";

let server: LocalServer;
let token: string;
let fixture: Fixture;

beforeAll(async () => {
  ({ server, token, fixture } = await loopBudgetServer(bySize({ meters: 12, hours: 6 }, { meters: 200, hours: 30 })));
}, 1_800_000);
afterAll(() => server?.close());

describe("the loop budget", () => {
  it("has a valid request for every operation of the document, or names it as not yet measured", async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    const unknown = operations.filter((id) => REQUESTS[id] === undefined && !NOT_YET_MEASURED.includes(id));
    expect(unknown, "operations without a valid request in tests/support/loop-budget.ts REQUESTS").toEqual([]);
    // Nothing is listed twice or kept after its route is gone.
    expect(NOT_YET_MEASURED.filter((id) => REQUESTS[id] !== undefined || !operations.includes(id))).toEqual([]);
    expect(Object.keys(REQUESTS).filter((id) => !operations.includes(id))).toEqual([]);
  });

  it.each(Object.keys(REQUESTS))(
    `%s holds the request thread at most ${LOOP_BUDGET_MS} ms`,
    async (operation) => {
      const { held, status, measures, refusal } = await measured(server, token, () => REQUESTS[operation](fixture), fixture.tokens);
      const each = measures.map((m) => m.toFixed(1)).join(", ");
      console.log(`${operation}: ${status}, the request thread held ${each} ms (load ${loadavg()[0].toFixed(1)})`);
      expect(status, `${operation} answered ${status} ${refusal}`).toBeGreaterThanOrEqual(200);
      expect(status, `${operation} answered ${status} ${refusal}`).toBeLessThan(300);
      if (DEEP && OVER_BUDGET_AT_SIZE.includes(operation)) return;
      expect(held, `${operation} held the request thread ${held.toFixed(1)} ms`).toBeLessThanOrEqual(LOOP_BUDGET_MS);
    },
    120_000,
  );
});
