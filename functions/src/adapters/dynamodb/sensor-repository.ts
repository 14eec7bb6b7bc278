// A facility's sensor register (keys.sensor, D56) and its gateway keys (keys.gatewayKey with the lookup of
// each key's hash, keys.gatewayKeyLookup): a few dozen to a few hundred per facility, read whole.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { GatewayKey, GatewayKeyRepository, Sensor, SensorRepository } from "../../ports";
import { NotFound } from "../../domain/errors";
import { newId } from "../../domain/ids";
import * as keys from "./keys";
import { conditional, releaseClaim, takeClaim } from "./conditions";
import { gatewayKeyItem, getItem, putNew, queryPrefix, sensorItem, stripAll, versionedPut } from "./items";

export const SENSOR_CONFLICT = "Датчик был изменен другим пользователем. Обновите страницу и повторите.";
export const SENSOR_EXISTS = "Датчик с таким идентификатором уже существует";
export const GATEWAY_KEY_EXISTS = "Ключ шлюза с таким идентификатором уже существует";
export const GATEWAY_KEY_MISSING = "Ключ шлюза не найден";
export const byCode = (a: Sensor, b: Sensor) => a.code.localeCompare(b.code, "ru") || a.id.localeCompare(b.id);
export const newestFirst = (a: GatewayKey, b: GatewayKey) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

export function dynamoSensors(doc: DynamoDBDocumentClient, table: string): SensorRepository {
  // Moved after the write, never before: a host that reads the mark and then the register never keeps
  // a register older than the mark it read.
  const moveStamp = (companyId: string, facilityId: string) =>
    doc.send(new PutCommand({ TableName: table, Item: { ...keys.sensorRegisterStamp(companyId, facilityId), stamp: newId() } }));
  return {
    async create(sensor) {
      await putNew(doc, table, sensorItem(sensor), SENSOR_EXISTS);
      await moveStamp(sensor.company, sensor.facility);
    },
    get: (companyId, facilityId, sensorId) => getItem<Sensor>(doc, table, keys.sensor(companyId, facilityId, sensorId)),
    async listOfFacility(companyId, facilityId) {
      const items = await queryPrefix(doc, table, keys.sensorsOfFacility(companyId, facilityId), { consistentRead: true });
      return stripAll<Sensor>(items).sort(byCode);
    },
    async replace(next, expectedVersion) {
      await versionedPut(doc, table, sensorItem(next), expectedVersion, SENSOR_CONFLICT);
      await moveStamp(next.company, next.facility);
    },
    async remove(companyId, facilityId, sensorId) {
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.sensor(companyId, facilityId, sensorId) }));
      await moveStamp(companyId, facilityId);
    },
    async registerStamp(companyId, facilityId) {
      const item = await getItem<{ stamp: string }>(doc, table, keys.sensorRegisterStamp(companyId, facilityId), { consistentRead: true });
      return item?.stamp;
    },
    claimCode(claim, staleBefore) {
      return takeClaim(doc, table, keys.sensorCodeClaim(claim.company, claim.facility, claim.code), claim, staleBefore);
    },
    releaseCode(claim) {
      return releaseClaim(doc, table, keys.sensorCodeClaim(claim.company, claim.facility, claim.code), claim);
    },
  };
}

export function dynamoGatewayKeys(doc: DynamoDBDocumentClient, table: string): GatewayKeyRepository {
  return {
    async create(key) {
      const lookup = keys.gatewayKeyLookup(key.hash);
      await putNew(doc, table, { ...lookup, company: key.company, facility: key.facility, id: key.id }, GATEWAY_KEY_EXISTS);
      try {
        await putNew(doc, table, gatewayKeyItem(key), GATEWAY_KEY_EXISTS);
      } catch (error) {
        await doc.send(new DeleteCommand({ TableName: table, Key: lookup }));
        throw error;
      }
    },
    async listOfFacility(companyId, facilityId) {
      const items = await queryPrefix(doc, table, keys.gatewayKeysOfFacility(companyId, facilityId), { consistentRead: true });
      return stripAll<GatewayKey>(items).sort(newestFirst);
    },
    get: (companyId, facilityId, keyId) => getItem<GatewayKey>(doc, table, keys.gatewayKey(companyId, facilityId, keyId)),
    async revoke(companyId, facilityId, keyId, at) {
      const stored = await getItem<GatewayKey>(doc, table, keys.gatewayKey(companyId, facilityId, keyId));
      if (!stored) throw new NotFound(GATEWAY_KEY_MISSING);
      // The lookup goes first: from then on the key authenticates nothing, whatever follows.
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.gatewayKeyLookup(stored.hash) }));
      await conditional(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.gatewayKey(companyId, facilityId, keyId),
            UpdateExpression: "SET revoked_at = :at",
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeValues: { ":at": at },
          }),
        ),
        GATEWAY_KEY_MISSING,
      );
    },
    async byHash(hash) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.gatewayKeyLookup(hash), ConsistentRead: true }));
      const item = out.Item;
      if (!item) return undefined;
      return { company: String(item.company), facility: String(item.facility), id: String(item.id) };
    },
  };
}
