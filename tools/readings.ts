// `npm run readings -- replay <file> --url <server> --key <gateway key> [--speed N] [--every M] [--zone <IANA>]`:
// pushes a mine's dispatch-system export through POST v1/telemetry/readings/ as its gateway would
// (methodology D57). The file is a CSV in Windows-1251 or UTF-8 with «;» (or «,»), read by the one CSV
// decoder: either one column per sensor code after the time («Время;М-12;Q-1», a row a minute), or one
// row per reading («Датчик;Время;Значение», or the push's own sensor;t;value). Times written
// «ДД.ММ.ГГГГ ЧЧ:ММ[:СС]» are the mine's local time, read on the company's clock (--zone, Kemerovo's
// unless given); ISO 8601 instants with a zone are read as written. Values may carry a decimal comma.
// --speed N plays the file N times faster than it was recorded (each push waits the time its readings
// span, divided by N); without it the readings go as fast as the server answers. --every M pushes M
// minutes of readings at a time, as a gateway pushing every M minutes (else up to the push's bound).
import { readFileSync } from "node:fs";
import { DEFAULT_TIME_ZONE } from "@core/company-clock";
import { readDispatchBytes } from "@server/domain/monitoring/ingest/dispatch-file";
import { LIMITS } from "@server/contract/schemas/limits";

export interface DispatchReading {
  sensor: string;
  t: number;
  value: number;
}

/** The readings of a dispatch export, in file order (read by the server's own reader, dispatch-file.ts);
 *  lines and cells that are no number or time are skipped and counted. */
export function dispatchReadings(bytes: Uint8Array, zone = DEFAULT_TIME_ZONE): { readings: DispatchReading[]; skipped: number } {
  const readings: DispatchReading[] = [];
  let skipped = 0;
  readDispatchBytes(
    bytes,
    { zone },
    {
      reading(_line, sensor, t, value) {
        readings.push({ sensor, t, value });
        return undefined;
      },
      refuse: () => void skipped++,
    },
  );
  return { readings, skipped };
}

export interface ReplayOptions {
  url: string;
  key: string;
  /** Times faster than recorded; 0 or none: as fast as the server answers. */
  speed?: number;
  /** Minutes of readings a push carries, as a gateway pushing every N minutes (none: the push's bound). */
  every?: number;
  log?: (line: string) => void;
}

/** The readings cut into pushes: at most the push's bound each, and within `every` minutes from a
 *  push's first reading when given. */
function pushesOf(sorted: readonly DispatchReading[], every?: number): DispatchReading[][] {
  const per = LIMITS.monitoring.readingsPerRequest;
  const parts: DispatchReading[][] = [];
  let part: DispatchReading[] = [];
  for (const reading of sorted) {
    if (part.length === per || (every && part.length > 0 && reading.t >= part[0].t + every * 60_000)) {
      parts.push(part);
      part = [];
    }
    part.push(reading);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** Pushes the readings in batches of at most the push's bound, as a gateway does; resolves to the batches answered 202. */
export async function replay(readings: readonly DispatchReading[], options: ReplayOptions): Promise<string[]> {
  const sorted = [...readings].sort((a, b) => a.t - b.t);
  const parts = pushesOf(sorted, options.every);
  const batches: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const started = Date.now();
    const res = await fetch(`${options.url.replace(/\/$/, "")}/api/v1/telemetry/readings/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Gateway ${options.key}` },
      body: JSON.stringify({ readings: part.map((r) => ({ sensor: r.sensor, t: new Date(r.t).toISOString(), value: r.value })) }),
    });
    if (res.status !== 202) throw new Error(`пакет ${batches.length + 1}: ${res.status} ${await res.text()}`);
    batches.push(((await res.json()) as { batch: string }).batch);
    options.log?.(
      `пакет ${batches.length}: ${part.length} показаний, ${new Date(part[0].t).toISOString()} – ${new Date(part[part.length - 1].t).toISOString()}`,
    );
    if (options.speed && options.speed > 0 && i + 1 < parts.length) {
      const span = parts[i + 1][0].t - part[0].t;
      const wait = span / options.speed - (Date.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }
  return batches;
}

async function main(argv: string[]): Promise<number> {
  const [command, file, ...rest] = argv;
  const option = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  if (command !== "replay" || !file) {
    console.error(
      "npm run readings -- replay <файл> --url http://127.0.0.1:3000 --key <ключ шлюза> [--speed N] [--every M] [--zone Asia/Novokuznetsk]",
    );
    return 2;
  }
  const url = option("url") ?? "http://127.0.0.1:3000";
  const key = option("key") ?? process.env.GATEWAY_KEY;
  if (!key) {
    console.error("Укажите ключ шлюза площадки: --key <ключ> или GATEWAY_KEY");
    return 2;
  }
  const { readings, skipped } = dispatchReadings(new Uint8Array(readFileSync(file)), option("zone") ?? DEFAULT_TIME_ZONE);
  console.log(`${file}: ${readings.length} показаний${skipped ? `, ${skipped} ячеек пропущено (не число или не время)` : ""}`);
  const batches = await replay(readings, {
    url,
    key,
    speed: Number(option("speed") ?? 0),
    every: option("every") === undefined ? undefined : Number(option("every")),
    log: (line) => console.log(line),
  });
  console.log(`передано пакетов: ${batches.length}; их состояние — GET /api/v1/telemetry/batches/{пакет}/ с токеном пользователя`);
  return 0;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
