// The inventory screen's year and facility pickers: antd's Select loads after the page has painted
// (InventoryPage keeps their place meanwhile).
import { Select } from "antd";

export function YearSelect({ year, years, onChange }: { year: number; years: number[]; onChange(year: number): void }) {
  return (
    <Select
      aria-label="Отчетный год"
      style={{ width: 120 }}
      value={year}
      options={years.map((y) => ({ value: y, label: String(y) }))}
      onChange={(next: number) => onChange(next)}
    />
  );
}

export function FacilitySelect({
  facility,
  facilities,
  onChange,
}: {
  facility: string | undefined;
  facilities: readonly { id: string; name: string }[];
  onChange(facility: string | undefined): void;
}) {
  return (
    <Select
      aria-label="Площадка"
      style={{ minWidth: 260 }}
      value={facility ?? ""}
      options={[{ value: "", label: "Все площадки компании" }, ...facilities.map((f) => ({ value: f.id, label: f.name }))]}
      onChange={(next: string) => onChange(next || undefined)}
    />
  );
}
