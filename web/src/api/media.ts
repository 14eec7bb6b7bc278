// The instruction and presentation videos over the API (media/): apart from SettingsVideos so
// that /settings asks for them before the player's code has loaded.
import { useQuery } from "@tanstack/react-query";
import { typedClient, type ListPage } from "./client";
import type { MediaStatus } from "@server/contract";
import { MEDIA_KIND_LABELS, MEDIA_KINDS } from "@server/contract/schemas/limits";

export type { MediaStatus };

/** media/, typed from the server's route declarations (functions/src/contract/routes/media.ts). */
const videos = typedClient("media");

export const mediaKey = ["media"] as const;

/** Every kind of video with nothing uploaded: what the page shows before the list has come (and what
 *  the server answers while no video is uploaded). */
export const NO_VIDEOS: readonly MediaStatus[] = MEDIA_KINDS.map((kind) => ({
  kind,
  label: MEDIA_KIND_LABELS[kind],
  url: null,
  content_type: null,
  size: null,
  uploaded_at: null,
  expires_at: null,
}));

export function useMedia() {
  return useQuery({
    queryKey: mediaKey,
    queryFn: (): Promise<ListPage<MediaStatus>> => videos((c) => c.index.$get()),
    // The URLs live 10 minutes; a fresh list well before that.
    staleTime: 5 * 60_000,
  });
}
