// SPEC 2 /dictionary «Справочники»: the emission categories and, for the chosen one, the
// coefficient tables it draws on (methodology.md section 1), each value with unit and source.
import { useState } from "react";
import { Card, Flex, Typography } from "antd";
import { CATEGORIES } from "./categories";
import { CategoriesTable } from "./CategoriesTable";
import { CoefficientTable } from "./CoefficientTable";

export default function DictionaryPage() {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const category = CATEGORIES.find((candidate) => candidate.index === selected);

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Справочники
      </Typography.Title>
      <section aria-label="Категории выбросов" data-testid="categories">
        <CategoriesTable page={page} onPage={setPage} selected={selected} onSelect={setSelected} />
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
