// a facility's workings now («Мониторинг»), typed from the server's route declarations
// (functions/src/contract/routes/monitoring.ts): the tiles kept current, the models bound to the
// workings and each working's 24 hours. A module of its own, so the other monitoring screens do not
// load it.
import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import type { LiveFeatureColumn } from "@server/contract";
import { bearerGet, isApiError, typedClient, type Client } from "./client";

const monitoring = typedClient("monitoring");
export type LiveView = InferResponseType<Client<"monitoring">["live"]["$get"], 200>;
export type LiveTile = LiveView["tiles"][number];
export type LiveBinding = InferResponseType<Client<"monitoring">["live"]["models"]["$get"], 200>[number];
export type LiveChart = InferResponseType<Client<"monitoring">["live"]["chart"]["$get"], 200>;
const liveModelsKey = (facility: string) => ["monitoring", "live", facility, "models"] as const;

export function useLiveModels(facility: string) {
  return useQuery({
    queryKey: liveModelsKey(facility),
    queryFn: () => monitoring((c) => c.live.models.$get({ query: { facility } })),
  });
}

export function useBindLiveModel(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      working: string;
      horizon: number;
      model: string | null;
      method?: "xgboost" | "lightgbm";
      features?: Partial<Record<LiveFeatureColumn, string>>;
      /** the working's sensor each of the model's named features is read from. */
      channels?: Record<string, string>;
    }) => monitoring((c) => c.live.models.$post({ json: { facility, ...body } })),
    onSuccess: (bindings) => client.setQueryData(liveModelsKey(facility), bindings),
  });
}

/** A working's last 24 hours, read again whenever its tile moves (`updated`). */
export function useLiveChart(facility: string, working: string, updated: string | null) {
  return useQuery({
    queryKey: ["monitoring", "live", facility, "chart", working, updated],
    queryFn: () => monitoring((c) => c.live.chart.$get({ query: { facility, working } })),
    placeholderData: (previous) => previous,
  });
}

/** How the tiles reach the page: the local server's stream, or (AWS) a poll with the ETag every 15 s. */
export type LiveMode = "connecting" | "stream" | "poll";
export const LIVE_POLL_MS = 15_000;

/**
 * The facility's tiles, kept current: the stream of server-sent events (opened again after its close
 * event or a broken connection); where the host keeps no stream (AWS answers the stream 404), GET of
 * the tiles every 15 s with If-None-Match, a 304 keeping what is shown.
 */
export function useLiveTiles(facility: string): { view?: LiveView; mode: LiveMode; error?: string } {
  const [state, setState] = useState<{ view?: LiveView; mode: LiveMode; error?: string }>({ mode: "connecting" });
  useEffect(() => {
    const stop = new AbortController();
    const query = `?facility=${encodeURIComponent(facility)}`;
    let etag: string | undefined;
    const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    const show = (view: LiveView, mode: LiveMode) => {
      etag = view.etag;
      if (!stop.signal.aborted) setState({ view, mode });
    };
    const fail = (error: unknown) => {
      if (!stop.signal.aborted) setState((s) => ({ ...s, error: error instanceof Error ? error.message : String(error) }));
    };
    const poll = async () => {
      while (!stop.signal.aborted) {
        try {
          const res = await bearerGet(`v1/telemetry/live/${query}`, {
            headers: etag ? { "If-None-Match": etag } : {},
            signal: stop.signal,
          });
          if (res.status === 200) show((await res.json()) as LiveView, "poll");
          else setState((s) => ({ ...s, mode: "poll", error: undefined }));
        } catch (error) {
          fail(error);
        }
        await wait(LIVE_POLL_MS);
      }
    };
    const stream = async () => {
      let failures = 0;
      while (!stop.signal.aborted) {
        try {
          const res = await bearerGet(`v1/telemetry/live/stream/${query}`, {
            headers: { Accept: "text/event-stream" },
            signal: stop.signal,
          });
          if (!res.body || !(res.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) return poll();
          failures = 0;
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let cut = buffer.indexOf("\n\n");
            while (cut >= 0) {
              const event = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const data = /^data: (.*)$/m.exec(event)?.[1];
              if (/^event: live$/m.test(event) && data) show(JSON.parse(data) as LiveView, "stream");
              cut = buffer.indexOf("\n\n");
            }
          }
        } catch (error) {
          if (stop.signal.aborted) return;
          // The host keeps no stream (AWS): poll instead.
          if (isApiError(error) && error.status === 404) return poll();
          fail(error);
          failures++;
          if (failures >= 3) return poll();
        }
        await wait(1000);
      }
    };
    void stream();
    return () => stop.abort();
  }, [facility]);
  return state;
}
