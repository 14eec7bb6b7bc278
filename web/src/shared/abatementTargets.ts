// What an abatement plan (methodology section 11) would close of the company's targets («Динамика»):
// shown by «Снижение выбросов» beside its MACC and by «Динамика» under its targets.
import type { AbatementResult } from "@core/abatement";

export interface TargetProgress {
  id: string;
  name: string;
  gas: string;
  kind: "absolute" | "per_tonne";
  target_year: number;
  progress: { unit?: string; target_value?: number; latest_value?: number; latest_year?: number; note?: string };
}

export interface TargetClosure {
  id: string;
  name: string;
  /** what is still to reduce, in the target's unit, or null */
  remaining: number | null;
  /** the plan's reduction in the target's unit a year */
  plan: number | null;
  /** the share of what remains the plan closes, %; null when it cannot be said */
  share_pct: number | null;
  note: string | null;
}

/** What the plan's yearly reduction would close of each target: a CO2-eq target by the plan's ER, a
 *  CH4 target by the methane it destroys; a per-tonne or CO2 target is not comparable. */
export function targetClosures(targets: readonly TargetProgress[], result: AbatementResult): TargetClosure[] {
  const chosen = result.streams.flatMap((s) => s.options.filter((o) => o.option_code === s.chosen));
  const er = chosen.reduce((t, o) => t + o.er_t_co2e, 0);
  const ch4 = chosen.reduce((t, o) => t + o.eta_destruction * o.m_ch4_t, 0);
  return targets.map((target) => {
    const base = { id: target.id, name: target.name };
    if (target.kind !== "absolute")
      return { ...base, remaining: null, plan: null, share_pct: null, note: "Цель на тонну угля: план не сравнивается" };
    if (target.gas !== "co2e" && target.gas !== "CH4")
      return { ...base, remaining: null, plan: null, share_pct: null, note: "Цель по CO2: уничтожение метана её не сокращает" };
    const { latest_value, target_value } = target.progress;
    if (latest_value === undefined || target_value === undefined) {
      return { ...base, remaining: null, plan: null, share_pct: null, note: target.progress.note ?? "Нет данных года для сравнения" };
    }
    const plan = target.gas === "co2e" ? er : ch4;
    const remaining = latest_value - target_value;
    if (remaining <= 0) return { ...base, remaining, plan, share_pct: null, note: "Цель уже достигнута" };
    return { ...base, remaining, plan, share_pct: (plan / remaining) * 100, note: null };
  });
}
