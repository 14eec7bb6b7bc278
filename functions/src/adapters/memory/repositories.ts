// In-memory implementations of the repository ports, over one MemoryTable (table.ts) in the key
// layout of the DynamoDB adapter, for the unit tier: the domain's rules run on them without a
// database. They keep what the domain relies on from the DynamoDB repositories, one for one:
// conditional writes and their conflicts (expected versions, unique ids and e-mails, the caps, the
// year's write guard), the same order and pages, consistent reads, and the statistics and
// inventory sums kept by the table's stream (stream.ts), counted for read-your-writes as there.
// tests/support/repository-behaviour.ts holds the cases both adapters pass.
import { FROZEN_STATUSES } from "@core/inventory";
import { Conflict, NotFound } from "../../domain/errors";
import { newId } from "../../domain/ids";
import { normaliseEmail } from "../../domain/company/users";
import { sameName } from "../../domain/company/look-alike";
import { STALE_MEDIA } from "../../domain/files/media";
import type {
  AbatementAssessment,
  StoredMethaneLimitEdition,
  ClimateProject,
  ClimatePeriodRecord,
  ClimateSignatureRecord,
  TrustRootRecord,
  ClimateReportHand,
  AdminAuditEntry,
  AuditTrailEntry,
  StoredCalculation,
  Company,
  DictionaryItemVersion,
  DictionaryRepository,
  EmissionPoint,
  Facility,
  ForecastCalibration,
  GatewayKey,
  Sensor,
  SensorCheck,
  SensorVerification,
  CutoffRecord,
  HandMeasurement,
  Handover,
  JournalSignature,
  CheckIntervals,
  LiveModelBinding,
  StoredLiveForecast,
  OfferAcceptance,
  ListedBatch,
  ReadingsBatch,
  SensorEvent,
  WebhookRecord,
  WebhookDeliveryRecord,
  ForecastModelVersion,
  InventoryComment,
  OwnFactor,
  TrendSettings,
  InventoryReview,
  InventoryVersion,
  MediaItem,
  Page,
  ProjectState,
  Repositories,
  Session,
  User,
  WriteGuard,
} from "../../ports";
import { CERTIFICATE_ATTACHED, idFloorAt } from "../../ports/instruments";
import type { Project } from "../../contract/schemas/project";
import * as keys from "../dynamodb/keys";
import {
  type CalculationMarks,
  calculationItem,
  companyItem,
  emissionPointItem,
  gatewayKeyItem,
  sensorItem,
  type CompanyRecords,
  inventoryCommentItem,
  inventoryVersionItem,
  KEY_ATTRIBUTES,
  listCount,
  type VersionedPartition,
} from "../dynamodb/items";
import { ASSESSMENTS } from "../dynamodb/abatement-repository";
import { GASSINGS, METHANE_LIMIT_EDITION_EXISTS } from "../dynamodb/gassing-repository";
import {
  byVerified,
  byWritten,
  CHECK_FOLLOWED,
  checkOnce,
  CHECK_INTERVALS_CONFLICT,
  VERIFICATION_CORRECTED,
  VERIFICATION_EXISTS,
  certificateKeys,
  verificationItem,
  verificationOnceOf,
  checkIntervalsItem,
  SENSOR_CHECK_CONFLICT,
  SENSOR_CHECK_EXISTS,
  sensorCheckItem,
} from "../dynamodb/sensor-check-repository";
import {
  byCutoffStart,
  CUTOFF_CONFLICT,
  cutoffItem,
  HAND_MEASUREMENT_EXISTS,
  handMeasurementItem,
} from "../dynamodb/readings-audit-repository";
import {
  HANDOVER_CORRECTED,
  handoverOnce,
  HANDOVER_CONFLICT,
  HANDOVER_EXISTS,
  JOURNAL_SIGNED,
  journalSignatureItem,
  handoverItem,
  handoverWritten,
} from "../dynamodb/shift-record-repository";
import {
  CLIMATE_PERIOD_CONFLICT,
  CLIMATE_PERIOD_EXISTS,
  CLIMATE_PROJECTS,
  CLIMATE_REPORT_CONFLICT,
  climatePeriodItem,
  climateReportHandItem,
  climatePeriodOf,
  periodsInOrder,
} from "../dynamodb/climate-project-repository";
import {
  CLIMATE_SIGNATURE_PLACE_TAKEN,
  TRUST_ROOT_EXISTS,
  climateSignatureItem,
  rootsInOrder,
  signaturesInOrder,
  trustRootItem,
  trustRootsPrefix,
} from "../dynamodb/climate-signature-repository";
import { FACILITIES } from "../dynamodb/facility-repository";
import { DOCUMENTS } from "../dynamodb/document-repository";
import {
  byCode,
  GATEWAY_KEY_EXISTS,
  GATEWAY_KEY_MISSING,
  newestFirst,
  SENSOR_CONFLICT,
  SENSOR_EXISTS,
} from "../dynamodb/sensor-repository";
import {
  ACCEPTANCE_CHANGED,
  batchListedItem,
  tableReadings,
  queueMarkItem,
  queueMarkOf,
  dayItem,
  dayOf,
  demoFeedItem,
  demoFeedOf,
  minuteItem,
  minuteOf,
  minutesHeadItem,
  minutesHeadOf,
  liveHeadItem,
  liveHeadOf,
  forecastMeansItem,
  forecastMeansOf,
  movedMarkExpiry,
} from "../dynamodb/monitoring-repository";
import { CALENDAR_YEARS } from "../dynamodb/production-calendar-repository";
import { POINT_WRITE_IN_FLIGHT, PROJECT_CONFLICT, projectItem, projectOf } from "../dynamodb/project-repository";
import { TREND_SETTINGS_CONFLICT } from "../dynamodb/trend-settings-repository";
import { queuedMark } from "../dynamodb/webhook-repository";
import { secondsUntilRoom } from "../dynamodb/attempt-counter";
import {
  CALCULATION_EXISTS,
  calculationBlobKeys,
  damageOf,
  damagedCalculation,
  STALE_CALCULATION,
  wholeOnly,
} from "../../domain/calculation-shape";
import { memoryStatistics } from "./statistics";
import { pageOf, type Item, type Key, type MemoryTable } from "./table";

function strip<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  for (const name of KEY_ATTRIBUTES) delete item[name];
  return item as T;
}

/** Writes `item` if the stored version is still `expectedVersion` (0: only when there is none, or
 *  one stored without a version step yet); otherwise Conflict (adapters/dynamodb/items.ts, versionedPut). */
function versionedPut(table: MemoryTable, item: Item, expectedVersion: number, conflict: string): void {
  const written = table.put(item, (stored) =>
    expectedVersion === 0 ? stored === undefined || stored.version === 0 : stored !== undefined && stored.version === expectedVersion,
  );
  if (!written) throw new Conflict(conflict);
}

function create(table: MemoryTable, item: Item, conflict: string): void {
  if (!table.put(item, (stored) => stored === undefined)) throw new Conflict(conflict);
}

/** A record written once under its `once` key (adapters/dynamodb/sensor-check-repository.ts, writeOnce):
 *  the record it names answered when it says the same, Conflict `taken` otherwise. One step: no other write
 *  runs between the read of the key and the writes. */
function writeOnce<T>(
  table: MemoryTable,
  key: { PK: string; SK: string },
  sameness: { digest: string },
  record: T & { id: string },
  item: Item,
  keyOf: (id: string) => { PK: string; SK: string },
  conflicts: { taken: string; exists: string },
): T {
  const held = table.get(key);
  const stored = held && strip<T>(table.get(keyOf(String(held.id))));
  if (stored) {
    if (held.digest === sameness.digest) return stored;
    throw new Conflict(conflicts.taken);
  }
  create(table, item, conflicts.exists);
  table.put({ ...key, id: record.id, digest: sameness.digest, at: new Date().toISOString() });
  return record;
}

const num = (value: unknown) => Number(value ?? 0);

/** The records stored under a prefix, without their key attributes, in `order`. */
function listed<T>(table: MemoryTable, prefix: { PK: string; SKPrefix: string }, order: (a: T, b: T) => number): T[] {
  return table
    .query(prefix.PK, prefix.SKPrefix)
    .map((item) => strip<T>(item)!)
    .sort(order);
}

