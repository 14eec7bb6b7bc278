// /inventory «Инвентаризация»: the company's inventory of a reporting year (docs/methodology.md, Inventory and the report; D15):
// year and facility pickers, the threshold verdict of 296-FZ, the table by Order 371 category,
// IPCC code and gas with the calculations behind each row and their coefficients, the checks
// with links to the calculations to fix, the facilities, and totals by category and year.
// The page paints its heading and the passport buttons first; the pickers (antd Select) and the
// report (InventoryReport: cards, tables, chart) load right after, while the figures are fetched.
import { lazy, Suspense, useEffect } from "react";
import { Flex, Typography } from "antd";
import { Link } from "react-router-dom";
import { LazyLoading } from "../../shared/LazyLoading";
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";
import { useInventory, type YearTotals } from "../../api/inventory";
import { PassportDownload } from "./PassportDownload";
import { useYearAndFacility, YearAndFacilityPickers } from "./YearAndFacility";

const loadReport = () => import("./InventoryReport");
const InventoryReport = lazy(() => loadReport().then((m) => ({ default: m.InventoryReport })));

const NO_YEARS: readonly YearTotals[] = [];

export default function InventoryPage() {
  const choice = useYearAndFacility();
  const { year, facility, years } = choice;
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
        <YearAndFacilityPickers choice={choice} />
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
