// The single-table key layout: every PK, SK and GSI key of the product is built here and nowhere
// else. SCHEMA.md beside this file documents the items and their attributes. The tags are what is
// stored: the monitoring wing's keep `TELEMETRY#` (its old name) though the code says monitoring and
// readings, as a new tag would orphan every item written before (docs/architecture.md).
import { createHash } from "node:crypto";
import { normaliseEmail } from "../../domain/company/users";

export const GSI1 = "GSI1";

/** An item of the company's partition: its SK the parts joined by `#` (`SENSOR#{facility}#{sensor}`). */
const inCompany = (companyId: string, ...sk: (string | number)[]) => ({ PK: `COMPANY#${companyId}`, SK: sk.join("#") });
/** The company's items whose SK begins with the parts joined by `#`, and `#` (a Query's begins_with). */
const inCompanyPrefix = (companyId: string, ...sk: (string | number)[]) => ({ PK: `COMPANY#${companyId}`, SKPrefix: `${sk.join("#")}#` });

/** Company requisites. Get by id: GetItem(company(id)). All companies: Query GSI1 companiesIndex. */
export const company = (companyId: string) => inCompany(companyId, "COMPANY");
export const companiesIndex = () => ({ GSI1PK: "COMPANIES" });
export const companyInIndex = (name: string, companyId: string) => ({
  GSI1PK: "COMPANIES",
  GSI1SK: `${name.toLocaleLowerCase("ru")}#${companyId}`,
});

/** The company's statistics, one aggregate item per year (the year a project or calculation was
 *  created, which never changes): the stream handler ADDs the difference each change makes, so a
 *  write costs the same however much the company has. Read: Query PK = COMPANY#id, SK begins_with
 *  STATISTICS#YEAR#. They sit in the company's partition, so their own stream records must be
 *  skipped by the handler (isStatisticsItem), as must the legacy whole-company snapshot (SK
 *  STATISTICS) that a reconciliation removes. */
export const companyStatisticsYear = (companyId: string, year: string) => inCompany(companyId, "STATISTICS#YEAR", year);
export const companyStatisticsYears = (companyId: string) => inCompanyPrefix(companyId, "STATISTICS#YEAR");
export const legacyCompanyStatistics = (companyId: string) => inCompany(companyId, "STATISTICS");
export const isStatisticsItem = (sk: string) => sk.startsWith("STATISTICS");
/** How many calculations a project has of one type, active and archived (the `count` of its
 *  list), kept like the year aggregates: the stream handler ADDs each change's difference, so a
 *  list's count is one small read however many calculations the project has. Project ids and type
 *  names contain no `#`. Read: GetItem; all of a company's: Query SK begins_with STATISTICS#LIST#. */
export const calculationListCount = (companyId: string, projectId: string, type: string) =>
  inCompany(companyId, "STATISTICS#LIST", projectId, type);
export const calculationListCounts = (companyId: string) => inCompanyPrefix(companyId, "STATISTICS#LIST");
/** The inventory's write counters (domain/inventory/sums.ts; read-your-writes): `writes`, ADDed by
 *  every calculation write just before it is made, and `applied`, ADDed by the stream handler once
 *  that write's difference is in the sums. Equal, the sums hold every write made so far. */
export const inventoryWrites = (companyId: string) => inCompany(companyId, "STATISTICS#INVWRITES");
/** The attribute of inventoryWrites that counts a year's calculation writes the table's stream
 *  ended (D32: with the year review's own counts, the year lock's writes ended). */
export const yearWritesEnded = (year: number) => `year_writes_ended_${year}`;
/** A project's inventory sums, kept like the year aggregates. Read: Query SK begins_with
 *  STATISTICS#INVENTORY#. */
export const inventorySums = (companyId: string, projectId: string) => inCompany(companyId, "STATISTICS#INVENTORY", projectId);
export const inventorySumsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "STATISTICS#INVENTORY");
/** The last stream sequence number whose statistics difference was applied, per source item
 *  (GetItem by company and the item's SK): a redelivered record is recognised and skipped. Its own
 *  partition, so the company's partition does not double in size; skipped by the audit trail. */
