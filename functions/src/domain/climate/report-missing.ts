// What the executor has still to write before a period's report can be approved (methodology D79, D80;
// an earlier round): each hand-written field of the report left empty, and — while the explanations of
// section 10 are empty — each group of deviations that needs one (the first five kinds of D79: no data,
// destruction not proven, efficiency not measured, substituted minutes, generation not credited; a
// default value and the standing entries carry the platform's own text). The approval refuses while
// anything is listed (409 naming it); the report's answer carries the same list for the screen.
import { dateTimeText } from "@core/company-clock";
import { CLIMATE_REPORT_HAND_FIELDS, CLIMATE_REPORT_HAND_KEYS, type ClimateReportHandKey } from "../../contract/schemas/climate-report";
import { DEVIATION_NAMES, type DeviationCode, groupedDeviations, type ListedDeviation } from "../../contract/climate-deviations";

/** The deviations an explanation of the executor must answer (D79). */
const EXPLAINED: ReadonlySet<DeviationCode> = new Set(["no_data", "not_proven", "measured_fallback", "substituted", "el_not_credited"]);

/** «2026-06-01T00..2026-06-01T05» as «01.06.2026 00:00 – 05:59»; null: the whole period. */
export function hoursText(label: string | null, zone: string): string {
  if (!label) return "весь период";
  const [first, last] = label.split("..");
  const at = (hour: string) => dateTimeText(`${hour}:00`, zone);
  if (!last) return `${at(first)} – ${first.slice(11)}:59`;
  return `${at(first)} – ${last.slice(0, 10) === first.slice(0, 10) ? last.slice(11) : at(last).slice(0, 13)}:59`;
}

export interface ReportMissing {
  /** The hand-written fields still empty, in the report's order. */
  fields: { key: ClimateReportHandKey; section: number; label: string }[];
  /** The deviation groups without an explanation, as section 10 lists them: «Ф-1, 01.06.2026 02:00 – 02:59: уничтожение не подтверждено». */
  deviation_groups: string[];
}

/** What blocks the approval of a period whose report holds `fields` and whose figures list `deviations`. */
export function reportMissing(
  fields: Readonly<Record<string, string>> | undefined,
  deviations: readonly ListedDeviation[],
  zone: string,
): ReportMissing {
  const empty = (key: ClimateReportHandKey) => (fields?.[key] ?? "").trim() === "";
  const explained = !empty("s10_explanations");
  return {
    fields: CLIMATE_REPORT_HAND_KEYS.filter(empty).map((key) => ({ key, ...CLIMATE_REPORT_HAND_FIELDS[key] })),
    deviation_groups: explained
      ? []
      : groupedDeviations(deviations)
          .filter((d) => EXPLAINED.has(d.kind as DeviationCode))
          .map((d) => `${d.device}, ${hoursText(d.label, zone)}: ${DEVIATION_NAMES[d.kind as DeviationCode]}`),
  };
}

/** The approval's refusal naming what is missing: the fields by name, the groups (the first ten and how many more). */
export function missingText(missing: ReportMissing): string | null {
  if (missing.fields.length === 0 && missing.deviation_groups.length === 0) return null;
  const parts: string[] = [];
  if (missing.fields.length > 0) {
    parts.push(
      `не заполнены поля исполнителя (${missing.fields.length}): ${missing.fields.map((f) => `«${f.label}» (раздел ${f.section})`).join("; ")}`,
    );
  }
  const groups = missing.deviation_groups;
  if (groups.length > 0) {
    const shown = groups.slice(0, 10).join("; ");
    parts.push(
      `нет пояснения к группам отклонений (${groups.length}): ${shown}${groups.length > 10 ? `; и еще ${groups.length - 10}` : ""}`,
    );
  }
  return `«Утвердить» невозможно: отчет о реализации не готов — ${parts.join("; ")}`;
}
