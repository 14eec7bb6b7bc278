// A batch's readings as the consumer carries them (consumer.ts, files.ts): per sensor, times (UTC ms)
// and values in typed arrays, 16 bytes a reading, rather than an array of [sensor, ms, value] tuples
// (about 100 bytes a reading in V8's heap). A part of a year's file is about a day of 20 sensors.

/** One sensor's readings (of a batch, a part of a file, a day), in the order read: UTC ms and values. */
export interface SensorReadings {
  sensor: string;
  times: Float64Array;
  values: Float64Array;
}

/** Times and values in parts (a sensor's days, a file's columns), one after another in one pair of arrays. */
export function joinedReadings(parts: readonly { times: Float64Array; values: Float64Array }[]): {
  times: Float64Array;
  values: Float64Array;
} {
  const length = parts.reduce((n, p) => n + p.times.length, 0);
  const times = new Float64Array(length);
  const values = new Float64Array(length);
  let at = 0;
  for (const p of parts) {
    times.set(p.times, at);
    values.set(p.values, at);
    at += p.times.length;
  }
  return { times, values };
}

/** Readings gathered per sensor as they are read, in typed arrays grown by doubling. */
export class ReadingColumns {
  /** Readings added since the last `take`. */
  length = 0;
  private bySensor = new Map<string, { times: Float64Array; values: Float64Array; length: number }>();

  add(sensor: string, t: number, value: number): void {
    let column = this.bySensor.get(sensor);
    if (!column) this.bySensor.set(sensor, (column = { times: new Float64Array(64), values: new Float64Array(64), length: 0 }));
    if (column.length === column.times.length) {
      const times = new Float64Array(column.length * 2);
      const values = new Float64Array(column.length * 2);
      times.set(column.times);
      values.set(column.values);
      column.times = times;
      column.values = values;
    }
    column.times[column.length] = t;
    column.values[column.length] = value;
    column.length++;
    this.length++;
  }

  /** The readings gathered, per sensor (each trimmed to its length), and the columns emptied. */
  take(): SensorReadings[] {
    const taken = [...this.bySensor].map(([sensor, c]) => ({
      sensor,
      times: c.times.slice(0, c.length),
      values: c.values.slice(0, c.length),
    }));
    this.bySensor.clear();
    this.length = 0;
    return taken;
  }
}

/** A push's rows ([sensor, ms, value], as its blob stores them) as readings per sensor. */
export function columnsOf(rows: readonly (readonly [string, number, number])[]): SensorReadings[] {
  const columns = new ReadingColumns();
  for (const [sensor, t, value] of rows) columns.add(sensor, t, value);
  return columns.take();
}
