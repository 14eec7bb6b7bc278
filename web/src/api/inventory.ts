// The year's inventory and the company's facilities over the API (inventory/, facilities/).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { pageQuery, typedClient, type Client } from "./client";
import type { ReviewAction } from "@core/inventory";
import type { FacilityCreateInput, FacilityPatchInput, PointCreateInput } from "@server/contract";
import { requisitesAuditKey, statisticsKey } from "./profile";
import { facilitiesKey, type Facility } from "./facilities";
import { LIMITS } from "@server/contract";

/** The answers as the server's routes declare them (functions/src/contract/schemas/answers.ts). */
export type Inventory = InferResponseType<Client<"inventory">["index"]["$get"], 200>;
export type InventoryCalculation = InferResponseType<Client<"inventory">["calculations"]["$get"], 200>["results"][number];
export type YearTotals = InferResponseType<Client<"inventory">["years"]["$get"], 200>[number];
export type YearUncertainty = InferResponseType<Client<"inventory">["uncertainty"]["$get"], 200>;
export type InventoryVersion = InferResponseType<Client<"inventory">[":year"]["versions"]["$get"], 200>[number];
export type CoalOutput = InferResponseType<Client<"inventory">[":year"]["coal_output"]["$get"], 200>;
export type FacilityKind = Facility["kind"];

/** facilities/ and inventory/, typed from the server's route declarations
 *  (functions/src/http/facilities.ts, inventory.ts). */
const facilities = typedClient("facilities");
const inventory = typedClient("inventory");

// The facilities' list is in facilities.ts, light enough for the shell's menu; here for the pages that read it with the rest.
export { facilitiesKey, useFacilities, type Facility } from "./facilities";
export const inventoryKey = ["inventory"] as const;

export function useInventory(year: number, facility: string | undefined) {
  return useQuery({
    queryKey: [...inventoryKey, year, facility ?? ""],
    queryFn: () => inventory((c) => c.index.$get({ query: { year: String(year), facility: facility || undefined } })),
    staleTime: 0,
  });
}

/** D27: the year's uncertainty and key categories by IPCC line and gas (with `base`: the trend). */
export function useYearUncertainty(year: number, facility: string | undefined, base: number | undefined) {
  return useQuery({
    queryKey: [...inventoryKey, year, facility ?? "", "uncertainty", base ?? ""],
    queryFn: () =>
      inventory((c) =>
        c.uncertainty.$get({
          query: { year: String(year), facility: facility || undefined, base: base === undefined ? undefined : String(base) },
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export const INVENTORY_CALCULATIONS_PAGE = LIMITS.page.inventoryCalculations;

/** Which of the year's calculations to list: a line's (`category|ipcc_code|gas`, as the table's rows
 *  are keyed), a check's (its `list`) or all; the ones the total counts, or the ones it leaves out (D18). */
export interface InventoryCalculationsOf {
  year: number;
  facility: string | undefined;
  line?: string;
  check?: string;
  /** true: what the total counts; false: what it leaves out; absent: both (a check's list). */
  counted?: boolean;
}

/** One page of INVENTORY_CALCULATIONS_PAGE (`page` 1-based) of inventory/calculations, by period and
 *  name: a line's calculations are read only when the line is opened, whatever the year's size. */
export function useInventoryCalculations({ year, facility, line, check, counted }: InventoryCalculationsOf, page: number) {
  return useQuery({
    queryKey: [...inventoryKey, year, facility ?? "", "calculations", line ?? "", check ?? "", counted, page],
    queryFn: () =>
      inventory((c) =>
        c.calculations.$get({
          query: {
            year: String(year),
            facility: facility || undefined,
            line,
            check,
            counted: counted === undefined ? undefined : counted ? "true" : "false",
            ...pageQuery(page, INVENTORY_CALCULATIONS_PAGE),
          },
        }),
      ),
    // The page shown stays while the next one loads.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Totals per reporting year (the profile's statistics, the year picker). */
export function useInventoryYears() {
  return useQuery({ queryKey: [...inventoryKey, "years"], queryFn: () => inventory((c) => c.years.$get()) });
}

/** D20: the year's approved versions, oldest first, as of the year's review at `reviewVersion`: only a
 *  review step adds a version and every step moves the review's version, so a review the page reads
 *  changed (an approval by the reviewer) has its versions read with it, never a cached list without the
 *  version its status names. */
export function useInventoryVersions(year: number, reviewVersion: number) {
  return useQuery({
    queryKey: [...inventoryKey, year, "versions", reviewVersion],
    queryFn: () => inventory((c) => c[":year"].versions.$get({ param: { year: String(year) } })),
    // The year's list shown stays while the one of its changed review loads (another year's does not).
    placeholderData: (previous, query) => (query?.queryKey[1] === year ? previous : undefined),
  });
}

export type FacilityFields = FacilityCreateInput;

export function useSaveFacility() {
  const client = useQueryClient();
  return useMutation({
    /** `facility`: the one edited, whose version we hold (409 when someone saved first); none: a new one. */
    mutationFn: ({
      facility,
      fields,
    }: {
      facility?: Facility;
      fields: FacilityFields & { is_active?: boolean; shift_calendar?: FacilityPatchInput["shift_calendar"] };
    }) =>
      facility
        ? facilities((c) => c[":id"].$patch({ param: { id: facility.id }, json: { ...fields, version: facility.version } }))
        : facilities((c) => c.index.$post({ json: fields })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: facilitiesKey }),
        client.invalidateQueries({ queryKey: inventoryKey }),
        client.invalidateQueries({ queryKey: requisitesAuditKey }),
      ]),
  });
}

/** D25: a facility's emission points (ventilation shafts, drainage stations, flares, boilers …). */
export type EmissionPoint = InferResponseType<Client<"facilities">[":id"]["points"][":point"]["$get"], 200>;
export type PointFields = PointCreateInput;
const pointsKey = (facility: string) => [...facilitiesKey, facility, "points"] as const;

export function usePoints(facility: string | null | undefined) {
  return useQuery({
    queryKey: pointsKey(facility ?? ""),
    queryFn: () => facilities((c) => c[":id"].points.$get({ param: { id: facility! } })),
    enabled: Boolean(facility),
    staleTime: 30_000,
  });
}

export function useSavePoint(facility: string) {
  const client = useQueryClient();
  return useMutation({
    /** `point`: the one edited (its version held); none: a new one. `is_active` archives or restores. */
    mutationFn: ({ point, fields }: { point?: EmissionPoint; fields: Partial<PointFields> & { is_active?: boolean } }) =>
      point
        ? facilities((c) =>
            c[":id"].points[":point"].$patch({ param: { id: facility, point: point.id }, json: { ...fields, version: point.version } }),
          )
        : facilities((c) => c[":id"].points.$post({ param: { id: facility }, json: fields as PointFields })),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: pointsKey(facility) }), client.invalidateQueries({ queryKey: inventoryKey })]),
  });
}

export function useReviewAction(year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { action: ReviewAction; version: number; reason?: string; notice_date?: string; date?: string }) =>
      inventory((c) => c[":year"].review.$post({ param: { year: String(year) }, json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: inventoryKey }),
  });
}

