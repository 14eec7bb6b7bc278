// Every repository the app is wired with.
import type { CompanyRepository } from "./company";
import type { UserRepository } from "./user";
import type { ProjectRepository } from "./project";
import type { EmissionPointRepository, FacilityRepository } from "./facility";
import type { AbatementRepository } from "./abatement";
import type { ClimateProjectRepository } from "./climate";
import type { ClimateSignatureRepository, TrustRootRepository } from "./gost-signatures";
import type { MigrationRepository } from "./migration";
import type { SensorCheckRepository } from "./instruments";
import type { ShiftRecordRepository } from "./shift-records";
import type { ReadingsAuditRepository } from "./readings-audit";
import type {
  InventoryCommentRepository,
  InventoryReviewRepository,
  InventoryVersionRepository,
  TrendSettingsRepository,
} from "./inventory";
import type { StatisticsRepository } from "./statistics";
import type { CalculationRepository } from "./calculation";
import type { ForecastCalibrationRepository, ForecastModelRepository } from "./forecast";
import type { DictionaryRepository } from "./dictionary";
import type { SessionRepository } from "./session";
import type { AttemptCounter, CapCounter } from "./counters";
import type { ExportJobRequests } from "./export-jobs";
import type { AdminAuditRepository, AuditTrailRepository } from "./audit";
import type { DocumentRepository } from "./documents";
import type { ProductionCalendarRepository } from "./production-calendar";
import type { MediaRepository } from "./media";
import type { WebhookRepository } from "./webhooks";
import type { OwnFactorRepository } from "./own-factors";
import type {
  GassingRegistrationRepository,
  MethaneLimitEditionRepository,
  GatewayKeyRepository,
  LiveBindingRepository,
  SensorRepository,
  SensorEventRepository,
  MonitoringRepository,
} from "./monitoring";

export interface Repositories {
  companies: CompanyRepository;
  users: UserRepository;
  projects: ProjectRepository;
  statistics: StatisticsRepository;
  adminAudit: AdminAuditRepository;
  auditTrail: AuditTrailRepository;
  documents: DocumentRepository;
  media: MediaRepository;
  productionCalendar: ProductionCalendarRepository;
  attempts: AttemptCounter;
  caps: CapCounter;
  exportJobs: ExportJobRequests;
  sessions: SessionRepository;
  dictionaries: DictionaryRepository;
  calculations: CalculationRepository;
  facilities: FacilityRepository;
  emissionPoints: EmissionPointRepository;
  sensors: SensorRepository;
  gatewayKeys: GatewayKeyRepository;
  monitoring: MonitoringRepository;
  sensorEvents: SensorEventRepository;
  /** the dispatcher's registrations of gassings. */
  gassings: GassingRegistrationRepository;
  /** the sensors' checks (the maintenance journal, D94). */
  sensorChecks: SensorCheckRepository;
  /** The shift handovers and the journal's signatures of a shift (D95). */
  shiftRecords: ShiftRecordRepository;
  /** The cut-offs not confirmed by the run channel and the hand measurements (D104, D105). */
  readingsAudit: ReadingsAuditRepository;
  /** the confirmed editions of the permissible methane concentrations (platform-wide). */
  methaneLimits: MethaneLimitEditionRepository;
  webhooks: WebhookRepository;
  /** D107: the company's own factors, kept from typed values. */
  ownFactors: OwnFactorRepository;
  liveBindings: LiveBindingRepository;
  migrations: MigrationRepository;
  inventoryReviews: InventoryReviewRepository;
  inventoryVersions: InventoryVersionRepository;
  inventoryComments: InventoryCommentRepository;
  trendSettings: TrendSettingsRepository;
  forecastModels: ForecastModelRepository;
  forecastCalibrations: ForecastCalibrationRepository;
  abatement: AbatementRepository;
  climateProjects: ClimateProjectRepository;
  /** the КЭП of climate periods, and the CA certificates they are checked against. */
  climateSignatures: ClimateSignatureRepository;
  trustRoots: TrustRootRepository;
}