function companies(table: MemoryTable): Repositories["companies"] {
  return {
    async create(company) {
      create(table, companyItem(company), "Компания с таким идентификатором уже существует");
    },
    async get(companyId) {
      return strip<Company>(table.get(keys.company(companyId)));
    },
    async list() {
      return table.queryIndex(keys.companiesIndex().GSI1PK).map((item) => strip<Company>(item)!);
    },
    async findByName(name) {
      return (await this.list()).find((c) => sameName(c.name, name));
    },
    async replace(next, expectedVersion) {
      // Companies written before versions existed have none: they count as version 0.
      const written = table.put(companyItem(next), (stored) =>
        stored === undefined ? false : expectedVersion === 0 ? stored.version === undefined : stored.version === expectedVersion,
      );
      if (!written) throw new Conflict("Реквизиты компании уже изменены другим пользователем. Обновите страницу и повторите.");
    },
  };
}

// A new password, (de)activation or role ends every session of the user (adapters/dynamodb/user-repository.ts).
const SESSION_ENDING_FIELDS = ["password_hash", "is_active", "role"];

function users(table: MemoryTable): Repositories["users"] {
  const setFields = (companyId: string, userId: string, fields: Record<string, unknown>, expectedGeneration?: number) => {
    const names = Object.keys(fields).filter((name) => fields[name] !== undefined);
    if (names.length === 0) return;
    const endSessions = names.some((name) => SESSION_ENDING_FIELDS.includes(name));
    const written = table.update(keys.user(companyId, userId), (stored) => {
      if (!stored) return false;
      if (expectedGeneration !== undefined && num(stored.session_generation) !== expectedGeneration) return false;
      const next: Item = { ...stored };
      for (const name of names) next[name] = fields[name];
      if (endSessions) next.session_generation = num(stored.session_generation) + 1;
      return next;
    });
    if (!written) {
      throw new Conflict(
        expectedGeneration === undefined ? "Пользователь не найден" : "Пароль уже изменен в другом окне или сеансе: войдите снова",
      );
    }
  };
  const get = async (companyId: string, userId: string) => strip<User>(table.get(keys.user(companyId, userId)));
  return {
    async create(user) {
      const lookup = keys.emailLookup(user.email);
      create(table, { ...lookup, company: user.company, user: user.id }, "Пользователь с таким e-mail уже существует");
      try {
        create(
          table,
          { ...keys.user(user.company, user.id), ...user, email: normaliseEmail(user.email) },
          "Пользователь с таким идентификатором уже существует",
        );
      } catch (error) {
        table.delete(lookup);
        throw error;
      }
    },
    get,
    async findByEmail(email) {
      const lookup = table.get(keys.emailLookup(email));
      return lookup ? get(String(lookup.company), String(lookup.user)) : undefined;
    },
    async listByCompany(companyId) {
      const prefix = keys.usersOfCompany(companyId);
      return table.query(prefix.PK, prefix.SKPrefix).map((item) => strip<User>(item)!);
    },
    async setPasswordHash(companyId, userId, passwordHash, expectedGeneration) {
      setFields(companyId, userId, { password_hash: passwordHash }, expectedGeneration);
    },
    async setActive(companyId, userId, isActive) {
      setFields(companyId, userId, { is_active: isActive });
    },
    async update(companyId, userId, fields) {
      setFields(companyId, userId, fields);
    },
    async revokeSession(companyId, userId, sessionId, untilSeconds, expired) {
      table.update(keys.user(companyId, userId), (stored) => {
        if (!stored) return false;
        const revoked = { ...((stored.revoked_sessions as Record<string, number> | undefined) ?? {}) };
        for (const id of expired) if (id !== sessionId) delete revoked[id];
        revoked[sessionId] = untilSeconds;
        return { ...stored, revoked_sessions: revoked };
      });
    },
    async move(user, toCompanyId) {
      const moved: User = { ...user, company: toCompanyId };
      create(table, { ...keys.user(toCompanyId, user.id), ...moved }, "Пользователь уже есть в этой компании");
      const repointed = table.update(keys.emailLookup(user.email), (stored) =>
        stored && stored.company === user.company && stored.user === user.id ? { ...stored, company: toCompanyId } : false,
      );
      if (!repointed) throw new Conflict("Пользователь был изменен одновременно. Обновите страницу и повторите.");
      table.delete(keys.user(user.company, user.id));
      return moved;
    },
    async countAuthored(companyId, userId, email) {
      const pk = keys.usersOfCompany(companyId).PK;
      const projects = table.query(pk, keys.projectsOfCompany(companyId).SKPrefix).filter((item) => item.user === userId).length;
      const calculations = table
        .query(pk, keys.calculationsOfCompany(companyId).SKPrefix)
        .filter((item) => item.created_by === normaliseEmail(email) || item.created_by === userId).length;
      return { projects, calculations };
    },
  };
}

function projects(table: MemoryTable): Repositories["projects"] {
  return {
    async create(project) {
      create(table, projectItem(project), "Проект с таким идентификатором уже существует");
    },
    async get(companyId, projectId) {
      const item = table.get(keys.project(companyId, projectId));
      return item && projectOf(item);
    },
    async list(companyId, state, page): Promise<Page<Project>> {
      const items = table.queryIndex(keys.projectsIndex(companyId, state).GSI1PK, true);
      // The count as the DynamoDB adapter gives it: from the page read with one item more and the
      // year statistics the stream keeps (a moment behind a write).
      const figure = state === "active" ? "projects_active" : "projects_archived";
      const years = keys.companyStatisticsYears(companyId);
      const stored = table.query(years.PK, years.SKPrefix).reduce((sum, item) => sum + num(item[figure]), 0);
      const read = items.slice(page.offset, page.offset + page.limit + 1);
      return { results: read.slice(0, page.limit).map(projectOf), count: listCount(page, read.length, stored) };
    },
    async listAllOfCompany(companyId) {
      const prefix = keys.projectsOfCompany(companyId);
      return table.query(prefix.PK, prefix.SKPrefix).map(projectOf);
    },
    async replace(next, expectedVersion) {
      replaceFields(next, expectedVersion, () => true);
    },
    async beginPointWrite(companyId, projectId, facility, now) {
      return table.update(keys.project(companyId, projectId), (stored) =>
        stored?.facility === facility ? { ...stored, point_write_at: now, point_writes_begun: num(stored.point_writes_begun) + 1 } : false,
      );
    },
    async endPointWrite(companyId, projectId) {
      table.update(keys.project(companyId, projectId), (stored) =>
        stored?.point_writes_begun === undefined ? false : { ...stored, point_writes_ended: num(stored.point_writes_ended) + 1 },
      );
    },
    async replaceFacility(next, expectedVersion, staleBefore, check) {
      const lock = table.get(keys.project(next.company, next.id));
      if (!lock || lock.version !== expectedVersion) throw new Conflict(PROJECT_CONFLICT);
      if (num(lock.point_writes_begun) > num(lock.point_writes_ended) && String(lock.point_write_at) >= staleBefore) {
        throw new Conflict(POINT_WRITE_IN_FLIGHT);
      }
      await check();
      replaceFields(next, expectedVersion, (stored) => stored.point_writes_begun === lock.point_writes_begun);
    },
  };

  /** The project's fields written over the stored ones, the lock's counts kept (project-repository.ts). */
  function replaceFields(next: Project, expectedVersion: number, condition: (stored: Item) => boolean) {
    const written = table.update(keys.project(next.company, next.id), (stored) => {
      if (!stored || stored.version !== expectedVersion || !condition(stored)) return false;
      const lock = Object.fromEntries(
        keys.PROJECT_POINT_LOCK_ATTRIBUTES.filter((name) => stored[name] !== undefined).map((name) => [name, stored[name]]),
      );
      return { ...projectItem(next), ...lock };
    });
    if (!written) throw new Conflict(PROJECT_CONFLICT);
  }
}

/** A company's records of one kind (adapters/dynamodb/items.ts, companyRecords): created once, read by
 *  their key, listed by the company's prefix in order, replaced while the stored version is the one read. */
function companyRecords<T>(table: MemoryTable, at: CompanyRecords<T>) {
  return {
    async create(record: T) {
      create(table, at.item(record), at.exists);
    },
    async get(companyId: string, id: string) {
      return at.read(table.get(at.key(companyId, id)));
    },
    async list(companyId: string) {
      const prefix = at.ofCompany(companyId);
      return table
        .query(prefix.PK, prefix.SKPrefix)
        .map((item) => at.read(item) as T)
        .sort(at.order);
    },
    async replace(next: T, expectedVersion: number) {
      const written = table.put(at.item(next), (stored) => stored !== undefined && stored.version === expectedVersion);
      if (!written) throw new Conflict(at.conflict);
    },
  };
}

