// The body of /dictionary «Справочники» once its code has loaded (DictionaryPage paints the heading
// first): the emission categories and, for the chosen one, the coefficient tables it draws on.
import { Card, Flex, Typography } from "antd";
import { CATEGORIES } from "./categories";
import { CategoriesTable } from "./CategoriesTable";
import { CoefficientTable } from "./CoefficientTable";

interface Props {
  page: number;
  onPage(page: number): void;
  /** The address's ?category= (an index of CATEGORIES), if any. */
  categoryParam: string | null;
  onSelect(index: number): void;
}

export function DictionaryContent({ page, onPage, categoryParam, onSelect }: Props) {
  const category = CATEGORIES.find((candidate) => String(candidate.index) === categoryParam);
  const selected = category?.index;

  return (
    <>
      <section aria-label="Категории выбросов" data-testid="categories">
        <CategoriesTable page={page} onPage={onPage} selected={selected} onSelect={onSelect} />
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
    </>
  );
}
