// /inventory «Инвентаризация»: the company's inventory of a reporting year (docs/methodology.md, Inventory and the report; D15):
// year and facility pickers, the threshold verdict of 296-FZ, the table by Order 371 category,
// IPCC code and gas with the calculations behind each row and their coefficients, the checks
// with links to the calculations to fix, the facilities, and totals by category and year.
// The page paints its heading and the passport buttons first; the pickers (antd Select) and the
// report (InventoryReport: cards, tables, chart) load right after, while the figures are fetched.
import { lazy, Suspense, useEffect, useMemo } from "react";
import { Flex, Typography } from "antd";
import { Link } from "react-router-dom";
import { LazyLoading } from "../../shared/LazyLoading";
import { useUrlQuery } from "../../shared/urlState";
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";
import { useFacilities, useInventory, useInventoryYears, type YearTotals } from "../../api/inventory";
import { PassportDownload } from "./PassportDownload";
import { defaultYear, yearOptions } from "./years";
import { REPORTING_YEAR_MAX, REPORTING_YEAR_MIN } from "@core/gwp-in-force";

const loadPickers = () => import("./InventoryPickers");
const YearSelect = lazy(() => loadPickers().then((m) => ({ default: m.YearSelect })));
const FacilitySelect = lazy(() => loadPickers().then((m) => ({ default: m.FacilitySelect })));
const loadReport = () => import("./InventoryReport");
const InventoryReport = lazy(() => loadReport().then((m) => ({ default: m.InventoryReport })));

const NO_YEARS: readonly YearTotals[] = [];

/** A picker's place while its code loads, so that the row does not jump. */
function PickerPlace({ width }: { width: number }) {
  return <span style={{ display: "inline-block", width, height: 32 }} />;
}

export default function InventoryPage() {
  const { params, update } = useUrlQuery();
  const years = useInventoryYears();
  const facilities = useFacilities();
  const today = useMemo(() => new Date(), []);
  const yearParam = Number(params.get("year"));
  const year =
    Number.isInteger(yearParam) && yearParam >= REPORTING_YEAR_MIN && yearParam <= REPORTING_YEAR_MAX
      ? yearParam
      : defaultYear(years.data ?? [], today);
  const facility = params.get("facility") ?? undefined;
  const inventory = useInventory(year, facility);
  const data = inventory.data;

  // The report's code is fetched together with the figures, not after them.
  useEffect(() => {
    void loadReport();
  }, []);

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Инвентаризация
      </Typography.Title>
      <Flex gap={12} wrap align="center">
        <span>Отчетный год</span>
        <Suspense fallback={<PickerPlace width={120} />}>
          <YearSelect
            year={year}
            years={yearOptions(years.data ?? [], today)}
            onChange={(next) => update({ year: String(next) }, { replace: true })}
          />
        </Suspense>
        <span>Площадка</span>
        <Suspense fallback={<PickerPlace width={260} />}>
          <FacilitySelect
            facility={facility}
            facilities={facilities.data ?? []}
            onChange={(next) => update({ facility: next }, { replace: true })}
          />
        </Suspense>
        <PassportDownload year={year} facility={facility} />
        <Link to={`/inventory/measured-vs-estimated?year=${year}${facility ? `&facility=${facility}` : ""}`}>Измерено и оценено</Link>
      </Flex>
      {inventory.isPending && <PageLoading />}
      {inventory.isError && <LoadError what="инвентаризацию" message={inventory.error.message} retry={() => void inventory.refetch()} />}
      {data && (
        <Suspense fallback={<LazyLoading />}>
          <InventoryReport data={data} years={years.data ?? NO_YEARS} year={year} />
        </Suspense>
      )}
    </Flex>
  );
}
