// SPEC 2 /dictionary «Справочники»: the emission categories and, for the chosen one, the
// coefficient tables it draws on (methodology.md section 1), each value with unit and source.
// The page and the chosen category sit in the address (?page=2&category=5), like every list.
import { Card, Flex, Typography } from "antd";
import { useUrlPage, useUrlQuery } from "../../shared/urlState";
import { CATEGORIES } from "./categories";
import { CategoriesTable } from "./CategoriesTable";
import { CoefficientTable } from "./CoefficientTable";

export default function DictionaryPage() {
  const { page, setPage } = useUrlPage();
  const { params, update } = useUrlQuery();
  const category = CATEGORIES.find((candidate) => String(candidate.index) === params.get("category"));
  const selected = category?.index;
  const setSelected = (index: number) => update({ category: String(index) }, { replace: true });

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Справочники
      </Typography.Title>
      <section aria-label="Категории выбросов" data-testid="categories">
        <CategoriesTable page={page} onPage={(next) => setPage(next)} selected={selected} onSelect={setSelected} />
      </section>
      {category ? (
        <Card title={`Коэффициенты: ${category.category}`} data-testid="coefficients">
          <Flex vertical gap={24}>
            {category.dictionaries.map((name) => (
              <CoefficientTable key={name} category={category} name={name} />
            ))}
          </Flex>
        </Card>
      ) : (
        <Typography.Text type="secondary">Выберите категорию, чтобы увидеть ее коэффициенты.</Typography.Text>
      )}
    </Flex>
  );
}
