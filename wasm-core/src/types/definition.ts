// The shape of a calculation type's registry entry (wasm-core/src/types/<type>.ts declares one,
// registry.ts assembles them) and the physical bounds its fields refer to. Browser-safe: no Node imports.

/** D1: GWP of CH4 per decree 2979-р (IPCC AR4); AR5 28 and AR6 29.8 are dictionary options. */
export const DEFAULT_GWP_CH4 = 25;

export type CalculationKind = "formula" | "forecast" | "file";

/** What `npm run new-type` leaves in a new type's module for its author to write: assignable to no
 *  part of a module, so the type check names every one left (tools/new-type.ts). */
export const FILL_IN = undefined as unknown as { readonly "fill in this part of the new type": never };

/** A dictionary a type reads, by its name in functions/src/dictionaries/reference-data.json (the data
 *  the server seeds and serves), where reference-data.test.ts finds every one a module names: a new
 *  type's new dictionary is its data and the name in its module, no list besides. */
export type DictionaryName = `get_${string}`;

export interface NumberField {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly type: "number";
  /** Inclusive bounds; a value outside them is a field error. */
  readonly min: number;
  readonly max?: number;
  /** Decimals the value carries (dictionary precision); the UI clamps entry to its own setting. */
  readonly decimals: number;
  readonly default?: number;
  /** The user cannot change it (docs/methodology.md, Calculation types: koef_transform 0.67 of underground_emission_ch4). */
  readonly fixed?: number;
  /** IPCC range (docs/methodology.md, Calculation types): outside it the value is accepted with a warning (docs/methodology.md, D10). */
  readonly typical?: { readonly min: number; readonly max: number };
  /** Optional file column (sensitivity transport_fuel); an optional formula input left out is 0. */
  readonly optional?: boolean;
  /** Activity data: the entry of the activity-uncertainty dictionary that gives its default
   *  uncertainty (docs/methodology.md, Uncertainty: production ±2 %, measured gas flows ±20 %). */
  readonly activity?: ActivityKind;
  /** D13: the units the value may be entered in; stored in `unit`, the canonical one (D8). */
  readonly units?: readonly EntryUnit[];
  /** 4.8: the value is in the unit of the entry chosen in this dictionary (the fuel's: thousand m³
   *  of a gas, t of a solid or liquid fuel), which its name ends with; `unit` says so before a choice. */
  readonly unitByEntry?: DictionaryName;
}

/** A unit an activity input may be entered in: canonical value = entered × 10^power. */
export interface EntryUnit {
  readonly unit: string;
  readonly power: number;
}

/** The entries of get_activity_uncertainty: coal production ±2 %, measured ventilation and drainage
 *  gas ±20 %, fuel and burnt gas by metering or delivery documents ±5 % (D27). */
export const ACTIVITY_KINDS = { production: 1, measured_flow: 2, fuel: 3 } as const;
export type ActivityKind = keyof typeof ACTIVITY_KINDS;

export interface OtherField {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly type: "text" | "choice" | "file" | "table";
  readonly options?: readonly string[];
  /** A "choice" field's options as a user reads them (screens and exports), by option. */
  readonly optionTitles?: Readonly<Record<string, string>>;
  /** Columns of a "table" field (regres_methane data rows). */
  readonly columns?: readonly NumberField[];
  /** Columns of a "file" field's upload: the reader, the template and the dialog's hint read these. */
  readonly upload?: readonly UploadColumn[];
  /** A "file" field's downloadable template (functions/src/contract/templates.ts): its title and
   *  example rows, cells in the order of `upload`. */
  readonly template?: { readonly title: string; readonly example: readonly (readonly (number | string | null)[])[] };
  readonly optional?: boolean;
}

/** A column of an upload file, by its header. */
export interface UploadColumn {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly kind: "number" | "text";
  /** The file may go without the column. */
  readonly optional?: boolean;
  /** What the template adds about the column. */
  readonly note?: string;
  /** filling_blanks: the user names the column in this text input. */
  readonly namedBy?: string;
  /** The template's header of a column the user names: a Russian word to type in the dialog. */
  readonly header?: string;
  /** D13: this text column gives the entry unit of the number column named here, row by row. */
  readonly unitOf?: string;
  /** D13: the units the number column may be given in (its `unit` is the canonical one). */
  readonly units?: readonly EntryUnit[];
}

export type InputField = NumberField | OtherField;

