// The shape of a destruction device kind of a climate project (methodology 13.1, D72, D73): one module
// of wasm-core/src/climate-devices/ declares each kind — its channels, its efficiency rule, its
// standing deviations and its words — and index.ts assembles them. The core's computation, the
// server's schema and checks, the form, the report and verify.py's table (export/verify/verify.py,
// written by `npm run verify-tables`) all read the kinds from there. Browser-safe: no imports.

/** The channels beyond flow and CH4 (and P, T at actual conditions, which every kind takes) that a
 *  kind may have: the proofs of destruction, the analyser, the energy meters. */
export const KIND_CHANNELS = ["flame", "t_eg", "run", "eta_meas", "e_gen", "heat"] as const;
export type KindChannel = (typeof KIND_CHANNELS)[number];

/** A channel of a kind: required, optional, or required in the efficiency's measured option. A
 *  channel the kind does not list is refused in its monitoring plan. */
export type ChannelNeed = "required" | "optional" | "measured_option";

/** What proves an hour's destruction (D72, D73); each is written once in the core and once in
 *  verify.py. An hour not proven has efficiency 0, and its basis names why. */
export const PROOFS = {
  /** Every minute of the hour shows flame. */
  flame: { not_proven: ["not_proven_flame"] },
  /** Every minute's exhaust temperature is above `t_eg_min_c`. */
  exhaust_hot: { not_proven: ["not_proven_t_eg"] },
  /** Every minute with gas fed shows the unit running: stopped, or no run status, is not proven. */
  run_when_fed: { not_proven: ["not_proven_run", "not_proven_run_no_data"] },
} as const;
export type Proof = keyof typeof PROOFS;

/** How an analyser's hourly efficiency enters: never; as the measured option the device declares
 *  (with the period's lowest as a fallback, D72); or in place of the default only when lower (D73). */
export const MEASURED_RULES = ["none", "option", "if_lower"] as const;
export type MeasuredRule = (typeof MEASURED_RULES)[number];

/** A kind's efficiency rule (D72, D73). */
export interface EfficiencyRule {
  readonly proof: Proof;
  /** The default efficiency of a proven hour: the parameter of section 13.6 that holds it. */
  readonly parameter: {
    readonly name: string;
    readonly value: number;
    /** The report's words for it and the source it rests on (section 7 of the report). */
    readonly label: string;
    readonly source: string;
  };
  /** The basis of an hour at the default, and its words on the screen. */
  readonly basis: string;
  readonly basis_text: string;
  readonly measured: MeasuredRule;
  /** The report counts a methodology's default (flares, TOOL06) apart from a device's value. */
  readonly counted_as: "default" | "device";
}

export interface DeviceKindSpec {
  /** The code the API and the stored projects use. */
  readonly id: string;
  /** Its Russian name, and the same in the genitive and dative for the messages. */
  readonly label: string;
  readonly label_of: string;
  readonly label_to: string;
  readonly channels: Readonly<Partial<Record<KindChannel, ChannelNeed>>>;
  readonly efficiency: EfficiencyRule;
  /** Heat columns in every hour (a boiler's output), or only when the period has a heat meter's figures. */
  readonly heat: "always" | "when_metered";
  /** The report's standing deviations for each device of the kind (section 10). */
  readonly standing: readonly string[];
  /** The abatement options of section 11 this kind puts into practice. */
  readonly options: readonly string[];
  /** Its worked example in methodology 13.5/13.6 (the case's letter), checked by the core's and verify.py's tests. */
  readonly example: string;
}

/** The words of the bases a kind does not own: the proofs' (screen and report) and the analyser's. */
export const BASIS_TEXTS: Readonly<Record<string, { readonly screen: string; readonly report?: string }>> = {
  not_proven_flame: { screen: "не подтверждено: нет пламени", report: "нет пламени" },
  not_proven_t_eg: { screen: "не подтверждено: T отх. газов", report: "температура отходящих газов не выше порога или нет данных" },
  not_proven_run: { screen: "не подтверждено: агрегат стоял", report: "агрегат не работал" },
  not_proven_run_no_data: { screen: "не подтверждено: нет данных о работе агрегата", report: "нет данных о работе агрегата" },
  measured: { screen: "измерен" },
  measured_fallback: { screen: "КПД не измерен: наименьший за период" },
  no_data: { screen: "нет данных" },
};

/** D72's standing entry of a flare whose manufacturer's conditions are not declared. */
export const NO_MANUFACTURER_CONDITIONS =
  "условия изготовителя не заданы (D72): КПД по умолчанию только при подтвержденном уничтожении в каждой минуте часа";
