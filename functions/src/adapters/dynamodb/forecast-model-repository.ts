// Forecast models (keys.forecastModel) and the version numbers that keep their order.
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ForecastCalibration, ForecastCalibrationRepository, ForecastModelRepository, ForecastModelVersion } from "../../ports";
import * as keys from "./keys";
import { conditional } from "./conditions";
import { queryPrefix, getItem, setClause, stripAll, putNew } from "./items";

export function dynamoForecastModels(doc: DynamoDBDocumentClient, table: string): ForecastModelRepository {
  return {
    async list(method) {
      const prefix = keys.forecastModels(method);
      const items = await queryPrefix(doc, table, prefix, { consistentRead: false });
      return stripAll<ForecastModelVersion>(items).sort((a, b) => a.version - b.version);
    },
    async get(method, id) {
      return getItem<ForecastModelVersion>(doc, table, keys.forecastModel(method, id));
    },
    async create(model) {
      await putNew(
        doc,
        table,
        { ...keys.forecastModelVersion(model.method, model.version), id: model.id },
        "Другая модель была загружена одновременно. Повторите загрузку.",
      );
      await doc.send(new PutCommand({ TableName: table, Item: { ...keys.forecastModel(model.method, model.id), ...model } }));
    },
    async activate(method, id) {
      const chosen = await this.get(method, id);
      // Activate first, then deactivate the rest: a crash in between leaves two active versions,
      // which readers resolve by taking the newest active one, never none.
      await conditional(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.forecastModel(method, id),
            UpdateExpression: "SET is_active = :yes",
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeValues: { ":yes": true },
          }),
        ),
        "Модель не найдена",
      );
      for (const other of await this.list(method)) {
        // Only the versions of the same owner: a company's choice leaves the platform's and others' alone.
        if (other.id === id || !other.is_active || other.company !== chosen?.company) continue;
        await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.forecastModel(method, other.id),
            UpdateExpression: "SET is_active = :no",
            ExpressionAttributeValues: { ":no": false },
          }),
        );
      }
    },
    async update(method, id, change) {
      const set = setClause(change);
      if (set.written.length === 0) return;
      await conditional(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.forecastModel(method, id),
            UpdateExpression: `SET ${set.clause}`,
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeNames: set.names,
            ExpressionAttributeValues: set.values,
          }),
        ),
        "Модель не найдена",
      );
    },
  };
}

export function dynamoForecastCalibrations(doc: DynamoDBDocumentClient, table: string): ForecastCalibrationRepository {
  return {
    async get(modelId, scope) {
      return getItem<ForecastCalibration>(doc, table, keys.forecastCalibration(modelId, scope));
    },
    async getFields(modelId, scope, fields) {
      const names = Object.fromEntries(fields.map((field, i) => [`#f${i}`, field]));
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table,
          Key: keys.forecastCalibration(modelId, scope),
          ProjectionExpression: Object.keys(names).join(", "),
          ExpressionAttributeNames: names,
        }),
      );
      return Item as Partial<ForecastCalibration> | undefined;
    },
    async put(calibration) {
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...keys.forecastCalibration(calibration.model_id, calibration.scope), ...calibration },
        }),
      );
    },
  };
}