export const statisticsApplied = (companyId: string, sourceSk: string) => ({
  PK: `STATSEQ#COMPANY#${companyId}`,
  SK: sourceSk,
});
/** Changes to these items (company partition, by SK prefix) change the company's statistics. */
export const STATISTICS_SOURCES = ["PROJECT#", "CALC#"];
/** The company id of a key in a company's partition; undefined for any other partition. */
export const companyOfPartition = (pk: string) => (pk.startsWith("COMPANY#") ? pk.slice("COMPANY#".length) : undefined);

/** A user lives in its company's partition: get by (company, user); list users of a company with
 *  Query PK = COMPANY#id, SK begins_with USER#. */
export const user = (companyId: string, userId: string) => inCompany(companyId, "USER", userId);
export const usersOfCompany = (companyId: string) => inCompanyPrefix(companyId, "USER");

/** Sign-in knows only the e-mail: this item maps the normalised e-mail to (company, user) and,
 *  written with attribute_not_exists, keeps e-mails unique without a transaction. */
export const emailLookup = (email: string) => ({ PK: `EMAIL#${normaliseEmail(email)}`, SK: "EMAIL" });

/** A facility (mine, open pit, processing plant) of a company: get by (company, facility); all of
 *  a company's: Query PK = COMPANY#id, SK begins_with FACILITY# (a company has a handful). */
export const facility = (companyId: string, facilityId: string) => inCompany(companyId, "FACILITY", facilityId);
export const facilitiesOfCompany = (companyId: string) => inCompanyPrefix(companyId, "FACILITY");
/** An abatement assessment (methodology section 11, D47): get by (company, id); a company's: Query SK
 *  begins_with ABATEMENT# (a handful per company, read whole). */
export const abatementAssessment = (companyId: string, id: string) => inCompany(companyId, "ABATEMENT", id);
export const abatementOfCompany = (companyId: string) => inCompanyPrefix(companyId, "ABATEMENT");
/** A climate project (methodology section 13, D67): get by (company, id); a company's: Query SK
 *  begins_with CLIMATEPROJECT# (a handful per company, read whole). */
export const climateProject = (companyId: string, id: string) => inCompany(companyId, "CLIMATEPROJECT", id);
export const climateProjectsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "CLIMATEPROJECT");
/** a gassing's registration by the dispatcher: get by (company, id); a company's: Query SK
 *  begins_with GASSING# (a few a month). In the company's partition, so the audit trail keeps each change. */
export const gassingRegistration = (companyId: string, id: string) => inCompany(companyId, "GASSING", id);
/** a confirmed edition of the permissible methane concentrations, platform-wide (no
 *  company's): all of them, Query PK = METHANELIMITS (a handful in a decade). */
export const methaneLimitEdition = (validFrom: string) => ({ PK: "METHANELIMITS", SK: `EDITION#${validFrom}` });
export const METHANE_LIMITS_PK = "METHANELIMITS";
export const gassingRegistrationsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "GASSING");
/** a sensor's check (D94), in the company's partition: SK SCHECK#{facility}#{id}, its id a UUID v7
 *  so a facility's sort by when they were written (a period's: SK BETWEEN). */
export const sensorCheck = (companyId: string, facilityId: string, id: string) => inCompany(companyId, "SCHECK", facilityId, id);
/** the facility's check intervals (one item). Not under SCHECK#{facility}#, so a listing of checks never reads it. */
export const checkIntervals = (companyId: string, facilityId: string) => inCompany(companyId, "SCHECKRULES", facilityId);
/** a sensor's verification (поверка), SK SVERIF#{facility}#{sensor}#{id}; a facility's: begins_with SVERIF#{facility}#. */
export const sensorVerification = (companyId: string, facilityId: string, sensorId: string, id: string) =>
  inCompany(companyId, "SVERIF", facilityId, sensorId, id);
export const sensorVerificationsOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "SVERIF", facilityId);
/** Every facility's verifications of the company (their certificate files' keys, for the orphan sweep). */
export const sensorVerificationsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "SVERIF");
/** a shift handover (D95), SK HANDOVER#{facility}#{id} (UUID v7: a period is SK BETWEEN). */
export const handover = (companyId: string, facilityId: string, id: string) => inCompany(companyId, "HANDOVER", facilityId, id);
export const handoversOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "HANDOVER", facilityId);
/** the АГК operator's signature of a shift's journal, SK JSIGN#{facility}#{ГГГГ-ММ-ДД}#{n}; a day's: begins_with. */
export const journalSignature = (companyId: string, facilityId: string, shift: string) =>
  inCompany(companyId, "JSIGN", facilityId, ...shift.split("#"));