function climateProjects(table: MemoryTable): Repositories["climateProjects"] {
  return {
    ...companyRecords(table, CLIMATE_PROJECTS),
    async createPeriod(period) {
      create(table, climatePeriodItem(period), CLIMATE_PERIOD_EXISTS);
    },
    async getPeriod(companyId, project, id) {
      return climatePeriodOf(table.get(keys.climatePeriod(companyId, project, id)));
    },
    async listPeriods(companyId, project) {
      const prefix = keys.climatePeriodsOfProject(companyId, project);
      return table
        .query(prefix.PK, prefix.SKPrefix)
        .map((item) => climatePeriodOf(item) as ClimatePeriodRecord)
        .sort(periodsInOrder);
    },
    async getReportHand(companyId, project, period) {
      return strip<ClimateReportHand>(table.get(keys.climateReportHand(companyId, project, period)));
    },
    async putReportHand(next, expectedVersion) {
      const written = table.put(climateReportHandItem(next), (stored) =>
        expectedVersion === 0 ? stored === undefined : stored !== undefined && stored.version === expectedVersion,
      );
      if (!written) throw new Conflict(CLIMATE_REPORT_CONFLICT);
    },
    async replacePeriod(next, expectedVersion) {
      const written = table.put(
        climatePeriodItem(next),
        (stored) => stored !== undefined && ((stored.version as number | undefined) ?? 1) === expectedVersion,
      );
      if (!written) throw new Conflict(CLIMATE_PERIOD_CONFLICT);
    },
    async claimPeriods(claim, staleBefore) {
      return table.put(
        { ...keys.climatePeriodsClaim(claim.company, claim.project), ...claim },
        (stored) => stored === undefined || String(stored.at) < staleBefore,
      );
    },
    async releasePeriods(claim) {
      table.delete(keys.climatePeriodsClaim(claim.company, claim.project), (stored) => stored?.token === claim.token);
    },
  };
}

function climateSignatures(table: MemoryTable): Repositories["climateSignatures"] {
  return {
    async add(record, place) {
      create(table, climateSignatureItem(record, place), CLIMATE_SIGNATURE_PLACE_TAKEN);
    },
    async list(companyId, project, period) {
      const prefix = keys.climateSignaturesOfPeriod(companyId, project, period);
      return table
        .query(prefix.PK, prefix.SKPrefix)
        .map((item) => strip<ClimateSignatureRecord>(item) as ClimateSignatureRecord)
        .sort(signaturesInOrder);
    },
    async count(companyId, project, period) {
      const prefix = keys.climateSignaturesOfPeriod(companyId, project, period);
      return table.query(prefix.PK, prefix.SKPrefix).length;
    },
  };
}

function trustRoots(table: MemoryTable): Repositories["trustRoots"] {
  return {
    async add(root) {
      create(table, trustRootItem(root), TRUST_ROOT_EXISTS);
    },
    async list() {
      return table
        .query(trustRootsPrefix.PK, trustRootsPrefix.SKPrefix)
        .map((item) => strip<TrustRootRecord>(item) as TrustRootRecord)
        .sort(rootsInOrder);
    },
    async remove(id) {
      return table.delete(keys.trustRoot(id), (stored) => stored !== undefined);
    },
  };
}

function emissionPoints(table: MemoryTable): Repositories["emissionPoints"] {
  const byName = (a: EmissionPoint, b: EmissionPoint) => a.name.localeCompare(b.name, "ru") || a.id.localeCompare(b.id);
  const list = (prefix: { PK: string; SKPrefix: string }) => listed(table, prefix, byName);
  return {
    async create(point) {
      create(table, emissionPointItem(point), "Источник выбросов с таким идентификатором уже существует");
    },
    async get(companyId, facilityId, pointId) {
      return strip<EmissionPoint>(table.get(keys.emissionPoint(companyId, facilityId, pointId)));
    },
    listOfFacility: async (companyId, facilityId) => list(keys.pointsOfFacility(companyId, facilityId)),
    listOfCompany: async (companyId) => list(keys.pointsOfCompany(companyId)),
    async replace(next, expectedVersion) {
      versionedPut(
        table,
        emissionPointItem(next),
        expectedVersion,
        "Источник выбросов был изменен другим пользователем. Обновите страницу и повторите.",
      );
    },
  };
}

/** the sensors' checks, as adapters/dynamodb/sensor-check-repository.ts keeps them. */
function sensorChecks(table: MemoryTable): Repositories["sensorChecks"] {
  return {
    async create(check) {
      const sameness = checkOnce(check);
      const key = keys.sensorCheckOnce(check.company, check.facility, sameness.once);
      return writeOnce(table, key, sameness, check, sensorCheckItem(check), (id) => keys.sensorCheck(check.company, check.facility, id), {
        taken: CHECK_FOLLOWED,
        exists: SENSOR_CHECK_EXISTS,
      });
    },
    async get(companyId, facilityId, id) {
      return strip<SensorCheck>(table.get(keys.sensorCheck(companyId, facilityId, id)));
    },
    async listOfFacility(companyId, facilityId, writtenFrom = 0) {
      const floor = idFloorAt(writtenFrom);
      return listed<SensorCheck>(table, keys.sensorChecksOfFacility(companyId, facilityId), byWritten).filter((c) => c.id >= floor);
    },
    async replace(next, expectedVersion) {
      versionedPut(table, sensorCheckItem(next), expectedVersion, SENSOR_CHECK_CONFLICT);
    },
    async intervals(companyId, facilityId) {
      return strip<CheckIntervals>(table.get(keys.checkIntervals(companyId, facilityId)));
    },
    async putIntervals(next, expectedVersion) {
      if (expectedVersion === 0) create(table, checkIntervalsItem(next), CHECK_INTERVALS_CONFLICT);
      else versionedPut(table, checkIntervalsItem(next), expectedVersion, CHECK_INTERVALS_CONFLICT);
    },
    async createVerification(record) {
      const sameness = verificationOnceOf(record);
      const key = keys.verificationOnce(record.company, record.facility, sameness.once);
      return writeOnce(
        table,
        key,
        sameness,
        record,
        verificationItem(record),
        (id) => keys.sensorVerification(record.company, record.facility, record.sensor, id),
        { taken: VERIFICATION_CORRECTED, exists: VERIFICATION_EXISTS },
      );
    },
    async verificationsOfFacility(companyId, facilityId) {
      return listed<SensorVerification>(table, keys.sensorVerificationsOfFacility(companyId, facilityId), byVerified);
    },
    async attachVerificationFile(record) {
      const written = table.put(verificationItem(record), (stored) => stored !== undefined && stored.certificate_file === undefined);
      if (!written) throw new Conflict(CERTIFICATE_ATTACHED);
    },
    async certificateKeysOfCompany(companyId) {
      const prefix = keys.sensorVerificationsOfCompany(companyId);
      return certificateKeys(table.query(prefix.PK, prefix.SKPrefix));
    },
  };
}

/** The shift's records (D95), as adapters/dynamodb/shift-record-repository.ts keeps them. */
function shiftRecords(table: MemoryTable): Repositories["shiftRecords"] {
  return {
    async createHandover(record) {
      const sameness = handoverOnce(record);
      const key = keys.handoverOnce(record.company, record.facility, sameness.once);
      return writeOnce(table, key, sameness, record, handoverItem(record), (id) => keys.handover(record.company, record.facility, id), {
        taken: HANDOVER_CORRECTED,
        exists: HANDOVER_EXISTS,
      });
    },
    async getHandover(companyId, facilityId, id) {
      return strip<Handover>(table.get(keys.handover(companyId, facilityId, id)));
    },
    async handoversOfFacility(companyId, facilityId, writtenFrom = 0) {
      const floor = idFloorAt(writtenFrom);
      return listed<Handover>(table, keys.handoversOfFacility(companyId, facilityId), handoverWritten).filter((h) => h.id >= floor);
    },
    async replaceHandover(next, expectedVersion) {
      versionedPut(table, handoverItem(next), expectedVersion, HANDOVER_CONFLICT);
    },
    async createJournalSignature(record) {
      create(table, journalSignatureItem(record), JOURNAL_SIGNED);
    },
    async journalSignatures(companyId, facilityId, date) {
      return listed<JournalSignature>(table, keys.journalSignaturesOfDay(companyId, facilityId, date), (a, b) =>
        a.shift.localeCompare(b.shift),
      );
    },
  };
}