export interface ResultField {
  readonly name: string;
  readonly label: string;
  readonly unit: string;
  readonly type: "number" | "text" | "table";
  readonly decimals?: number;
  /** The physical upper bound of one calculation's value (PHYSICAL_BOUNDS); a result over it is
   *  refused, naming the result. */
  readonly max?: number;
  /** Columns of a "table" result (rows per year, per element or per data row). */
  readonly columns?: readonly ResultField[];
}

export interface DictionaryBinding {
  readonly dictionary: DictionaryName;
  /** Inputs (or settings) the chosen dictionary entry fills, by their API names. */
  readonly fields: readonly string[];
  /** How «Фактическое значение» (offered by every binding, D10) differs here: its label, and the
   *  fields the methodology fixes in that mode (open_mining_ch4: koef_transform 0.67). */
  readonly custom?: { readonly label: string; readonly fixed?: Readonly<Record<string, number>> };
}

export interface CoreFunction {
  /** wasm-core/build/<module>.wasm */
  readonly module: "emissions" | "gbdt";
  /** The exported function that computes the type. */
  readonly fn: string;
}

export interface CalculationDefinition {
  readonly title: string;
  readonly kind: CalculationKind;
  /** The methodology's section number of the type's equation and worked examples (its module's `vectors`; docs/methodology.md, Calculation types). */
  readonly methodology: string;
  readonly inputs: readonly InputField[];
  readonly results: readonly ResultField[];
  /** Per-calculation coefficients that are not inputs of the dialog (GWP, thresholds, file settings). */
  readonly settings: readonly NumberField[];
  readonly dictionaries: readonly DictionaryBinding[];
  /** docs/user-guide.md: edit is hidden for recycle_technology. */
  readonly editable: boolean;
  /** The result that is this calculation's emission in t CO2-eq (statistics, totals, charts). */
  readonly co2e?: string;
  /** Inputs whose sum may not exceed `max` (torch_composition: the contents, % vol, ≤ 100). */
  readonly sums?: readonly { readonly fields: readonly string[]; readonly max: number; readonly label: string }[];
  /** D17: an underground mine methane type states its basis (stored as the input `basis`); this
   *  is the default, also for calculations stored before the choice existed. */
  readonly basis?: MethaneBasis;
  /** The basis is the type's own and no choice: post-mining methane is never drained, so it is
   *  always all of it (gross) and the form does not ask. */
  readonly basisFixed?: true;
  /** D29: the fields that are the facility's own measurements (flow, contents): the user's value
   *  of one is tier 3, not 2 (coefficient-sources.ts, tierOf). */
  readonly measured?: readonly string[];
  /** D26: a CO2-eq that is a CO2 part plus a CH4 part of one volume (its common factor), with the
   *  factors each part has of its own (calculation-uncertainty.ts, the two-part model). */
  readonly uncertaintyParts?: { readonly co2: readonly string[]; readonly ch4: readonly string[] };
  readonly core: CoreFunction;
}

/** D17: `gross`, all methane liberated (before drainage gas is flared or used); `net`, only what
 *  reached the atmosphere. The inventory subtracts what the facility destroyed from gross only. */
export type MethaneBasis = "gross" | "net";

/** The physical upper bounds of the numbers one calculation takes and gives, in the field's stored
 *  unit: the one place they are set (the fields below refer to them; docs/security.md lists them).
 *  Far above any real mine's year, so only a slip (a value typed in the wrong unit, a thousandfold
 *  typo) is refused; far below what the inventory's kept sums hold (whole milligrams under 2⁵³,
 *  about 9 007 199 t of one gas on one line of one project, domain/inventory/sums.ts). */
