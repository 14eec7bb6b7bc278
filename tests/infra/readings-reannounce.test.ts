// The minute function's sweep of batches whose announcement was lost (domain/monitoring/minutes/consumer.ts
// reannounceQueued, lambda/monitoring-minute.ts): in AWS a push is stored with its queue mark and then
// announced on SQS; a send that fails after the store leaves the batch queued and never applied. The
// minute's run sends such a batch again once 5 minutes old (a file's batch once 45), then once each 30
// minutes, and never once it is applied; the consumer applies the message as any other. On the
// in-memory repositories with a clock of the test's; aws-sdk-client-mock stands in for SQS.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { sqsReadingsQueue } from "@server/adapters/queue/sqs-readings-queue";
import { pointCreateSchema } from "@server/contract/schemas/facility";
import { sensorCreateSchema } from "@server/contract/schemas/sensor";
import { createPoint } from "@server/domain/company/emission-points";
import { REANNOUNCE } from "@server/domain/monitoring/minutes/consumer";
import { storeBatch } from "@server/domain/monitoring/ingest/readings";
import { createSensor } from "@server/domain/monitoring/ingest/register";
import { consumeReadingsMessages } from "@server/events/readings-queue";
import { parseWith } from "@server/http/validate";
import { minuteDeps, monitoringMinute } from "@server/lambda/monitoring-minute";
import { memoryDomain, type MemoryDomain } from "../support/memory-domain";

const sqs = mockClient(SQSClient);
afterEach(() => sqs.resetHistory());
afterAll(() => sqs.restore());

const QUEUE_URL = "https://sqs.eu-central-1.amazonaws.com/123456789012/TelemetryQueue";
const MINUTE = 60_000;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
let now = Date.UTC(2026, 2, 1, 3, 0, 10);
let d: MemoryDomain;
let company: string;
let batch: string;

beforeAll(async () => {
  sqs.on(SendMessageCommand).resolves({ MessageId: "m" });
  d = await memoryDomain({ now: () => new Date(now) });
  const staff = await d.actor("ООО «Потерянный пакет»");
  company = staff.company;
  const facility = (await d.facility(staff, { name: "Шахта «Очередь»", kind: "underground_mine" })).id;
  const point = await d.write(() =>
    createPoint(d.deps, staff, facility, parseWith(pointCreateSchema, { name: "Ствол", kind: "ventilation_shaft" })),
  );
  await d.write(() =>
    createSensor(d.deps, staff, facility, parseWith(sensorCreateSchema, { code: "М-1", kind: "methane", point: point.id })),
  );
  // Stored and marked queued; its SQS send failed, so nothing consumes it.
  const stored = await storeBatch(d.deps, company, facility, {
    json: { readings: [{ sensor: "М-1", t: new Date(now).toISOString(), value: 0.4 }] },
  });
  batch = stored.batch;
});

const run = () =>
  monitoringMinute(
    minuteDeps({
      repos: d.deps.repos,
      clock: d.deps.clock,
      readingsQueue: sqsReadingsQueue(new SQSClient({ region: "eu-central-1" }), QUEUE_URL),
    }),
  );
const sent = () =>
  sqs.commandCalls(SendMessageCommand).map((c) => [c.args[0].input.QueueUrl, JSON.parse(String(c.args[0].input.MessageBody))]);

describe("a batch whose announcement was lost", () => {
  it("is sent again once 5 minutes old, then once each 30 minutes, not before", async () => {
    now += (REANNOUNCE.pushMinutes - 1) * MINUTE;
    expect((await run()).reannounced).toBe(0);
    now += MINUTE;
    expect(await run()).toEqual({ stale: 0, reannounced: 1 });
    expect(sent()).toEqual([[QUEUE_URL, { company, batch }]]);
    sqs.resetHistory();
    // The next runs leave it to the message sent, until its 30 minutes passed.
    for (let m = 1; m < REANNOUNCE.everyMinutes; m++) {
      now += MINUTE;
      expect((await run()).reannounced).toBe(0);
    }
    now += MINUTE;
    expect((await run()).reannounced).toBe(1);
    expect(sent()).toEqual([[QUEUE_URL, { company, batch }]]);
  });

  it("is applied from the message sent, as any other, and not sent again", async () => {
    const body = { company, batch };
    const answer = await consumeReadingsMessages({ Records: [{ messageId: "m", body: JSON.stringify(body) }] }, d.deps, quiet);
    expect(answer.batchItemFailures).toEqual([]);
    expect(await d.deps.repos.monitoring.getBatch(company, batch)).toMatchObject({ state: "done", accepted: 1 });
    sqs.resetHistory();
    now += REANNOUNCE.everyMinutes * MINUTE;
    expect((await run()).reannounced).toBe(0);
    expect(sent()).toEqual([]);
  });
});
