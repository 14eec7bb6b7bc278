// Tenant isolation, generated from the route table (functions/src/http/openapi.ts). Company A
// makes a project and one calculation of every registry type; then every operation of the table
// is called:
//   - without credentials (and with a forged token): 401 on every non-public route;
//   - by company B's staff with A's ids: 404 on every company-scoped call, the same answer as for a
//     missing id, and on every call naming one of A's own batches, reconciliations or gassings; none
//     of A's names in any answer; 403 on every admin route;
//   - by A with the same call: not 404, so B's 404 comes from the isolation and not from the call.
// FIXTURES gives, per operation, the calls to make. A new operation without a fixture fails here.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "@server/http/openapi";
import type { Operation } from "@server/http/openapi-routes";
import { newId } from "@server/domain/ids";
import { CALCULATION_TYPES, REGISTRY, type CalculationType } from "@core/registry";
import { createHarness, type Harness } from "../support/harness";
import { multipart, pdfBytes, signedInAdmin } from "../support/admin";
import {
  ABATEMENT_PARAMS,
  calculationForm,
  climateProjectBody,
  createTenantObjects,
  validInputs,
  type TenantObjects,
} from "../support/tenant-objects";

interface Call {
  path: string;
  json?: unknown;
  /** A multipart body (form fields and an optional CSV file_data), built per request. */
  form?: { fields: Record<string, string>; file?: { name: string; text: string } };
  /** Raw bytes with their own headers (admin uploads: Content-Length is part of the contract). */
  raw?: () => Promise<{ body: Uint8Array; headers: Record<string, string> }>;
  /** false when the call is 404 for the owner too (a type without rows or without a file). */
  control?: boolean;
  /** The id of one of A's own objects on a route of scope "own" (a batch, a reconciliation, a gassing):
   *  B is answered 404 and A is not, as on a company-scoped route. */
  aOwned?: true;
}

interface Context {
  a: TenantObjects;
  aCompany: string;
  aUser: string;
  /** A gassing of A's sensor, for the gassing book's entry routes. */
  gassing: string;
}

type Fixture = (ctx: Context) => Call[];

const perType = (fn: (type: CalculationType) => Call | Call[]): Call[] => CALCULATION_TYPES.flatMap((t) => fn(t));
const hasFile = (type: CalculationType) => REGISTRY[type].kind !== "formula";
const pdfForm = (fields: Record<string, string>) => () => multipart(fields, { name: "x.pdf", bytes: pdfBytes() });
const video = async () => {
  const body = new Uint8Array(4096);
  body.set([0x00, 0x00, 0x00, 0x18, ...new TextEncoder().encode("ftypisom")]);
  return { body, headers: { "Content-Type": "video/mp4", "Content-Length": String(body.byteLength) } };
};