export const journalSignaturesOfDay = (companyId: string, facilityId: string, date: string) =>
  inCompanyPrefix(companyId, "JSIGN", facilityId, date);
export const sensorChecksOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "SCHECK", facilityId);
/** what a check is written once under — `follows#{id}` (the check it follows: one follower) or
 *  `same#{SHA-256 of what it says}` (a check sent again is the one written) — naming the check's id; kept
 *  with it. Not under SCHECK#{facility}#, so a listing of checks never reads it. */
export const sensorCheckOnce = (companyId: string, facilityId: string, what: string) =>
  inCompany(companyId, "SCHECKONCE", facilityId, what);
/** the same for a sensor's verification (`same#{SHA-256}`). */
export const verificationOnce = (companyId: string, facilityId: string, what: string) =>
  inCompany(companyId, "SVERIFONCE", facilityId, what);
/** D105: a hand measurement, SK HANDMEAS#{facility}#{id} (UUID v7: a period is SK BETWEEN). */
export const handMeasurement = (companyId: string, facilityId: string, id: string) => inCompany(companyId, "HANDMEAS", facilityId, id);
export const handMeasurementsOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "HANDMEAS", facilityId);
/** D104: a cut-off not confirmed, SK CUTOFF#{facility}#{id} (a few a year: a facility's read whole). */
export const cutoffRecord = (companyId: string, facilityId: string, id: string) => inCompany(companyId, "CUTOFF", facilityId, id);
export const cutoffsOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "CUTOFF", facilityId);
/** the same for a shift handover (`corrects#{id}` or `same#{SHA-256}`). */
export const handoverOnce = (companyId: string, facilityId: string, what: string) => inCompany(companyId, "HANDOVERONCE", facilityId, what);
/** A monitoring period of a climate project (D69): its bounds and totals; its hours and figures are the
 *  blob `climate/{company}/{project}/{period}.json`. A project's: Query SK begins_with
 *  CLIMATEPERIOD#{project}# (a handful a year). */
export const climatePeriod = (companyId: string, project: string, id: string) => inCompany(companyId, "CLIMATEPERIOD", project, id);
export const climatePeriodsOfProject = (companyId: string, project: string) => inCompanyPrefix(companyId, "CLIMATEPERIOD", project);
/** A КЭП of a climate period: written once; a period's: Query SK begins_with
 *  CLIMATESIG#{project}#{period}# (a few, at most LIMITS.climate.signaturesPerPeriod). */
export const climateSignature = (companyId: string, project: string, period: string, id: string) =>
  inCompany(companyId, "CLIMATESIG", project, period, id);
/** a signature kept since is keyed by its place in the period (P000…P049), written only if
 *  the place is free, so the period's cap holds under uploads at once (the earlier ones keep their id). */
export const climateSignaturePlace = (companyId: string, project: string, period: string, place: number) =>
  climateSignature(companyId, project, period, `P${String(place).padStart(3, "0")}`);
export const climateSignaturesOfPeriod = (companyId: string, project: string, period: string) =>
  inCompanyPrefix(companyId, "CLIMATESIG", project, period);
/** The CA certificates an administrator loaded as КЭП trust anchors (platform-wide, at most
 *  LIMITS.climate.trustRoots): all with Query PK = TRUST_ROOTS_PK; one by its SHA-256. */
export const TRUST_ROOTS_PK = "CAROOTS";
export const trustRoot = (id: string) => ({ PK: TRUST_ROOTS_PK, SK: `ROOT#${id}` });
/** The hand-written fields of a period's report on implementation (13.4): one item a period. */
export const climateReportHand = (companyId: string, project: string, period: string) =>
  inCompany(companyId, "CLIMATEREPORT", project, period);
/** A request's hold on a project's periods while it checks them and writes one (no two overlapping
 *  periods stored by parallel requests): given back when the request ends, taken over once stale. */
export const climatePeriodsClaim = (companyId: string, project: string) => inCompany(companyId, "CLIMATECLAIM", project);
/** D25: an emission point of a facility: get by (company, facility, point); a facility's: Query SK
 *  begins_with POINT#{facility}#; a company's: SK begins_with POINT# (a handful per facility). Not
 *  under FACILITY#, so the facilities' prefix never reads them. */
