// The statistics kept change by change (events/table-changes.ts → adapters/dynamodb/statistics.ts)
// against a count over the table, on the real dynalite engine: random puts, updates and deletes of
// projects and calculations, their stream records (captured as the local server does) delivered
// in batches that fail half-way and are delivered again, and old batches delivered once more
// after newer ones, as Lambda may. 10 runs of 1 000 writes in the deep tier, 2 in the others.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDocumentClient, ensureTable } from "@server/adapters/dynamodb/client";
import { dynamoRepositories } from "@server/adapters/dynamodb/repositories";
import { startDynalite, type RunningDynalite } from "@server/local/dynalite";
import { captureTableChanges } from "@server/local/table-stream";
import { applyStatistics, type StreamRecord } from "@server/events/table-changes";
import { countCompanyStatistics, countListCounts, reconcileCompanyStatistics, sumYears } from "@server/domain/inventory/statistics";
import { CALCULATION_TYPES, calculationDefinition } from "@core/registry";
import type { Repositories } from "@server/ports";
import { SIZES, sized } from "../support/depth";

const TABLE = "statistics-property";
const RUNS = Number(process.env.STATISTICS_RUNS ?? sized(SIZES.statisticsRuns));
const WRITES_PER_RUN = sized(SIZES.statisticsWritesPerRun);

let engine: RunningDynalite;
let writer: DynamoDBDocumentClient;
let handlerDoc: DynamoDBDocumentClient;
let repos: Repositories;
const records: StreamRecord[] = [];
/** Fails the handler's DynamoDB calls at this rate, before or after the call reaches the table. */
const faults = { rate: 0, random: Math.random };

beforeAll(async () => {
  engine = await startDynalite();
  // Both clients reach the engine in this event loop, without its loopback port, as the local
  // server's do (functions/src/local/dynalite-port.ts).
  writer = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
  handlerDoc = createDocumentClient({ tableName: TABLE, endpoint: engine.endpoint, requestHandler: engine.requestHandler() });
  await ensureTable(writer, TABLE);
  captureTableChanges(writer, (record) => records.push(record));
  handlerDoc.middlewareStack.add(
    (next) => async (args) => {
      if (faults.rate > 0 && faults.random() < faults.rate) {
        if (faults.random() < 0.5) throw new Error("injected failure before the call");
        await next(args);
        throw new Error("injected failure after the call");
      }
      return next(args);
    },
    { step: "initialize", name: "faults" },
  );
  repos = dynamoRepositories(handlerDoc, TABLE);
});
afterAll(async () => {
  writer.destroy();
  handlerDoc.destroy();
  await engine.close();
});

const withCo2e = CALCULATION_TYPES.filter((t) => calculationDefinition(t).co2e).slice(0, 2);
const withoutCo2e = CALCULATION_TYPES.filter((t) => !calculationDefinition(t).co2e).slice(0, 1);
const TYPES = [...withCo2e, ...withoutCo2e];

const slot = fc.oneof(
  fc.integer({ min: 0, max: 5 }).map((i) => ({ kind: "project" as const, sk: `PROJECT#p${i}` })),
  fc.record({ type: fc.constantFrom(...TYPES), i: fc.integer({ min: 0, max: 19 }) }).map(({ type, i }) => ({
    kind: "calc" as const,
    type,
    sk: `CALC#${type}#k${i}`,
  })),
);
// What the storable-values guard lets through: up to 9e15 in magnitude, no subnormal noise.
const value = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
  fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
  fc.constant(0),
  fc.constant("н/д"),
);
const write = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("put" as const),
      slot,
      year: fc.constantFrom("2023", "2024", "2025"),
      // A put may move a calculation to another project: its lists' counts follow.
      project: fc.constantFrom("p0", "p1", "p2"),
      deleted: fc.boolean(),
      value,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("update" as const), slot, deleted: fc.option(fc.boolean()), value: fc.option(value) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), slot }) },
);
const delivery = fc.record({
  batch: fc.integer({ min: 1, max: 25 }),
  again: fc.constantFrom("no", "no", "no", "same", "older"),
});

type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

