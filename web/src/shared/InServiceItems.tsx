// «В эксплуатации с … по …» of an antd form: the two dates a thing was in service, each typed
// ДД.ММ.ГГГГ or left empty, in the form's fields in_service_from and in_service_to.
import { Space } from "antd";
import { TextItem } from "./TextItem";
import { DATE_TYPED } from "./dates";

const dateRule = { pattern: /^(\d{2}\.\d{2}\.\d{4})?$/, message: "Дата в виде ДД.ММ.ГГГГ" };

export function InServiceItems() {
  return (
    <Space>
      <TextItem label="В эксплуатации с" name="in_service_from" maxLength={DATE_TYPED.length} placeholder={DATE_TYPED} rules={[dateRule]} />
      <TextItem label="по" name="in_service_to" maxLength={DATE_TYPED.length} placeholder={DATE_TYPED} rules={[dateRule]} />
    </Space>
  );
}