export const emissionPoint = (companyId: string, facilityId: string, pointId: string) => inCompany(companyId, "POINT", facilityId, pointId);
export const pointsOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "POINT", facilityId);
export const pointsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "POINT");
/** D56: a sensor of a facility's monitoring register: get by (company, facility, sensor); a facility's:
 *  Query SK begins_with SENSOR#{facility}# (at most MAX_SENSORS_PER_FACILITY, read whole). */
export const sensor = (companyId: string, facilityId: string, sensorId: string) => inCompany(companyId, "SENSOR", facilityId, sensorId);
export const sensorsOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "SENSOR", facilityId);
/** a request's hold on a code of a facility's register while it stores a sensor of it
 *  (the code as compared, by its SHA-256: any characters, one length), given back when the request ends. */
export const sensorCodeClaim = (companyId: string, facilityId: string, code: string) =>
  inCompany(companyId, "SCODECLAIM", facilityId, createHash("sha256").update(code).digest("hex"));
/** The mark a write of the facility's register moves (a new id after each create, replace or remove of
 *  a sensor): a host keeps the register it read until it moves. In the facility's readings partition,
 *  so neither audited nor streamed. */
export const sensorRegisterStamp = (companyId: string, facilityId: string) => ({
  PK: `TELEMETRY#${companyId}#${facilityId}`,
  SK: "REGISTER",
});
/** A gateway key of a facility (its hash, label, when made and revoked): a facility's: Query SK
 *  begins_with GATEWAYKEY#{facility}#. */
export const gatewayKey = (companyId: string, facilityId: string, keyId: string) => inCompany(companyId, "GATEWAYKEY", facilityId, keyId);
export const gatewayKeysOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "GATEWAYKEY", facilityId);
/** A push knows only the key: this item maps its SHA-256 to (company, facility, key); removed on revoke. */
export const gatewayKeyLookup = (hash: string) => ({ PK: `GATEWAYKEY#${hash}`, SK: "GATEWAYKEY" });
/** D57: a pushed batch of readings (its state, counts, refused lines): get by (company, batch). */
/** a working's live forecast model at a horizon (horizon in three digits, so they sort). */
export const liveBinding = (companyId: string, facilityId: string, horizon: number, working: string) =>
  inCompany(companyId, "TLIVEMODEL", facilityId, String(horizon).padStart(3, "0"), working);
export const liveBindingsOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "TLIVEMODEL", facilityId);
/** The latest forecast of a working at a horizon (an earlier round's forecaster). */
export const liveForecast = (companyId: string, facilityId: string, horizon: number, working: string) =>
  inCompany(companyId, "TLIVEFORECAST", facilityId, String(horizon).padStart(3, "0"), working);
export const liveForecastsOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "TLIVEFORECAST", facilityId);
export const readingsBatch = (companyId: string, batchId: string) => inCompany(companyId, "TBATCH", batchId);
/** A push's readings kept in the table, packed (monitoring-repository.ts batchReadingsItem), beside its
 *  batch's item; under TBATCH# too, so unaudited as it is. */
export const readingsBatchReadings = (companyId: string, batchId: string) => inCompany(companyId, "TBATCH", batchId, "READINGS");
/** A set of sensors that batches' readings name by its key (a hash of their ids), stored once. */
export const readingsSensorSet = (companyId: string, key: string) => inCompany(companyId, "TBATCH", "SENSORS", key);
/** A batch's line in its facility's list of loads («Загрузки АГК»): the batch as
 *  it stands without its refused lines, written with its item each time that is; newest first by
 *  Query SK begins_with BATCH# backwards. In a readings partition: neither audited nor streamed. */
export const readingsBatchListed = (companyId: string, facilityId: string, receivedAt: string, batchId: string) => ({
  PK: `TELEMETRY#${companyId}#${facilityId}`,
  SK: `BATCH#${receivedAt}#${batchId}`,
});
export const readingsBatchesOfFacility = (companyId: string, facilityId: string) => ({
  PK: `TELEMETRY#${companyId}#${facilityId}`,
  SKPrefix: "BATCH#",
});
/** The queue of batches stored and not yet applied, oldest first: what a restart takes up again. */
export const READINGS_QUEUE_PK = "TQUEUE";
export const readingsQueued = (receivedAt: string, companyId: string, batchId: string) => ({
  PK: READINGS_QUEUE_PK,
  SK: `${receivedAt}#${companyId}#${batchId}`,
});
/** The demo mines' simulators (demo-readings.ts), one partition: the local server reads them all each
 *  quarter-minute. */