export const PHYSICAL_BOUNDS = {
  /** Coal mined or handled, t: the largest mines give about 100 million t a year. */
  coal_t: 100_000_000,
  /** Fuel burnt by an open pit's machinery, t: the largest pits burn tens of thousands a year. */
  fuel_t: 300_000,
  /** Fuel burnt in a stationary source, thousand m³ or t: a large boiler house burns about 100 000. */
  stationary_fuel: 1_000_000,
  /** Gas mixture a mine's degasification and ventilation release, thousand m³: a mine's main fans
   *  move 20–40 thousand m³/min, about 20 million thousand m³ a year. */
  released_gas_thousand_m3: 100_000_000,
  /** Gas or methane sent to a flare, thousand m³: a mine drains at most a few hundred million m³ a year. */
  flared_gas_thousand_m3: 500_000,
  /** A flow, m³/min: a mine's main fans move at most a few tens of thousands. */
  flow_m3_min: 100_000,
  /** The working hours of one measurement period: a leap year. */
  period_hours: 8_784,
  /** Methane per t of coal, m³/t: the gassiest seams hold about 40. */
  methane_m3_t: 100,
  /** A density or conversion factor, kg/m³ (CH4 0.67–0.72, CO2 1.84–1.98). */
  density_kg_m3: 10,
  /** A factor in t per t or per unit of fuel (CO2 of diesel 3.15, of a t c.e. 2.3–2.8, of burnt
   *  CH4 2.75; t c.e. of a thousand m³ of gas 1.15). */
  factor_t: 10,
  /** The CO2 factor of a fuel burnt in a stationary source, per t c.e. (2.3–2.8) or per TJ (54–112). */
  stationary_factor: 150,
  /** A GWP of CH4 (AR4 25, AR5 28, AR6 29.8; over 20 years about 84). */
  gwp: 100,
  /** One gas of one calculation, t (CH4 or CO2): all of Russia's coal mines emit about 1–2 million t
   *  of CH4 a year. */
  gas_t: 1_000_000,
  /** One calculation in CO2-eq, t: its CO2 and its CH4 at their bound, CH4 at the largest GWP. */
  co2e_t: 1_000_000 * (1 + 100),
  /** An emission factor a calculation computes from a gas's composition, t per thousand m³ (at
   *  most 5 carbons × 1.98 kg/m³ = 9.9). */
  computed_factor_t: 100,
  /** One line of one project's kept sums (a gas of an IPCC code, a figure of a methane balance), t:
   *  five calculations at their bound, with room under the 9 007 199 t the sums hold for writes
   *  that pass the check side by side. */
  project_line_t: 5_000_000,
} as const;

// ---- what a type contributes to the year's inventory (methodology D15) -------------------------

export type Gas = "CH4" | "CO2";
export type Order371Category = 1 | 2 | 3 | 18;

export const IPCC_CODES: Record<string, string> = {
  "1.A.1.c.ii": "Сжигание топлива: добыча угля (горная техника, собственные нужды)",
  "1.B.1.a.i.1": "Подземная добыча: выбросы при добыче",
  "1.B.1.a.i.2": "Подземная добыча: выбросы после добычи",
  // D16: no type produces it today.
  "1.B.1.a.i.3": "Подземная добыча: закрытые (заброшенные) шахты",
  "1.B.1.a.i.4": "Подземная добыча: сжигание на факеле и утилизация каптированного метана",
  "1.B.1.a.ii.1": "Открытая добыча: выбросы при добыче",
  "1.B.1.a.ii.2": "Открытая добыча: выбросы после добычи",
};

/** How the emission was determined, as the report passport names it (7.3). */
export type InventoryMethod = "coefficients" | "measurement" | "continuous" | "composition" | "table_defaults";

/** D22: what the dialog and the inventory say of the IPCC flare types. */
export const IPCC_FLARE_NOTE = "метод МГЭИК, не Приказ № 371";

export interface InventorySource {
  readonly category: Order371Category;
  readonly ipcc: keyof typeof IPCC_CODES;
  /** The IPCC code when the calculation used a particular dictionary entry (open_mining_ch4's
   *  post-mining factor is 1.B.1.a.ii.2). */
  readonly ipccByEntry?: Readonly<Record<number, keyof typeof IPCC_CODES>>;
  readonly dictionary?: string;
  /** Notes on a line by the entry used (D16: the combined surface factor). */
  readonly notesByEntry?: Readonly<Record<number, string>>;
  /** A note on every calculation of the type (D22: the IPCC flare types). */
  readonly note?: string;
  /** D22: created as an alternative unless the user makes it primary. */
  readonly defaultRole?: "alternative";
  /** The method when the contents come from this dictionary's entries (the underground type's
   *  Table 3.1 defaults) rather than from measurements. */
  readonly defaultsDictionary?: string;
  readonly method: InventoryMethod;
  /** The result field holding each gas's mass, t. */
  readonly gases: readonly { readonly gas: Gas; readonly result: string }[];
  /** 8.1: the Order 371 formula or the IPCC equation (IPCC 2006 Vol. 2 Ch. 4) the passport prints
   *  for a line of the type; the entry used and the gas's contents may change it. */
  readonly passportFormula: (line: FormulaLine) => string;
  /** The day (ISO date) the platform began to offer the type. A version approved before it keeps its
   *  pack's rules.json as it was, without the type (D32: an approved year never changes). */
  readonly since?: string;
}