async function perform(company: string, w: Write): Promise<void> {
  const Key = { PK: `COMPANY#${company}`, SK: w.slot.sk };
  const co2e = w.slot.kind === "calc" ? (calculationDefinition(w.slot.type as never).co2e ?? "res") : "res";
  if (w.op === "delete") {
    await writer.send(new DeleteCommand({ TableName: TABLE, Key }));
  } else if (w.op === "put") {
    const item =
      w.slot.kind === "project"
        ? {
            ...Key,
            id: w.slot.sk,
            is_deleted: w.deleted,
            created_at: `${w.year}-03-01T00:00:00.000Z`,
            name: "Шахта",
            start_date: `${w.year}-01-01`,
            end_date: `${w.year}-12-31`,
          }
        : {
            ...Key,
            id: w.slot.sk,
            project: w.project,
            type: w.slot.type,
            is_deleted: w.deleted,
            created_at: `${w.year}-03-01T00:00:00.000Z`,
            results: { [co2e]: w.value },
          };
    await writer.send(new PutCommand({ TableName: TABLE, Item: item }));
  } else {
    const sets = ["version = if_not_exists(version, :zero) + :one"];
    const values: Record<string, unknown> = { ":zero": 0, ":one": 1 };
    if (w.deleted !== null) sets.push("is_deleted = :d"), (values[":d"] = w.deleted);
    if (w.value !== null && w.slot.kind === "calc") sets.push("results = :r"), (values[":r"] = { [co2e]: w.value });
    try {
      await writer.send(
        new UpdateCommand({
          TableName: TABLE,
          Key,
          UpdateExpression: `SET ${sets.join(", ")}`,
          ConditionExpression: "attribute_exists(PK)",
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if ((error as Error).name !== "ConditionalCheckFailedException") throw error;
    }
  }
}

/** Lambda's contract: a failed batch is delivered again until it succeeds. */
async function deliver(batch: StreamRecord[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await applyStatistics(
        { Records: batch },
        { doc: handlerDoc, tableName: TABLE, repos, clock: { now: () => new Date() }, log: { info() {}, error() {} } },
      );
      return;
    } catch (error) {
      if (!String((error as Error).message).startsWith("injected") || attempt > 200) throw error;
    }
  }
}

describe("statistics kept change by change", () => {
  let run = 0;
  it(`give what a count over the table gives, after ${RUNS * WRITES_PER_RUN} random writes delivered with failures and redeliveries`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: WRITES_PER_RUN, maxLength: WRITES_PER_RUN }),
        fc.infiniteStream(delivery),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        async (writes, deliveries, seed) => {
          const company = `prop${run++}`;
          let state = seed;
          faults.random = () => (state = (Math.imul(state, 48271) >>> 0) % 2147483647) / 2147483647;
          faults.rate = 0.02;
          records.length = 0;
          const delivered: StreamRecord[][] = [];
          let position = 0;
          const plan = deliveries[Symbol.iterator]();
          for (const w of writes) {
            await perform(company, w);
            const next: { batch: number; again: string } = plan.next().value;
            if (records.length - position < next.batch) continue;
            const batch = records.slice(position, position + next.batch);
            position += batch.length;
            await deliver(batch);
            delivered.push(batch);
            if (next.again === "same") await deliver(batch);
            if (next.again === "older") await deliver(delivered[Math.floor(faults.random() * delivered.length)]);
          }
          await deliver(records.slice(position));
          faults.rate = 0;

          const stored = await repos.statistics.years(company);
          const counted = await countCompanyStatistics(repos, company);
          for (const year of new Set([...stored.map((y) => y.year), ...counted.keys()])) {
            const have = stored.find((y) => y.year === year);
            const want = counted.get(year);
            expect([year, have?.projects_active ?? 0, have?.projects_archived ?? 0]).toEqual([
              year,
              want?.projects_active ?? 0,
              want?.projects_archived ?? 0,
            ]);
            const nonZero = (c: Record<string, number> = {}) => Object.fromEntries(Object.entries(c).filter(([, n]) => n !== 0));
            expect(nonZero(have?.calculations)).toEqual(nonZero(want?.calculations));
            expect(have?.total_co2e ?? 0).toBeCloseTo(want?.total_co2e ?? 0, 3);
          }
          // The calculation lists' counts (what a list answers as `count`).
          const listCounts = (await repos.statistics.listCounts(company))
            .filter((l) => l.active !== 0 || l.archived !== 0)
            .map(({ project, type, active, archived }) => ({ project, type, active, archived }));
          const countedLists = [...(await countListCounts(repos, company)).values()];
          const byList = (a: { project: string; type: string }, b: { project: string; type: string }) =>
            `${a.project}#${a.type}`.localeCompare(`${b.project}#${b.type}`);
          expect(listCounts.sort(byList)).toEqual(countedLists.sort(byList));
          const report = await reconcileCompanyStatistics({ repos, clock: { now: () => new Date() } }, company, { repair: false });
          expect(report).toMatchObject({ drift: [], lists: [], unsettled: false });
          // Nothing half-done is left on the aggregates.
          const raw = await writer.send(
            new QueryCommand({
              TableName: TABLE,
              KeyConditionExpression: "PK = :pk",
              ExpressionAttributeValues: { ":pk": `COMPANY#${company}` },
            }),
          );
          const aggregates = (raw.Items ?? []).filter((item) => String(item.SK).startsWith("STATISTICS#"));
          expect(aggregates.filter((item) => String(item.SK).startsWith("STATISTICS#YEAR#")).length).toBe(stored.length);
          expect(aggregates.flatMap((item) => Object.keys(item)).filter((name) => name.startsWith("pending:"))).toEqual([]);
          const shown = sumYears(stored, new Date());
          expect(shown.projects.active + shown.projects.archived).toBeLessThanOrEqual(6);
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);
});