export const DEMO_FEED_PK = "DEMOFEED";
export const demoFeed = (companyId: string, facilityId: string) => ({ PK: DEMO_FEED_PK, SK: `${companyId}#${facilityId}` });
/** D63: a point's month accepted from the mine's readings: a facility's: Query SK begins_with TOFFER#{facility}#. */
export const offerAcceptance = (companyId: string, facilityId: string, pointId: string, month: string) =>
  inCompany(companyId, "TOFFER", facilityId, pointId, month);
/** the security review's R6: a request's claim on a point's month while it accepts it (apart from the acceptances'
 *  prefix, so a reader of them never sees one). */
export const offerClaim = (companyId: string, facilityId: string, pointId: string, month: string) =>
  inCompany(companyId, "TCLAIM", facilityId, pointId, month);
export const acceptancesOfFacility = (companyId: string, facilityId: string) => inCompanyPrefix(companyId, "TOFFER", facilityId);
/** D65: a facility's events, a partition per facility sorted by start: Query SK between two instants. */
export const sensorEvent = (companyId: string, facilityId: string, start: string, eventId: string) => ({
  PK: `TEVENTS#${companyId}#${facilityId}`,
  SK: `EV#${start}#${eventId}`,
});
export const sensorEventsOfFacility = (companyId: string, facilityId: string) => `TEVENTS#${companyId}#${facilityId}`;
/** D107: a company's own factor, kept from a typed value (ids are UUID v7, so the SK sorts by time):
 *  Query SK begins_with OWNFACTOR# for the company's. */
export const ownFactor = (companyId: string, id: string) => inCompany(companyId, "OWNFACTOR", id);
export const ownFactorsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "OWNFACTOR");
/** A company's webhook: Query SK begins_with WEBHOOK# for the company's. */
export const webhook = (companyId: string, id: string) => inCompany(companyId, "WEBHOOK", id);
export const webhooksOfCompany = (companyId: string) => inCompanyPrefix(companyId, "WEBHOOK");
/** A webhook's deliveries, one partition per webhook sorted by the event's start and the idempotency key. */
export const webhookDeliveriesPk = (companyId: string, webhookId: string) => `WHDELIV#${companyId}#${webhookId}`;
export const webhookDelivery = (companyId: string, webhookId: string, sort: string) => ({
  PK: webhookDeliveriesPk(companyId, webhookId),
  SK: sort,
});
/** Pending deliveries in the order they are due: what the sender takes up, after a restart too. */
export const WEBHOOK_QUEUE_PK = "WHQUEUE";
export const webhookQueued = (nextAt: string, companyId: string, webhookId: string, sort: string) => ({
  PK: WEBHOOK_QUEUE_PK,
  SK: `${nextAt}#${companyId}#${webhookId}#${sort}`,
});
/** A sensor's readings of one UTC day, packed: get by (company, sensor, yyyy-MM-dd); a partition per sensor. */
export const sensorDay = (companyId: string, sensorId: string, day: string) => ({
  PK: `TELEMETRY#${companyId}#${sensorId}`,
  SK: `DAY#${day}`,
});
/** a facility's readings of one UTC minute of an open day: a partition per facility and day,
 *  so a window of minutes is one Query (SK between two minutes). */
export const facilityMinutesOfDay = (companyId: string, facilityId: string, day: string) => `TELEMETRY#${companyId}#${facilityId}#${day}`;
export const facilityMinute = (companyId: string, facilityId: string, day: string, minute: string) => ({
  PK: facilityMinutesOfDay(companyId, facilityId, day),
  SK: `MIN#${minute}`,
});
/** a facility's log of its latest minute writes (minutes/minute-window.ts), one small item. */
export const minutesHead = (companyId: string, facilityId: string) => ({
  PK: `TELEMETRY#${companyId}#${facilityId}`,
  SK: "HEAD",
});
/** a facility's sensors' heads, what its live tiles read (live/live-head.ts), one item. */
export const liveHead = (companyId: string, facilityId: string) => ({
  PK: `TELEMETRY#${companyId}#${facilityId}`,
  SK: "LIVEHEAD",
});
/** a bound working's kept minute means, what its forecasts read (live/forecast-means.ts). */
export const forecastMeans = (companyId: string, facilityId: string, working: string) => ({
  PK: `TELEMETRY#${companyId}#${facilityId}`,
  SK: `LIVEMEANS#${working}`,
});
/** an earlier round's upgrade: the mark that a facility's open day has had the day items written before it
 *  moved into its minutes (in the day's minutes partition, beside them; expires_at some days after). */
