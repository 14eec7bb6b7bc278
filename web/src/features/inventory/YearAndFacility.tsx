// The inventory's year and facility, as the address keeps them, and their pickers: one choice shared
// by «Инвентаризация» and «Измерено и оценено». antd's Select loads after the page has painted; its
// place is kept meanwhile so that the row does not jump.
import { lazy, Suspense, useMemo } from "react";
import { useUrlQuery } from "../../shared/urlState";
import { useFacilities, useInventoryYears, type Facility } from "../../api/inventory";
import { defaultYear, yearOptions } from "./years";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "@core/gwp-in-force";

const loadPickers = () => import("./InventoryPickers");
const YearSelect = lazy(() => loadPickers().then((m) => ({ default: m.YearSelect })));
const FacilitySelect = lazy(() => loadPickers().then((m) => ({ default: m.FacilitySelect })));

/** The year the address names (within the reporting years), else the default one; the facility it names. */
export function useYearAndFacility() {
  const { params, update } = useUrlQuery();
  const years = useInventoryYears();
  const facilities = useFacilities();
  const today = useMemo(() => new Date(), []);
  const yearParam = Number(params.get("year"));
  const year =
    Number.isInteger(yearParam) && yearParam >= REPORTING_YEAR_MIN && yearParam <= REPORTING_YEAR_MAX
      ? yearParam
      : defaultYear(years.data ?? [], today);
  return {
    year,
    facility: params.get("facility") ?? undefined,
    years,
    yearChoices: yearOptions(years.data ?? [], today),
    facilities: facilities.data ?? [],
    choose: (next: { year?: string; facility?: string }) => update(next, { replace: true }),
  };
}

/** A picker's place while its code loads. */
function PickerPlace({ width }: { width: number }) {
  return <span style={{ display: "inline-block", width, height: 32 }} />;
}

export function YearAndFacilityPickers({
  choice,
  facilities = choice.facilities,
}: {
  choice: ReturnType<typeof useYearAndFacility>;
  /** The facilities offered, where the page takes only some. */
  facilities?: readonly Facility[];
}) {
  return (
    <>
      <span>Отчетный год</span>
      <Suspense fallback={<PickerPlace width={120} />}>
        <YearSelect year={choice.year} years={choice.yearChoices} onChange={(next) => choice.choose({ year: String(next) })} />
      </Suspense>
      <span>Площадка</span>
      <Suspense fallback={<PickerPlace width={260} />}>
        <FacilitySelect facility={choice.facility} facilities={facilities} onChange={(next) => choice.choose({ facility: next })} />
      </Suspense>
    </>
  );
}
