// D19: the part of its project's dates a calculation covers, picked in the dialog: the whole
// period, a month or a quarter (clipped to the project's dates); the pickers produce from/to.
import { memo, useState } from "react";
import { Form, Segmented, Select } from "antd";
import { periodChoices, periodText, type SourcePeriod } from "@core/source-periods";

type Kind = "whole" | "month" | "quarter";

interface Props {
  project: { start_date: string; end_date: string };
  value: SourcePeriod | undefined;
  onChange(period: SourcePeriod | undefined): void;
}

const same = (a: SourcePeriod, b: SourcePeriod) => a.from === b.from && a.to === b.to;

export const PeriodField = memo(function PeriodField({ project, value, onChange }: Props) {
  const months = periodChoices("month", project);
  const quarters = periodChoices("quarter", project);
  const [kind, setKind] = useState<Kind>(() =>
    !value
      ? "whole"
      : months.some((c) => same(c.period, value))
        ? "month"
        : quarters.some((c) => same(c.period, value))
          ? "quarter"
          : "whole",
  );
  const choices = kind === "month" ? months : quarters;
  const chosen = value && choices.find((c) => same(c.period, value));

  const choose = (next: Kind) => {
    setKind(next);
    if (next === "whole") return onChange(undefined);
    const first = (next === "month" ? months : quarters)[0];
    onChange(first?.period);
  };
  const whole = { from: project.start_date, to: project.end_date };
  return (
    <Form.Item
      label="Период расчета"
      htmlFor="calc-period-kind"
      extra={`${periodText(value ?? whole)}. Расчеты за месяцы или кварталы одного источника складываются; перекрытие периодов — ошибка в инвентаризации`}
    >
      <Segmented<Kind>
        id="calc-period-kind"
        value={kind}
        options={[
          { label: "Весь период проекта", value: "whole" },
          { label: "Месяц", value: "month" },
          { label: "Квартал", value: "quarter" },
        ]}
        onChange={choose}
      />
      {kind !== "whole" && (
        <Select<string>
          id="calc-period"
          aria-label={kind === "month" ? "Месяц расчета" : "Квартал расчета"}
          style={{ display: "block", marginTop: 8, maxWidth: 360 }}
          value={chosen?.key}
          options={choices.map((c) => ({ value: c.key, label: c.label }))}
          onChange={(key) => onChange(choices.find((c) => c.key === key)?.period)}
        />
      )}
    </Form.Item>
  );
});