export const openDayMoved = (companyId: string, facilityId: string, day: string) => ({
  PK: facilityMinutesOfDay(companyId, facilityId, day),
  SK: "MOVED",
});
/** The mark that a facility's minutes of a day are compacted into its sensors' days (in the day's
 *  minutes partition, sorted before them: hasMinutes reads it or the first minute in one Query); the
 *  minutes themselves wait for their expiry (expires_at, DynamoDB's TTL). */
export const minutesCompacted = (companyId: string, facilityId: string, day: string) => ({
  PK: facilityMinutesOfDay(companyId, facilityId, day),
  SK: "COMPACTED",
});
/** A one-time change of the company's stored data, done (functions/src/domain/company/emission-points-migration.ts). */
export const migration = (companyId: string, name: string) => inCompany(companyId, "MIGRATION", name);

/** The review of a company's inventory of one reporting year (status, history, frozen
 *  calculations, comments): get by (company, year). */
export const inventoryReview = (companyId: string, year: number) => inCompany(companyId, "INVENTORY", year);
/** The year's lock on its review item (D32, inventory-review-repository.ts): counts, not the review;
 *  a change of these alone is not audited. */
export const INVENTORY_LOCK_ATTRIBUTES = ["writes_begun", "writes_ended", "last_begun_at", "held_at"] as const;
/** D20: an approved version of a year's inventory (its hash; the snapshot is a blob): get by
 *  (company, year, version); a year's versions: Query SK begins_with INVVERSION#{yyyy}#. Not under
 *  INVENTORY#, so the reviews' prefix never reads them. */
export const inventoryVersion = (companyId: string, year: number, version: number) =>
  inCompany(companyId, "INVVERSION", year, String(version).padStart(6, "0"));
export const inventoryVersions = (companyId: string, year: number) => inCompanyPrefix(companyId, "INVVERSION", year);

/** A comment on a company's inventory of one year, an item of its own (ids are UUID v7, so the SK
 *  sorts by time): get/delete by (company, year, id); a year's, newest first: Query PK = COMPANY#id,
 *  SK begins_with INVENTORY#{yyyy}#COMMENT#, ScanIndexForward false. */
export const inventoryComment = (companyId: string, year: number, id: string) => ({
  PK: `COMPANY#${companyId}`,
  SK: `INVENTORY#${year}#COMMENT#${id}`,
});
export const inventoryComments = (companyId: string, year: number) => ({
  PK: `COMPANY#${companyId}`,
  SKPrefix: `INVENTORY#${year}#COMMENT#`,
});

/** The company's base year, significance threshold and reduction targets, one item: get and put by company. */
export const trendSettings = (companyId: string) => inCompany(companyId, "TREND");

/** A project: get by (company, project). Lists by company and state, newest first:
 *  Query GSI1 PK = projectsIndex(company, state), ScanIndexForward false. Archiving moves the
 *  item to the other index partition by rewriting GSI1PK. */
export const project = (companyId: string, projectId: string) => inCompany(companyId, "PROJECT", projectId);
/** D25: the project's lock on its facility (project-repository.ts): calculation writes naming a point
 *  of the facility counted begun and ended, and when the last began; a change of these alone is not
 *  audited, and a project write keeps them. */
export const PROJECT_POINT_LOCK_ATTRIBUTES = ["point_writes_begun", "point_writes_ended", "point_write_at"] as const;
/** Every lock's attributes: a change of these alone changes no data (the audit and the local
 *  stream skip it). */
export const LOCK_ATTRIBUTES: readonly string[] = [...INVENTORY_LOCK_ATTRIBUTES, ...PROJECT_POINT_LOCK_ATTRIBUTES];
export const projectsIndex = (companyId: string, state: "active" | "archived") => ({
  GSI1PK: `COMPANY#${companyId}#PROJECTS#${state}`,
});
export const projectInIndex = (companyId: string, state: "active" | "archived", createdAt: string, projectId: string) => ({
  ...projectsIndex(companyId, state),
  GSI1SK: `${createdAt}#${projectId}`,
});

