// The instruction videos (keys.mediaItem).
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { MediaItem, MediaRepository } from "../../ports";
import * as keys from "./keys";
import { versionedPut, getItem } from "./items";
import { STALE_MEDIA } from "../../domain/files/media";

export function dynamoMedia(doc: DynamoDBDocumentClient, table: string): MediaRepository {
  return {
    async get(kind) {
      return getItem<MediaItem>(doc, table, keys.mediaItem(kind));
    },
    async put(next, expectedVersion) {
      await versionedPut(doc, table, { ...keys.mediaItem(next.kind), ...next }, expectedVersion, STALE_MEDIA);
    },
  };
}
