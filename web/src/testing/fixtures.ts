// Answers of the server for component tests, typed as the contract declares them (contract-api.ts
// checks each against its route's declared answer when it is given): a demo company's user and
// project, the settings videos, none uploaded, and the reference dictionaries as the server answers
// them after seeding (its own seed data and entry mapping). Tests change what they need with spreads.
import type {
  CalculationView,
  Company,
  Dictionary,
  MediaStatus,
  MethaneLimitRow,
  Project,
  SensorCheckStates,
  SignedInUser,
} from "@server/contract";
import { DECREE_315_RULES, ORDER_507_LIMITS } from "@core/methane-limits";
import { abatementKernels, evaluateAbatement, type AbatementRequest } from "@core/abatement";
import { loadEmissions } from "@core/emissions-browser";
import type { Assessment } from "../features/abatement/api";
import { NO_VIDEOS } from "../api/media";
import { REFERENCE_DICTIONARIES } from "@server/dictionaries/reference-data";
import { seededEffectiveFrom, toEntry } from "@server/domain/reference/dictionaries";
import { climateReportContent } from "@server/domain/climate/report-content";

export const COMPANY_ID = "company-1";

export const company = (changes: Partial<Company> = {}): Company => ({
  id: COMPANY_ID,
  name: "ООО «Шахта Демо»",
  email: "office@demo.example",
  ogrn: "",
  okved: "05.10.11",
  region: "Кемеровская область — Кузбасс",
  postal_address: "650000, г. Кемерово, ул. Весенняя, 5",
  version: 1,
  ...changes,
});

export const signedInUser = (changes: Partial<SignedInUser> = {}): SignedInUser => ({
  id: "user-1",
  email: "demo@example.com",
  first_name: "Анна",
  last_name: "Иванова",
  role: "staff",
  is_active: true,
  created_at: "2025-01-10T08:00:00.000Z",
  company: company(),
  ...changes,
});

export const project = (changes: Partial<Project> = {}): Project => ({
  id: "project-1",
  name: "Шахта Десятичная",
  start_date: "2025-01-01",
  end_date: "2025-12-31",
  reporting_year: 2025,
  facility: null,
  created_at: "2025-01-10T08:00:00.000Z",
  updated_at: "2025-01-10T08:00:00.000Z",
  status: 1,
  company: COMPANY_ID,
  user: "user-1",
  is_active: true,
  is_deleted: false,
  version: 1,
  ...changes,
});

/** GET media/: every kind, nothing uploaded. */
export const noVideos = (): { results: MediaStatus[]; count: number } => ({
  results: [...NO_VIDEOS],
  count: NO_VIDEOS.length,
});

/** GET dictionary/{name}/ as a freshly seeded server answers it: every item at version 1. */
export function referenceDictionary(name: string): Dictionary {
  const definition = REFERENCE_DICTIONARIES.find((d) => d.name === name);
  if (!definition) throw new Error(`no reference dictionary ${name}`);
  const stored = REFERENCE_DICTIONARIES.find((d) => d.name === (definition.sameItemsAs ?? name))!;
  const results = stored.items.map((item) =>
    toEntry({
      dictionary: stored.name,
      id: item.id,
      name: item.name,
      values: item.values,
      version: 1,
      effective_from: seededEffectiveFrom(item.values),
      changed_at: "2025-01-01T00:00:00.000Z",
      changed_by: "system",
      reason: "Значения по умолчанию методики расчета",
    }),
  );
  return { name: definition.name, title: definition.title, labels: definition.labels, results, count: results.length };
}

/** A calculation as the server answers it once stored (POST {type}/, lists): the body's inputs
 *  with the results the core computes from them, and no coefficient or flag to report. */
export function storedCalculation(
  type: string,
  body: Record<string, unknown>,
  results: Record<string, number | string>,
  changes: Partial<CalculationView> = {},
): CalculationView {
  const { project: projectId, name, dictionary_items: _items, gwp_set: _gwp, ...inputs } = body;
  return {
    ...inputs,
    ...results,
    id: "calculation-1",
    type,
    name: String(name),
    project: String(projectId),
    is_active: true,
    is_deleted: false,
    version: 1,
    created_at: "2025-02-01T09:00:00.000Z",
    created_by: "demo@example.com",
    updated_at: "2025-02-01T09:00:00.000Z",
    updated_by: "demo@example.com",
    methodology_version: "1.6",
    inventory_role: "primary",
    coefficients: {},
    flags: [],
    ...changes,
  };
}

/** Section 13.5 (a)'s climate project as the server answers it: the open flare Ф-1 at point pt1 of
 *  facility f1 with its flow, CH4 and flame meters, version 1; `name` as the test names it. */
