// A company's objects for tests that need "one of everything": a project and one calculation of
// every registry type, made through the API as a user would (methodology vectors and worked
// examples for the formula types, small CSV files for the file-based ones). Every name carries `marker`, so a test can look
// for it in answers that must not contain it.
import { CALCULATION_TYPES, REGISTRY, type CalculationType } from "@core/registry";
import { TYPE_VECTORS } from "@core/methodology-vectors";
import type { Harness } from "./harness";

export interface TenantObjects {
  project: { id: string; name: string };
  /** The facility the project belongs to. */
  facility: { id: string; name: string };
  /** An emission point of the facility (D25). */
  point: { id: string; name: string };
  /** A sensor of the facility's register (D56) and a gateway key of the facility. */
  sensor: { id: string; code: string };
  gatewayKey: { id: string; label: string };
  /** An abatement assessment (methodology section 11). */
  abatement: { id: string; name: string };
  /** A climate project (methodology section 13) of the facility: an open flare with its flow and flame meters. */
  climateProject: { id: string; name: string };
  /** A monitoring period of it (2026-01-02 00:00–01:00, no minutes: every hour «нет данных»): its report's routes. */
  climatePeriod: { id: string };
  /** A batch of readings the company pushed (D57). */
  readingsBatch: { id: string };
  /** A reconciliation of the facility against a dispatch export: its one reading, another value. */
  reconciliation: { id: string };
  calculations: Record<CalculationType, { id: string; name: string; version: number }>;
  /** Every identifying string of the company's objects. */
  secrets: string[];
}

/** The prices an abatement assessment needs (methodology 11.4's illustrative inputs). */
export const ABATEMENT_PARAMS = {
  ef_grid_t_per_mwh: 0.5,
  price_el_rub_per_mwh: 6000,
  price_heat_rub_per_mwh: 1500,
  price_carbon_unit_rub: 1000,
  discount_rate: 0.12,
  lifetime_yr: 10,
};

/** A climate project's body (v1/climate-projects/): one open flare of `point` with the meters named. */
export function climateProjectBody(name: string, facility: string, point: string, sensors: Record<string, string>) {
  return {
    name,
    facility,
    start: "2026-01-01",
    methodology: {
      code: "CDM-ACM0008",
      name: "ACM0008: Abatement of methane from coal mines",
      version: "08.0",
      source: "UNFCCC CDM",
      tools: [{ code: "TOOL06", name: "Project emissions from flaring", version: "04.0" }],
    },
    devices: [{ point, kind: "flare_open", flow_basis: "standard_20C", sensors }],
  };
}

const FORECAST_CSV = "x1,x2,x7,x8,x12,x13,x15\n1000,1010,30,50,0.5,9000,15\n1200,1190,35,55,0.6,9100,16\n";
const SERIES_CSV = "year,element,value\n2019,Северная,100\n2020,Северная,\n2021,Северная,130\n";
const SENSITIVITY_CSV = "year,volume,methane\n2020,1000000,10\n2021,1200000,9\n2022,1100000,11\n";

/** Inputs that make a valid calculation of each type (JSON fields, or form fields and a file). */
export function validInputs(type: CalculationType): {
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  file?: { name: string; text: string };
} {
  switch (type) {
    case "recycle_technology":
      return { json: { metan: 45, a_metan: 8 } };
    case "regres_methane":
      return { form: { method: "xgboost" }, file: { name: "телеметрия.csv", text: FORECAST_CSV } };
    case "filling_blanks":
      return { form: { name_value: "value", name_element: "element" }, file: { name: "ряд.csv", text: SERIES_CSV } };
    case "sensitivity":
      return { form: {}, file: { name: "чувствительность.csv", text: SENSITIVITY_CSV } };
    default: {
      const def = REGISTRY[type];
      const names = new Set([...def.inputs, ...def.settings].map((f) => f.name as string));
      const vector = TYPE_VECTORS[type][0];
      const inputs = Object.fromEntries(Object.entries(vector).filter(([k]) => names.has(k)));
      // Values that are no dictionary row go in as «Фактическое значение» where the type allows it (D10).
      const custom = Object.fromEntries(def.dictionaries.filter((d) => "custom" in d && d.custom).map((d) => [d.dictionary, null]));
      return { json: Object.keys(custom).length ? { ...inputs, dictionary_items: custom } : inputs };
    }
  }
}

/** A multipart form for POST/PATCH v1/{type}/. */
export function calculationForm(fields: Record<string, string>, file?: { name: string; text: string }): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (file) form.set("file_data", new Blob([file.text], { type: "text/csv" }), file.name);
  return form;
}

