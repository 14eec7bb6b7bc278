// The upkeep of the kept inventory sums (domain/inventory/sums.ts, SCHEMA.md «inventory sums of a
// project»), on the real local engine with the table's stream handled in process: a source counted
// day by day leaves zeros behind, which the reconciliation removes without moving a sum; and sums
// kept under an older layout are not read until the reconciliation has brought them up to date.
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { systemClock } from "@server/domain/context";
import { applyStatistics, type StreamRecord } from "@server/events/table-changes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as keys from "@server/adapters/dynamodb/keys";
import { LOCAL_TABLE } from "@server/local/storage";
import { countInventorySums, reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import { INVENTORY_SUMS_LAYOUT } from "@server/domain/inventory/sums";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
let company: string;

beforeAll(async () => {
  h = await createHarness();
  ({ token, companyId: company } = await h.signedInUser("ООО Учет по дням"));
});
afterAll(() => h.close());

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const TIER1 = { volume: 1_000_000, ef: 18, koef_transform: 0.67 };
const day = (n: number) => new Date(Date.UTC(2025, 0, 1 + n)).toISOString().slice(0, 10);

async function projectWithDays(days: number): Promise<{ project: string; calculations: Array<{ id: string; version: number }> }> {
  const mine = await json<{ id: string }>(
    await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: `Шахта ${days}`, kind: "underground_mine" } }),
    201,
  );
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: `Учет по дням ${days}`, start_date: "2025-01-01", end_date: "2025-12-31", facility: mine.id },
    }),
    201,
  );
  const calculations = [];
  for (let n = 0; n < days; n++) {
    calculations.push(
      await json<{ id: string; version: number }>(
        await h.request("/api/v1/underground_emission_ch4/", {
          method: "POST",
          token,
          json: { name: `Выработка ${day(n)}`, project: project.id, period: { from: day(n), to: day(n) }, ...TIER1 },
        }),
        201,
      ),
    );
  }
  return { project: project.id, calculations };
}

const zerosOf = async (project: string) => {
  const out = await h.doc!.send(new GetCommand({ TableName: LOCAL_TABLE, Key: keys.inventorySums(company, project) }));
  return Object.entries(out.Item ?? {}).filter(([name, value]) => name.startsWith("s:") && value === 0).length;
};

describe("the kept inventory sums' upkeep", () => {
  it("keeps a source counted day by day as its edges, with no zero left where its joins met", async () => {
    const { project } = await projectWithDays(6);
    await h.settled();
    const kept = (await h.deps.repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT))!.get(project)!;
    // Six consecutive days: only the first day and the day after the last are left.
    expect(Object.keys(kept).filter((key) => key.startsWith("d:"))).toEqual([
      `d:|1.B.1.a.i.1|CH4|${day(0)}`,
      `d:|1.B.1.a.i.1|CH4|${day(6)}`,
    ]);
    // Each join's key came to zero in the update that made it so, and went with it.
    expect(await zerosOf(project)).toBe(0);

    const report = await reconcileCompanyStatistics(h.deps, company);
    expect(report.inventory).toEqual([]);
    const after = await h.deps.repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT);
    expect(Object.fromEntries(after!)).toEqual(Object.fromEntries(await countInventorySums(h.deps.repos, company)));
  });

  it("answers from the calculations while the sums were kept under another layout, until a reconciliation brings them to it", async () => {
    await projectWithDays(2);
    await h.settled();
    // The year's inventory but its review (a draft never stored is dated when it is read).
    const answer = async () => {
      const { review: _review, ...rest } = await json<{ review: unknown; checks: Array<{ code: string; message: string }> }>(
        await h.request("/api/v1/inventory/?year=2025", { token }),
      );
      return rest;
    };
    const before = await answer();
    // As sums kept before the checks' keys were added: no layout, and a key of theirs gone.
    await h.doc!.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE,
        Key: keys.inventoryWrites(company),
        UpdateExpression: "REMOVE #layout",
        ExpressionAttributeNames: { "#layout": "layout" },
      }),
    );
    expect(await h.deps.repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT)).toBeUndefined();
    expect(await answer()).toEqual(before);

    await reconcileCompanyStatistics(h.deps, company);
    expect(await h.deps.repos.statistics.inventorySums(company, INVENTORY_SUMS_LAYOUT)).toBeDefined();
    expect(await answer()).toEqual(before);
    // The gap after each project's last day is told by its dates.
    expect(before.checks.filter((c) => c.code === "source_period_gap").map((c) => c.message)).toEqual(
      expect.arrayContaining([expect.stringContaining(`${day(2).split("-").reverse().join(".")}–31.12.2025`)]),
    );
  });

  it("applies many records that take from one project's sums in one batch one at a time: one conditional UpdateItem each, none refused", async () => {
    const { project, calculations } = await projectWithDays(1);
    await h.settled();
    const type = "underground_emission_ch4";
    const template = (await h.deps.repos.calculations.get(company, type, calculations[0].id))!;
    // Each day's source a calculation of its own, delivered as the stream would: +1 on its day, −1 on the next.
    const records: StreamRecord[] = Array.from({ length: 16 }, (_, i) => {
      const id = `${template.id}-day-${i}`;
      const item = { ...template, ...keys.calculation(company, type, id), id, period: { from: day(20 + 2 * i), to: day(20 + 2 * i) } };
      return {
        eventID: `take-${i}`,
        eventName: "INSERT",
        dynamodb: {
          Keys: marshall(keys.calculation(company, type, id)),
          NewImage: marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true }),
          SequenceNumber: String(10n ** 20n + BigInt(i)),
        },
      };
    });
    const sums = keys.inventorySums(company, project);
    const writes: string[] = [];
    h.doc!.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { SK?: string }; UpdateExpression?: string };
        if (context.commandName === "UpdateItemCommand" && input.Key?.SK === sums.SK && input.UpdateExpression?.startsWith("ADD")) {
          try {
            const result = await next(args);
            writes.push("written");
            return result;
          } catch (error) {
            writes.push("refused");
            throw error;
          }
        }
        return next(args);
      },
      { step: "initialize", name: "sumsWrites" },
    );
    try {
      const applied = await applyStatistics(
        { Records: records },
        { doc: h.doc!, tableName: LOCAL_TABLE, repos: h.deps.repos, clock: systemClock, log: { info() {}, error() {} } },
      );
      expect(applied).toBe(16);
    } finally {
      h.doc!.middlewareStack.remove("sumsWrites");
    }
    // Side by side on one revision, all but one would be refused and read again.
    expect(writes).toEqual(Array(16).fill("written"));
    const kept = (await h.deps.repos.statistics.projectInventorySums(company, project))!;
    expect(Object.keys(kept).filter((key) => key.startsWith("d:"))).toHaveLength(2 + 32);
    expect(await zerosOf(project)).toBe(0);
  });
});
