// what each underground mine measured against what its inventory estimates
// (GET inventory/measured-vs-estimated/, docs/methodology.md section 14), and its xlsx.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { MeasuredVsEstimated } from "@server/contract";
import { api, routePath, typedClient } from "./client";
import { inventoryKey } from "./inventory";
import { saveBlob } from "../shared/saveBlob";

export type { MeasuredVsEstimated };
export type MineComparison = MeasuredVsEstimated["facilities"][number];

const inventory = typedClient("inventory");

export function useMeasuredVsEstimated(year: number, facility: string | undefined) {
  return useQuery({
    queryKey: [...inventoryKey, year, facility ?? "", "measured-vs-estimated"],
    queryFn: () =>
      inventory(
        (c) => c["measured-vs-estimated"].$get({ query: { year: String(year), facility: facility || undefined } }) as never,
      ) as Promise<MeasuredVsEstimated>,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The comparison as xlsx, saved under the server's name. */
export async function downloadComparison(year: number, facility: string | undefined): Promise<void> {
  const path = await routePath("inventory", (c) =>
    c["measured-vs-estimated"].$path({ query: { year: String(year), facility: facility || undefined, format: "xlsx" } }),
  );
  const file = await api.download(path);
  saveBlob(file.blob, file.fileName ?? `Измерено и оценено ${year}.xlsx`);
}
