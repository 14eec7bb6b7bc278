// DynamoDB implementations of the repository ports, one file per repository; keys come from
// keys.ts only and the shared reading and writing helpers from items.ts.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Repositories } from "../../ports";
import { dynamoAbatement } from "./abatement-repository";
import { dynamoGassings, dynamoMethaneLimits } from "./gassing-repository";
import { dynamoSensorChecks } from "./sensor-check-repository";
import { dynamoShiftRecords } from "./shift-record-repository";
import { dynamoReadingsAudit } from "./readings-audit-repository";
import { dynamoClimateProjects } from "./climate-project-repository";
import { dynamoClimateSignatures, dynamoTrustRoots } from "./climate-signature-repository";
import { dynamoAdminAudit } from "./admin-audit-repository";
import { dynamoAttempts } from "./attempt-counter";
import { dynamoCaps } from "./cap-counter";
import { dynamoExportJobRequests } from "./export-job-requests";
import { dynamoAuditTrail } from "./audit-trail-repository";
import { dynamoCalculations } from "./calculation-repository";
import { dynamoCompanies } from "./company-repository";
import { dynamoDictionaries } from "./dictionary-repository";
import { dynamoDocuments } from "./document-repository";
import { dynamoEmissionPoints, dynamoMigrations } from "./emission-point-repository";
import { dynamoFacilities } from "./facility-repository";
import { dynamoGatewayKeys, dynamoSensors } from "./sensor-repository";
import { dynamoLiveBindings, dynamoMonitoring, dynamoSensorEvents } from "./monitoring-repository";
import { dynamoWebhooks } from "./webhook-repository";
import { dynamoInventoryReviews } from "./inventory-review-repository";
import { dynamoInventoryVersions } from "./inventory-version-repository";
import { dynamoInventoryComments } from "./inventory-comment-repository";
import { dynamoOwnFactors } from "./own-factor-repository";
import { dynamoTrendSettings } from "./trend-settings-repository";
import { dynamoForecastCalibrations, dynamoForecastModels } from "./forecast-model-repository";
import { dynamoMedia } from "./media-repository";
import { dynamoProductionCalendar } from "./production-calendar-repository";
import { dynamoProjects } from "./project-repository";
import { dynamoSessions } from "./session-repository";
import { dynamoStatistics } from "./statistics";
import { dynamoUsers } from "./user-repository";

export function dynamoRepositories(doc: DynamoDBDocumentClient, table: string): Repositories {
  return {
    companies: dynamoCompanies(doc, table),
    users: dynamoUsers(doc, table),
    projects: dynamoProjects(doc, table),
    statistics: dynamoStatistics(doc, table),
    auditTrail: dynamoAuditTrail(doc, table),
    attempts: dynamoAttempts(doc, table),
    caps: dynamoCaps(doc, table),
    exportJobs: dynamoExportJobRequests(doc, table),
    sessions: dynamoSessions(doc, table),
    dictionaries: dynamoDictionaries(doc, table),
    calculations: dynamoCalculations(doc, table),
    facilities: dynamoFacilities(doc, table),
    emissionPoints: dynamoEmissionPoints(doc, table),
    sensors: dynamoSensors(doc, table),
    gatewayKeys: dynamoGatewayKeys(doc, table),
    monitoring: dynamoMonitoring(doc, table),
    sensorEvents: dynamoSensorEvents(doc, table),
    gassings: dynamoGassings(doc, table),
    sensorChecks: dynamoSensorChecks(doc, table),
    shiftRecords: dynamoShiftRecords(doc, table),
    readingsAudit: dynamoReadingsAudit(doc, table),
    methaneLimits: dynamoMethaneLimits(doc, table),
    webhooks: dynamoWebhooks(doc, table),
    ownFactors: dynamoOwnFactors(doc, table),
    liveBindings: dynamoLiveBindings(doc, table),
    migrations: dynamoMigrations(doc, table),
    inventoryReviews: dynamoInventoryReviews(doc, table),
    inventoryVersions: dynamoInventoryVersions(doc, table),
    inventoryComments: dynamoInventoryComments(doc, table),
    trendSettings: dynamoTrendSettings(doc, table),
    forecastModels: dynamoForecastModels(doc, table),
    forecastCalibrations: dynamoForecastCalibrations(doc, table),
    adminAudit: dynamoAdminAudit(doc, table),
    documents: dynamoDocuments(doc, table),
    media: dynamoMedia(doc, table),
    productionCalendar: dynamoProductionCalendar(doc, table),
    abatement: dynamoAbatement(doc, table),
    climateProjects: dynamoClimateProjects(doc, table),
    climateSignatures: dynamoClimateSignatures(doc, table),
    trustRoots: dynamoTrustRoots(doc, table),
  };
}