/** The readings' audit (D104, D105), as adapters/dynamodb/readings-audit-repository.ts keeps it. */
function readingsAudit(table: MemoryTable): Repositories["readingsAudit"] {
  return {
    async createHandMeasurement(record) {
      create(table, handMeasurementItem(record), HAND_MEASUREMENT_EXISTS);
    },
    async handMeasurementsOfFacility(companyId, facilityId, writtenFrom = 0) {
      const floor = idFloorAt(writtenFrom);
      return listed<HandMeasurement>(table, keys.handMeasurementsOfFacility(companyId, facilityId), (a, b) =>
        a.id.localeCompare(b.id),
      ).filter((m) => m.id >= floor);
    },
    async cutoffsOfFacility(companyId, facilityId) {
      return listed<CutoffRecord>(table, keys.cutoffsOfFacility(companyId, facilityId), byCutoffStart);
    },
    async getCutoff(companyId, facilityId, id) {
      return strip<CutoffRecord>(table.get(keys.cutoffRecord(companyId, facilityId, id)));
    },
    async putCutoff(next, expectedVersion) {
      versionedPut(table, cutoffItem(next), expectedVersion, CUTOFF_CONFLICT);
    },
    async removeCutoff(record, expectedVersion) {
      return table.delete(keys.cutoffRecord(record.company, record.facility, record.id), (stored) => stored?.version === expectedVersion);
    },
  };
}

function sensors(table: MemoryTable): Repositories["sensors"] {
  const moveStamp = (companyId: string, facilityId: string) =>
    table.put({ ...keys.sensorRegisterStamp(companyId, facilityId), stamp: newId() });
  return {
    async create(sensor) {
      create(table, sensorItem(sensor), SENSOR_EXISTS);
      moveStamp(sensor.company, sensor.facility);
    },
    async get(companyId, facilityId, sensorId) {
      return strip<Sensor>(table.get(keys.sensor(companyId, facilityId, sensorId)));
    },
    listOfFacility: async (companyId, facilityId) => listed(table, keys.sensorsOfFacility(companyId, facilityId), byCode),
    async replace(next, expectedVersion) {
      versionedPut(table, sensorItem(next), expectedVersion, SENSOR_CONFLICT);
      moveStamp(next.company, next.facility);
    },
    async remove(companyId, facilityId, sensorId) {
      table.delete(keys.sensor(companyId, facilityId, sensorId));
      moveStamp(companyId, facilityId);
    },
    async registerStamp(companyId, facilityId) {
      return table.get(keys.sensorRegisterStamp(companyId, facilityId))?.stamp as string | undefined;
    },
    async claimCode(claim, staleBefore) {
      const key = keys.sensorCodeClaim(claim.company, claim.facility, claim.code);
      return table.put({ ...key, ...claim }, (stored) => stored === undefined || String(stored.at) < staleBefore);
    },
    async releaseCode(claim) {
      table.delete(keys.sensorCodeClaim(claim.company, claim.facility, claim.code), (stored) => stored?.token === claim.token);
    },
  };
}

function gatewayKeys(table: MemoryTable): Repositories["gatewayKeys"] {
  return {
    async create(key) {
      create(table, { ...keys.gatewayKeyLookup(key.hash), company: key.company, facility: key.facility, id: key.id }, GATEWAY_KEY_EXISTS);
      create(table, gatewayKeyItem(key), GATEWAY_KEY_EXISTS);
    },
    async listOfFacility(companyId, facilityId) {
      const prefix = keys.gatewayKeysOfFacility(companyId, facilityId);
      return table
        .query(prefix.PK, prefix.SKPrefix)
        .map((item) => strip<GatewayKey>(item)!)
        .sort(newestFirst);
    },
    async get(companyId, facilityId, keyId) {
      return strip<GatewayKey>(table.get(keys.gatewayKey(companyId, facilityId, keyId)));
    },
    async revoke(companyId, facilityId, keyId, at) {
      const key = keys.gatewayKey(companyId, facilityId, keyId);
      const stored = table.get(key);
      if (!stored) throw new NotFound(GATEWAY_KEY_MISSING);
      table.delete(keys.gatewayKeyLookup(String(stored.hash)));
      table.update(key, (item) => (item ? { ...item, revoked_at: at } : false));
    },
    async byHash(hash) {
      const item = table.get(keys.gatewayKeyLookup(hash));
      return item ? { company: String(item.company), facility: String(item.facility), id: String(item.id) } : undefined;
    },
  };
}

function monitoring(table: MemoryTable): Repositories["monitoring"] {
  const markQueued: Repositories["monitoring"]["markQueued"] = async (batch, queued) => {
    if (queued) table.put(queueMarkItem(batch));
    else table.delete(keys.readingsQueued(batch.received_at, batch.company, batch.batch));
  };
  return {
    async createBatch(batch) {
      create(
        table,
        { ...keys.readingsBatch(batch.company, batch.batch), ...batch },
        "Пакет показаний с таким идентификатором уже существует",
      );
      if (batch.queue_mark !== false) await markQueued(batch, true);
    },
    async listBatch(batch) {
      table.put(batchListedItem(batch), (stored) => stored === undefined);
    },
    markQueued,
    async getBatch(companyId, batchId) {
      return strip<ReadingsBatch>(table.get(keys.readingsBatch(companyId, batchId)));
    },
    ...tableReadings({ get: async (key) => table.get(key), put: async (item) => void table.put(item) }),
    async finishBatch(batch) {
      table.put({ ...keys.readingsBatch(batch.company, batch.batch), ...batch });
      table.put(batchListedItem(batch));
      if (batch.queue_mark !== false) await markQueued(batch, false);
    },
    async updateBatch(batch) {
      table.put({ ...keys.readingsBatch(batch.company, batch.batch), ...batch });
      table.put(batchListedItem(batch));
    },
    async batchesOfFacility(companyId, facilityId, limit) {
      const { PK, SKPrefix } = keys.readingsBatchesOfFacility(companyId, facilityId);
      return table
        .query(PK, SKPrefix, true)
        .slice(0, limit)
        .map((item) => strip<ListedBatch>(item) as ListedBatch);
    },
    async queued(limit) {
      return table.query(keys.READINGS_QUEUE_PK).slice(0, limit).map(queueMarkOf);
    },
    async getDay(companyId, sensorId, day) {
      const item = table.get(keys.sensorDay(companyId, sensorId, day));
      return item ? dayOf(item) : undefined;
    },
    async getDays(companyId, sensorId, days) {
      return days.flatMap((day) => {
        const item = table.get(keys.sensorDay(companyId, sensorId, day));
        return item ? [dayOf(item)] : [];
      });
    },
    async createAcceptance(acceptance) {
      create(
        table,
        { ...keys.offerAcceptance(acceptance.company, acceptance.facility, acceptance.point, acceptance.month), ...acceptance },
        "Этот месяц уже принят",
      );
    },
    async replaceAcceptance(acceptance, expectedVersion) {
      const key = keys.offerAcceptance(acceptance.company, acceptance.facility, acceptance.point, acceptance.month);
      const written = table.put(
        { ...key, ...acceptance },
        (stored) => stored !== undefined && num(stored.version ?? 1) === expectedVersion,
      );
      if (!written) throw new Conflict(ACCEPTANCE_CHANGED);
    },
    async claimMonth(claim, staleBefore) {
      const key = keys.offerClaim(claim.company, claim.facility, claim.point, claim.month);
      return table.put({ ...key, ...claim }, (stored) => stored === undefined || String(stored.at) < staleBefore);
    },
    async releaseMonth(claim) {
      table.delete(keys.offerClaim(claim.company, claim.facility, claim.point, claim.month), (stored) => stored?.token === claim.token);
    },
    async acceptances(companyId, facilityId) {
      const prefix = keys.acceptancesOfFacility(companyId, facilityId);
      return table.query(prefix.PK, prefix.SKPrefix).map((item) => strip<OfferAcceptance>(item)!);
    },
    async recheckAcceptance(acceptance) {
      const key = keys.offerAcceptance(acceptance.company, acceptance.facility, acceptance.point, acceptance.month);
      const rechecked = table.update(key, (stored) =>
        stored ? { ...stored, now_ch4_t: acceptance.now_ch4_t ?? null, rechecked_at: acceptance.rechecked_at ?? null } : false,
      );
      if (!rechecked) throw new NotFound("Принятый месяц не найден");
    },
    async putDay(day, expectedVersion) {
      return table.put(dayItem({ ...day, version: expectedVersion + 1 }), (stored) =>
        expectedVersion === 0 ? stored === undefined : stored !== undefined && stored.version === expectedVersion,
      );
    },
    async getMinute(companyId, facilityId, day, minute) {
      const item = table.get(keys.facilityMinute(companyId, facilityId, day, minute));
      return item ? minuteOf(item) : undefined;
    },
    async putMinute(minute, expectedVersion) {
      return table.put(minuteItem({ ...minute, version: expectedVersion + 1 }), (stored) =>
        expectedVersion === 0 ? stored === undefined : stored !== undefined && stored.version === expectedVersion,
      );
    },
    async minutesOf(companyId, facilityId, day, from = "00:00", to = "23:59") {
      return table
        .query(keys.facilityMinutesOfDay(companyId, facilityId, day), "MIN#")
        .filter((item) => String(item.SK) >= `MIN#${from}` && String(item.SK) <= `MIN#${to}`)
        .map(minuteOf);
    },
    async getMinutesHead(companyId, facilityId) {
      const item = table.get(keys.minutesHead(companyId, facilityId));
      return item ? minutesHeadOf(item) : undefined;
    },
    async getLiveHead(companyId, facilityId) {
      const item = table.get(keys.liveHead(companyId, facilityId));
      return item ? liveHeadOf(structuredClone(item)) : undefined;
    },
    async putLiveHead(head, expectedVersion) {
      return table.put(liveHeadItem(structuredClone({ ...head, version: expectedVersion + 1 })), (stored) =>
        expectedVersion === 0 ? stored === undefined : stored !== undefined && stored.version === expectedVersion,
      );
    },
    async getForecastMeans(companyId, facilityId, working) {
      const item = table.get(keys.forecastMeans(companyId, facilityId, working));
      return item ? forecastMeansOf(structuredClone(item)) : undefined;
    },
    async putForecastMeans(means, expectedVersion) {
      return table.put(forecastMeansItem({ ...means, version: expectedVersion + 1 }), (stored) =>
        expectedVersion === 0 ? stored === undefined : stored !== undefined && stored.version === expectedVersion,
      );
    },
    async putMinutesHead(head, expectedVersion) {
      return table.put(minutesHeadItem({ ...head, version: expectedVersion + 1 }), (stored) =>
        expectedVersion === 0 ? stored === undefined : stored !== undefined && stored.version === expectedVersion,
      );
    },
    async openDayMoved(companyId, facilityId, day) {
      return table.get(keys.openDayMoved(companyId, facilityId, day)) !== undefined;
    },
    async markOpenDayMoved(companyId, facilityId, day) {
      table.put({ ...keys.openDayMoved(companyId, facilityId, day), expires_at: movedMarkExpiry(day) });
    },
    async hasMinutes(companyId, facilityId, day) {
      if (table.get(keys.minutesCompacted(companyId, facilityId, day))) return false;
      return table.query(keys.facilityMinutesOfDay(companyId, facilityId, day), "MIN#").length > 0;
    },
    async removeMinutes(companyId, facilityId, day) {
      // As in DynamoDB: the day marked compacted, its minutes left to their expiry.
      table.put({ ...keys.minutesCompacted(companyId, facilityId, day), expires_at: movedMarkExpiry(day) });
    },
    async demoFeeds() {
      return table.query(keys.DEMO_FEED_PK).map(demoFeedOf);
    },
    async putDemoFeed(feed, expectedVersion) {
      return table.put(demoFeedItem({ ...feed, version: expectedVersion + 1 }), (stored) =>
        expectedVersion === 0 ? stored === undefined : stored !== undefined && stored.version === expectedVersion,
      );
    },
  };
}

