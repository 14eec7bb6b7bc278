// /dictionary: the emission categories of the reference page (the earlier product's 8, then issue 17's
// flaring by composition), declared once. Index = the
// coefficient-table index of docs/user-guide.md; each category names its calculation type (title read from the
// registry), the formula of docs/methodology.md (Calculation types) in the symbols of its coefficient tables,
// the normative document it comes from, and the dictionaries whose coefficients it shows.
import { REGISTRY, STATIONARY_FORMULAS, type CalculationType, type DictionaryName } from "@core/registry";

export interface NormativeDocument {
  /** Link text: names the document. */
  readonly label: string;
  /** Official public source until the /documents screen exists. */
  readonly url: string;
}

export const DOCUMENTS = {
  // docs/methodology.md, Sources: the consultant.ru edition of Order No. 371 (cons_doc_LAW_423207).
  order371: {
    label: "Приказ Минприроды № 371",
    url: "https://www.consultant.ru/document/cons_doc_LAW_423207/",
  },
  ipcc2006: {
    label: "МГЭИК 2006, т. 2, гл. 4",
    url: "https://www.ipcc-nggip.iges.or.jp/public/2006gl/",
  },
} as const satisfies Record<string, NormativeDocument>;

export interface EmissionCategory {
  readonly index: number;
  readonly category: string;
  readonly type: CalculationType;
  /** Lines of the formula; `_X` marks a subscript (E_CH4), see Formula.tsx. */
  readonly formula: readonly string[];
  readonly document: NormativeDocument;
  /** The clause of the document: formula and table numbers. */
  readonly clause: string;
  readonly dictionaries: readonly DictionaryName[];
  /** Formula symbol of each coefficient field shown in the tables. */
  readonly symbols: Readonly<Record<string, string>>;
}

// Shared symbols of the IPCC production-based types: EF in m³/t, ρ = koef_transform in kg/m³.
const IPCC_SYMBOLS = { ef: "EF", koef_transform: "ρ" } as const;
const IPCC_MINING = ["E = V × EF × ρ × 10⁻³"] as const;

export const CATEGORIES: readonly EmissionCategory[] = [
  {
    index: 0,
    category: "Выбросы CO2 и CH4 из систем дегазации и вентиляции",
    type: "underground",
    formula: ["E_CH4 = V × W_CH4 × ρ_CH4 × 10⁻²", "E_CO2 = V × W_CO2 × ρ_CO2 × 10⁻²"],
    document: DOCUMENTS.order371,
    clause: "формула 3.1, табл. 1.2, 3.1",
    dictionaries: ["get_coeff_co2_density", "get_underground_content"],
    symbols: { p_ch4: "ρ_CH4", p_co2: "ρ_CO2", ef_ch4: "W_CH4", ef_co2: "W_CO2" },
  },
  {
    index: 1,
    category: "Выбросы CO2 от сжигания топлива техникой при открытой добыче",
    type: "open_mining_co2",
    formula: ["E = V_т × EF", "V_т = V_л × ρ × 10⁻³"],
    document: DOCUMENTS.order371,
    clause: "формулы 18.1, 18.2, табл. 18.1",
    dictionaries: ["get_open_mining_co2"],
    symbols: { ef: "EF", p: "ρ" },
  },
  {
    index: 2,
    category: "Выбросы CH4 после подземной добычи (обработка угля)",
    type: "handling_underground_ch4",
    formula: IPCC_MINING,
    document: DOCUMENTS.ipcc2006,
    clause: "уравнение 4.1.4, уровень 1",
    dictionaries: ["get_handling_underground_ch4"],
    symbols: IPCC_SYMBOLS,
  },
  {
    index: 3,
    category: "Выбросы CH4 при открытой добыче",
    type: "open_mining_ch4",
    formula: IPCC_MINING,
    document: DOCUMENTS.ipcc2006,
    clause: "уравнения 4.1.7, 4.1.8, уровень 1",
    dictionaries: ["get_open_mining_ch4"],
    symbols: IPCC_SYMBOLS,
  },
  {
    index: 4,
    category: "Выбросы CH4 при подземной добыче",
    type: "underground_emission_ch4",
    formula: ["E = V × EF × ρ × 10⁻³, ρ = 0,67"],
    document: DOCUMENTS.ipcc2006,
    clause: "уравнение 4.1.3, уровень 1",
    dictionaries: ["get_underground_emission_ch4"],
    symbols: IPCC_SYMBOLS,
  },
  {
    index: 5,
    category: "Несгоревший CH4 при сжигании на факельной установке",
    type: "torch_ch4",
    formula: ["E = (1 − 0,98) × V × ρ"],
    document: DOCUMENTS.ipcc2006,
    clause: "раздел 4.1, сжигание на факеле",
    dictionaries: ["get_torch_ch4"],
    symbols: { koef_transform: "ρ" },
  },
  {
    index: 6,
    category: "Выбросы CO2 при сжигании метана и топлива в стационарных источниках",
    type: "disposal_co2_stat_sources",
    // A fuel through t c.e.; drained mine gas of a stated composition (D28), its entry taken as 100 % CH4 without one.
    formula: [STATIONARY_FORMULAS.fuel, STATIONARY_FORMULAS.composition],
    document: DOCUMENTS.order371,
    clause: "формулы 1.1, 1.2, 1.3, табл. 1.1",
    dictionaries: ["get_disposal_co2_stat_sources"],
    symbols: { ef: "EF", of: "OF", k: "k" },
  },
  {
    index: 7,
    category: "Выбросы CO2 при сжигании метана на факельной установке",
    type: "disposal_co2_torch",
    formula: ["E = 0,98 × V × ρ × EF"],
    document: DOCUMENTS.ipcc2006,
    clause: "раздел 4.1, сжигание на факеле",
    dictionaries: ["get_disposal_co2_torch"],
    symbols: { ef: "EF", koef_transform: "ρ" },
  },
  {
    // Issue 17 / docs/methodology.md, D11: the Order 371 route for flaring, beside the IPCC ones above.
    index: 8,
    category: "Выбросы CO2 и CH4 при сжигании газа на факельной установке по составу газа",
    type: "torch_composition",
    formula: ["E_CO2 = V × (W_CO2 + Σ W_i × n_C,i × (1 − CF)) × ρ_CO2 × 10⁻²", "E_CH4 = V × W_CH4 × CF × ρ_CH4 × 10⁻²"],
    document: DOCUMENTS.order371,
    clause: "формулы 2.2, 2.4, табл. 1.2, 2.2",
    dictionaries: ["get_torch_cf", "get_coeff_co2_density"],
    symbols: { cf: "CF", p_ch4: "ρ_CH4", p_co2: "ρ_CO2" },
  },
];

/** «Тип расчета»: the registry's title of the category's calculation type. */
export function typeTitle(category: EmissionCategory): string {
  return REGISTRY[category.type].title;
}

// The fuel density of the converter's brands is the one dictionary field no calculation input has.
const EXTRA_LABELS: Readonly<Record<string, string>> = {
  p: "Плотность топлива",
};

/** The coefficient's label as the calculation dialog shows it (registry input label). */
export function coefficientLabel(category: EmissionCategory, field: string): string {
  const input = REGISTRY[category.type].inputs.find((candidate) => candidate.name === field);
  return input?.label ?? EXTRA_LABELS[field] ?? field;
}
