// `npm run bench -- cost`: what a gateway pushing every minute costs in AWS, per
// sensor and year, in the layout of readings the code writes (an open day's readings in their
// facility's minute items, compacted once the day is settled) and in the day items alone as before it (each push
// reading, merging and rewriting each sensor's day item), which the code still writes for a closed day's
// late readings: the same day of pushes replayed into a day 30 days back measures it. A day of per-minute
// pushes of COST_SENSORS sensors (150 unless set, 20 for the day items alone; COST_MINUTES the minutes replayed, 1 440) goes through the
// API's push route and the real consumer on the local engine (dynalite in this process, the consumer and
// its subscribers as the local host runs them: days written, live tiles, forecaster, event detector,
// acceptances' recheck), then (minute items) the day's compaction. Every DynamoDB call is counted with the
// capacity dynalite reports for it by DynamoDB's rules (an item's size from its attribute names and
// values; a write 1 unit per KB of the larger of the item before and after, a strongly consistent read 1
// per 4 KB); S3 requests and bytes are counted at the blob store; SQS requests are those AWS would add
// (one send per push, one receive and one delete per message: the readings' function takes them one call
// each at this pace). Prints the calls, units and requests of the day, the day items' bytes at its end,
// and `cost per sensor-year` at on-demand prices, a year being 365 such days and the year's readings
// stored for a year. COST_LAYOUT=minutes or =days measures one layout alone.
//
// The calls are the AWS host's: the push route announces each stored batch on a queue standing in for
// SQS (its sends counted), and each message is handed to the readings' function's consumer
// (consumeReadingsMessages with its runtime, the subscribers marked for AWS), one receive and one
// delete counted a message, and after each minute the minute function's run (its stale channels' sweep
// and its look for lost announcements) on a runtime of its own. COST_HOST=local runs the local host instead (the table's own queue: its
// TQUEUE marks, their polls and the attempts counted on the batch, calls AWS does not make), priced the
// same way for comparison only.
import { countCalls } from "@server/adapters/dynamodb/call-count";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { compactDay } from "@server/domain/monitoring/minutes/minutes";
import { sweepStaleChannels } from "@server/domain/monitoring/derive/events";
import { reannounceQueued } from "@server/domain/monitoring/minutes/consumer";
import { minuteDeps } from "@server/lambda/monitoring-minute";
import { consumeReadingsMessages } from "@server/events/readings-queue";
import { readingsRuntime } from "@server/lambda/readings-consumer";
import type { SubscriberDeps } from "@server/events/subscribers";
import { unreadByStream } from "@server/adapters/dynamodb/keys";
import { createFreshHarness } from "../support/harness";
import { dayItem } from "@server/adapters/dynamodb/monitoring-repository";
import type { SensorDay } from "@server/ports";

/** A day's readings as its item stores them (packed, adapters/dynamodb/packed.ts). */
const storedArrayBytes = (day: SensorDay) => {
  const item = dayItem(day);
  return item.pt.byteLength + item.pv.byteLength;
};

/** The sensors a push carries: a holding's mine (150) for the minute items, 20 for the day items alone,
 *  whose rewrite of each sensor's day costs the same per sensor at any number and takes 27 min at 20. */
const SENSORS_OF = {
  minutes: Number(process.env.COST_SENSORS ?? 150),
  days: Number(process.env.COST_SENSORS ?? 20),
};
const MINUTES = Number(process.env.COST_MINUTES ?? 1440);
const HOST: "aws" | "local" = process.env.COST_HOST === "local" ? "local" : "aws";

/** On-demand prices in USD, us-east-1, the ones docs/architecture.md's arithmetic of a mine-year takes
 *  (DynamoDB after its November 2024 cut; S3 Standard; SQS standard queue), as written here 27.11.2026. */
const PRICES = {
  writeUnitPerMillion: 0.625,
  readUnitPerMillion: 0.125,
  dynamoGbMonth: 0.25,
  s3GbMonth: 0.023,
  s3PutPerThousand: 0.005,
  s3GetPerThousand: 0.0004,
  sqsPerMillion: 0.4,
} as const;

const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)$/;

export async function run() {
  const layouts =
    process.env.COST_LAYOUT === "minutes" || process.env.COST_LAYOUT === "days" ? [process.env.COST_LAYOUT] : ["minutes", "days"];
  const totals: Record<string, number> = {};
  for (const layout of layouts) totals[layout] = await measure(layout as "minutes" | "days");
  const money = (n: number) => `$${n.toFixed(4)}`;
  console.log(
    `cost per sensor-year: ${totals.minutes === undefined ? "—" : money(totals.minutes)} (minute items, compacted once a day)` +
      (totals.days === undefined ? "" : `; the day items alone (a sensor's day rewritten by each push): ${money(totals.days)}`),
  );
}

