// Settings videos and presentations.
import type { MediaKind } from "../contract/schemas/common";

export type { MediaKind };

/** A settings video (docs/user-guide.md, /settings): «Видеоинструкция» or «Презентация». */
export interface MediaItem {
  kind: MediaKind;
  key: string;
  content_type: string;
  size: number;
  name: string;
  version: number;
  uploaded_at: string;
  uploaded_by: string;
  is_deleted: boolean;
}

export interface MediaRepository {
  get(kind: MediaKind): Promise<MediaItem | undefined>;
  /** expectedVersion 0 creates; otherwise the stored version must match. */
  put(next: MediaItem, expectedVersion: number): Promise<void>;
}
