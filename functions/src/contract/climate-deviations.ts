// D79's deviations of a climate project's period (methodology 13.1): their codes and the Russian words
// the period's answer, the report on implementation, the verifier's pack and the screen name them by.
// No import: the web's climate screen reads it without the contract's schemas.

/** A deviation's name, by its code, as the report and the screen print it. */
export const DEVIATION_NAMES = {
  no_data: "нет данных",
  not_proven: "уничтожение не подтверждено",
  substituted: "замещено",
  measured_fallback: "КПД не измерен",
  el_not_credited: "выработка не зачтена",
  default_used: "значение по умолчанию",
} as const;

export type DeviationCode = keyof typeof DEVIATION_NAMES;

/** The codes, in the order the answer's schema lists them. */
export const DEVIATION_CODES = [
  "no_data",
  "not_proven",
  "measured_fallback",
  "substituted",
  "el_not_credited",
  "default_used",
] as const satisfies readonly DeviationCode[];

/** A deviation of the period's figures as the core lists it: per block of identical hours. */
export interface ListedDeviation {
  device: string;
  label: string | null;
  hours: number;
  kind: string;
  detail: Readonly<Record<string, unknown>>;
}

/** «2026-06-01T02» an hour later, on the same wall clock the labels are written on. */
function nextHour(hour: string): string {
  const at = Date.UTC(Number(hour.slice(0, 4)), Number(hour.slice(5, 7)) - 1, Number(hour.slice(8, 10)), Number(hour.slice(11, 13)) + 1);
  return new Date(at).toISOString().slice(0, 13);
}

/** What makes deviations of one device and kind one group besides their hours: the reason they share. */
function groupKey(d: ListedDeviation): string {
  const detail = d.detail as Record<string, unknown>;
  if (d.kind === "not_proven") return `${d.device}|${d.kind}|${String(detail.eta_basis)}`;
  if (d.kind === "el_not_credited") return `${d.device}|${d.kind}|${String(detail.reason)}`;
  if (d.kind === "measured_fallback") return `${d.device}|${d.kind}|${String(detail.eta)}`;
  return `${d.device}|${d.kind}`;
}

const addCounts = (into: Record<string, number>, counts: unknown, times: number) => {
  for (const [channel, n] of Object.entries((counts ?? {}) as Record<string, number>)) into[channel] = (into[channel] ?? 0) + n * times;
};

/** D79: the deviations grouped over consecutive hours of one device and one kind
 *  (and, for destruction not proven, one reason), each group with its totals — the methane sent in
 *  hours not proven (`m_ch4_t`), the minutes missing or substituted by channel, the generation not
 *  credited (`e_gen_mwh`). A 3 h 20 min flame loss is one line of 4 h, whatever each hour's methane.
 *  Defaults («значение по умолчанию», no hours) stay as listed. */
export function groupedDeviations<D extends ListedDeviation>(deviations: readonly D[]): D[] {
  const groups: {
    key: string;
    first: string;
    last: string;
    hours: number;
    kind: string;
    device: string;
    detail: Record<string, unknown>;
  }[] = [];
  const out: (ListedDeviation | (typeof groups)[number])[] = [];
  for (const d of deviations) {
    if (!d.label) {
      out.push(d);
      continue;
    }
    const [first, last = first] = d.label.split("..");
    const key = groupKey(d);
    const detail = d.detail as Record<string, unknown>;
    let group = groups.find((g) => g.key === key && nextHour(g.last) === first);
    if (!group) {
      group = { key, first, last: first, hours: 0, kind: d.kind, device: d.device, detail: {} };
      if (d.kind === "not_proven") group.detail = { eta_basis: detail.eta_basis, m_ch4_t: 0 };
      if (d.kind === "no_data") group.detail = { missing_min: {} };
      if (d.kind === "substituted") group.detail = { substituted_min: {} };
      if (d.kind === "el_not_credited") group.detail = { reason: detail.reason, e_gen_mwh: 0 };
      if (d.kind === "measured_fallback") group.detail = { eta: detail.eta };
      groups.push(group);
      out.push(group);
    }
    group.last = last;
    group.hours += d.hours;
    if (d.kind === "not_proven") (group.detail.m_ch4_t as number) += Number(detail.m_ch4_t_per_hour) * d.hours;
    if (typeof detail.run_missing_min === "number")
      group.detail.run_missing_min = Number(group.detail.run_missing_min ?? 0) + detail.run_missing_min * d.hours;
    if (d.kind === "no_data") addCounts(group.detail.missing_min as Record<string, number>, detail.missing_min, d.hours);
    if (d.kind === "substituted") addCounts(group.detail.substituted_min as Record<string, number>, detail.substituted_min, d.hours);
    if (d.kind === "el_not_credited") (group.detail.e_gen_mwh as number) += Number(detail.e_gen_mwh) * d.hours;
  }
  return out.map((g) =>
    "key" in g
      ? ({
          device: g.device,
          label: g.first === g.last ? g.first : `${g.first}..${g.last}`,
          hours: g.hours,
          kind: g.kind,
          detail: g.detail,
        } as D)
      : (g as D),
  );
}
