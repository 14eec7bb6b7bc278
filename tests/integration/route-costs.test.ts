// a route's cost is declared where the route is declared (contract/routes/declare.ts
// Cost), and the document carries it (`x-cost: light | heavy`). Every operation declared heavy takes the
// user's and the company's heavy-work slot before it reads its body or the store: with the user's slots
// taken, each one is refused 429 with none of its body read and no store read past the caller's own
// sign-in; a shared heavy read (computed once per the company's data) is refused too when it has no
// kept answer. Four rounds running a new page was built without the slot; this walks every operation,
// so the next one declared heavy cannot be served outside it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "@server/http/openapi";
import { takeHeavySlot } from "@server/domain/heavy-work";
import { CALCULATION_TYPES } from "@core/registry";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;
beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser();
});
afterAll(() => h.close());

/** The repositories and blob calls made while `work` runs, by name ("repos.facilities.list", "blobs.get"). */
async function storeCalls(work: () => Promise<void>): Promise<string[]> {
  const calls: string[] = [];
  const deps = h.deps as unknown as Record<string, unknown> & { repos: Record<string, object> };
  const watch = <T extends object>(target: T, name: string): T =>
    new Proxy(target, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(`${name}.${String(key)}`);
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  const repos = { ...deps.repos };
  const blobs = deps.blobs as object;
  for (const name of Object.keys(repos)) deps.repos[name] = watch(repos[name], `repos.${name}`);
  deps.blobs = watch(blobs, "blobs");
  try {
    await work();
  } finally {
    Object.assign(deps.repos, repos);
    deps.blobs = blobs;
  }
  return calls;
}

/** What a signed-in request reads before its route: the caller's account, its pace and the slots. */
const SIGN_IN = /^repos\.(users|attempts|companies)\./;

/** A path of the route table with each parameter filled so that the route's own pattern matches it. */
function pathOf(docPath: string): string {
  return docPath.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "type" ? CALCULATION_TYPES[0] : name === "action" ? "export_to_xlsx" : name === "year" ? "2024" : "x0",
  );
}

/** The query a shared read needs to reach its computation (a heavy one's slot comes before its query is read). */
const QUERY: Record<string, string> = {
  inventoryUncertainty: "?year=2024",
  inventoryTrend: "?from=2020&to=2024",
  inventoryMeasuredVsEstimated: "?year=2024",
};

/** A body whose reads are counted: `pulled` says whether anyone took a chunk of it. */
function countedBody() {
  const counter = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        counter.pulled += 1;
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, counter };
}

describe("a route's cost, declared", () => {
  it("every operation of the document says x-cost: light or heavy", async () => {
    const document = (await (await h.request("/api/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string; "x-cost"?: string }>>;
    };
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBe(OPERATIONS.length);
    expect(operations.filter((op) => op["x-cost"] !== "light" && op["x-cost"] !== "heavy").map((op) => op.operationId)).toEqual([]);
    // The pages of round eight's finding are heavy (items 1–3).
    const heavy = new Set(operations.filter((op) => op["x-cost"] === "heavy").map((op) => op.operationId));
    for (const id of [
      "getReadingsReconciliation",
      "listMonitoringGassings",
      "registerMonitoringGassing",
      "climateDayMinutes",
      "sensorCompleteness",
      "monitoringJournal",
      "monitoringShiftReport",
    ]) {
      expect(heavy, id).toContain(id);
    }
  });

  const heavy = OPERATIONS.filter((op) => op.cost !== "light");
  it.each(heavy.map((op) => [op.operationId, op] as const))(
    "%s, with the user's slots taken, is refused 429 before its body or the store is read",
    async (_id, op) => {
      const held = [
        await takeHeavySlot(h.deps, { id: user.userId, company: user.companyId }),
        await takeHeavySlot(h.deps, { id: user.userId, company: user.companyId }),
      ];
      try {
        const multipart = op.body?.content["multipart/form-data"] !== undefined && op.body.content["application/json"] === undefined;
        const sent = op.body ? countedBody() : undefined;
        let status = 0;
        let detail = "";
        const calls = await storeCalls(async () => {
          const answer = await h.request(pathOf(op.docPath) + (QUERY[op.operationId] ?? ""), {
            method: op.method,
            token: user.token,
            ...(sent
              ? {
                  body: sent.body,
                  duplex: "half",
                  headers: {
                    "Content-Type": multipart ? "multipart/form-data; boundary=b" : "application/json",
                    "Content-Length": "2",
                  },
                }
              : {}),
          } as RequestInit & { token: string });
          status = answer.status;
          detail = ((await answer.json()) as { detail: string }).detail;
        });
        expect(status, detail).toBe(429);
        expect(detail).toMatch(/тяжелых операций/);
        expect(sent?.counter.pulled ?? 0).toBe(0);
        // A shared read looks for its kept answer first (the company's data version): a heavy one reads nothing.
        if (op.cost === "heavy") expect(calls.filter((call) => !SIGN_IN.test(call))).toEqual([]);
      } finally {
        await Promise.all(held.map((release) => release()));
      }
    },
  );
});
