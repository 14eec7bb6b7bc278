// The mine's monitoring (methodology section 12): a facility's sensor register (D56) and its gateway
// keys, typed from the server's route declarations (functions/src/contract/routes/facilities.ts).
import { displayDate } from "../shared/dates";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { LIMITS, type UploadPreviewView } from "@server/contract";
import { api, encoded, routePath, typedClient, type Client } from "./client";
import { saveBlob } from "../shared/saveBlob";
import { facilitiesKey } from "./inventory";
import type { DirectUpload } from "./directUpload";
import { requisitesAuditKey } from "./profile";

export type Sensor = InferResponseType<Client<"facilities">[":id"]["sensors"][":sensor"]["$get"], 200>;
export type SensorFields = InferRequestType<Client<"facilities">[":id"]["sensors"]["$post"]>["json"];
export type GatewayKey = InferResponseType<Client<"facilities">[":id"]["gateway-keys"]["$get"], 200>[number];
export type CreatedGatewayKey = InferResponseType<Client<"facilities">[":id"]["gateway-keys"]["$post"], 201>;

const facilities = typedClient("facilities");
const sensorsKey = (facility: string) => [...facilitiesKey, facility, "sensors"] as const;
const pointChannelsKey = (facility: string) => ["monitoring", "point-channels", facility] as const;
const gatewayKeysKey = (facility: string) => [...facilitiesKey, facility, "gateway-keys"] as const;

export function useSensors(facility: string) {
  return useQuery({
    queryKey: sensorsKey(facility),
    queryFn: () => facilities((c) => c[":id"].sensors.$get({ param: { id: facility } })),
    staleTime: 30_000,
  });
}

export function useSaveSensor(facility: string) {
  const client = useQueryClient();
  return useMutation({
    /** `sensor`: the one edited (its version held); none: a new one. */
    mutationFn: ({ sensor, fields }: { sensor?: Sensor; fields: SensorFields }) =>
      sensor
        ? facilities((c) =>
            c[":id"].sensors[":sensor"].$patch({
              param: { id: facility, sensor: sensor.id },
              json: { ...fields, version: sensor.version },
            }),
          )
        : facilities((c) => c[":id"].sensors.$post({ param: { id: facility }, json: fields })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: sensorsKey(facility) }),
        client.invalidateQueries({ queryKey: requisitesAuditKey }),
        client.invalidateQueries({ queryKey: pointChannelsKey(facility) }),
      ]),
  });
}

export function useRetireSensor(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sensor: Sensor) => facilities((c) => c[":id"].sensors[":sensor"].$delete({ param: { id: facility, sensor: sensor.id } })),
    onSuccess: () => client.invalidateQueries({ queryKey: sensorsKey(facility) }),
  });
}

/** GET sensors/template/: the sensor list's template (.xlsx or CSV) to fill in and import. */
export async function downloadSensorTemplate(facility: string, format: "xlsx" | "csv"): Promise<void> {
  const query = format === "csv" ? { format: "csv" } : {};
  const file = await api.download(
    await routePath("facilities", (c) => c[":id"].sensors.template.$path({ param: encoded({ id: facility }), query })),
  );
  saveBlob(file.blob, file.fileName ?? `Шаблон — Датчики АГК.${format}`);
}

/** an example of the dispatch export for the facility's register (CSV). */
export async function downloadDispatchTemplate(facility: string): Promise<void> {
  const file = await api.download(
    await routePath("facilities", (c) => c[":id"].sensors["dispatch-template"].$path({ param: encoded({ id: facility }) })),
  );
  saveBlob(file.blob, file.fileName ?? "Шаблон — выгрузка АГК.csv");
}

const sensorListForm = (file: File) => {
  const form = new FormData();
  form.set("file_data", file, file.name);
  return form;
};

/** POST sensors/import/?dry_run=1: the list as the import would read it and every row it would refuse. */
export async function previewSensorList(facility: string, file: File): Promise<UploadPreviewView> {
  const path = await routePath("facilities", (c) =>
    c[":id"].sensors.import.$path({ param: encoded({ id: facility }), query: { dry_run: "1" } }),
  );
  return api.upload<UploadPreviewView>("POST", path, sensorListForm(file));
}

