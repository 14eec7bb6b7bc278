// A reconciliation against a dispatch export (domain/monitoring/ingest/reconciliation.ts) as the
// job runs it, in the spreadsheet thread or the job function: the comparison, then its differences as an
// xlsx beside its record (a row per reading missing, extra or different, at most
// LIMITS.monitoring.reconciliationXlsxRows; the counts in the record say how many there are). Times are
// written on the company's clock, as the mine's export writes them.
import { zoneOf, zoneOffsetMs } from "@core/company-clock";
import { LIMITS } from "../contract/schemas/limits";
import {
  reconciliationXlsxKey,
  runReconciliation,
  type Reconciliation,
  type ReconciliationJobRequest,
} from "../domain/monitoring/ingest/reconciliation";
import type { Cell, Sheet } from "./content";
import type { ExportDeps } from "./project-export";
import { xlsxBytes } from "./xlsx-writer";
import { EXPORT_FORMATS } from "./formats";
import { ruDate } from "@core/dates";

const KINDS = { missing: "нет в хранилище", extra: "нет в выгрузке", different: "другое значение" } as const;

/** «ДД.ММ.ГГГГ ЧЧ:ММ:СС» on the zone's clock, its offset read once per UTC hour. */
function wallClock(zone: string): (t: number) => string {
  const offsets = new Map<number, number>();
  return (t) => {
    const hour = Math.floor(t / 3_600_000);
    let offset = offsets.get(hour);
    if (offset === undefined) offsets.set(hour, (offset = zoneOffsetMs(hour * 3_600_000, zone)));
    const iso = new Date(t + offset).toISOString();
    return `${ruDate(iso)} ${iso.slice(11, 19)}`;
  };
}

export async function runReconciliationJob(deps: ExportDeps, request: ReconciliationJobRequest): Promise<Reconciliation> {
  const wall = wallClock(zoneOf(await deps.repos.companies.get(request.actor.company)));
  const rows: Cell[][] = [];
  let more = 0;
  const differs = (code: string, t: number, file: number | null, stored: number | null) => {
    if (rows.length >= LIMITS.monitoring.reconciliationXlsxRows) {
      more++;
      return;
    }
    const kind = file === null ? KINDS.extra : stored === null ? KINDS.missing : KINDS.different;
    rows.push([code, wall(t), kind, file, stored]);
  };
  // The xlsx is kept before the record says «done» (runReconciliation's `keep`).
  return runReconciliation(deps, request, differs, async (record) => {
    const sheet: Sheet = {
      name: "Расхождения",
      text: { layout: "none" },
      title:
        `Сверка с выгрузкой АГК ${record.file_name}`.trim() +
        (more > 0 ? `: первые ${rows.length.toLocaleString("ru-RU")} расхождений из ${(rows.length + more).toLocaleString("ru-RU")}` : ""),
      columns: [
        { header: "Датчик", kind: "text", width: 16 },
        { header: "Время (часы компании)", kind: "text", width: 22 },
        { header: "Расхождение", kind: "text", width: 18 },
        { header: "В выгрузке", kind: "number", decimals: 3, asStored: true, width: 16 },
        { header: "В хранилище", kind: "number", decimals: 3, asStored: true, width: 16 },
      ],
      rows,
    };
    await deps.blobs.put(reconciliationXlsxKey(record.company, record.id), await xlsxBytes([sheet]), EXPORT_FORMATS.xlsx.contentType);
  });
}