/** A calculation lives in its company's partition under its type: get by (company, type, id);
 *  all of a company's calculations: Query PK = COMPANY#id, SK begins_with CALC#. A project's
 *  calculations of one type and state, newest first: Query GSI1 calculationsIndex. */
export const calculation = (companyId: string, type: string, calculationId: string) => inCompany(companyId, "CALC", type, calculationId);
export const calculationsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "CALC");
export const calculationsIndex = (companyId: string, projectId: string, type: string, state: "active" | "archived") => ({
  GSI1PK: `COMPANY#${companyId}#PROJECT#${projectId}#CALC#${type}#${state}`,
});
export const calculationInIndex = (
  companyId: string,
  projectId: string,
  type: string,
  state: "active" | "archived",
  createdAt: string,
  calculationId: string,
) => ({ ...calculationsIndex(companyId, projectId, type, state), GSI1SK: `${createdAt}#${calculationId}` });

/** Reference dictionaries (platform-wide). Current items: Query PK = DICT#name (sorted by id);
 *  every version of an item: Query PK = DICT#name#ITEM#id (sorted by version). */
export const dictionaryItem = (dictionary: string, id: number) => ({
  PK: `DICT#${dictionary}`,
  SK: `ITEM#${String(id).padStart(6, "0")}`,
});
export const dictionaryItems = (dictionary: string) => ({ PK: `DICT#${dictionary}` });
export const dictionaryItemVersion = (dictionary: string, id: number, version: number) => ({
  PK: `DICT#${dictionary}#ITEM#${String(id).padStart(6, "0")}`,
  SK: `V#${String(version).padStart(6, "0")}`,
});
export const dictionaryItemVersions = (dictionary: string, id: number) => ({
  PK: `DICT#${dictionary}#ITEM#${String(id).padStart(6, "0")}`,
});
/** A counter bumped after every change of any dictionary item: a process keeps the dictionaries
 *  it read while the counter is unchanged (dictionary-repository.ts). */
export const dictionariesVersion = () => ({ PK: "DICTVERSION", SK: "DICTVERSION" });

/** Forecast model versions per method (platform-wide): Query PK = MODEL#method; the version
 *  number is part of a second, conditionally written item so two uploads cannot share it. */
export const forecastModel = (method: string, id: string) => ({ PK: `MODEL#${method}`, SK: `ID#${id}` });
export const forecastModels = (method: string) => ({ PK: `MODEL#${method}`, SKPrefix: "ID#" });
export const forecastModelVersion = (method: string, version: number) => ({
  PK: `MODEL#${method}`,
  SK: `VERSION#${String(version).padStart(6, "0")}`,
});

/** A model version's calibration per scope (a company id or ALL): GetItem by (model id, scope).
 *  Outside the company's partition: the statistics never take it for a change of the company's data. */
export const forecastCalibration = (modelId: string, scope: string) => ({
  PK: `CALIBRATION#MODEL#${modelId}`,
  SK: scope === "all" ? "ALL" : `COMPANY#${scope}`,
});

/** A sign-in's refresh-token chain, by its id (the tokens' `fam` claim); expired by TTL `expires_at`. */
export const session = (id: string) => ({ PK: `SESSION#${id}`, SK: "SESSION" });

/** Fixed-window attempt counters (login throttling; two windows make a sliding one), expired by
 *  TTL attribute `expires_at`. */
export const attemptWindow = (key: string, windowStart: number) => ({
  PK: `ATTEMPTS#${key}`,
  SK: `WINDOW#${windowStart}`,
});

/** A cap's counter (ports/counters.ts, CapCounter): how many of the things it bounds a company has, `name`
 *  saying which (`FORECASTS#PROJECT#{id}`, `COMMENTS#YEAR#{yyyy}`). Outside the company's
 *  partition, so neither the statistics nor the audit trail take it for a change of data. */
export const cap = (companyId: string, name: string) => ({ PK: `CAP#COMPANY#${companyId}`, SK: name });

/** The job that renders an export or passport request of a company (domain/export-jobs.ts), by
 *  the request's digest; expired by TTL `expires_at` with the job's files. */
export const exportJobRequest = (companyId: string, digest: string) => ({ PK: `JOBREQ#COMPANY#${companyId}`, SK: digest });

/** Audit trail written by the DynamoDB-stream handler, one item per changed item: the changes of a
 *  day, in order, are Query PK = auditDay(day). The event id makes a redelivered record land on
 *  the same key, so a conditional put writes it once. */
