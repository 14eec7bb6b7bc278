// the instruments' own record at a facility — its sensors' checks (D94, the «Метан»
// maintenance journal), what is due of them and the mine's intervals (functions/src/contract/routes/
// instruments.ts). A module of its own: the pages that do not show the checks load none of it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CheckIntervalsBody,
  CheckIntervalsView,
  SensorCheckBody,
  SensorCheckList,
  SensorCheckStates,
  VerificationBody,
  VerificationList,
  HandoverBody,
  HandoverList,
  JournalSignatures,
} from "@server/contract";
import type { CheckDuty } from "@core/sensor-checks";
import { api, encoded, typedClient } from "./client";
import { certificatePath } from "./instrumentFiles";

export type { CheckIntervalsView, SensorCheckList, SensorCheckStates, VerificationList };
export type SensorCheck = SensorCheckList["results"][number];
export type SensorCheckState = SensorCheckStates["sensors"][number];

const instruments = typedClient("instruments");
export const checksKey = (facility: string) => ["monitoring", "sensor-checks", facility] as const;

/** The checks of the facility (or one sensor) done in the company days from–to, newest first. */
export function useSensorChecks(facility: string, sensor: string | undefined, from: string | undefined, to: string | undefined) {
  return useQuery({
    queryKey: [...checksKey(facility), "list", sensor ?? null, from, to],
    queryFn: () =>
      (sensor
        ? instruments(
            (c) => c[":id"].sensors[":sensor"].checks.$get({ param: encoded({ id: facility, sensor }), query: { from, to } }) as never,
          )
        : instruments(
            (c) => c[":id"]["sensor-checks"].$get({ param: encoded({ id: facility }), query: { from, to } }) as never,
          )) as Promise<SensorCheckList>,
    enabled: from !== undefined && to !== undefined,
  });
}

/** What is due of each sensor now; refreshed every minute while shown. */
export function useCheckStates(facility: string) {
  return useQuery({
    queryKey: [...checksKey(facility), "due"],
    queryFn: () =>
      instruments((c) => c[":id"]["sensor-checks"].due.$get({ param: encoded({ id: facility }) }) as never) as Promise<SensorCheckStates>,
    refetchInterval: 60_000,
  });
}

export function useCheckIntervals(facility: string) {
  return useQuery({
    queryKey: [...checksKey(facility), "intervals"],
    queryFn: () =>
      instruments((c) => c[":id"]["check-intervals"].$get({ param: encoded({ id: facility }) }) as never) as Promise<CheckIntervalsView>,
  });
}

export function useSaveCheckIntervals(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CheckIntervalsBody) =>
      instruments((c) => c[":id"]["check-intervals"].$put({ param: encoded({ id: facility }), json: body as never })),
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}

export function useRecordCheck(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ sensor, body }: { sensor: string; body: SensorCheckBody }) =>
      instruments((c) => c[":id"].sensors[":sensor"].checks.$post({ param: encoded({ id: facility, sensor }), json: body as never })),
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}

export function useSignCheck(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ sensor, check, duty }: { sensor: string; check: string; duty: CheckDuty }) =>
      instruments((c) =>
        c[":id"].sensors[":sensor"].checks[":check"].sign.$post({ param: encoded({ id: facility, sensor, check }), json: { duty } }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}

/** A sensor's verifications (поверка), newest first, with its state today. */
export function useVerifications(facility: string, sensor: string | undefined) {
  return useQuery({
    queryKey: [...checksKey(facility), "verifications", sensor],
    queryFn: () =>
      instruments(
        (c) => c[":id"].sensors[":sensor"].verifications.$get({ param: encoded({ id: facility, sensor: sensor as string }) }) as never,
      ) as Promise<VerificationList>,
    enabled: sensor !== undefined,
  });
}

export function useRecordVerification(facility: string, sensor: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: VerificationBody) =>
      instruments((c) => c[":id"].sensors[":sensor"].verifications.$post({ param: encoded({ id: facility, sensor }), json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}

export type Verification = VerificationList["results"][number];

/** Attaches the certificate's scan to a recorded verification (once: an addition marked with who and when). */
export function useAttachCertificate(facility: string, sensor: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ verification, file }: { verification: string; file: File }) => {
      const form = new FormData();
      form.set("file", file, file.name);
      return api.upload<Verification>("PUT", await certificatePath(facility, sensor, verification), form);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}

export type Handover = HandoverList["results"][number];

/** The facility's handovers made in the company days from–to, newest first. */
export function useHandovers(facility: string, from: string | undefined, to: string | undefined) {
  return useQuery({
    queryKey: [...checksKey(facility), "handovers", from, to],
    queryFn: () =>
      instruments(
        (c) => c[":id"].handovers.$get({ param: encoded({ id: facility }), query: { from, to } }) as never,
      ) as Promise<HandoverList>,
    enabled: from !== undefined && to !== undefined,
  });
}

export function useHandOver(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: HandoverBody) => instruments((c) => c[":id"].handovers.$post({ param: encoded({ id: facility }), json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}

export function useTakeOver(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (handover: string) =>
      instruments((c) => c[":id"].handovers[":handover"].take.$post({ param: encoded({ id: facility, handover }) })),
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}

/** The АГК operator's signatures of a company day's shift journals. */
export function useJournalSignatures(facility: string, date: string | undefined) {
  return useQuery({
    queryKey: [...checksKey(facility), "journal-signatures", date],
    queryFn: () =>
      instruments(
        (c) => c[":id"]["journal-signatures"].$get({ param: encoded({ id: facility }), query: { date: date as string } }) as never,
      ) as Promise<JournalSignatures>,
    enabled: date !== undefined,
  });
}

export function useSignJournal(facility: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shift: string) =>
      instruments((c) => c[":id"]["journal-signatures"].$post({ param: encoded({ id: facility }), json: { shift } })),
    onSuccess: () => client.invalidateQueries({ queryKey: checksKey(facility) }),
  });
}
