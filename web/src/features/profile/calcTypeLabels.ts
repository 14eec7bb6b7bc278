// Russian names of the calculation types (SPEC 9) for the statistics block. When the calculation
// registry lands in the web app, its labels replace this table.
const LABELS: Record<string, string> = {
  recycle_technology: "Выбор технологии утилизации метана",
  handling_underground_ch4: "CH₄ при обращении с углем (подземная добыча)",
  open_mining_ch4: "CH₄ при открытой добыче",
  open_mining_co2: "CO₂ от топлива при открытой добыче",
  underground: "CO₂ и CH₄ при подземной добыче",
  underground_emission_ch4: "CH₄ при подземной добыче",
  disposal_co2_torch: "CO₂ при сжигании на факеле",
  disposal_co2_stat_sources: "CO₂ от стационарных источников",
  torch_ch4: "Несгоревший CH₄ на факеле",
  regres_methane: "Прогноз метана (регрессия)",
  filling_blanks: "Заполнение пропусков",
  sensitivity: "Анализ чувствительности",
};

export function calcTypeLabel(type: string): string {
  return LABELS[type] ?? type;
}
