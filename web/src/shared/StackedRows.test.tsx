// @vitest-environment happy-dom
import { render, screen } from "@testing-library/react";
import { expect, it } from "vitest";
import { StackedRows } from "./StackedRows";

type Row = { id: string; name: string; rows: number };

it("shows each row as its columns' labels over their values, rendered as the table renders them", () => {
  render(
    <StackedRows<Row>
      rows={[
        { id: "a", name: "Модель лавы 1", rows: 1200 },
        { id: "b", name: "Модель лавы 2", rows: 800 },
      ]}
      rowKey={(r) => r.id}
      columns={[
        { title: "Название", dataIndex: "name" },
        { title: "Строк", key: "rows", render: (_, r) => `${r.rows} строк` },
        { key: "actions", render: (_, r) => <button type="button">Использовать {r.name}</button> },
      ]}
      testId="stacked"
    />,
  );
  const blocks = screen.getByTestId("stacked").children;
  expect(blocks).toHaveLength(2);
  expect(blocks[0].textContent).toBe("НазваниеМодель лавы 1Строк1200 строкИспользовать Модель лавы 1");
  expect(screen.getByRole("button", { name: "Использовать Модель лавы 2" })).toBeTruthy();
});

it("says what an empty list means", () => {
  render(<StackedRows<Row> rows={[]} rowKey={(r) => r.id} columns={[]} empty="Своих моделей пока нет" />);
  expect(screen.getByText("Своих моделей пока нет")).toBeTruthy();
});
