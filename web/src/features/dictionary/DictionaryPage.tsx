// docs/user-guide.md, /dictionary «Справочники»: the emission categories and, for the chosen one, the
// coefficient tables it draws on (their sources: docs/methodology.md, Sources), each value with unit and source.
// The page and the chosen category sit in the address (?page=2&category=5), like every list.
// The page paints its heading first; the categories and coefficients (DictionaryContent) load
// right after.
import { lazy, Suspense } from "react";
import { Flex, Typography } from "antd";
import { LazyLoading } from "../../shared/LazyLoading";
import { useUrlPage, useUrlQuery } from "../../shared/urlState";

const DictionaryContent = lazy(() => import("./DictionaryContent").then((m) => ({ default: m.DictionaryContent })));

export default function DictionaryPage() {
  const { page, setPage } = useUrlPage();
  const { params, update } = useUrlQuery();
  const setSelected = (index: number) => update({ category: String(index) }, { replace: true });

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Справочники
      </Typography.Title>
      <Suspense fallback={<LazyLoading />}>
        <DictionaryContent page={page} onPage={(next) => setPage(next)} categoryParam={params.get("category")} onSelect={setSelected} />
      </Suspense>
    </Flex>
  );
}