function sensorEvents(table: MemoryTable): Repositories["sensorEvents"] {
  const versionIs = (expected: number) => (stored: Item | undefined) =>
    expected === 0 ? stored === undefined : stored !== undefined && stored.version === expected;
  return {
    async listOfFacility(companyId, facilityId, from, to) {
      return table
        .query(keys.sensorEventsOfFacility(companyId, facilityId), "EV#")
        .filter((item) => String(item.SK) >= `EV#${from}` && String(item.SK) <= `EV#${to}`)
        .map((item) => strip<SensorEvent>(item)!);
    },
    async get(companyId, facilityId, id, start) {
      return strip<SensorEvent>(table.get(keys.sensorEvent(companyId, facilityId, start, id)));
    },
    async put(event, expectedVersion) {
      return table.put(
        { ...keys.sensorEvent(event.company, event.facility, event.start, event.id), ...event, version: expectedVersion + 1 },
        versionIs(expectedVersion),
      );
    },
    async remove(event, expectedVersion) {
      return table.delete(keys.sensorEvent(event.company, event.facility, event.start, event.id), (stored) =>
        versionIs(expectedVersion)(stored),
      );
    },
    async removeAll(events) {
      for (const event of events) table.delete(keys.sensorEvent(event.company, event.facility, event.start, event.id));
    },
  };
}

function liveBindings(table: MemoryTable): Repositories["liveBindings"] {
  return {
    async listOfFacility(companyId, facilityId) {
      const prefix = keys.liveBindingsOfFacility(companyId, facilityId);
      return table.query(prefix.PK, prefix.SKPrefix).map((item) => strip<LiveModelBinding>(item)!);
    },
    async put(binding) {
      table.put({ ...keys.liveBinding(binding.company, binding.facility, binding.horizon, binding.working), ...binding });
    },
    async remove(companyId, facilityId, working, horizon) {
      table.delete(keys.liveBinding(companyId, facilityId, horizon, working));
      table.delete(keys.liveForecast(companyId, facilityId, horizon, working));
    },
    async forecastsOfFacility(companyId, facilityId) {
      const prefix = keys.liveForecastsOfFacility(companyId, facilityId);
      return table.query(prefix.PK, prefix.SKPrefix).map((item) => strip<StoredLiveForecast>(item)!);
    },
    async putForecast(forecast) {
      table.put({ ...keys.liveForecast(forecast.company, forecast.facility, forecast.horizon, forecast.working), ...forecast });
    },
  };
}

function ownFactors(table: MemoryTable): Repositories["ownFactors"] {
  return {
    async add(factor) {
      create(table, { ...keys.ownFactor(factor.company, factor.id), ...factor }, "Коэффициент с таким идентификатором уже существует");
    },
    async list(companyId) {
      const prefix = keys.ownFactorsOfCompany(companyId);
      return table.query(prefix.PK, prefix.SKPrefix).map((item) => strip<OwnFactor>(item)!);
    },
  };
}

function webhooks(table: MemoryTable): Repositories["webhooks"] {
  return {
    async create(hook) {
      create(table, { ...keys.webhook(hook.company, hook.id), ...hook }, "Вебхук с таким идентификатором уже существует");
    },
    async list(companyId) {
      const prefix = keys.webhooksOfCompany(companyId);
      return table.query(prefix.PK, prefix.SKPrefix).map((item) => strip<WebhookRecord>(item)!);
    },
    async get(companyId, id) {
      return strip<WebhookRecord>(table.get(keys.webhook(companyId, id)));
    },
    async remove(companyId, id) {
      table.delete(keys.webhook(companyId, id));
      for (const item of table.query(keys.webhookDeliveriesPk(companyId, id))) {
        const d = strip<WebhookDeliveryRecord>(item)!;
        if (d.state === "pending") table.delete(keys.webhookQueued(d.next_at, d.company, d.webhook, d.sort));
        table.delete(keys.webhookDelivery(companyId, id, d.sort));
      }
    },
    async createDelivery(delivery) {
      const key = keys.webhookDelivery(delivery.company, delivery.webhook, delivery.sort);
      if (table.get(key)) return false;
      table.put(queuedMark(delivery));
      return table.put({ ...key, ...delivery }, (stored) => stored === undefined);
    },
    async getDelivery(companyId, webhook, sort) {
      return strip<WebhookDeliveryRecord>(table.get(keys.webhookDelivery(companyId, webhook, sort)));
    },
    async updateDelivery(next, previous) {
      if (next.state === "pending" && next.next_at !== previous.next_at) table.put(queuedMark(next));
      const written = table.put(
        { ...keys.webhookDelivery(next.company, next.webhook, next.sort), ...next, version: previous.version + 1 },
        (stored) => stored !== undefined && stored.version === previous.version,
      );
      if (written && (next.state !== "pending" || next.next_at !== previous.next_at))
        table.delete(keys.webhookQueued(previous.next_at, previous.company, previous.webhook, previous.sort));
      return written;
    },
    async deliveries(companyId, webhook, limit) {
      return table
        .query(keys.webhookDeliveriesPk(companyId, webhook), "", true)
        .slice(0, limit)
        .map((item) => strip<WebhookDeliveryRecord>(item)!);
    },
    async due(now, limit, after) {
      const from = after ? keys.webhookQueued(after.next_at, after.company, after.webhook, after.sort).SK : "";
      return table
        .query(keys.WEBHOOK_QUEUE_PK)
        .filter((item) => String(item.SK) <= `${now}#\uffff` && String(item.SK) > from)
        .slice(0, limit)
        .map((item) => ({
          company: String(item.company),
          webhook: String(item.webhook),
          sort: String(item.sort),
          next_at: String(item.next_at),
        }));
    },
    async dropQueued(mark) {
      table.delete(keys.webhookQueued(mark.next_at, mark.company, mark.webhook, mark.sort));
    },
  };
}