/** What a passport line's formula reads of its calculation: its inputs, and where its coefficients came from. */
export interface FormulaLine {
  readonly inputs?: Readonly<Record<string, unknown>>;
  readonly coefficients?: Readonly<Record<string, { readonly source?: string; readonly item_id?: number }>>;
}

// ---- the methane balance (methodology D17) ------------------------------------------------------

/** A type's part in the methane balance of an underground mine: a mining figure (estimated for the
 *  mine as a whole, or measured at an emission point, D25), post-mining methane (added, never
 *  netted), or drained gas a flare, boiler or engine destroyed (at an emission point). */
export type BalanceRole = "mining_estimate" | "mining_measured" | "post_mining" | "destruction";

/** What a destruction type reads of its calculation (a stored calculation fits). */
export interface DestroyingCalculation {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly coefficients?: Readonly<Record<string, { readonly dictionary?: string; readonly item_id?: number }>>;
}

/** The CH4 a calculation sent to a flare or to use (boilers, engines) and destroyed there, t. */
export interface MethaneDestroyed {
  readonly route: "flared" | "used";
  readonly sent_t: number;
  readonly destroyed_t: number;
}

/** A destruction type's sent and destroyed methane, in the balance's own formulas; undefined where
 *  it burnt no mine gas (a boiler's fuel that is not mine gas). */
export type MethaneDestruction = (calculation: DestroyingCalculation) => MethaneDestroyed | undefined;

// ---- the reference page (/dictionary) ------------------------------------------------------------

export interface NormativeDocument {
  /** Link text: names the document. */
  readonly label: string;
  /** Official public source until the /documents screen exists. */
  readonly url: string;
}

/** A type's category on the reference page (/dictionary). Index = the coefficient-table index of docs/user-guide.md. */
export interface ReferenceCategory {
  readonly index: number;
  readonly category: string;
  /** Lines of the formula; `_X` marks a subscript (E_CH4), see Formula.tsx. */
  readonly formula: readonly string[];
  readonly document: NormativeDocument;
  /** The clause of the document: formula and table numbers. */
  readonly clause: string;
  readonly dictionaries: readonly DictionaryName[];
  /** Formula symbol of each coefficient field shown in the tables. */
  readonly symbols: Readonly<Record<string, string>>;
}

// ---- the methodology's worked examples -----------------------------------------------------------

/** The methodology's section a type's worked examples come from (docs/methodology.md): the test
 *  vectors of section 5, which tests/fixtures/methodology/vectors.json holds as the methodology gives
 *  them, or the worked examples of a later section (7: flaring by composition). */
export type VectorsSection = `section ${number}`;

/** One worked example of a formula type: its inputs and results by the registry's names. */
export type VectorRow = Readonly<Record<string, number>>;

/** A type's worked examples, in its own module: the section they come from and the examples as the
 *  methodology gives them (rows of inputs and results for a formula type; an analysis has its own shape).
 *  methodology-vectors.ts gathers them, and emissions.test.ts holds section 5's to the methodology's copy. */
export interface WorkedExamples<E = unknown> {
  readonly section: VectorsSection;
  readonly examples: E;
}

// ---- a calculation type's module -----------------------------------------------------------------

/** What wasm-core/src/types/<type>.ts exports: everything the product says of one calculation type
 *  (docs/architecture.md, «Adding a calculation type»). Each part is required, null where the type has
 *  none, so the compiler names what a new type left out. */
export interface CalculationModule {
  /** The registry entry: title, fields, dictionaries, core function. */
  readonly definition: CalculationDefinition;
  /** What the type contributes to the year's inventory, or null: it never counts (D15). */
  readonly inventory: InventorySource | null;
  /** Its part in the methane balance of an underground mine, or null: it takes none (D17). */
  readonly balance: BalanceRole | null;
  /** The methane it sent and destroyed, exactly for a `balance` of "destruction", else null. */
  readonly destroys: MethaneDestruction | null;
  /** Its category on the reference page (/dictionary), or null: it has none. */
  readonly reference: ReferenceCategory | null;
  /** Its worked examples, or null: the methodology gives none. */
  readonly vectors: WorkedExamples | null;
}
