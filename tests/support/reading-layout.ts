// Where a day's readings are stored: the facility's minute items while the UTC day is open, the
// sensors' day items once it is closed. The unit tests of the reads that take both (the journal, the
// offers, completeness, the shift report) run on a clock of each and say which one they covered.
import type { Repositories } from "@server/ports";

/** How many readings of the facility's UTC `day` are in its minute items and in its sensors' day items. */
export async function readingsStored(
  repos: Pick<Repositories, "monitoring" | "sensors">,
  company: string,
  facility: string,
  day: string,
): Promise<{ minuteItems: number; dayItems: number }> {
  const minutes = await repos.monitoring.minutesOf(company, facility, day);
  let dayItems = 0;
  for (const sensor of await repos.sensors.listOfFacility(company, facility))
    for (const stored of await repos.monitoring.getDays(company, sensor.id, [day])) dayItems += stored.values.length;
  return { minuteItems: minutes.reduce((sum, minute) => sum + minute.values.length, 0), dayItems };
}
