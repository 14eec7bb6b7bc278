// The company's requisites and the person responsible for its report (methodology 8.1: printed on
// the report passport), as both the administrator's company dialog and the staff's «Изменить
// реквизиты» on /profile edit them. The admin dialog checks in the browser too (its `rules`); the
// profile shows the server's answer at the field.
import { Col, Form, Input, Row } from "antd";
import type { Rule } from "antd/es/form";

type RequisiteField = "ogrn" | "okved" | "inn" | "kpp" | "responsible_phone" | "responsible_email";

export function CompanyRequisiteFields({
  rules = {},
  withRegion = false,
}: {
  rules?: Partial<Record<RequisiteField, Rule[]>>;
  withRegion?: boolean;
}) {
  return (
    <>
      <Row gutter={12}>
        <Col flex="auto">
          <Form.Item label="ОГРН / ОГРНИП" name="ogrn" rules={rules.ogrn}>
            <Input inputMode="numeric" maxLength={15} />
          </Form.Item>
        </Col>
        <Col flex="160px">
          <Form.Item label="ОКВЭД" name="okved" rules={rules.okved}>
            <Input placeholder="05.10" maxLength={8} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={12}>
        <Col flex="auto">
          <Form.Item label="ИНН" name="inn" rules={rules.inn}>
            <Input inputMode="numeric" maxLength={12} />
          </Form.Item>
        </Col>
        <Col flex="160px">
          <Form.Item label="КПП" name="kpp" rules={rules.kpp}>
            <Input maxLength={9} />
          </Form.Item>
        </Col>
      </Row>
      {withRegion && (
        <Form.Item label="Регион" name="region">
          <Input />
        </Form.Item>
      )}
      <Form.Item label="Почтовый адрес" name="postal_address">
        <Input.TextArea autoSize={{ minRows: 2 }} />
      </Form.Item>
      <Row gutter={12}>
        <Col flex="auto">
          <Form.Item label="Ответственный за отчет: ФИО" name="responsible_name">
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col flex="auto">
          <Form.Item label="Должность" name="responsible_position">
            <Input maxLength={200} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={12}>
        <Col flex="auto">
          <Form.Item label="Телефон ответственного" name="responsible_phone" rules={rules.responsible_phone}>
            <Input inputMode="tel" maxLength={40} />
          </Form.Item>
        </Col>
        <Col flex="auto">
          <Form.Item label="E-mail ответственного" name="responsible_email" rules={rules.responsible_email}>
            <Input inputMode="email" maxLength={320} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