/** POST sensors/import/: the list's sensors made, all or none. */
export function useImportSensors(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) =>
      api.upload<Sensor[]>(
        "POST",
        await routePath("facilities", (c) => c[":id"].sensors.import.$path({ param: encoded({ id: facility }), query: {} })),
        sensorListForm(file),
      ),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: sensorsKey(facility) }),
        client.invalidateQueries({ queryKey: requisitesAuditKey }),
      ]),
  });
}

export function useGatewayKeys(facility: string) {
  return useQuery({
    queryKey: gatewayKeysKey(facility),
    queryFn: () => facilities((c) => c[":id"]["gateway-keys"].$get({ param: { id: facility } })),
  });
}

export function useCreateGatewayKey(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (label: string) => facilities((c) => c[":id"]["gateway-keys"].$post({ param: { id: facility }, json: { label } })),
    onSuccess: () => client.invalidateQueries({ queryKey: gatewayKeysKey(facility) }),
  });
}

export function useRevokeGatewayKey(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: GatewayKey) => facilities((c) => c[":id"]["gateway-keys"][":key"].$delete({ param: { id: facility, key: key.id } })),
    onSuccess: () => client.invalidateQueries({ queryKey: gatewayKeysKey(facility) }),
  });
}

export type Offer = InferResponseType<Client<"monitoring">["offers"]["$get"], 200>[number];
const monitoring = typedClient("monitoring");
const offersKey = (facility: string, year: number) => ["monitoring", "offers", facility, year] as const;

/** D61–D63: per point and month of the year, what the mine's readings give and whether it was accepted. */
export function useOffers(facility: string, year: number) {
  return useQuery({
    queryKey: offersKey(facility, year),
    queryFn: () => monitoring((c) => c.offers.$get({ query: { facility, year: String(year) } })),
  });
}

export type PointChannels = InferResponseType<Client<"monitoring">["offers"]["channels"]["$get"], 200>[number];

/** each point's own channels (its month is computed from these alone) and what it lacks. */
export function usePointChannels(facility: string) {
  return useQuery({
    queryKey: pointChannelsKey(facility),
    queryFn: () => monitoring((c) => c.offers.channels.$get({ query: { facility } })),
  });
}

export function useAcceptOffers(facility: string, year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { point: string; months: string[]; project: string; reason?: string; basis?: "gross" | "net" }) =>
      monitoring((c) => c.offers.accept.$post({ json: { facility, ...body } })),
    // the months as accepted are shown at once, then the year's offers read again.
    onSuccess: (accepted) => {
      const answered = accepted as unknown as Offer[];
      client.setQueryData<Offer[]>(offersKey(facility, year), (shown) =>
        shown?.map((o) => answered.find((a) => a.point === o.point && a.month === o.month) ?? o),
      );
      return client.invalidateQueries({ queryKey: offersKey(facility, year) });
    },
  });
}

export type SensorEvent = InferResponseType<Client<"monitoring">["events"]["$get"], 200>["results"][number];
export type EventFilters = Omit<InferRequestType<Client<"monitoring">["events"]["$get"]>["query"], "facility">;
const eventsKey = (facility: string) => ["monitoring", "events", facility] as const;

/** D65: the facility's events of a period, filtered; refreshed every minute while shown. */
export function useSensorEvents(facility: string, filters: EventFilters | undefined) {
  return useQuery({
    queryKey: [...eventsKey(facility), filters],
    queryFn: () => monitoring((c) => c.events.$get({ query: { facility, ...filters } })),
    enabled: filters !== undefined,
    refetchInterval: 60_000,
  });
}

export function useAcknowledgeEvent(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ event, comment }: { event: string; comment: string }) =>
      monitoring((c) => c.events[":event"].acknowledge.$post({ param: { event }, json: { comment } })),
    onSuccess: () => client.invalidateQueries({ queryKey: eventsKey(facility) }),
  });
}

