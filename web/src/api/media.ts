// The instruction and presentation videos over the API (media/): apart from SettingsVideos so
// that /settings asks for them before the player's code has loaded.
import { useQuery } from "@tanstack/react-query";
import { typedClient, type ListPage } from "./client";
import type { MediaStatus } from "@server/contract";

export type { MediaStatus };

/** media/, typed from the server's route declarations (functions/src/contract/routes/media.ts). */
const videos = typedClient("media");

export const mediaKey = ["media"] as const;

export function useMedia() {
  return useQuery({
    queryKey: mediaKey,
    queryFn: (): Promise<ListPage<MediaStatus>> => videos((c) => c.index.$get()),
    // The URLs live 10 minutes; a fresh list well before that.
    staleTime: 5 * 60_000,
  });
}