export function climateProjectFixture(name: string) {
  const at = "2026-06-02T03:00:00.000Z";
  return {
    id: "p1",
    company: "company-1",
    name,
    facility: "f1",
    start: "2026-06-01",
    end: null,
    methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
    devices: [
      {
        name: "Ф-1",
        point: "pt1",
        kind: "flare_open" as const,
        flow_basis: "normal_0C" as const,
        eta_option: null,
        sensors: { q: "Q-1", c: "C-1", flame: "FL-1", p: null, t: null, t_eg: null, run: null, eta_meas: null, e_gen: null, heat: null },
      },
    ],
    e_own_sensor: null,
    rules_version: "2026.7",
    archived: false,
    created_at: at,
    updated_at: at,
    created_by: "staff@example.test",
    version: 1,
  };
}

/** A climate period's report on implementation as the server lays it out (domain/climate/report-content.ts,
 *  methodology 13.4) for a project and period of a test, the executor's fields and version as given. */
export function climateReportFixture(
  project: { id: string; company: string },
  period: { id: string },
  fields: Record<string, string> = {},
  version = 0,
) {
  const at = "2026-06-02T03:00:00.000Z";
  return climateReportContent({
    project: project as never,
    period: period as never,
    hand: version
      ? {
          company: project.company,
          project: project.id,
          period: period.id,
          fields,
          version,
          updated_at: at,
          updated_by: "staff@example.test",
        }
      : undefined,
    company: {
      id: project.company,
      name: "ООО «Шахта Климат»",
      email: "",
      ogrn: "1234567890123",
      okved: "",
      inn: "4205000000",
      kpp: "420501001",
      region: "Кузбасс",
      postal_address: "г. Кемерово",
    },
    zone: "Asia/Novokuznetsk",
    facility: undefined,
    points: [],
    sensors: new Map(),
    issued: new Date(at),
  });
}

/** An abatement assessment as the server stores it: `input` evaluated by the core with the reference
 *  dictionary's thresholds (get_recycle_technology), made at `at`, version 1; `changes` on top. */
export async function storedAssessment(
  id: string,
  name: string,
  input: unknown,
  at: string,
  changes: Partial<Assessment> = {},
): Promise<Assessment> {
  const thresholds = referenceDictionary("get_recycle_technology").results[0] as unknown as Record<string, number>;
  const result = evaluateAbatement(input as AbatementRequest, abatementKernels(await loadEmissions(), thresholds));
  return {
    id,
    company: COMPANY_ID,
    name,
    year: null,
    methodology_version: result.version,
    input: input as Assessment["input"],
    origins: {},
    thresholds: {
      q_boiler: thresholds.q_boiler,
      q_gas_engine: thresholds.q_gas_engine,
      q_vam_energy: thresholds.q_vam_energy,
      q_pipeline: thresholds.q_pipeline,
      q_power_plant: thresholds.q_power_plant,
      item_id: null,
      item_version: null,
    },
    result,
    archived: false,
    created_at: at,
    updated_at: at,
    created_by: "demo@example.com",
    version: 1,
    ...changes,
  };
}

/** GET v1/reference/methane-limits/: before 01.01.2027 (`inForce`) Order 507's Appendix 3 applies; after it
 *  Decree 315's norms stand for a working and a gas-suction line, the rest on the last edition. */
export const methaneLimitsInForce = (inForce = true): MethaneLimitRow[] => [
  ...ORDER_507_LIMITS.map((row) => {
    const byRule = !inForce && DECREE_315_RULES.some((r) => r.place === row.place);
    return {
      ...row,
      kind: "edition" as const,
      confirmed: true,
      confirmed_by: null,
      confirmed_at: null,
      in_force: inForce,
      applied: !byRule,
      standing: byRule ? null : inForce ? ("edition" as const) : ("last_edition" as const),
    };
  }),
  ...DECREE_315_RULES.map((row) => ({
    ...row,
    kind: "rule" as const,
    confirmed: true,
    confirmed_by: null,
    confirmed_at: null,
    in_force: true,
    applied: !inForce,
    standing: inForce ? null : ("rule" as const),
  })),
];

/** GET v1/facilities/{id}/sensor-checks/due/: what is due of each sensor; none flagged unless given. */
export const checksDue = (facility = "f1", sensors: SensorCheckStates["sensors"] = []): SensorCheckStates => ({
  facility,
  facility_name: "Шахта",
  at: "2026-03-01T03:00:00.000Z",
  rules_source: "интервалы не заданы: задайте их по проекту АГК шахты",
  sensors,
});