function migrations(table: MemoryTable): Repositories["migrations"] {
  return {
    async isDone(companyId, name) {
      return table.get(keys.migration(companyId, name)) !== undefined;
    },
    async markDone(companyId, name, at) {
      table.put({ ...keys.migration(companyId, name), name, at });
    },
  };
}

function calculations(table: MemoryTable): Repositories["calculations"] {
  /** The inventory's write counter, taken before a write and given back when it is refused
   *  (adapters/dynamodb/calculation-repository.ts: read-your-writes for the kept sums). */
  const takeWrite = (companyId: string, by: 1 | -1) => {
    let writes = 0;
    table.update(keys.inventoryWrites(companyId), (stored) => {
      writes = num(stored?.writes) + by;
      return { ...stored, writes };
    });
    return writes;
  };
  const counted = async (companyId: string, write: (marks: CalculationMarks) => void, guard?: WriteGuard) => {
    const number = takeWrite(companyId, 1);
    let guarded: Awaited<WriteGuard>;
    try {
      guarded = await guard;
    } catch (error) {
      takeWrite(companyId, -1);
      throw error;
    }
    try {
      write({ inventory_write: number, inventory_year: guarded?.year });
    } catch (error) {
      if (error instanceof Conflict) takeWrite(companyId, -1);
      throw error;
    }
  };
  const ofCompany = (companyId: string) => {
    const prefix = keys.calculationsOfCompany(companyId);
    return table.query(prefix.PK, prefix.SKPrefix);
  };
  const ofList = (companyId: string, projectId: string, type: string, state: ProjectState, backward = false) =>
    wholeOnly(
      table
        .queryIndex(keys.calculationsIndex(companyId, projectId, type, state).GSI1PK, backward)
        .map((item) => strip<StoredCalculation>(item)!),
    );
  return {
    async create(calculation, guard) {
      await counted(calculation.company, (marks) => create(table, calculationItem(calculation, marks), CALCULATION_EXISTS), guard);
    },
    async get(companyId, type, calculationId) {
      return strip<StoredCalculation>(table.get(keys.calculation(companyId, type, calculationId)));
    },
    async firstOfProject(companyId, projectId, type, limit) {
      return ofList(companyId, projectId, type, "active").slice(0, limit);
    },
    async list(companyId, projectId, type, state, page) {
      const items = ofList(companyId, projectId, type, state, true);
      // The count as the DynamoDB adapter gives it, from the list count the stream keeps.
      const stored = num(table.get(keys.calculationListCount(companyId, projectId, type))?.[state]);
      const read = items.slice(page.offset, page.offset + page.limit + 1);
      return { results: read.slice(0, page.limit), count: listCount(page, read.length, stored) };
    },
    async listAllByProject(companyId, projectId, type, state) {
      return ofList(companyId, projectId, type, state);
    },
    async listStatesOfCompany(companyId) {
      return ofCompany(companyId).map((item) => ({
        project: String(item.project),
        type: String(item.type),
        is_deleted: item.is_deleted === true,
      }));
    },
    async listActiveByCompany(companyId) {
      return ofCompany(companyId)
        .filter((item) => item.is_deleted === false)
        .map((item) => {
          const { type, results, created_at, project, inventory_role } = item as unknown as StoredCalculation;
          return { type, results, created_at, project, ...(inventory_role === undefined ? {} : { inventory_role }) };
        });
    },
    async listOfCompanyByTypes(companyId, types) {
      return ofCompany(companyId)
        .filter((item) => item.is_deleted === false && types.includes(String(item.type)) && damageOf(item) === undefined)
        .map((item) => strip<StoredCalculation>(item)!);
    },
    async listWithoutPoint(companyId, types) {
      return ofCompany(companyId)
        .filter((item) => item.point === undefined && types.includes(String(item.type)) && damageOf(item) === undefined)
        .map((item) => strip<StoredCalculation>(item)!);
    },
    async listDamagedOfCompany(companyId) {
      return ofCompany(companyId).flatMap((item) => damagedCalculation(item) ?? []);
    },
    async blobKeysOfCompany(companyId) {
      return calculationBlobKeys(ofCompany(companyId));
    },
    async replace(next, expectedVersion, guard) {
      await counted(next.company, (marks) => versionedPut(table, calculationItem(next, marks), expectedVersion, STALE_CALCULATION), guard);
    },
  };
}

const LOCK: readonly string[] = keys.INVENTORY_LOCK_ATTRIBUTES;

function inventoryReviews(table: MemoryTable): Repositories["inventoryReviews"] {
  const CONFLICT = "Статус инвентаризации уже изменен другим пользователем. Обновите страницу и повторите.";
  const read = (item: Item | undefined): InventoryReview | undefined => {
    // An item holding only the lock's attributes is no review yet.
    if (!item?.status) return undefined;
    for (const name of LOCK) delete item[name];
    const review = strip<InventoryReview>(item)!;
    return review.changed_by ? { ...review, changed_by: [...review.changed_by].sort() } : review;
  };
  const streamEnded = (companyId: string, year: number) => num(table.get(keys.inventoryWrites(companyId))?.[keys.yearWritesEnded(year)]);
  const key = (companyId: string, year: number): Key => keys.inventoryReview(companyId, year);
  return {
    async get(companyId, year) {
      return read(table.get(key(companyId, year)));
    },
    async listOfCompany(companyId) {
      return table
        .query(key(companyId, 0).PK, "INVENTORY#")
        .filter((item) => item.status !== undefined)
        .map((item) => read(item)!);
    },
    async put(next, expectedVersion) {
      const written = table.update(key(next.company, next.year), (stored) => {
        if (expectedVersion === 0 ? stored?.version !== undefined && stored.version !== 0 : stored?.version !== expectedVersion)
          return false;
        // The review's fields are replaced; the lock's counts stay, and the hold ends with the review.
        const lock = Object.fromEntries(
          LOCK.filter((name) => name !== "held_at" && stored?.[name] !== undefined).map((name) => [name, stored![name]]),
        );
        const changed_by = next.changed_by?.length ? [...new Set(next.changed_by)].sort() : undefined;
        return { ...lock, ...next, changed_by };
      });
      if (!written) throw new Conflict(CONFLICT);
    },
    async beginWrite(companyId, year, email, now, staleBefore) {
      const frozen: readonly string[] = FROZEN_STATUSES;
      return table.update(key(companyId, year), (stored) => {
        if (stored?.status !== undefined && frozen.includes(String(stored.status))) return false;
        if (stored?.held_at !== undefined && !(String(stored.held_at) < staleBefore)) return false;
        // A year without a review gets its draft here (version 0, as one never stored reads).
        return {
          ...stored,
          company: stored?.company ?? companyId,
          year: stored?.year ?? year,
          status: stored?.status ?? "draft",
          history: stored?.history ?? [],
          comments: stored?.comments ?? [],
          updated_at: stored?.updated_at ?? now,
          version: stored?.version ?? 0,
          last_changed_by: email,
          last_begun_at: now,
          changed_by: [...new Set([...((stored?.changed_by as string[] | undefined) ?? []), email])].sort(),
          writes_begun: num(stored?.writes_begun) + 1,
        };
      });
    },
    async endWrite(companyId, year) {
      table.update(key(companyId, year), (stored) =>
        stored?.writes_begun === undefined ? false : { ...stored, writes_ended: num(stored.writes_ended) + 1 },
      );
    },
    async holdWrites(companyId, year, now, staleBefore) {
      return table.update(key(companyId, year), (stored) =>
        stored?.held_at !== undefined && !(String(stored.held_at) < staleBefore) ? false : { ...stored, held_at: now },
      );
    },
    async writeCounts(companyId, year) {
      const item = table.get(key(companyId, year)) ?? {};
      return {
        begun: num(item.writes_begun),
        ended: num(item.writes_ended) + streamEnded(companyId, year),
        ...(typeof item.last_begun_at === "string" ? { last_begun_at: item.last_begun_at } : {}),
      };
    },
    async settleAbandoned(companyId, year, begun) {
      const ended = begun - streamEnded(companyId, year);
      table.update(key(companyId, year), (stored) =>
        stored && stored.writes_begun === begun ? { ...stored, writes_ended: ended } : false,
      );
    },
    async releaseWrites(companyId, year) {
      // As DynamoDB's update, it leaves an item (its key alone) where there was none.
      table.update(key(companyId, year), (stored) => {
        const { held_at: _held, ...rest } = stored ?? {};
        return rest;
      });
    },
  };
}

