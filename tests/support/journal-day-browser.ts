// The day of journal-day.ts pushed through the API of a browser file's server (the browser tests of the
// operator's journal and of the gassing book): a mine with the day's sensors, its readings applied.
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { JOURNAL_CODES, JOURNAL_SENSORS, readingsOf } from "./journal-day";
import type { BrowserFile } from "./web-page";

/** The mine's facility id. */
export async function journalDayMine(file: BrowserFile, name: string): Promise<string> {
  const call = file.call;
  const facility = (await call<{ id: string }>("POST", "v1/facilities/", { name, kind: "underground_mine" })).id;
  await call("POST", `v1/facilities/${facility}/points/`, { name: "Вентиляционный ствол", kind: "ventilation_shaft" });
  for (const body of JOURNAL_SENSORS()) await call("POST", `v1/facilities/${facility}/sensors/`, body);
  for (const code of JOURNAL_CODES) await call("POST", "v1/telemetry/readings/", { facility, readings: readingsOf(code) });
  await monitoringIdle(file.server.deps);
  return facility;
}
