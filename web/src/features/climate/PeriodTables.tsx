// The words and tables a climate period's figures share with the day's check of the computation
// (ClimateProjectView.tsx, ClimateDayCheck.tsx): hours on the company's clock, figures the Russian
// way, and the deviations grouped (D79) and written as the report writes them.
import { Tag, type TableColumnsType } from "antd";
import { groupedDeviations, type ListedDeviation } from "@server/contract/climate-deviations";
import { displayDateTime } from "../../shared/dates";
import { formatResult } from "../../shared/decimals";
import { ListTable } from "../../shared/LazyTable";
import { CHANNELS, DEVIATIONS, ETA_BASES, type Channel } from "./texts";

export const T = "т CO2-экв.";
/** a figure's cell never breaks inside its digits on a phone; the table scrolls instead. */
export const nowrap = () => ({ style: { whiteSpace: "nowrap" as const } });
export const n = (v: number | null | undefined, decimals = 2) => (v === null || v === undefined ? "—" : formatResult(v, decimals));

/** «2026-06-01T00..2026-06-01T05» as «01.06.2026 00:00 – 05:59». */
export function hoursText(label: string | null): string {
  if (!label) return "весь период";
  const [first, last] = label.split("..");
  const at = (hour: string) => displayDateTime(`${hour}:00`);
  if (!last) return at(first);
  return `${at(first)} – ${last.slice(0, 10) === first.slice(0, 10) ? last.slice(11) + ":00" : at(last)}`;
}

const minutesText = (counts: unknown, words?: (channel: string) => string) =>
  Object.entries((counts ?? {}) as Record<string, number>)
    .map(([c, m]) => `${CHANNELS[c as Channel]?.label.toLowerCase() ?? c} ${formatResult(m, 0)} мин${words ? ` (${words(c)})` : ""}`)
    .join(", ");

/** A group of deviations (groupedDeviations: its totals over its hours) in the report's words. */
function deviationText(d: ListedDeviation): string {
  const detail = d.detail as Record<string, unknown>;
  switch (d.kind) {
    case "no_data":
      return `нет измерений: ${minutesText(detail.missing_min)}`;
    case "substituted":
      // D71: the neighbour that gives less methane — the lower for flow, CH4 and pressure, the higher for the temperature.
      return `замещено соседним значением, дающим меньше метана: ${minutesText(detail.substituted_min, (c) => (c === "t" ? "большим" : "меньшим"))}`;
    case "not_proven":
      return `${NOT_PROVEN[String(detail.eta_basis)] ?? ETA_BASES[String(detail.eta_basis)] ?? ""}${typeof detail.run_missing_min === "number" ? ` ${formatResult(detail.run_missing_min, 0)} мин` : ""}; метан ${n(Number(detail.m_ch4_t), 3)} т`;
    case "el_not_credited":
      return `${n(Number(detail.e_gen_mwh), 3)} МВт·ч`;
    case "measured_fallback":
      return `КПД ${n(Number(detail.eta), 3)}`;
    default:
      return typeof detail.value === "number" ? `значение ${n(detail.value, 3)}` : "";
  }
}

const NOT_PROVEN: Readonly<Record<string, string>> = {
  not_proven_flame: "нет пламени",
  not_proven_t_eg: "температура отходящих газов не выше порога или нет данных",
  not_proven_run: "агрегат не работал",
  not_proven_run_no_data: "нет данных о работе агрегата",
};

/** An hour block as a period's device table and a day's check show it. */
interface HourBlock {
  repeat: number;
  valid: boolean;
  m_ch4_t: number;
  eta: number | null;
  eta_basis: string;
}

/** The columns of an hour block a period's device table and a day's check share: its hours, methane,
 *  η and η's basis (each table adds its own hours' label, device and reductions around them). */
export function hourBlockColumns<R extends HourBlock>(): TableColumnsType<R> {
  return [
    { title: "Часов", dataIndex: "repeat", align: "right", width: 70 },
    {
      title: "Метан, т/ч",
      dataIndex: "m_ch4_t",
      align: "right",
      onCell: nowrap,
      render: (v: number, r) => (r.valid ? n(v, 6) : "нет данных"),
    },
    { title: "КПД", dataIndex: "eta", align: "right", onCell: nowrap, render: (v: number | null) => (v === null ? "—" : n(v, 3)) },
    { title: "Основание КПД", dataIndex: "eta_basis", render: (b: string) => ETA_BASES[b] ?? b },
  ];
}

/** The deviations (the core's, per hour) grouped by device and consecutive hours, in the report's words. */
export function DeviationsTable({ deviations }: { deviations: readonly ListedDeviation[] }) {
  const rows = groupedDeviations(deviations).map((d, i) => ({ ...d, key: i }));
  const columns: TableColumnsType<(typeof rows)[number]> = [
    { title: "Устройство", dataIndex: "device", width: 160 },
    { title: "Часы", dataIndex: "label", render: (label: string | null) => hoursText(label) },
    { title: "Отклонение", dataIndex: "kind", render: (kind: string) => <Tag>{DEVIATIONS[kind] ?? kind}</Tag> },
    { title: "Часов", dataIndex: "hours", align: "right", width: 80 },
    { title: "Подробно", key: "detail", render: (_, d) => deviationText(d) },
  ];
  return <ListTable rowKey="key" columns={columns} dataSource={rows} scroll={{ x: 720 }} locale={{ emptyText: "Отклонений нет" }} />;
}