export const COMMENTS_PAGE = LIMITS.page.comments;
const commentsKey = (year: number) => [...inventoryKey, year, "comments"] as const;

/** The year's comments, newest first, one page of COMMENTS_PAGE at `page` (1-based). */
export function useComments(year: number, page: number) {
  return useQuery({
    queryKey: [...commentsKey(year), page],
    queryFn: () =>
      inventory((c) =>
        c[":year"].comments.$get({
          param: { year: String(year) },
          query: pageQuery(page, COMMENTS_PAGE),
        }),
      ),
  });
}
export type InventoryComment = NonNullable<ReturnType<typeof useComments>["data"]>["results"][number];

export function useAddComment(year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { text: string; target?: string | null }) =>
      inventory((c) => c[":year"].comments.$post({ param: { year: String(year) }, json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: commentsKey(year) }),
  });
}

export function useRemoveComment(year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => inventory((c) => c[":year"].comments[":id"].$delete({ param: { year: String(year), id } })),
    onSuccess: () => client.invalidateQueries({ queryKey: commentsKey(year) }),
  });
}

/** 8.1: a facility's coal processed in the year, t (null clears it); `version` is the review's. */
export function useSaveCoalProcessed(year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { facility: string; t: number | null; version: number }) =>
      inventory((c) => c[":year"].coal_processed.$put({ param: { year: String(year) }, json: body })),
    onSuccess: () => client.invalidateQueries({ queryKey: inventoryKey }),
  });
}

/** a facility's coal output of the year (null: not entered) and its production calculations. */
export function useCoalOutput(year: number | undefined, facility: string | null | undefined) {
  return useQuery({
    queryKey: [...inventoryKey, year, facility ?? "", "coal_output"],
    queryFn: () => inventory((c) => c[":year"].coal_output.$get({ param: { year: String(year) }, query: { facility: facility ?? "" } })),
    enabled: year !== undefined && Boolean(facility),
    staleTime: 0,
  });
}

/** sets a facility's coal output (null clears it); `follow`: the calculations that take it. */
export function useSaveCoalOutput(year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { facility: string; t: number | null; version: number; follow: string[] }) =>
      inventory((c) => c[":year"].coal_output.$put({ param: { year: String(year) }, json: body })),
    onSuccess: (answer) =>
      Promise.all([
        client.invalidateQueries({ queryKey: inventoryKey }),
        client.invalidateQueries({ queryKey: requisitesAuditKey }),
        ...(answer.updated.length > 0
          ? [client.invalidateQueries({ queryKey: ["calculations"] }), client.invalidateQueries({ queryKey: statisticsKey })]
          : []),
      ]),
  });
}
