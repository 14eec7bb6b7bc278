// the instruments' documents as files — the «Метан» maintenance journal and the shift
// handovers of a period (xlsx or PDF), the sensor register with metrology (xlsx), and a verification's
// certificate scan (item 3). A module of its own, so that the sensor register's page loads none of the
// checks' queries for its button.
import { displayDate } from "../shared/dates";
import { api, encoded, routePath } from "./client";
import { saveBlob } from "../shared/saveBlob";

type Format = "xlsx" | "pdf";

/** The «Метан» journal of the facility's checks done in the company days from–to. */
export async function downloadChecksJournal(facility: string, from: string, to: string, format: Format): Promise<void> {
  const path = await routePath("instruments", (c) =>
    c[":id"]["sensor-checks"].export.$path({ param: encoded({ id: facility }), query: { from, to, format } }),
  );
  const file = await api.download(path);
  saveBlob(
    file.blob,
    file.fileName ?? `Журнал эксплуатации и обслуживания датчиков метана ${displayDate(from)} ${displayDate(to)}.${format}`,
  );
}

/** The facility's shift handovers made in the company days from–to. */
export async function downloadHandovers(facility: string, from: string, to: string, format: Format): Promise<void> {
  const path = await routePath("instruments", (c) =>
    c[":id"].handovers.export.$path({ param: encoded({ id: facility }), query: { from, to, format } }),
  );
  const file = await api.download(path);
  saveBlob(file.blob, file.fileName ?? `Передача смены ${displayDate(from)} ${displayDate(to)}.${format}`);
}

/** The register of the facility's sensors in service with their metrology, as xlsx. */
export async function downloadSensorRegister(facility: string): Promise<void> {
  const path = await routePath("instruments", (c) => c[":id"]["sensor-register"].export.$path({ param: encoded({ id: facility }) }));
  const file = await api.download(path);
  saveBlob(file.blob, file.fileName ?? "Реестр датчиков и поверка.xlsx");
}

/** The path of a verification's certificate scan: PUT attaches it (once), GET downloads it. */
export const certificatePath = (facility: string, sensor: string, verification: string) =>
  routePath("instruments", (c) =>
    c[":id"].sensors[":sensor"].verifications[":verification"].certificate.$path({
      param: encoded({ id: facility, sensor, verification }),
    }),
  );

/** A verification's certificate scan, as attached. */
export async function downloadCertificate(facility: string, sensor: string, verification: string, name: string): Promise<void> {
  const file = await api.download(await certificatePath(facility, sensor, verification));
  // In AWS a short-lived storage address (a scan of up to 10 MB does not fit a Lambda answer): the
  // browser saves it without leaving the page, as a document's PDF.
  if (file.redirectUrl) window.location.assign(file.redirectUrl);
  else saveBlob(file.blob, file.fileName ?? name);
}