function inventoryVersions(table: MemoryTable): Repositories["inventoryVersions"] {
  return {
    async create(version) {
      create(table, inventoryVersionItem(version), "Инвентаризацию уже утверждает другой пользователь. Обновите страницу и повторите.");
    },
    async get(companyId, year, version) {
      return strip<InventoryVersion>(table.get(keys.inventoryVersion(companyId, year, version)));
    },
    async list(companyId, year) {
      const prefix = keys.inventoryVersions(companyId, year);
      return table.query(prefix.PK, prefix.SKPrefix).map((item) => strip<InventoryVersion>(item)!);
    },
    async delete(companyId, year, version) {
      table.delete(keys.inventoryVersion(companyId, year, version));
    },
  };
}

function trendSettings(table: MemoryTable): Repositories["trendSettings"] {
  return {
    async get(companyId) {
      return strip<TrendSettings>(table.get(keys.trendSettings(companyId)));
    },
    async put(next, expectedVersion) {
      const written = table.update(keys.trendSettings(next.company), (stored) =>
        (expectedVersion === 0 ? stored === undefined : stored?.version === expectedVersion) ? { ...next } : false,
      );
      if (!written) throw new Conflict(TREND_SETTINGS_CONFLICT);
    },
  };
}

function inventoryComments(table: MemoryTable): Repositories["inventoryComments"] {
  const ofYear = (companyId: string, year: number) => {
    const prefix = keys.inventoryComments(companyId, year);
    return table.query(prefix.PK, prefix.SKPrefix, true);
  };
  return {
    async add(comment) {
      create(table, inventoryCommentItem(comment), "Комментарий с таким идентификатором уже существует");
    },
    async get(companyId, year, id) {
      return strip<InventoryComment>(table.get(keys.inventoryComment(companyId, year, id)));
    },
    async list(companyId, year, page) {
      const items = ofYear(companyId, year);
      return { results: pageOf(items, page).map((item) => strip<InventoryComment>(item)!), count: items.length };
    },
    async count(companyId, year) {
      return ofYear(companyId, year).length;
    },
    async remove(companyId, year, id) {
      if (!table.delete(keys.inventoryComment(companyId, year, id), (stored) => stored !== undefined))
        throw new NotFound("Комментарий не найден");
    },
  };
}

function dictionaries(table: MemoryTable): Repositories["dictionaries"] {
  const bump = () => table.update(keys.dictionariesVersion(), (stored) => ({ ...stored, counter: num(stored?.counter) + 1 }));
  const repository: DictionaryRepository = {
    async seed(items) {
      let count = 0;
      for (const item of items) {
        if (!table.put({ ...keys.dictionaryItem(item.dictionary, item.id), ...item }, (stored) => stored === undefined)) continue;
        table.put({ ...keys.dictionaryItemVersion(item.dictionary, item.id, item.version), ...item });
        count += 1;
      }
      if (count > 0) bump();
      return count;
    },
    async list(dictionary) {
      return table.query(keys.dictionaryItems(dictionary).PK).map((item) => strip<DictionaryItemVersion>(item)!);
    },
    forOneRequest: () => repository,
    changeCount: async () => num(table.get(keys.dictionariesVersion())?.counter),
    async get(dictionary, id) {
      return strip<DictionaryItemVersion>(table.get(keys.dictionaryItem(dictionary, id)));
    },
    async history(dictionary, id) {
      return table.query(keys.dictionaryItemVersions(dictionary, id).PK).map((item) => strip<DictionaryItemVersion>(item)!);
    },
    async versions(dictionary) {
      return (await repository.list(dictionary)).flatMap((item) =>
        table.query(keys.dictionaryItemVersions(dictionary, item.id).PK).map((version) => strip<DictionaryItemVersion>(version)!),
      );
    },
    async putVersion(next) {
      versionedPut(
        table,
        { ...keys.dictionaryItem(next.dictionary, next.id), ...next },
        next.version - 1,
        "Коэффициент уже изменен другим пользователем. Обновите страницу и повторите.",
      );
      table.put({ ...keys.dictionaryItemVersion(next.dictionary, next.id, next.version), ...next });
      bump();
    },
  };
  return repository;
}

function forecastModels(table: MemoryTable): Repositories["forecastModels"] {
  const get = async (method: string, id: string) => strip<ForecastModelVersion>(table.get(keys.forecastModel(method, id)));
  const list = async (method: string) => {
    const prefix = keys.forecastModels(method);
    return table
      .query(prefix.PK, prefix.SKPrefix)
      .map((item) => strip<ForecastModelVersion>(item)!)
      .sort((a, b) => a.version - b.version);
  };
  const set = (method: string, id: string, fields: Record<string, unknown>) => {
    if (!table.update(keys.forecastModel(method, id), (stored) => (stored ? { ...stored, ...fields } : false)))
      throw new Conflict("Модель не найдена");
  };
  return {
    list,
    get,
    async create(model) {
      create(
        table,
        { ...keys.forecastModelVersion(model.method, model.version), id: model.id },
        "Другая модель была загружена одновременно. Повторите загрузку.",
      );
      table.put({ ...keys.forecastModel(model.method, model.id), ...model });
    },
    async activate(method, id) {
      const chosen = await get(method, id);
      set(method, id, { is_active: true });
      // Only the versions of the same owner: a company's choice leaves the platform's and others' alone.
      for (const other of await list(method)) {
        if (other.id === id || !other.is_active || other.company !== chosen?.company) continue;
        set(method, other.id, { is_active: false });
      }
    },
    async update(method, id, change) {
      const fields = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
      if (Object.keys(fields).length === 0) return;
      set(method, id, fields);
    },
  };
}

function forecastCalibrations(table: MemoryTable): Repositories["forecastCalibrations"] {
  return {
    async get(modelId, scope) {
      return strip<ForecastCalibration>(table.get(keys.forecastCalibration(modelId, scope)));
    },
    async getFields(modelId, scope, fields) {
      const item = strip<ForecastCalibration>(table.get(keys.forecastCalibration(modelId, scope)));
      if (!item) return undefined;
      return Object.fromEntries(
        fields.filter((f) => f in item).map((f) => [f, item[f as keyof ForecastCalibration]]),
      ) as Partial<ForecastCalibration>;
    },
    async put(calibration) {
      table.put({ ...keys.forecastCalibration(calibration.model_id, calibration.scope), ...calibration });
    },
  };
}

function windowStart(windowSeconds: number, nowSeconds: number): number {
  const now = Math.floor(nowSeconds);
  return now - (now % windowSeconds);
}

function attempts(table: MemoryTable): Repositories["attempts"] {
  const count = (key: string, start: number) => num(table.get(keys.attemptWindow(key, start))?.attempts);
  return {
    async reserve(key, windowSeconds, limit) {
      const now = Date.now() / 1000;
      const start = windowStart(windowSeconds, now);
      const previous = count(key, start - windowSeconds);
      const room = limit - 1 - previous * (1 - (now - start) / windowSeconds);
      if (room < 0) return undefined;
      const reserved = table.update(keys.attemptWindow(key, start), (stored) =>
        stored?.attempts !== undefined && num(stored.attempts) > room
          ? false
          : { ...stored, attempts: num(stored?.attempts) + 1, expires_at: start + 2 * windowSeconds },
      );
      return reserved ? { key, windowStart: start } : undefined;
    },
    async retryAfterSeconds(key, windowSeconds, limit) {
      const now = Date.now() / 1000;
      const start = windowStart(windowSeconds, now);
      return secondsUntilRoom({ previous: count(key, start - windowSeconds), current: count(key, start), limit, windowSeconds, now });
    },
    async release({ key, windowStart: start }) {
      table.update(keys.attemptWindow(key, start), (stored) =>
        stored && num(stored.attempts) > 0 ? { ...stored, attempts: num(stored.attempts) - 1 } : false,
      );
    },
  };
}