export const auditDay = (day: string) => ({ PK: `AUDIT#${day}` });
export const auditEntry = (at: string, eventId: string) => ({
  PK: `AUDIT#${at.slice(0, 10)}`,
  SK: `${at}#${eventId}`,
});
/** Items the audit trail skips: its own, the login-throttling counters, the statistics markers,
 *  the caps' counters, the export jobs' requests and the dictionaries' change counter (the changed item itself is audited),
 *  the mine's readings and the events its detector finds in them (an acknowledgement keeps who and when on the event). */
export const UNAUDITED_PREFIXES = [
  "AUDIT#",
  "ATTEMPTS#",
  "STATSEQ#",
  "CAP#",
  "JOBREQ#",
  "DICTVERSION",
  "TELEMETRY#",
  "TQUEUE",
  "TEVENTS#",
  "WHDELIV#",
  "WHQUEUE",
  "DEMOFEED",
];
/** A pushed batch's item (readingsBatch), in its company's partition but of the mine's readings as its
 *  line in the list of loads is: unaudited too (in AWS its audit entries were two write units and two
 *  records for the stream's function a push, naming no one). */
const READINGS_BATCH_PREFIX = "TBATCH#";
/** Whether the stream's handler (events/table-changes.ts) reads nothing of an item's records: the
 *  audit skips the item, and the statistics count none of it (they count a company's projects and
 *  calculations, and none of these partitions is a company's, nor a statistics item a source). The
 *  local host makes no stream record of such an item's writes at all (local/table-stream.ts): a
 *  year of readings would otherwise be handed over image by image, and every calculation write
 *  hand over a cap counter's images (the project's lines it takes) that the handler drops. */
export const unreadByStream = (pk: string, sk: string) =>
  UNAUDITED_PREFIXES.some((prefix) => pk.startsWith(prefix)) || isStatisticsItem(sk) || sk.startsWith(READINGS_BATCH_PREFIX);
/** A modification of these attributes alone (a lock's counts and hold) changes no data: the audit
 *  skips it, the statistics read none of them, and the local host makes no record of it. */
export const onlyLocksChanged = (changed: readonly string[]) => changed.every((name) => LOCK_ATTRIBUTES.includes(name));

/** The /admin change log (who, when, action, target, before/after): one partition, newest first by
 *  Query PK = ADMIN_AUDIT_PK with ScanIndexForward false. Admin changes are rare, so one partition
 *  is no hot key. It starts with AUDIT#, so the stream handler skips it like its own trail; no date
 *  (AUDIT#yyyy-MM-dd) can equal it. */
export const ADMIN_AUDIT_PK = "AUDIT#ADMIN";
export const adminAuditEntry = (at: string, id: string) => ({ PK: ADMIN_AUDIT_PK, SK: `${at}#${id}` });
/** The same entry again for a change of a company's own requisites or facilities, so the company's
 *  reviewers read only theirs: Query PK = companyAudit(company).PK, ScanIndexForward false. Starts
 *  with AUDIT# (skipped by the stream handler); neither a date nor ADMIN can equal it. */
export const companyAudit = (company: string) => ({ PK: `AUDIT#COMPANY#${company}` });
export const companyAuditEntry = (company: string, at: string, id: string) => ({ ...companyAudit(company), SK: `${at}#${id}` });

/** Normative documents (platform-wide, a few dozen): get by id, all with Query PK = DOCUMENTS. */
export const DOCUMENTS_PK = "DOCUMENTS";
export const normativeDocument = (id: string) => ({ PK: DOCUMENTS_PK, SK: `DOC#${id}` });

/** The production calendar (platform-wide, a year per item): get by year, all with Query PK =
 *  PRODUCTION_CALENDAR_PK (sorted by year: four digits). */
export const PRODUCTION_CALENDAR_PK = "CALENDAR";
export const calendarYear = (year: number) => ({ PK: PRODUCTION_CALENDAR_PK, SK: `YEAR#${year}` });

/** Settings videos (platform-wide), one item per kind (instruction, presentation). */
export const mediaItem = (kind: string) => ({ PK: "MEDIA", SK: `KIND#${kind}` });

/** All projects of a company, both states, by the main key (moving a user checks what they created):
 *  Query PK = COMPANY#id, SK begins_with PROJECT#. */
export const projectsOfCompany = (companyId: string) => inCompanyPrefix(companyId, "PROJECT");