/** several events acknowledged at once with one comment. */
export function useAcknowledgeEvents(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ events, comment }: { events: string[]; comment: string }) =>
      monitoring((c) => c.events.acknowledge.$post({ json: { events, comment } })),
    onSuccess: () => client.invalidateQueries({ queryKey: eventsKey(facility) }),
  });
}

/** A shift's report (xlsx or PDF) saved under the server's name. */
export async function downloadShiftReport(facility: string, date: string, shift: number, format: "xlsx" | "pdf"): Promise<void> {
  const path = await routePath("monitoring", (c) => c["shift-report"].$path({ query: { facility, date, shift: String(shift), format } }));
  const file = await api.download(path);
  saveBlob(file.blob, file.fileName ?? `Отчет смены ${displayDate(date)} ${shift}.${format}`);
}

// D58–D62 per sensor: the «Датчики» screens (functions/src/contract/schemas/sensor-data.ts).
export type SensorCompleteness = InferResponseType<Client<"facilities">[":id"]["sensors"]["completeness"]["$get"], 200>[number];
export type SensorGaps = InferResponseType<Client<"facilities">[":id"]["sensors"][":sensor"]["gaps"]["$get"], 200>;
export type SensorDayView = InferResponseType<Client<"facilities">[":id"]["sensors"][":sensor"]["day"]["$get"], 200>;

export function useSensorCompleteness(facility: string, year: number) {
  return useQuery({
    queryKey: [...sensorsKey(facility), "completeness", year],
    queryFn: () => facilities((c) => c[":id"].sensors.completeness.$get({ param: { id: facility }, query: { year: String(year) } })),
  });
}