function caps(table: MemoryTable): Repositories["caps"] {
  const add = (key: Key, limit: number, amount: number) =>
    table.update(key, (stored) =>
      stored && num(stored.taken) + amount <= limit ? { ...stored, taken: num(stored.taken) + amount } : false,
    );
  return {
    async take(companyId, name, limit, count, amount = 1) {
      const key = keys.cap(companyId, name);
      if (add(key, limit, amount)) return true;
      if (table.get(key)) return false;
      // A first counter starts from what exists (written once: of two writers at once, one counts,
      // the other finds it made).
      const taken = await count();
      table.put({ ...key, taken }, (stored) => stored === undefined);
      return add(key, limit, amount);
    },
    async give(companyId, name, amount = 1) {
      table.update(keys.cap(companyId, name), (stored) =>
        stored && num(stored.taken) >= amount ? { ...stored, taken: num(stored.taken) - amount } : false,
      );
    },
    async taken(companyId, name) {
      return num(table.get(keys.cap(companyId, name))?.taken);
    },
    async takeAmounts(companyId, name, amounts, limit, count) {
      const key = keys.cap(companyId, name);
      const entries = Object.entries(amounts);
      const over = entries.find(([, amount]) => amount > limit);
      if (over) return { key: over[0], held: 0 };
      if (!table.get(key)) {
        const counted = await count();
        table.put({ ...key, rev: 0, ...prefixed(counted) }, (stored) => stored === undefined);
      }
      let refused: { key: string; held: number } | undefined;
      table.update(key, (stored) => {
        const held = amountsOfItem(stored!);
        const found = entries.find(([k, amount]) => (held[k] ?? 0) + amount > limit);
        if (found) {
          refused = { key: found[0], held: held[found[0]] ?? 0 };
          return false;
        }
        for (const [k, amount] of entries) held[k] = (held[k] ?? 0) + amount;
        return { ...key, ...prefixed(held), rev: num(stored!.rev) + 1 };
      });
      return refused;
    },
    async giveAmounts(companyId, name, amounts) {
      const key = keys.cap(companyId, name);
      table.update(key, (stored) => {
        if (!stored) return false;
        const held = amountsOfItem(stored);
        for (const [k, amount] of Object.entries(amounts)) held[k] = (held[k] ?? 0) - amount;
        return { ...key, ...prefixed(held), rev: num(stored.rev) + 1 };
      });
    },
    async listAmounts(companyId, prefix) {
      return table
        .query(keys.cap(companyId, prefix).PK, prefix)
        .map((item) => ({ name: String(item.SK), amounts: amountsOfItem(item), rev: num(item.rev) }));
    },
    async setAmounts(companyId, name, amounts, rev) {
      const key = keys.cap(companyId, name);
      return table.put({ ...key, ...prefixed(amounts), rev: rev + 1 }, (stored) => num(stored?.rev) === rev && stored !== undefined);
    },
  };
}

/** A counter of amounts keeps each as an attribute `a:{key}`, as in DynamoDB. */
const prefixed = (amounts: Record<string, number>) => Object.fromEntries(Object.entries(amounts).map(([k, v]) => [`a:${k}`, v]));
const amountsOfItem = (item: Record<string, unknown>): Record<string, number> =>
  Object.fromEntries(Object.entries(item).flatMap(([name, value]) => (name.startsWith("a:") ? [[name.slice(2), num(value)]] : [])));

function exportJobs(table: MemoryTable): Repositories["exportJobs"] {
  const holder = async (companyId: string, digest: string) => {
    const job = table.get(keys.exportJobRequest(companyId, digest))?.job;
    return typeof job === "string" ? job : undefined;
  };
  return {
    holder,
    async claim(companyId, digest, job, replacing, expiresAt) {
      const claimed = table.put(
        { ...keys.exportJobRequest(companyId, digest), job, expires_at: expiresAt },
        (stored) => stored === undefined || (replacing !== undefined && stored.job === replacing),
      );
      return claimed ? job : ((await holder(companyId, digest)) ?? job);
    },
    async release(companyId, digest, job) {
      table.delete(keys.exportJobRequest(companyId, digest), (stored) => stored?.job === job);
    },
  };
}

function sessions(table: MemoryTable): Repositories["sessions"] {
  return {
    async start(session) {
      table.put({ ...keys.session(session.id), ...session });
    },
    async rotate(id, fromJti, toJti, nowSeconds, graceSeconds) {
      const key = keys.session(id);
      const rotated = table.update(key, (stored) =>
        stored && stored.current === fromJti && stored.revoked === undefined
          ? { ...stored, current: toJti, previous: fromJti, rotated_at: nowSeconds }
          : false,
      );
      if (rotated) return "rotated";
      const stored = strip<Session>(table.get(key));
      if (!stored || stored.revoked) return "unknown";
      if (stored.previous === fromJti && nowSeconds - (stored.rotated_at ?? 0) <= graceSeconds) return "just-rotated";
      table.update(key, (item) => ({ ...item, revoked: true }));
      return "reused";
    },
  };
}

/** A partition of versioned records read whole, where the DynamoDB adapter keeps it (adapters/dynamodb/items.ts,
 *  versionedPartition). */
function versionedPartition<T extends object, Id>(table: MemoryTable, at: VersionedPartition<T, Id>) {
  return {
    list: async () => table.query(at.pk).map((item) => strip<T>(item)!),
    get: async (id: Id) => strip<T>(table.get(at.key(id))),
    async put(next: T, expectedVersion: number) {
      versionedPut(table, { ...at.key(at.idOf(next)), ...next }, expectedVersion, at.conflict(next));
    },
  };
}

function media(table: MemoryTable): Repositories["media"] {
  return {
    async get(kind) {
      return strip<MediaItem>(table.get(keys.mediaItem(kind)));
    },
    async put(next, expectedVersion) {
      versionedPut(table, { ...keys.mediaItem(next.kind), ...next }, expectedVersion, STALE_MEDIA);
    },
  };
}

function adminAudit(table: MemoryTable): Repositories["adminAudit"] {
  const read = (pk: string, page: { limit: number; offset: number }) => {
    const items = table.query(pk, "", true);
    return { results: pageOf(items, page).map((item) => strip<AdminAuditEntry>(item)!), count: items.length };
  };
  return {
    async add(entry, company) {
      const CONFLICT = "Запись журнала с таким идентификатором уже существует";
      // before/after as given: any shape, empty strings and nulls kept exactly as they were.
      const stored = { ...entry, before: entry.before ?? null, after: entry.after ?? null };
      create(table, { ...keys.adminAuditEntry(entry.at, entry.id), ...stored }, CONFLICT);
      if (company) create(table, { ...keys.companyAuditEntry(company, entry.at, entry.id), ...stored }, CONFLICT);
    },
    list: async (page) => read(keys.ADMIN_AUDIT_PK, page),
    listCompany: async (company, page) => read(keys.companyAudit(company).PK, page),
  };
}

function auditTrail(table: MemoryTable): Repositories["auditTrail"] {
  return {
    async day(day) {
      return table.query(keys.auditDay(day).PK).map((item) => strip<AuditTrailEntry>(item)!);
    },
  };
}

/** Every repository port over `table`. */
export function memoryRepositories(table: MemoryTable): Repositories {
  return {
    companies: companies(table),
    users: users(table),
    projects: projects(table),
    statistics: memoryStatistics(table),
    adminAudit: adminAudit(table),
    auditTrail: auditTrail(table),
    documents: versionedPartition(table, DOCUMENTS),
    media: media(table),
    productionCalendar: versionedPartition(table, CALENDAR_YEARS),
    attempts: attempts(table),
    caps: caps(table),
    exportJobs: exportJobs(table),
    sessions: sessions(table),
    dictionaries: dictionaries(table),
    calculations: calculations(table),
    facilities: companyRecords(table, FACILITIES),
    emissionPoints: emissionPoints(table),
    sensors: sensors(table),
    gatewayKeys: gatewayKeys(table),
    monitoring: monitoring(table),
    sensorEvents: sensorEvents(table),
    gassings: companyRecords(table, GASSINGS),
    sensorChecks: sensorChecks(table),
    shiftRecords: shiftRecords(table),
    readingsAudit: readingsAudit(table),
    methaneLimits: {
      async list() {
        return table.query(keys.METHANE_LIMITS_PK, "EDITION#").map((item) => strip<StoredMethaneLimitEdition>(item)!);
      },
      async create(edition) {
        create(table, { ...keys.methaneLimitEdition(edition.valid_from), ...edition }, METHANE_LIMIT_EDITION_EXISTS);
      },
    },
    webhooks: webhooks(table),
    ownFactors: ownFactors(table),
    liveBindings: liveBindings(table),
    migrations: migrations(table),
    inventoryReviews: inventoryReviews(table),
    inventoryVersions: inventoryVersions(table),
    inventoryComments: inventoryComments(table),
    trendSettings: trendSettings(table),
    forecastModels: forecastModels(table),
    forecastCalibrations: forecastCalibrations(table),
    abatement: companyRecords(table, ASSESSMENTS),
    climateProjects: climateProjects(table),
    climateSignatures: climateSignatures(table),
    trustRoots: trustRoots(table),
  };
}