/** A day of pushes in one layout: an open day's (minute items, then compacted) or a closed day's (the
 *  sensors' day items rewritten by each push). Answers the cost per sensor-year. */
async function measure(layout: "minutes" | "days"): Promise<number> {
  const SENSORS = SENSORS_OF[layout];
  // The minute items' day in real time: the clock at each replayed minute, 5 s after it (a gateway's
  // push as the minute ends), so the detector finds no silence after the minute pushed. The day items'
  // day, 30 days back, is replayed at today's clock (as the figure of 27.11.2026 was measured).
  const yesterday = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 1);
  let now = yesterday;
  const h = await createFreshHarness({}, layout === "minutes" ? { now: () => new Date(now) } : undefined);
  const user = await h.signedInUser("ООО «Стоимость»");
  const post = async (path: string, body: unknown) => {
    const res = await h.request(path, { method: "POST", token: user.token, json: body });
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; key?: string };
  };
  const facility = (await post("/api/v1/facilities/", { name: "Шахта «Стоимость»", kind: "underground_mine" })).id;
  const point = (await post(`/api/v1/facilities/${facility}/points/`, { name: "Ствол", kind: "ventilation_shaft" })).id;
  const sensors: string[] = [];
  for (let i = 0; i < SENSORS; i++) {
    const code = `М-${i + 1}`;
    await post(`/api/v1/facilities/${facility}/sensors/`, { code, kind: "methane", point });
    sensors.push(code);
  }
  const key = String((await post(`/api/v1/facilities/${facility}/gateway-keys/`, { label: "Шлюз" })).key);

  // S3 as the AWS host would see it: each blob written (PUT) and read (GET), with its bytes.
  const s3 = { puts: 0, gets: 0, putBytes: 0 };
  const blobs = h.deps.blobs;
  const put = blobs.put.bind(blobs);
  const get = blobs.get.bind(blobs);
  blobs.put = async (...args: Parameters<typeof put>) => {
    s3.puts++;
    s3.putBytes += args[1].byteLength;
    return put(...args);
  };
  blobs.get = async (...args: Parameters<typeof get>) => {
    s3.gets++;
    return get(...args);
  };

  // AWS: the batches announced on a queue standing in for SQS, each message consumed by the readings'
  // function's consumer as the event source mapping hands it over (a receive, then a delete).
  const sqs = { sends: 0, receives: 0, deletes: 0 };
  const messages: string[] = [];
  const readingsDeps: SubscriberDeps = {
    repos: h.deps.repos,
    blobs,
    clock: h.deps.clock,
    runtime: readingsRuntime(() => readingsDeps),
  };
  if (HOST === "aws")
    h.deps.readingsQueue = {
      async send(message) {
        sqs.sends++;
        messages.push(JSON.stringify(message));
      },
    };
  const quiet = { info: () => {}, warn: () => {}, error: console.error };
  const consume = async () => {
    for (let body = messages.shift(); body !== undefined; body = messages.shift()) {
      sqs.receives++;
      const answer = await consumeReadingsMessages(
        { Records: [{ messageId: String(sqs.receives), body, attributes: { ApproximateReceiveCount: "1" } }] },
        readingsDeps,
        quiet,
      );
      if (answer.batchItemFailures.length > 0) throw new Error(`message ${body} failed`);
      sqs.deletes++;
    }
  };

  // AWS: the minute function's run after each minute (its schedule), a container of its own kept warm:
  // the stale channels' sweep (the register's stamp, the facility's head and window, its open events)
  // and the look for batches whose announcement was lost. The hourly compaction is the day's, below.
  const minuteRun = minuteDeps({ repos: h.deps.repos, clock: h.deps.clock });
  const minuteFunction = async () => {
    await sweepStaleChannels(minuteRun);
    await reannounceQueued(minuteRun);
  };

  const day = layout === "minutes" ? yesterday : yesterday - 29 * 86_400_000;
  const counter = countCalls(h.doc!);
  // Which items the writes are (a key's first words: TBATCH, TQUEUE, TEVENTS, a minute, a day), and the
  // push's fixed part: the calls on its batch's item, its list line and its queue mark, whatever the
  // readings (each read and write with its units).
  const writtenKinds = new Map<string, number>();
  const readKinds = new Map<string, number>();
  const fixed = { writeUnits: 0, readUnits: 0 };
  let emptyReadUnits = 0;
  // AWS's table stream hands each write of an audited item to the stream's function, which writes one
  // audit entry for it (events/table-changes.ts; an entry is under 1 KB: a write unit). The harness runs
  // no stream: counted here from the keys written.
  const audited = { entries: 0, ofBatch: 0 };
  // The pushes' readings the table keeps (beside their batches' items, a year of them stored for a
  // year as the day items are): each item's bytes by DynamoDB's rule, its 100 bytes of overhead in.
  let readingsItemBytes = 0;
  const itemBytes = (item: Record<string, unknown>) =>
    100 +
    Object.entries(item).reduce(
      (n, [name, value]) =>
        n +
        name.length +
        (value instanceof Uint8Array
          ? value.byteLength
          : typeof value === "string"
            ? Buffer.byteLength(value)
            : JSON.stringify(value).length),
      0,
    );
  const batchKey = (key: Record<string, unknown> | undefined) =>
    key !== undefined && /^(TBATCH#|BATCH#)/.test(String(key.SK)) ? true : String(key?.PK) === "TQUEUE";
  h.doc!.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        Item?: Record<string, unknown>;
        Key?: Record<string, unknown>;
        ExpressionAttributeValues?: Record<string, unknown>;
        RequestItems?: Record<string, { Keys?: Record<string, unknown>[] }>;
        ReturnConsumedCapacity?: string;
      };
      const key = input.Item ?? input.Key;
      if (/Query|Get/.test(String(context.commandName))) {
        const pk = String(
          input.Key?.PK ?? input.ExpressionAttributeValues?.[":pk"] ?? Object.values(input.RequestItems ?? {})[0]?.Keys?.[0]?.PK,
        );
        const kind = `${String(context.commandName).replace(/Command$/, "")} ${pk
          .split("#")
          .filter((w) => !/^[0-9a-f-]{30,}$/.test(w))
          .join("#")}`;
        readKinds.set(kind, (readKinds.get(kind) ?? 0) + 1);
      }
      const write = /Put|Delete|Update/.test(String(context.commandName));
      if (input.Item && /^TBATCH#.*#READINGS$|^TBATCH#SENSORS#/.test(String(input.Item.SK))) readingsItemBytes += itemBytes(input.Item);
      if (key && write) {
        const kind =
          `${String(context.commandName).replace(/Command$/, "")} ${String(key.PK).split("#")[0]} ${String(key.SK).split("#")[0].replace(/^\d.*/, "")}`.trim();
        writtenKinds.set(kind, (writtenKinds.get(kind) ?? 0) + 1);
        if (!unreadByStream(String(key.PK), String(key.SK))) {
          audited.entries++;
          if (batchKey(key)) audited.ofBatch++;
        }
      }
      const ofBatch = batchKey(key) || (input.ExpressionAttributeValues?.[":pk"] === "TQUEUE" && !write);
      const singleRead = /^(GetItem|Query)Command$/.test(String(context.commandName));
      if (!ofBatch && !singleRead) return next(args);
      input.ReturnConsumedCapacity ??= "TOTAL";
      const result = await next(args);
      const units = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits ?? 0;
      // DynamoDB charges a Get or Query that finds nothing its least (a unit strongly consistent, half
      // otherwise); dynalite reports 0 for it.
      if (singleRead && units === 0) emptyReadUnits += (input as { ConsistentRead?: boolean }).ConsistentRead ? 1 : 0.5;
      if (!ofBatch) return result;
      if (write) fixed.writeUnits += units;
      else fixed.readUnits += units;
      return result;
    },
    { step: "initialize", name: "costKinds" },
  );
  const began = performance.now();
  for (let m = 0; m < MINUTES; m++) {
    const t = new Date(day + m * 60_000).toISOString();
    now = day + m * 60_000 + 5_000;
    const res = await h.request("/api/v1/telemetry/readings/", {
      method: "POST",
      headers: { Authorization: `Gateway ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ readings: sensors.map((sensor, i) => ({ sensor, t, value: 0.3 + ((m + i) % 40) / 100 })) }),
    });
    if (res.status !== 202) throw new Error(`push ${m}: ${res.status} ${await res.text()}`);
    if (HOST === "aws") {
      await consume();
      await minuteFunction();
    } else await monitoringIdle(h.deps);
  }
  // The day's compaction, once it is settled: counted with the day.
  if (layout === "minutes") await compactDay(h.deps, user.companyId, facility, new Date(day).toISOString().slice(0, 10));
  const seconds = (performance.now() - began) / 1000;

  let writeUnits = 0;
  let readUnits = emptyReadUnits;
  const byCommand = new Map<string, { calls: number; units: number }>();
  for (const call of counter.calls) {
    if (WRITES.test(call.command)) writeUnits += call.capacity;
    else readUnits += call.capacity;
    const line = byCommand.get(call.command) ?? { calls: 0, units: 0 };
    line.calls++;
    line.units += call.capacity;
    byCommand.set(call.command, line);
  }
  // The day items at the day's end: what a year of such days keeps stored.
  const companyDays = await Promise.all(
    (await h.deps.repos.sensors.listOfFacility(user.companyId, facility)).map((s) =>
      h.deps.repos.monitoring.getDays(user.companyId, s.id, [new Date(day).toISOString().slice(0, 10)]),
    ),
  );
  const dayBytes = companyDays.flat().reduce((n, d) => n + storedArrayBytes(d) + JSON.stringify(d.applied).length + 200, 0);
  // The local host sends nothing: priced as AWS would send, receive and delete its pushes.
  const sqsRequests = HOST === "aws" ? sqs.sends + sqs.receives + sqs.deletes : MINUTES * 3;

  const scale = (1440 / MINUTES) * 365;
  const year = {
    writes: ((writeUnits + audited.entries) * scale * PRICES.writeUnitPerMillion) / 1e6,
    reads: (readUnits * scale * PRICES.readUnitPerMillion) / 1e6,
    dynamoStorage: (((dayBytes + readingsItemBytes) * (1440 / MINUTES) * 365) / 1e9) * PRICES.dynamoGbMonth * 12,
    s3Requests: ((s3.puts * PRICES.s3PutPerThousand + s3.gets * PRICES.s3GetPerThousand) / 1000) * scale,
    s3Storage: ((s3.putBytes * scale) / 1e9) * PRICES.s3GbMonth * 12,
    sqs: ((sqsRequests * scale) / 1e6) * PRICES.sqsPerMillion,
  };
  const total = Object.values(year).reduce((a, b) => a + b, 0);
  const money = (n: number) => `$${(n / SENSORS).toFixed(4)}`;
  console.log(
    `${layout === "minutes" ? "minute items" : "sensors' day items"}: ${SENSORS} sensors, ${MINUTES} pushes of one minute each, applied in ${seconds.toFixed(1)} s` +
      (HOST === "aws"
        ? ", the AWS host's calls (SQS and the readings' function)"
        : ", the LOCAL host's calls (its TQUEUE marks, polls and attempt counts are calls AWS does not make)"),
  );
  for (const [command, line] of [...byCommand].sort()) console.log(`  DynamoDB ${command}: ${line.calls} calls, ${line.units} units`);
  console.log(
    `  writes by item: ${[...writtenKinds]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
  );
  console.log(
    `  reads by key: ${[...readKinds]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
  );
  console.log(
    `  write units ${writeUnits}, read units ${readUnits} (${emptyReadUnits} of them Gets and Queries that found nothing); S3 ${s3.puts} PUT (${s3.putBytes} B), ${s3.gets} GET; SQS ${sqsRequests} requests` +
      (HOST === "aws" ? ` (${sqs.sends} send, ${sqs.receives} receive, ${sqs.deletes} delete)` : " (modelled: 3 a push)"),
  );
  console.log(
    `  audit entries the table's stream writes in AWS: ${audited.entries} (${audited.ofBatch} of them for the batches' items), a write unit each`,
  );
  // A push's fixed part per million pushes: its batch's item, list line and queue mark, its S3 requests
  // and its SQS requests.
  const perMillion = 1e6 / MINUTES;
  const fixedDollars =
    (((fixed.writeUnits + audited.ofBatch) * PRICES.writeUnitPerMillion + fixed.readUnits * PRICES.readUnitPerMillion) / 1e6) * perMillion +
    ((s3.puts * PRICES.s3PutPerThousand + s3.gets * PRICES.s3GetPerThousand) / 1000) * perMillion +
    ((sqsRequests * PRICES.sqsPerMillion) / 1e6) * perMillion;
  console.log(
    `  a push's fixed part: ${((fixed.writeUnits + audited.ofBatch) / MINUTES).toFixed(2)} write (audit entries in them) and ${(fixed.readUnits / MINUTES).toFixed(2)} read units ` +
      `on its batch's items, ${(s3.puts / MINUTES).toFixed(2)} S3 PUT, ${(s3.gets / MINUTES).toFixed(2)} GET, ` +
      `${(sqsRequests / MINUTES).toFixed(2)} SQS requests: $${fixedDollars.toFixed(2)} per million pushes`,
  );
  console.log(
    `  day items at the day's end: ${dayBytes} B (${(dayBytes / SENSORS / 1024).toFixed(1)} KB a sensor); ` +
      `the pushes' readings kept in the table: ${readingsItemBytes} B (${(readingsItemBytes / MINUTES).toFixed(0)} B a push)`,
  );
  console.log(
    `  per sensor-year: writes ${money(year.writes)}, reads ${money(year.reads)}, DynamoDB storage ${money(year.dynamoStorage)}, ` +
      `S3 requests ${money(year.s3Requests)}, S3 storage ${money(year.s3Storage)}, SQS ${money(year.sqs)}`,
  );
  console.log(`  per sensor-year: ${money(total)}`);
  await h.close();
  return total / SENSORS;
}
