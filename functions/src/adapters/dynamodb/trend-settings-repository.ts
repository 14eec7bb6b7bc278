// The company's base year, significance threshold and targets (keys.trendSettings): one item, put
// whole, conditioned on the version read.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { TrendSettings, TrendSettingsRepository } from "../../ports";
import * as keys from "./keys";
import { conditional, putAtVersion } from "./conditions";
import { getItem } from "./items";

export const TREND_SETTINGS_CONFLICT = "Настройки динамики уже изменены другим пользователем. Обновите страницу и повторите.";

export function dynamoTrendSettings(doc: DynamoDBDocumentClient, table: string): TrendSettingsRepository {
  return {
    async get(companyId) {
      return getItem<TrendSettings>(doc, table, keys.trendSettings(companyId), { consistentRead: true });
    },
    async put(next, expectedVersion) {
      await conditional(
        putAtVersion(doc, table, { ...keys.trendSettings(next.company), ...next }, expectedVersion),
        TREND_SETTINGS_CONFLICT,
      );
    },
  };
}