/** A page (from 1) of a sensor's gaps in `month` (yyyy-MM), `size` a page. */
export function useSensorGaps(facility: string, sensor: string, month: string, page: number, size: number) {
  return useQuery({
    queryKey: [...sensorsKey(facility), sensor, "gaps", month, page, size],
    queryFn: () =>
      facilities((c) =>
        c[":id"].sensors[":sensor"].gaps.$get({
          param: { id: facility, sensor },
          query: { month, limit: String(size), offset: String((page - 1) * size) },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

export function useSensorDay(facility: string, sensor: string, date: string) {
  return useQuery({
    queryKey: [...sensorsKey(facility), sensor, "day", date],
    queryFn: () => facilities((c) => c[":id"].sensors[":sensor"].day.$get({ param: { id: facility, sensor }, query: { date } })),
  });
}

export type ReadingsBatch = InferResponseType<Client<"monitoring">["batches"][":batch"]["$get"], 200>;
export type BatchAccepted = InferResponseType<Client<"monitoring">["files"]["$post"], 202>;

/** A dispatch system's export (D57) sent straight to storage (directUpload.ts): POST upload-url/ for
 *  the facility, the PUT, then `complete` naming the granted key. */
function exportUpload<T>(facility: string, complete: (fileUpload: string) => Promise<T>): DirectUpload<T> {
  let fileUpload = "";
  return {
    grant: async (file) => {
      const grant = await monitoring((c) => c["upload-url"].$post({ json: { facility, ...file } }));
      fileUpload = grant.file_upload;
      return grant;
    },
    complete: () => complete(fileUpload),
  };
}

/** The export named in POST files/: it becomes one batch (202). */
export const dispatchFileUpload = (facility: string, name: string): DirectUpload<BatchAccepted> =>
  exportUpload(facility, (file_upload) => monitoring((c) => c.files.$post({ json: { facility, file_upload, name } })));

/** GET batches/{batch}/: read again while the consumer has not applied it (state «queued»), then left. */
export function useReadingsBatch(batch: string | undefined) {
  return useQuery({
    queryKey: ["monitoring", "batches", batch],
    queryFn: () => monitoring((c) => c.batches[":batch"].$get({ param: { batch: batch! } })),
    enabled: Boolean(batch),
    // Until it is done or set aside (failed).
    refetchInterval: (query) =>
      (query.state.data?.state !== undefined && query.state.data.state !== "queued") || query.state.error ? false : BATCH_POLL_MS,
  });
}

export type ListedBatch = InferResponseType<Client<"monitoring">["batches"]["$get"], 200>[number];

/** GET batches/?facility=: the facility's latest batches («Загрузки АГК»), newest first; read again
 *  while one of them is queued. */
export const readingsBatchesKey = (facility: string) => ["monitoring", "batches", "of", facility] as const;

export function useReadingsBatches(facility: string) {
  return useQuery({
    queryKey: readingsBatchesKey(facility),
    queryFn: () => monitoring((c) => c.batches.$get({ query: { facility } })),
    refetchInterval: (query) => (query.state.data?.some((b) => b.state === "queued") ? BATCHES_POLL_MS : false),
  });
}

/** How often the list is read again while a batch of it is queued. */
const BATCHES_POLL_MS = 5000;

/** How often a queued batch is read again: the local consumer applies a file in about a second. */
const BATCH_POLL_MS = 1000;

// «Сверка с выгрузкой АГК»: the stored readings compared with the mine's dispatch export.
export type Reconciliation = InferResponseType<Client<"monitoring">["reconciliations"][":id"]["$get"], 200>;
export type ReconciliationStarted = InferResponseType<Client<"monitoring">["reconciliations"]["$post"], 202>;

/** The export sent as «Загрузить выгрузку АГК» sends it, then named for a reconciliation instead of a
 *  batch (202 with its id). */
export const reconciliationUpload = (facility: string, name: string): DirectUpload<ReconciliationStarted> =>
  exportUpload(facility, (file_upload) => monitoring((c) => c.reconciliations.$post({ json: { facility, file_upload, name } })));

const reconciliationKey = (id: string | undefined) => ["monitoring", "reconciliations", id] as const;

/** GET reconciliations/{id}/: read again while it waits or runs; its rows of sensor and day the page
 *  from `offset`, `limit` of them (the server keeps them in pages: a large export's are thousands). */
export function useReconciliation(id: string | undefined, offset = 0, limit = LIMITS.page.batchRefused) {
  return useQuery({
    queryKey: [...reconciliationKey(id), offset, limit],
    queryFn: () =>
      monitoring((c) => c.reconciliations[":id"].$get({ param: { id: id! }, query: { offset: String(offset), limit: String(limit) } })),
    placeholderData: keepPreviousData,
    enabled: Boolean(id),
    refetchInterval: (query) =>
      query.state.error || query.state.data?.state === "done" || query.state.data?.state === "failed" ? false : BATCH_POLL_MS,
  });
}

/** POST reconciliations/{id}/fill/ («Догрузить недостающие»): one batch of the missing readings. */
export function useFillReconciliation(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => monitoring((c) => c.reconciliations[":id"].fill.$post({ param: { id: id! } })),
    onSuccess: () => client.invalidateQueries({ queryKey: reconciliationKey(id) }),
  });
}

/** GET reconciliations/{id}/xlsx/: the differences saved under the server's name. */
export async function downloadReconciliationXlsx(id: string): Promise<void> {
  const path = await routePath("monitoring", (c) => c.reconciliations[":id"].xlsx.$path({ param: { id } }));
  const file = await api.download(path);
  saveBlob(file.blob, file.fileName ?? "Сверка с выгрузкой АГК.xlsx");
}

/** D106: the facility's sections drawn in airflow order (GET v1/telemetry/scheme/), refreshed each minute. */
export type Scheme = InferResponseType<Client<"monitoring">["scheme"]["$get"], 200>;
export type SchemeSection = Scheme["sections"][number];
export type SchemeMeter = SchemeSection["meters"][number];

export function useScheme(facility: string) {
  return useQuery({
    queryKey: ["scheme", facility],
    queryFn: () => monitoring((c) => c.scheme.$get({ query: { facility } })),
    enabled: Boolean(facility),
    refetchInterval: 60_000,
  });
}
