// The company's name, contacts, requisites and the person responsible for its report (methodology
// 8.1: printed on the report passport), as both the administrator's company dialog and the staff's «Изменить
// реквизиты» on /profile edit them. Each field is checked as it is typed by the server's own rules
// (functions/src/contract/schemas/company.ts), its message under it, gone once the value is right.
import type { ReactNode } from "react";
import { Col, Form, Input, Row, Select, type InputProps } from "antd";
import { DEFAULT_TIME_ZONE, TIME_ZONES } from "@core/company-clock";
import { TextItem } from "./TextItem";
import type { FormInstance, Rule } from "antd/es/form";
import {
  COMPANY_NAME_MAX,
  COMPANY_TEXT_MAX,
  KEPT_REQUISITES,
  keptRequisiteProblem,
  REQUISITE_MAX,
  requisiteProblem,
  type RuledRequisite,
} from "@server/contract";

type KeptRequisite = keyof typeof KEPT_REQUISITES;

/** Every field of the company the dialogs edit and send. */
export const REQUISITE_FIELDS = [
  "name",
  "email",
  "ogrn",
  "inn",
  "kpp",
  "okved",
  "region",
  "postal_address",
  "responsible_name",
  "responsible_position",
  "responsible_phone",
  "responsible_email",
  "time_zone",
] as const;

/** The field's rule as the server checks it. */
export const requisiteRule = (field: RuledRequisite): Rule => ({
  validator: (_, value?: string) => {
    const problem = requisiteProblem(field, value ?? "");
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
});

/** What the company keeps once set (ИНН, КПП, ОГРН): the staff may correct it, not blank it. */
const keptRule = (field: KeptRequisite, kept?: Partial<Record<KeptRequisite, string>>): Rule[] =>
  kept?.[field]
    ? [
        {
          validator: (_, value?: string) =>
            (value ?? "").trim() === "" ? Promise.reject(new Error(keptRequisiteProblem(field))) : Promise.resolve(),
        },
      ]
    : [];

/** The form's checks: a field is checked when left, and, while it shows a problem (its own or the
 *  server's), again at every key, so the message goes as soon as the value is right. */
export function requisiteForm<T>(form: FormInstance<T>) {
  return {
    validateTrigger: "onBlur",
    onValuesChange: (changed: Partial<T>) => {
      const wrong = Object.keys(changed).filter((name) => form.getFieldError(name as never).length > 0);
      if (wrong.length) form.validateFields(wrong as never[]).catch(() => undefined);
    },
  } as const;
}

const TIME_ZONE_OPTIONS = TIME_ZONES.map((z) => ({ value: z.zone, label: z.label }));

/** The name a company is known and printed by: never blank. */
const NAME_RULES: Rule[] = [
  { required: true, whitespace: true, message: "Укажите название компании" },
  { max: 200, message: "Название не длиннее 200 символов" },
];

/** Two fields on one line: the first takes the room the second (`width`, else an even share) leaves. */
function FieldPair({ width = "auto", children: [first, second] }: { width?: string; children: [ReactNode, ReactNode] }) {
  return (
    <Row gutter={12}>
      <Col flex="auto">{first}</Col>
      <Col flex={width}>{second}</Col>
    </Row>
  );
}

export function CompanyRequisiteFields({
  kept,
}: {
  /** The values the company keeps (the staff's dialog): not to be blanked. */
  kept?: Partial<Record<KeptRequisite, string>>;
}) {
  /** A field the server checks by its rule, at most as long as the rule lets it be. */
  const ruled = (label: string, field: RuledRequisite, input?: InputProps) => (
    <TextItem
      label={label}
      name={field}
      maxLength={REQUISITE_MAX[field]}
      rules={[requisiteRule(field), ...(field in KEPT_REQUISITES ? keptRule(field as KeptRequisite, kept) : [])]}
      {...input}
    />
  );
  return (
    <>
      <TextItem label="Название" name="name" maxLength={COMPANY_NAME_MAX} rules={NAME_RULES} />
      {ruled("E-mail", "email", { inputMode: "email" })}
      <FieldPair width="160px">
        {ruled("ОГРН / ОГРНИП", "ogrn", { inputMode: "numeric" })}
        {ruled("ОКВЭД", "okved", { placeholder: "05.10" })}
      </FieldPair>
      <FieldPair width="160px">
        {ruled("ИНН", "inn", { inputMode: "numeric" })}
        {ruled("КПП", "kpp")}
      </FieldPair>
      <TextItem label="Регион" name="region" maxLength={COMPANY_TEXT_MAX} />
      <Form.Item label="Почтовый адрес" name="postal_address">
        <Input.TextArea autoSize={{ minRows: 2 }} maxLength={COMPANY_TEXT_MAX} />
      </Form.Item>
      <Form.Item
        label="Часовой пояс"
        name="time_zone"
        initialValue={DEFAULT_TIME_ZONE}
        extra="Даты в паспорте, выгрузках и на экранах — по календарю этого пояса"
      >
        <Select options={TIME_ZONE_OPTIONS} />
      </Form.Item>
      <FieldPair>
        <TextItem label="Ответственный за отчет: ФИО" name="responsible_name" maxLength={COMPANY_NAME_MAX} />
        <TextItem label="Должность" name="responsible_position" maxLength={COMPANY_NAME_MAX} />
      </FieldPair>
      <FieldPair>
        {ruled("Телефон ответственного", "responsible_phone", { inputMode: "tel" })}
        {ruled("E-mail ответственного", "responsible_email", { inputMode: "email" })}
      </FieldPair>
    </>
  );
}