async function created(res: Response, what: string): Promise<Record<string, unknown>> {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export async function createTenantObjects(h: Harness, token: string, marker: string): Promise<TenantObjects> {
  const facilityName = `Шахта ${marker}`;
  const facility = await created(
    await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: facilityName, kind: "underground_mine" } }),
    "facility",
  );
  const pointName = `Ствол ${marker}`;
  const point = await created(
    await h.request(`/api/v1/facilities/${facility.id}/points/`, {
      method: "POST",
      token,
      json: { name: pointName, kind: "ventilation_shaft", instrument: `Прибор ${marker}` },
    }),
    "point",
  );
  const sensorCode = `М-${marker}`.slice(0, 40);
  const sensor = await created(
    await h.request(`/api/v1/facilities/${facility.id}/sensors/`, {
      method: "POST",
      token,
      json: { code: sensorCode, kind: "methane", point: point.id, warning: 1, alarm: 1.5 },
    }),
    "sensor",
  );
  const keyLabel = `Шлюз ${marker}`;
  const gatewayKey = await created(
    await h.request(`/api/v1/facilities/${facility.id}/gateway-keys/`, { method: "POST", token, json: { label: keyLabel } }),
    "gateway key",
  );
  const pushed = await h.request("/api/v1/telemetry/readings/", {
    method: "POST",
    token,
    json: { facility: facility.id, readings: [{ sensor: sensorCode, t: "2026-03-01T00:00:00Z", value: 0.4 }] },
  });
  if (pushed.status !== 202) throw new Error(`readings: ${pushed.status} ${await pushed.text()}`);
  const readingsBatch = (await pushed.json()) as { batch: string };
  const exported = new TextEncoder().encode(`Время;${sensorCode}\r\n01.03.2026 07:00:00;0,5\r\n`);
  const grant = (await (
    await h.request("/api/v1/telemetry/upload-url/", {
      method: "POST",
      token,
      json: { facility: facility.id, content_type: "text/csv", size: exported.byteLength, name: "АГК.csv" },
    })
  ).json()) as { url: string; headers: Record<string, string>; file_upload: string };
  await h.request(grant.url, {
    method: "PUT",
    headers: { ...grant.headers, "Content-Length": String(exported.byteLength) },
    body: exported as NonNullable<RequestInit["body"]>,
  });
  const reconciled = await h.request("/api/v1/telemetry/reconciliations/", {
    method: "POST",
    token,
    json: { facility: facility.id, file_upload: grant.file_upload, name: "АГК.csv" },
  });
  if (reconciled.status !== 202) throw new Error(`reconciliation: ${reconciled.status} ${await reconciled.text()}`);
  const reconciliation = (await reconciled.json()) as { id: string };
  const projectName = `Проект ${marker}`;
  const project = await created(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: projectName, start_date: "2024-01-01", end_date: "2024-12-31", facility: facility.id },
    }),
    "project",
  );
  const calculations = {} as TenantObjects["calculations"];
  for (const type of CALCULATION_TYPES) {
    const name = `Расчет ${type} ${marker}`;
    const inputs = validInputs(type);
    let res: Response;
    if (inputs.json) {
      res = await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name, project: project.id, ...inputs.json } });
    } else {
      const form = calculationForm({ name, project: String(project.id), ...inputs.form }, inputs.file);
      res = await h.request(`/api/v1/${type}/`, { method: "POST", token, body: form });
    }
    const calc = await created(res, type);
    calculations[type] = { id: String(calc.id), name, version: Number(calc.version) };
  }
  const abatementName = `Оценка ${marker}`;
  const abatement = await created(
    await h.request("/api/v1/abatement/assessments/", {
      method: "POST",
      token,
      json: {
        name: abatementName,
        streams: [{ code: "d1", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 35 }],
        params: ABATEMENT_PARAMS,
      },
    }),
    "abatement",
  );
  // A climate project's open flare: the register's methane meter, a flow meter and a flame detector.
  const meters = { q: `Q-${marker}`.slice(0, 40), flame: `ФЛ-${marker}`.slice(0, 40) };
  for (const [code, kind] of [
    [meters.q, "flow"],
    [meters.flame, "flame"],
  ]) {
    await created(
      await h.request(`/api/v1/facilities/${facility.id}/sensors/`, { method: "POST", token, json: { code, kind, point: point.id } }),
      `sensor ${kind}`,
    );
  }
  const climateName = `Климатический проект ${marker}`;
  const climateProject = await created(
    await h.request("/api/v1/climate-projects/", {
      method: "POST",
      token,
      json: climateProjectBody(climateName, String(facility.id), String(point.id), { q: meters.q, c: sensorCode, flame: meters.flame }),
    }),
    "climate project",
  );
  const climatePeriod = await created(
    await h.request(`/api/v1/climate-projects/${climateProject.id}/periods/`, {
      method: "POST",
      token,
      json: { start: "2026-01-02T00:00", end: "2026-01-02T01:00" },
    }),
    "climate period",
  );
  return {
    project: { id: String(project.id), name: projectName },
    climateProject: { id: String(climateProject.id), name: climateName },
    climatePeriod: { id: String(climatePeriod.id) },
    abatement: { id: String(abatement.id), name: abatementName },
    facility: { id: String(facility.id), name: facilityName },
    point: { id: String(point.id), name: pointName },
    sensor: { id: String(sensor.id), code: sensorCode },
    gatewayKey: { id: String(gatewayKey.id), label: keyLabel },
    readingsBatch: { id: readingsBatch.batch },
    reconciliation: { id: String(reconciliation.id) },
    calculations,
    secrets: [
      projectName,
      facilityName,
      pointName,
      abatementName,
      climateName,
      sensorCode,
      keyLabel,
      marker,
      ...Object.values(calculations).map((c) => c.name),
    ],
  };
}
