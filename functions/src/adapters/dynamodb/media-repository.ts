// The instruction videos (keys.mediaItem).
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { MediaItem, MediaRepository } from "../../ports";
import * as keys from "./keys";
import { strip, versionedPut } from "./items";
import { STALE_MEDIA } from "../../domain/files/media";

export function dynamoMedia(doc: DynamoDBDocumentClient, table: string): MediaRepository {
  return {
    async get(kind) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.mediaItem(kind) }));
      return strip<MediaItem>(out.Item);
    },
    async put(next, expectedVersion) {
      await versionedPut(doc, table, { ...keys.mediaItem(next.kind), ...next }, expectedVersion, STALE_MEDIA);
    },
  };
}