/** What each operation is called with. Company-scoped ones carry A's ids where the table says. */
const FIXTURES: Record<string, Fixture> = {
  openapi: () => [{ path: "/api/openapi.json" }],
  signingKeys: () => [{ path: "/api/v1/signing-keys/" }],
  login: () => [{ path: "/api/token/", json: { email: "nobody@example.com", password: "wrong-password", guardant_code: "" } }],
  refresh: () => [{ path: "/api/token/refresh/", json: { token: "not-a-token" } }],
  getMe: () => [{ path: "/api/v1/users/get_me/" }],
  statistics: () => [{ path: "/api/v1/users/statistics/" }],
  // A's company named in the body is ignored: B edits its own (own-company.test.ts checks A's is untouched).
  patchOwnCompany: ({ aCompany }) => [{ path: "/api/v1/users/company/", json: { id: aCompany, company: aCompany, kpp: "420501001" } }],
  // The session's company only: B's staff get 403, B's reviewers B's changes (requisites-audit.test.ts).
  companyAudit: () => [{ path: "/api/v1/users/company/audit/?limit=100&offset=0" }],
  // The session's user only: A's id in the body is ignored (own-profile.test.ts).
  patchMe: ({ aUser }) => [{ path: "/api/v1/users/me/", json: { id: aUser, position: "Инженер" } }],
  // A wrong current password: refused, B's sessions go on.
  changeOwnPassword: () => [
    { path: "/api/v1/users/me/password/", json: { current_password: "wrong-password", new_password: "another-password" } },
  ],
  listProjects: ({ aCompany }) => [
    { path: `/api/v1/projects/?company=${aCompany}&is_deleted=false` },
    { path: `/api/v1/projects/?company=${aCompany}&is_deleted=true` },
  ],
  createProject: () => [
    { path: "/api/v1/projects/create_project/", json: { name: "Проект Б", start_date: "2024-01-01", end_date: "2024-12-31" } },
  ],
  getProject: ({ a }) => [{ path: `/api/v1/projects/${a.project.id}/` }],
  patchProject: ({ a }) => [
    { path: `/api/v1/projects/${a.project.id}/`, json: { name: "Взлом" } },
    { path: `/api/v1/projects/${a.project.id}/`, json: { is_deleted: true, is_active: false } },
  ],
  projectGraphs: ({ a }) => [{ path: `/api/v1/projects/${a.project.id}/graphs/` }],
  projectUncertainty: ({ a }) => [{ path: `/api/v1/projects/${a.project.id}/uncertainty/` }],
  previewGwpRecompute: ({ a }) => [{ path: `/api/v1/projects/${a.project.id}/gwp_recompute/?reporting_year=2025` }],
  applyGwpRecompute: ({ a }) => [{ path: `/api/v1/projects/${a.project.id}/gwp_recompute/`, json: {} }],
  exportProject: ({ a }) => [
    { path: `/api/v1/projects/${a.project.id}/export_to_txt/` },
    { path: `/api/v1/projects/${a.project.id}/export_to_xls/?detail=true` },
    { path: `/api/v1/projects/${a.project.id}/export_to_xlsx/` },
    { path: `/api/v1/projects/${a.project.id}/export_to_xlsx/?detail=true&decimals=3` },
  ],
  // A job's id is signed for its company (http/export-jobs.ts); the local host runs no jobs.
  exportJob: () => [{ path: "/api/v1/export_jobs/0190aa00-0000-7000-8000-000000000000.unsigned/" }],
  exportJobFile: () => [{ path: "/api/v1/export_jobs/0190aa00-0000-7000-8000-000000000000.unsigned/file/" }],
  listFacilities: () => [{ path: "/api/v1/facilities/" }],
  createFacility: () => [{ path: "/api/v1/facilities/", json: { name: "Шахта Б", kind: "open_pit" } }],
  getFacility: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/` }],
  patchFacility: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/`, json: { name: "Взлом", version: 1 } },
    { path: `/api/v1/facilities/${a.facility.id}/`, json: { is_active: false, version: 1 } },
  ],
  listEmissionPoints: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/points/` }],
  createEmissionPoint: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/points/`, json: { name: "Факел Б", kind: "flare" } }],
  getEmissionPoint: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/points/${a.point.id}/` }],
  patchEmissionPoint: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/points/${a.point.id}/`, json: { name: "Взлом", version: 1 } },
    { path: `/api/v1/facilities/${a.facility.id}/points/${a.point.id}/`, json: { is_active: false, version: 1 } },
  ],
  listSensors: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/` }],
  createSensor: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/sensors/`, json: { code: "М-Б", kind: "methane", point: a.point.id } },
  ],
  sensorListTemplate: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/sensors/template/` },
    { path: `/api/v1/facilities/${a.facility.id}/sensors/template/?format=csv` },
  ],
  dispatchTemplate: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/dispatch-template/` }],
  importSensors: ({ a }) => {
    const file = { name: "Датчики.csv", text: `Код датчика;Вид датчика;Источник выбросов\nМ-Б2;Метан;${a.point.name}\n` };
    return [
      { path: `/api/v1/facilities/${a.facility.id}/sensors/import/?dry_run=1`, form: { fields: {}, file } },
      { path: `/api/v1/facilities/${a.facility.id}/sensors/import/`, form: { fields: {}, file } },
    ];
  },
  sensorCompleteness: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/completeness/?year=2026` }],
  sensorGaps: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/gaps/?month=2026-03` }],
  sensorDay: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/day/?date=2026-03-15` }],
  getSensor: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/` }],
  // A's staff holds no check duty (403 on a record), B is answered 404 before it.
  listFacilitySensorChecks: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensor-checks/?from=2026-03-01&to=2026-03-02` }],
  listSensorChecks: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/checks/` }],
  recordSensorCheck: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/checks/`,
      json: { at: "2026-03-02T10:00:00Z", kind: "shift_check", result: "passed" },
    },
  ],
  // No check of A's: A too is answered 404 for the check, B for the facility.
  signSensorCheck: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/checks/0190a000-0000-7000-8000-000000000000/sign/`,
      json: { duty: "agk_operator" },
      control: false,
    },
  ],
  // No verification of this id: A too is answered 404 for it, B for the facility.
  attachVerificationCertificate: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/verifications/0190a000-0000-7000-8000-000000000000/certificate/`,
      raw: pdfForm({}),
      control: false,
    },
  ],
  downloadVerificationCertificate: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/verifications/0190a000-0000-7000-8000-000000000000/certificate/`,
      control: false,
    },
  ],
  listSensorVerifications: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/verifications/` }],
  recordSensorVerification: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/verifications/`,
      json: {
        instrument_type: "ДМС 03",
        register_number: "1-01",
        serial: "1",
        verified_on: "2026-03-02",
        valid_to: "2027-03-01",
        certificate: "С-1",
      },
    },
  ],
  listHandovers: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/handovers/?from=2026-03-01&to=2026-03-02` }],
  handOverShift: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/handovers/`, json: { remarks: "Смена сдана" } }],
  // No handover of A's with this id: A too is answered 404 for it, B for the facility.
  takeOverShift: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/handovers/0190a000-0000-7000-8000-000000000000/take/`, control: false },
  ],
  listJournalSignatures: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/journal-signatures/?date=2026-03-02` }],
  // A's staff holds no operator's duty (403), B is answered 404 before it.
  signShiftJournal: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/journal-signatures/`, json: { shift: "2026-03-02#1" } }],
  sensorChecksDue: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensor-checks/due/` }],
  // Item 6: the documents.
  exportSensorChecks: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/sensor-checks/export/?format=xlsx&from=2026-03-01&to=2026-03-02` },
  ],
  exportHandovers: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/handovers/export/?format=pdf&from=2026-03-01&to=2026-03-02` }],
  exportSensorRegister: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensor-register/export/` }],
  // D104–D105: the cut-offs not confirmed and the hand measurements. No cut-off of A's with this id: A too
  // is answered 404 for it, B for the facility.
  listCutoffs: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/cutoffs/?from=2026-03-01&to=2026-03-02` }],
  answerCutoff: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/cutoffs/${a.sensor.id}.x.mbqq3c0/answer/`,
      json: { cause: "protection_failed" },
      control: false,
    },
  ],
  confirmCutoff: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/cutoffs/${a.sensor.id}.x.mbqq3c0/confirm/`,
      json: { duty: "chief_engineer" },
      control: false,
    },
  ],
  exportCutoffs: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/cutoffs/export/?format=xlsx&from=2026-03-01&to=2026-03-02` }],
  listHandMeasurements: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/hand-measurements/?from=2026-03-01&to=2026-03-02` }],
  // A's own meter named by B: the facility is 404 before the meter is read.
  recordHandMeasurement: ({ a }) => [
    {
      path: `/api/v1/facilities/${a.facility.id}/hand-measurements/`,
      json: {
        instrument: "ШИ-11",
        instrument_number: "1",
        place: "У датчика",
        sensor: a.sensor.id,
        value_pct: 0.5,
        measured_at: "2026-03-02T10:00",
      },
    },
  ],
  exportHandMeasurements: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/hand-measurements/export/?format=pdf&from=2026-03-01&to=2026-03-02` },
  ],
  getCheckIntervals: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/check-intervals/` }],
  // A's own change is refused 409 (version 5 was never read), B's 404 before it.
  putCheckIntervals: ({ a }) => [
    { path: `/api/v1/facilities/${a.facility.id}/check-intervals/`, json: { rules: [{ per: "shift" }], source: "Взлом", version: 5 } },
  ],
  patchSensor: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/`, json: { working: "Взлом", version: 1 } }],
  retireSensor: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/sensors/${a.sensor.id}/` }],
  listGatewayKeys: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/gateway-keys/` }],
  createGatewayKey: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/gateway-keys/`, json: { label: "Шлюз Б" } }],
  revokeGatewayKey: ({ a }) => [{ path: `/api/v1/facilities/${a.facility.id}/gateway-keys/${a.gatewayKey.id}/` }],
  pushReadings: ({ a }) => [
    {
      path: "/api/v1/telemetry/readings/",
      json: { facility: a.facility.id, readings: [{ sensor: a.sensor.code, t: "2026-03-01T00:01:00Z", value: 0.4 }] },
    },
  ],
  getReadingsBatch: ({ a }) => [{ path: `/api/v1/telemetry/batches/${a.readingsBatch.id}/`, aOwned: true }],
  listReadingsBatches: ({ a }) => [{ path: `/api/v1/telemetry/batches/?facility=${a.facility.id}` }],
  readingsUploadUrl: ({ a }) => [
    { path: "/api/v1/telemetry/upload-url/", json: { facility: a.facility.id, content_type: "text/csv", size: 2048, name: "АГК.csv" } },
  ],
  // A key under A's facility that was never uploaded: 404 for A too; B is refused on A's facility first.
  importReadingsFile: ({ a, aCompany }) => [
    {
      path: "/api/v1/telemetry/files/",
      json: {
        facility: a.facility.id,
        file_upload: `telemetry-uploads/${aCompany}/${a.facility.id}/0190a1b2-c3d4-7e5f-8a9b-000000000001.csv`,
      },
      control: false,
    },
  ],
  // A key under A's facility that was never uploaded: 404 for A too; B is refused on A's facility first.
  createReadingsReconciliation: ({ a, aCompany }) => [
    {
      path: "/api/v1/telemetry/reconciliations/",
      json: {
        facility: a.facility.id,
        file_upload: `telemetry-uploads/${aCompany}/${a.facility.id}/0190a1b2-c3d4-7e5f-8a9b-000000000002.csv`,
      },
      control: false,
    },
  ],
  getReadingsReconciliation: ({ a }) => [{ path: `/api/v1/telemetry/reconciliations/${a.reconciliation.id}/`, aOwned: true }],
  // A's reconciliation found nothing missing: A is refused 400, B 404.
  fillReadingsReconciliation: ({ a }) => [
    { path: `/api/v1/telemetry/reconciliations/${a.reconciliation.id}/fill/`, json: {}, aOwned: true },
  ],
  readingsReconciliationXlsx: ({ a }) => [{ path: `/api/v1/telemetry/reconciliations/${a.reconciliation.id}/xlsx/`, aOwned: true }],
  listMonitoringOffers: ({ a }) => [{ path: `/api/v1/telemetry/offers/?facility=${a.facility.id}&year=2026` }],
  listMonitoringPointChannels: ({ a }) => [{ path: `/api/v1/telemetry/offers/channels/?facility=${a.facility.id}` }],
  // A's one reading gives no offer (no flow meter): A is refused 400, B 404.
  acceptMonitoringOffers: ({ a }) => [
    {
      path: "/api/v1/telemetry/offers/accept/",
      json: { facility: a.facility.id, point: a.point.id, months: ["2026-03"], project: a.project.id },
    },
  ],
  listSensorEvents: ({ a }) => [{ path: `/api/v1/telemetry/events/?facility=${a.facility.id}&from=2026-03-01&to=2026-03-02` }],
  listWebhooks: () => [{ path: "/api/v1/company/webhooks/" }],
  // D107: the company's own factors are the caller's company's (own-factors.test.ts: B never lists A's).
  listOwnFactors: () => [{ path: "/api/v1/company/factors/" }, { path: "/api/v1/company/factors/?type=underground_emission_ch4&field=ef" }],
  createOwnFactor: () => [
    {
      path: "/api/v1/company/factors/",
      json: {
        type: "underground_emission_ch4",
        field: "ef",
        value: 19.85,
        uncertainty: { lower_pct: 10, upper_pct: 10, distribution: "normal" },
        justification: `Газоносность по испытаниям ${randomBytes(3).toString("hex")}`,
      },
    },
  ],
  createWebhook: () => [{ path: "/api/v1/company/webhooks/", json: { url: "https://hooks.example.com/b" } }],
  // Webhooks are the caller's company's own: a made-up id is 404 to A as to B.
  deleteWebhook: () => [{ path: `/api/v1/company/webhooks/${newId()}/`, control: false }],
  listWebhookDeliveries: () => [{ path: `/api/v1/company/webhooks/${newId()}/deliveries/`, control: false }],
  monitoringShiftReport: ({ a }) => [
    { path: `/api/v1/telemetry/shift-report/?facility=${a.facility.id}&date=2026-03-01&shift=1&format=pdf` },
  ],
  monitoringJournal: ({ a }) => [{ path: `/api/v1/telemetry/journal/?facility=${a.facility.id}&date=2026-03-01&format=pdf` }],
  listMonitoringGassings: ({ a }) => [
    { path: `/api/v1/telemetry/gassings/?facility=${a.facility.id}&from=2026-03-01&to=2026-03-02` },
    { path: `/api/v1/telemetry/gassings/?facility=${a.facility.id}&from=2026-03-01&to=2026-03-02&format=xlsx` },
    { path: `/api/v1/telemetry/gassings/?facility=${a.facility.id}&from=2026-03-01&to=2026-03-02&format=pdf` },
  ],
  // A's gassing of 2 March (beforeAll): A registers whom they informed, B is answered 404.
  registerMonitoringGassing: ({ gassing }) => [
    { path: `/api/v1/telemetry/gassings/${gassing}/register/`, json: { notified: { rostekhnadzor: true } }, aOwned: true },
  ],
  // A's user holds no duty: A is refused 403, B 404.
  confirmMonitoringGassing: ({ gassing }) => [
    { path: `/api/v1/telemetry/gassings/${gassing}/confirm/`, json: { duty: "chief_engineer" }, aOwned: true },
  ],
  // As for one event: an id one of A's sensors could have is 404 to A too, and to B.
  acknowledgeSensorEvents: ({ a }) => [
    { path: "/api/v1/telemetry/events/acknowledge/", json: { events: [`${a.facility.id}.${a.sensor.id}.s.none.1a2b3c`] }, control: false },
  ],
  // A's one reading gives no event: the id of one A's sensor could have is 404 to A too, and to B.
  acknowledgeSensorEvent: ({ a }) => [
    {
      path: `/api/v1/telemetry/events/${a.facility.id}.${a.sensor.id}.s.none.1a2b3c/acknowledge/`,
      json: { comment: "Взлом" },
      control: false,
    },
  ],
  getMonitoringLive: ({ a }) => [{ path: `/api/v1/telemetry/live/?facility=${a.facility.id}` }],
  getMonitoringScheme: ({ a }) => [{ path: `/api/v1/telemetry/scheme/?facility=${a.facility.id}` }],
  // One update, then the stream closes: A's answer is read whole.
  streamMonitoringLive: ({ a }) => [{ path: `/api/v1/telemetry/live/stream/?facility=${a.facility.id}&max_events=1` }],
  // A's sensor belongs to no working: A is answered 404 too (control false), B 404.
  getMonitoringLiveChart: ({ a }) => [
    { path: `/api/v1/telemetry/live/chart/?facility=${a.facility.id}&working=${encodeURIComponent("Лава")}`, control: false },
  ],
  listMonitoringLiveModels: ({ a }) => [{ path: `/api/v1/telemetry/live/models/?facility=${a.facility.id}` }],
  // A's sensor belongs to no working: A is refused 400, B 404.
  bindMonitoringLiveModel: ({ a }) => [
    { path: "/api/v1/telemetry/live/models/", json: { facility: a.facility.id, working: "Лава", horizon: 60, model: null } },
  ],
  getInventory: ({ a }) => [{ path: `/api/v1/inventory/?year=2024&facility=${a.facility.id}` }],
  inventoryMeasuredVsEstimated: ({ a }) => [
    { path: `/api/v1/inventory/measured-vs-estimated/?year=2024&facility=${a.facility.id}` },
    { path: `/api/v1/inventory/measured-vs-estimated/?year=2024&facility=${a.facility.id}&format=xlsx` },
  ],
  inventoryYears: () => [{ path: "/api/v1/inventory/years/" }],
  inventoryTrend: ({ a }) => [{ path: `/api/v1/inventory/trend/?from=2020&to=2025&facility=${a.facility.id}` }],
  inventoryUncertainty: ({ a }) => [
    { path: `/api/v1/inventory/uncertainty/?year=2024&facility=${a.facility.id}` },
    { path: `/api/v1/inventory/uncertainty/?year=2024&base=2023&facility=${a.facility.id}` },
  ],
  inventoryCalculations: ({ a }) => [
    { path: `/api/v1/inventory/calculations/?year=2024&facility=${a.facility.id}` },
    { path: `/api/v1/inventory/calculations/?year=2024&facility=${a.facility.id}&counted=false&limit=100&line=3|1.B.1.a.i.1|CH4` },
  ],
  inventoryReport: ({ a }) => [
    { path: `/api/v1/inventory/2024/report/?format=xlsx&facility=${a.facility.id}` },
    { path: `/api/v1/inventory/2024/report/?format=pdf&facility=${a.facility.id}` },
  ],
  inventoryTransition: () => [{ path: "/api/v1/inventory/2024/review/", json: { action: "send_to_review", version: 0 } }],
  inventoryVersions: () => [{ path: "/api/v1/inventory/2024/versions/" }],
  inventoryVersion: () => [{ path: "/api/v1/inventory/2024/versions/1/" }],
  inventoryVersionPack: () => [{ path: "/api/v1/inventory/2024/versions/1/pack/" }],
  inventoryComment: () => [{ path: "/api/v1/inventory/2024/comments/", json: { text: "Проверить" } }],
  inventoryComments: () => [{ path: "/api/v1/inventory/2024/comments/?limit=5" }],
  inventoryCoalProcessed: ({ a }) => [
    { path: "/api/v1/inventory/2024/coal_processed/", json: { facility: a.facility.id, t: 1, version: 0 } },
  ],
  inventoryCoalOutput: ({ a }) => [{ path: `/api/v1/inventory/2024/coal_output/?facility=${a.facility.id}` }],
  inventorySetCoalOutput: ({ a }) => [{ path: "/api/v1/inventory/2024/coal_output/", json: { facility: a.facility.id, t: 1, version: 0 } }],
  inventoryTrendExport: ({ a }) => [{ path: `/api/v1/inventory/trend/export/?from=2020&to=2025&facility=${a.facility.id}` }],
  inventoryTrendSettings: () => [{ path: "/api/v1/inventory/trend/settings/" }],
  inventoryBaseYear: () => [{ path: "/api/v1/inventory/trend/base_year/", json: { year: 2024, reason: "Первый год", version: 0 } }],
  inventoryBaseYearRecalculation: () => [
    { path: "/api/v1/inventory/trend/base_year/recalculate/", json: { reason: "Пересчет", version: 0 } },
  ],
  inventorySignificance: () => [{ path: "/api/v1/inventory/trend/significance/", json: { significance_pct: 5, version: 0 } }],
  inventoryAddTarget: ({ a }) => [
    {
      path: "/api/v1/inventory/trend/targets/",
      json: {
        name: "Цель площадки",
        gas: "co2e",
        scope: "facility",
        facility: a.facility.id,
        kind: "absolute",
        base_year: 2020,
        target_year: 2030,
        percent: 30,
        version: 0,
      },
    },
  ],
  inventoryRemoveTarget: () => [{ path: `/api/v1/inventory/trend/targets/${newId()}/?version=0`, control: false }],
  inventoryRemoveComment: () => [{ path: `/api/v1/inventory/2024/comments/${newId()}/` }],
  listDictionaries: () => [{ path: "/api/v1/dictionary/" }],
  getDictionary: () => [{ path: "/api/v1/dictionary/get_underground/" }],
  listMethaneLimits: () => [{ path: "/api/v1/reference/methane-limits/" }],
  confirmMethaneLimits: () => [
    {
      path: "/api/v1/reference/methane-limits/",
      json: { act: "Захват", edition: "Захват", valid_from: "2099-01-01", rows: [{ place: "working", limit_pct: 5 }] },
    },
  ],
  dictionaryHistory: () => [{ path: "/api/v1/dictionary/get_underground/1/history/" }],
  listForecastModels: () => [{ path: "/api/v1/forecast_models/" }],
  activeForecastModelFile: () => [{ path: "/api/v1/forecast_models/xgboost/active/file/" }],
  forecastModelFile: () => [{ path: `/api/v1/forecast_models/lightgbm/${newId()}/file/` }],
  uploadForecastModel: () => [
    {
      path: "/api/v1/forecast_models/xgboost/",
      raw: () => multipart({ description: "x" }, { name: "m.json", bytes: new TextEncoder().encode("{}"), type: "application/json" }),
    },
  ],
  // B trains for its own company; a refused file keeps the call cheap (tests/integration/forecast-training.test.ts trains).
  trainForecastModel: () => [
    {
      path: "/api/v1/forecast_models/xgboost/train/",
      raw: () => multipart({ params: "{}" }, { name: "h.csv", bytes: new TextEncoder().encode("x1;y\n1;1\n"), type: "text/csv" }),
    },
  ],
  activateForecastModel: () => [{ path: `/api/v1/forecast_models/xgboost/${newId()}/`, json: { is_active: true } }],
  // B changes its own versions only: another's (or none) is 404.
  changeOwnForecastModel: () => [{ path: `/api/v1/forecast_models/xgboost/${newId()}/own/`, json: { archived: true } }],
  // Calibrations are the caller's company's own (or an admin's for all): B's stay B's.
  calibrateForecastModel: () => [
    { path: `/api/v1/forecast_models/${newId()}/calibration/`, form: { fields: {}, file: { name: "h.csv", text: "x1,y\n1,0.5\n" } } },
  ],
  forecastModelCalibration: () => [{ path: `/api/v1/forecast_models/${newId()}/calibration/` }],
  forecastWhatIf: () => [
    { path: "/api/v1/forecast/what_if/", json: { model: newId(), row: { x1: 1300 }, vary: { feature: "x1", from: 1000, to: 1600 } } },
  ],
  // Stateless: nothing of a company is read or written.
  abatementEvaluate: () => [{ path: "/api/v1/abatement/evaluate/", json: { streams: [], params: {} } }],
  abatementStreams: () => [{ path: "/api/v1/abatement/streams/?year=2024" }],
  climateProjectEvaluate: () => [{ path: "/api/v1/climate-projects/evaluate/", json: { period: {}, devices: [] } }],
  listAbatementAssessments: () => [{ path: "/api/v1/abatement/assessments/" }],
  listClimateProjects: () => [{ path: "/api/v1/climate-projects/" }],
  // B's project is B's own; A's facility and its meters are not B's (400).
  createClimateProject: ({ a }) => [
    { path: "/api/v1/climate-projects/", json: climateProjectBody("Б", a.facility.id, a.point.id, { q: a.sensor.code, c: a.sensor.code }) },
  ],
  createClimatePeriod: ({ a }) => [
    { path: `/api/v1/climate-projects/${a.climateProject.id}/periods/`, json: { start: "2026-01-01T00:00", end: "2026-01-01T01:00" } },
  ],
  listClimatePeriods: ({ a }) => [{ path: `/api/v1/climate-projects/${a.climateProject.id}/periods/` }],
  climateDayMinutes: ({ a }) => [{ path: `/api/v1/climate-projects/${a.climateProject.id}/minutes/?date=2026-01-01` }],
  // A has no period of this id: A is answered 404 too (control false), B 404 by the project.
  getClimatePeriod: ({ a }) => [{ path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${newId()}/`, control: false }],
  // As getClimatePeriod: A has no period of this id either.
  climatePeriodPack: ({ a }) => [{ path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${newId()}/pack/`, control: false }],
  // A has no period of this id either (control false); B is answered 404 by the project.
  reviewClimatePeriod: ({ a }) => [
    {
      path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${newId()}/review/`,
      json: { action: "approve", version: 1 },
      control: false,
    },
  ],
  recomputeClimatePeriod: ({ a }) => [
    { path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${newId()}/recompute/`, json: { version: 1 }, control: false },
  ],
  getClimateProject: ({ a }) => [{ path: `/api/v1/climate-projects/${a.climateProject.id}/` }],
  // A has no period of this id (control false): B is answered 404 by the project before any period.
  climateSignaturePayload: ({ a }) => [
    { path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${newId()}/signatures/payload/`, control: false },
  ],
  listClimateSignatures: ({ a }) => [
    { path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${newId()}/signatures/`, control: false },
  ],
  createClimateSignature: ({ a }) => [
    {
      path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${newId()}/signatures/`,
      form: { fields: {}, file: { name: "manifest.json.sig", text: "MIIB" } },
      control: false,
    },
  ],
  getClimateReport: ({ a }) => [
    { path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${a.climatePeriod.id}/report/` },
    { path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${a.climatePeriod.id}/report/?format=pdf` },
  ],
  patchClimateReport: ({ a }) => [
    {
      path: `/api/v1/climate-projects/${a.climateProject.id}/periods/${a.climatePeriod.id}/report/`,
      json: { fields: { s2_description: "Взлом" }, version: 0 },
    },
  ],
  patchClimateProject: ({ a }) => [
    { path: `/api/v1/climate-projects/${a.climateProject.id}/`, json: { name: "Взлом", version: 1 } },
    { path: `/api/v1/climate-projects/${a.climateProject.id}/`, json: { archived: true, version: 1 } },
  ],
  // B's assessment is B's own; a point of A's in a stream is not in B's inventory (400).
  createAbatementAssessment: ({ a }) => [
    {
      path: "/api/v1/abatement/assessments/",
      json: {
        name: "Б",
        year: 2024,
        streams: [{ code: "d", kind: "drainage", point: a.point.id, c_ch4_pct: 40 }],
        params: ABATEMENT_PARAMS,
      },
    },
  ],
  getAbatementAssessment: ({ a }) => [{ path: `/api/v1/abatement/assessments/${a.abatement.id}/` }],
  patchAbatementAssessment: ({ a }) => [
    { path: `/api/v1/abatement/assessments/${a.abatement.id}/`, json: { name: "Взлом", version: 1 } },
    { path: `/api/v1/abatement/assessments/${a.abatement.id}/`, json: { archived: true, version: 1 } },
  ],
  exportAbatementAssessment: ({ a }) => [
    { path: `/api/v1/abatement/assessments/${a.abatement.id}/export/?format=xlsx` },
    { path: `/api/v1/abatement/assessments/${a.abatement.id}/export/?format=pdf` },
  ],
  forecastAirNeeded: () => [{ path: "/api/v1/forecast/air_needed/", json: { model: newId(), row: { x1: 1300 } } }],
  // A grant for the caller's own company; A's uploaded history is 404 to B below.
  forecastUploadUrl: () => [{ path: "/api/v1/forecast/upload-url/", json: { content_type: "text/csv", size: 2048, name: "h.csv" } }],
  listDocuments: () => [{ path: "/api/v1/documents/" }],
  downloadDocument: () => [{ path: "/api/v1/documents/fz-296/download/" }],
  listMedia: () => [{ path: "/api/v1/media/" }],
  streamMedia: () => [{ path: "/api/v1/media/instruction/" }],
  adminListCompanies: () => [{ path: "/api/v1/admin/companies/" }],
  adminCreateCompany: () => [{ path: "/api/v1/admin/companies/", json: { name: "Захват" } }],
  adminGetCompany: ({ aCompany }) => [{ path: `/api/v1/admin/companies/${aCompany}/` }],
  adminPatchCompany: ({ aCompany }) => [{ path: `/api/v1/admin/companies/${aCompany}/`, json: { region: "Захвачено" } }],
  adminListUsers: ({ aCompany }) => [{ path: `/api/v1/admin/companies/${aCompany}/users/` }],
  adminCreateUser: ({ aCompany }) => [
    { path: `/api/v1/admin/companies/${aCompany}/users/`, json: { email: "mole@example.com", password: "long-enough-1" } },
  ],
  adminPatchUser: ({ aCompany, aUser }) => [
    { path: `/api/v1/admin/companies/${aCompany}/users/${aUser}/`, json: { role: "admin" } },
    // The duty that confirms A's gassing book entries is not B's staff's to give.
    { path: `/api/v1/admin/companies/${aCompany}/users/${aUser}/`, json: { duty: "chief_engineer" } },
  ],
  adminResetPassword: ({ aCompany, aUser }) => [
    { path: `/api/v1/admin/companies/${aCompany}/users/${aUser}/reset_password/`, json: { password: "taken-over-1" } },
  ],
  adminChangeCoefficient: () => [
    {
      path: "/api/v1/admin/dictionary/get_torch_ch4/1/",
      json: { field: "koef_transform", value: 1, effective_from: "2030-01-01", reason: "захват", version: 1 },
    },
  ],
  adminListDocuments: () => [{ path: "/api/v1/admin/documents/" }],
  adminCreateDocument: () => [{ path: "/api/v1/admin/documents/", raw: pdfForm({ title: "Захват", kind: "law" }) }],
  adminReplaceDocumentFile: () => [{ path: "/api/v1/admin/documents/fz-296/file/", raw: pdfForm({}) }],
  adminPatchDocument: () => [{ path: "/api/v1/admin/documents/fz-296/", json: { is_deleted: true } }],
  adminListMedia: () => [{ path: "/api/v1/admin/media/" }],
  adminUploadMedia: () => [{ path: "/api/v1/admin/media/instruction/", raw: video }],
  adminRemoveMedia: () => [{ path: "/api/v1/admin/media/instruction/" }],
  adminDocumentUploadUrl: () => [{ path: "/api/v1/admin/documents/upload-url/", json: { content_type: "application/pdf", size: 1000 } }],
  adminCompleteDocumentUpload: () => [
    { path: "/api/v1/admin/documents/complete/", json: { upload_id: "not-an-upload", title: "Захват", kind: "law" } },
  ],
  adminMediaUploadUrl: () => [
    { path: "/api/v1/admin/media/upload-url/", json: { kind: "instruction", content_type: "video/mp4", size: 1000 } },
  ],
  adminCompleteMediaUpload: () => [{ path: "/api/v1/admin/media/complete/", json: { upload_id: "not-an-upload" } }],
  directUpload: () => [{ path: "/api/v1/uploads/?token=not-an-upload", raw: video }],
  adminListCalendar: () => [{ path: "/api/v1/admin/calendar/" }],
  adminCreateCalendarYear: () => [
    {
      path: "/api/v1/admin/calendar/",
      json: { year: 2031, decree: { title: "Захват", number: "", date: "" }, days_off: [], working_days: [] },
    },
  ],
  adminPutCalendarYear: () => [
    {
      path: "/api/v1/admin/calendar/2026/",
      json: { decree: { title: "Захват", number: "", date: "" }, days_off: [], working_days: [], version: 1 },
    },
  ],
  adminAudit: () => [{ path: "/api/v1/admin/audit/?limit=5" }],
  adminUploadLimits: () => [{ path: "/api/v1/admin/upload_limits/" }],
  adminListCaRoots: () => [{ path: "/api/v1/admin/ca-roots/" }],
  adminCreateCaRoots: () => [
    {
      path: "/api/v1/admin/ca-roots/",
      raw: () => multipart({}, { name: "ca.cer", bytes: new TextEncoder().encode("-----BEGIN CERTIFICATE-----") }),
    },
  ],
  adminRemoveCaRoot: () => [{ path: `/api/v1/admin/ca-roots/${"0".repeat(64)}/` }],
  listCalculations: ({ a }) => perType((t) => ({ path: `/api/v1/${t}/?project=${a.project.id}&is_deleted=false` })),
  createCalculation: ({ a }) =>
    perType((t) => {
      const inputs = validInputs(t);
      return inputs.json
        ? { path: `/api/v1/${t}/`, json: { name: "Взлом", project: a.project.id, ...inputs.json } }
        : { path: `/api/v1/${t}/`, form: { fields: { name: "Взлом", project: a.project.id, ...inputs.form }, file: inputs.file } };
    }),
  calculationTemplate: () => [{ path: "/api/v1/sensitivity/template/" }, { path: "/api/v1/filling_blanks/template/?format=csv" }],
  singleCalculation: ({ a }) => perType((t) => ({ path: `/api/v1/${t}/${a.calculations[t].id}/single_calc/1/` })),
  calculationFile: ({ a }) => perType((t) => ({ path: `/api/v1/${t}/${a.calculations[t].id}/file/`, control: hasFile(t) })),
  getCalculation: ({ a }) => perType((t) => ({ path: `/api/v1/${t}/${a.calculations[t].id}/` })),
  forecastRows: ({ a }) =>
    perType((t) => ({ path: `/api/v1/${t}/${a.calculations[t].id}/rows/?limit=3`, control: t === "regres_methane" })),
  forecastChart: ({ a }) => perType((t) => ({ path: `/api/v1/${t}/${a.calculations[t].id}/chart/`, control: t === "regres_methane" })),
  // A's ef comes from the dictionary: A is refused with 400 (no custom value), never 404.
  attachEvidence: ({ a }) => [
    { path: `/api/v1/underground_emission_ch4/${a.calculations.underground_emission_ch4.id}/evidence/ef/`, raw: pdfForm({}) },
  ],
  downloadEvidence: ({ a }) => [
    { path: `/api/v1/underground_emission_ch4/${a.calculations.underground_emission_ch4.id}/evidence/ef/`, control: false },
  ],
  removeEvidence: ({ a }) => [{ path: `/api/v1/underground_emission_ch4/${a.calculations.underground_emission_ch4.id}/evidence/ef/` }],
  forecastDataUpdate: ({ a }) =>
    perType((t) => ({
      path: `/api/v1/${t}/${a.calculations[t].id}/data_update/`,
      json: { data: [{ x1: 1000, x2: 1000, x7: 30, x8: 50, x12: 0.5, x13: 9000, x15: 15 }] },
      control: t === "regres_methane",
    })),
  patchCalculation: ({ a }) =>
    perType((t) => [
      { path: `/api/v1/${t}/${a.calculations[t].id}/`, json: { name: "Взлом" } },
      { path: `/api/v1/${t}/${a.calculations[t].id}/`, json: { is_deleted: true, is_active: false } },
      ...(hasFile(t)
        ? [{ path: `/api/v1/${t}/${a.calculations[t].id}/`, form: { fields: { name: "Взлом" }, file: validInputs(t).file } }]
        : []),
    ]),
};

let h: Harness;
let ctx: Context;
let a: Awaited<ReturnType<Harness["signedInUser"]>>;
let b: Awaited<ReturnType<Harness["signedInUser"]>>;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
const marker = `Секрет-${randomBytes(4).toString("hex")}`;

beforeAll(async () => {
  h = await createHarness();
  a = await h.signedInUser(`Компания ${marker}`);
  b = await h.signedInUser("Компания Б");
  admin = await signedInAdmin(h);
  const objects = await createTenantObjects(h, a.token, marker);
  ctx = { a: objects, aCompany: a.companyId, aUser: a.userId, gassing: await gassingOf(objects) };
}, 120_000);

/** Five minutes of A's methane sensor above its alarm level (1,5 %) on 2 March make one gassing: its id. */
async function gassingOf(objects: TenantObjects): Promise<string> {
  const minute = (m: number, value: number) => ({ sensor: objects.sensor.code, t: `2026-03-02T00:0${m}:00Z`, value });
  const readings = [0, 1, 2, 3, 4].map((m) => minute(m, 2)).concat([5, 6, 7].map((m) => minute(m, 0.4)));
  const pushed = await h.request("/api/v1/telemetry/readings/", {
    method: "POST",
    token: a.token,
    json: { facility: objects.facility.id, readings },
  });
  expect(pushed.status, await pushed.clone().text()).toBe(202);
  await h.settled();
  const book = await h.request(`/api/v1/telemetry/gassings/?facility=${objects.facility.id}&from=2026-03-02&to=2026-03-03`, {
    token: a.token,
  });
  const { results } = (await book.json()) as { results: { id: string }[] };
  expect(results.length, "A's gassing").toBe(1);
  return results[0].id;
}

afterAll(() => h.close());

async function send(op: Operation, call: Call, auth?: string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  let body: NonNullable<RequestInit["body"]> | undefined;
  if (call.raw) {
    const raw = await call.raw();
    Object.assign(headers, raw.headers);
    body = raw.body as NonNullable<RequestInit["body"]>;
  } else if (call.form) {
    body = calculationForm(call.form.fields, call.form.file);
  } else if (call.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(call.json);
  }
  return h.request(call.path, { method: op.method, headers, body });
}

/** The Hono template of an operation as a regular expression over a called path. */
function pathPattern(op: Operation): RegExp {
  const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let source = "";
  let last = 0;
  for (const m of op.path.matchAll(/:(\w+)(?:\{([^}]*)\})?/g)) {
    source += escapeRegex(op.path.slice(last, m.index)) + (m[2] ?? "[^/]+");
    last = m.index + m[0].length;
  }
  return new RegExp(`^${source + escapeRegex(op.path.slice(last))}/?(\\?.*)?$`);
}

/** The same call with every id of A's objects replaced by ids that exist nowhere. */
function withMissingIds(call: Call): Call {
  const ids = [ctx.a.project.id, ctx.a.facility.id, ctx.a.point.id, ...Object.values(ctx.a.calculations).map((c) => c.id)];
  const swap = (text: string) => ids.reduce((t, id) => t.split(id).join(newId()), text);
  return {
    ...call,
    path: swap(call.path),
    json: call.json === undefined ? undefined : JSON.parse(swap(JSON.stringify(call.json))),
    form: call.form && { ...call.form, fields: JSON.parse(swap(JSON.stringify(call.form.fields))) },
  };
}

function callsOf(op: Operation): Call[] {
  const fixture = FIXTURES[op.operationId];
  return fixture ? fixture(ctx) : [];
}

function expectNoLeak(text: string, what: string) {
  for (const secret of ctx.a.secrets) expect(text.includes(secret), `${what} leaks «${secret}»: ${text.slice(0, 300)}`).toBe(false);
}

describe("the isolation matrix", () => {
  it("has a fixture for every operation of the route table, each calling its own route", () => {
    const missing = OPERATIONS.filter((op) => !FIXTURES[op.operationId]).map((op) => `${op.operationId} (${op.method} ${op.path})`);
    expect(missing, "add the new operation's calls to FIXTURES in this file").toEqual([]);
    expect(
      Object.keys(FIXTURES).filter((id) => !OPERATIONS.some((op) => op.operationId === id)),
      "fixtures of removed operations",
    ).toEqual([]);
    for (const op of OPERATIONS) {
      const calls = callsOf(op);
      expect(calls.length, op.operationId).toBeGreaterThan(0);
      for (const call of calls) expect(call.path, op.operationId).toMatch(pathPattern(op));
    }
  });

  it("puts A's ids where the table says each company-scoped operation takes them", () => {
    for (const op of OPERATIONS) {
      if (op.isolation.scope !== "company") continue;
      for (const call of callsOf(op)) {
        const [path, query = ""] = call.path.split("?");
        for (const id of op.isolation.ids) {
          const owned =
            id.object === "project"
              ? [ctx.a.project.id]
              : id.object === "facility"
                ? [ctx.a.facility.id]
                : id.object === "abatement"
                  ? [ctx.a.abatement.id]
                  : id.object === "climateProject"
                    ? [ctx.a.climateProject.id]
                    : Object.values(ctx.a.calculations).map((c) => c.id);
          const carried =
            id.in === "path"
              ? path.split("/")
              : id.in === "query"
                ? [new URLSearchParams(query).get(id.name)]
                : [(call.json as Record<string, unknown> | undefined)?.[id.name] ?? call.form?.fields[id.name]];
          expect(
            carried.some((v) => owned.includes(v as string)),
            `${op.operationId} ${call.path}: A's ${id.object} id in ${id.in} ${id.name}`,
          ).toBe(true);
        }
      }
    }
  });

  it("answers 401 without credentials and with a forged token on every non-public route", async () => {
    for (const op of OPERATIONS) {
      if (op.auth === "public") continue;
      for (const call of callsOf(op).slice(0, 3)) {
        for (const auth of [undefined, "Bearer forged.token.value", `Bearer ${a.token}x`]) {
          const res = await send(op, call, auth);
          expect(res.status, `${op.operationId} ${call.path} with ${auth ?? "no token"}`).toBe(401);
          expect(await res.json()).toEqual({ detail: expect.any(String), code: expect.any(String) });
        }
      }
      if (op.auth === "signed") {
        // A bearer token is no substitute for the signed URL.
        for (const call of callsOf(op)) expect((await send(op, call, `Bearer ${b.token}`)).status, op.operationId).toBe(401);
      }
    }
  });

  it("answers company B's staff 404 with A's ids — as for a missing id — 403 on admin routes, and never shows A's names", async () => {
    const checked: string[] = [];
    for (const op of OPERATIONS) {
      if (op.auth === "public" || op.auth === "signed") continue;
      for (const call of callsOf(op)) {
        const res = await send(op, call, `Bearer ${b.token}`);
        const text = await res.text();
        const what = `${op.method} ${call.path}`;
        expect(res.status, `${what}: ${text.slice(0, 200)}`).toBeLessThan(500);
        expectNoLeak(text, what);
        if (op.auth === "admin") {
          expect(res.status, what).toBe(403);
          expect(JSON.parse(text)).toEqual({ detail: expect.any(String) });
        } else if (op.isolation.scope === "company") {
          expect(res.status, `${what}: ${text.slice(0, 200)}`).toBe(404);
          const missing = await send(op, withMissingIds(call), `Bearer ${b.token}`);
          expect(
            { status: missing.status, body: await missing.text() },
            `${what}: another company's id answers like a missing one`,
          ).toEqual({
            status: 404,
            body: text,
          });
          checked.push(what);
        } else if (call.aOwned) {
          expect(res.status, `${what}: ${text.slice(0, 200)}`).toBe(404);
        }
      }
    }
    // Every calculation type went through every id-taking calculation route.
    for (const type of CALCULATION_TYPES)
      expect(checked.filter((c) => c.includes(`/api/v1/${type}/`)).length, type).toBeGreaterThanOrEqual(6);
  }, 120_000);

  it("answers B 404 for a history A sent straight to storage, in a forecast and a calibration, as for a missing key", async () => {
    const text = new TextEncoder().encode("Расход воздуха в исходящей струе лавы (телеметрия), м³/мин;y\n1300;0,5\n");
    const granted = await h.request("/api/v1/forecast/upload-url/", {
      method: "POST",
      token: a.token,
      json: { content_type: "text/csv", size: text.byteLength },
    });
    const g = (await granted.json()) as { url: string; headers: Record<string, string>; file_upload: string };
    const put = await h.request(g.url, { method: "PUT", headers: { ...g.headers, "Content-Length": String(text.byteLength) }, body: text });
    expect(put.status).toBe(200);
    const project = await h.newProject(b.token, "Проект Б");
    const missing = g.file_upload.replace(/[0-9a-f]{4}\.csv$/, "0000.csv");
    for (const key of [g.file_upload, missing.replace(`/${ctx.aCompany}/`, `/${b.companyId}/`)]) {
      const forecast = await h.request("/api/v1/regres_methane/", {
        method: "POST",
        token: b.token,
        body: calculationForm({ name: "Взлом", project: project.id, method: "xgboost", file_upload: key }),
      });
      const calibration = await h.request(`/api/v1/forecast_models/${newId()}/calibration/`, {
        method: "POST",
        token: b.token,
        body: calculationForm({ file_upload: key }),
      });
      for (const res of [forecast, calibration]) {
        expect(res.status, key).toBe(404);
        expectNoLeak(await res.text(), key);
      }
    }
    expect(await h.deps.blobs.stat!(g.file_upload)).toMatchObject({ size: text.byteLength });
  });

  it("left A's objects as they were: nothing renamed, archived or added by B", async () => {
    const project = await h.request(`/api/v1/projects/${ctx.a.project.id}/`, { token: a.token });
    expect(await project.json()).toMatchObject({ name: ctx.a.project.name, is_deleted: false, version: 1 });
    for (const type of CALCULATION_TYPES) {
      const calc = await h.request(`/api/v1/${type}/${ctx.a.calculations[type].id}/`, { token: a.token });
      expect(await calc.json(), type).toMatchObject({
        name: ctx.a.calculations[type].name,
        is_deleted: false,
        version: ctx.a.calculations[type].version,
      });
      const list = await h.request(`/api/v1/${type}/?project=${ctx.a.project.id}`, { token: a.token });
      expect(((await list.json()) as { count: number }).count, type).toBe(1);
    }
    const b403 = await h.request("/api/v1/admin/companies/", { token: admin.token });
    expect(b403.status).toBe(200);
  });

  it("lets A make each of the same calls (so B's 404 is the isolation, not the call)", async () => {
    for (const op of OPERATIONS) {
      for (const call of callsOf(op)) {
        if (op.isolation.scope !== "company" && !call.aOwned) continue;
        if (call.control === false) continue;
        const res = await send(op, call, `Bearer ${a.token}`);
        expect(res.status, `${op.method} ${call.path} as A: ${await res.clone().text()}`).not.toBe(404);
        expect(res.status).toBeLessThan(500);
      }
    }
  }, 120_000);
});
