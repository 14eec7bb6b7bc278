// The company's and the user's fields on /profile (the company's requisites editable, «Изменить реквизиты») (docs/user-guide.md), shown once the profile has
// loaded; ProfilePage paints its heading first and loads this right after.
import { timeZoneLabel, zoneOf } from "@core/company-clock";
import { useState } from "react";
import { Button, Card, Descriptions, Space } from "antd";
import { EditOutlined, LockOutlined } from "@ant-design/icons";
import { CompanyDetailsDialog } from "./CompanyDetailsDialog";
import { OwnPasswordDialog, OwnProfileDialog } from "./OwnAccountDialogs";
import { orAbsent } from "../../shared/text";
import { usePhone } from "../../shared/useMediaQuery";
import type { Me } from "../../api/profile";

export function ProfileDetails({ me }: { me: Me }) {
  // On a phone the 260 px label column left one character per line to the value: labels go above.
  const phone = usePhone();
  const shape = phone ? ({ layout: "vertical" } as const) : ({ styles: { label: { width: 260 } } } as const);
  const [editing, setEditing] = useState(false);
  const [editingSelf, setEditingSelf] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  return (
    <>
      <Card
        title="Компания"
        extra={
          me.company && (
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
              Изменить реквизиты
            </Button>
          )
        }
      >
        <Descriptions
          column={1}
          bordered
          {...shape}
          items={[
            { key: "name", label: "Название", children: orAbsent(me.company?.name) },
            { key: "company_email", label: "E-mail компании", children: orAbsent(me.company?.email) },
            { key: "address", label: "Почтовый адрес", children: orAbsent(me.company?.postal_address) },
            { key: "ogrn", label: "ОГРН", children: orAbsent(me.company?.ogrn) },
            { key: "inn", label: "ИНН", children: orAbsent(me.company?.inn) },
            { key: "kpp", label: "КПП", children: orAbsent(me.company?.kpp) },
            { key: "okved", label: "ОКВЭД", children: orAbsent(me.company?.okved) },
            { key: "region", label: "Регион", children: orAbsent(me.company?.region) },
            { key: "time_zone", label: "Часовой пояс", children: timeZoneLabel(zoneOf(me.company)) },
            // Methodology 8.1: printed on the report passport.
            {
              key: "responsible",
              label: "Ответственный за отчет",
              children: orAbsent([me.company?.responsible_name, me.company?.responsible_position].filter(Boolean).join(", ")),
            },
            { key: "responsible_phone", label: "Телефон ответственного", children: orAbsent(me.company?.responsible_phone) },
            { key: "responsible_email", label: "E-mail ответственного", children: orAbsent(me.company?.responsible_email) },
          ]}
        />
      </Card>
      {me.company && <CompanyDetailsDialog company={me.company} open={editing} onClose={() => setEditing(false)} />}
      <Card
        title="Пользователь"
        extra={
          <Space wrap>
            <Button icon={<EditOutlined />} onClick={() => setEditingSelf(true)}>
              Изменить
            </Button>
            <Button icon={<LockOutlined />} onClick={() => setChangingPassword(true)}>
              Сменить пароль
            </Button>
          </Space>
        }
      >
        <Descriptions
          column={1}
          bordered
          {...shape}
          items={[
            { key: "first", label: "Имя", children: orAbsent(me.first_name) },
            { key: "last", label: "Фамилия", children: orAbsent(me.last_name) },
            { key: "position", label: "Должность", children: orAbsent(me.position) },
            { key: "email", label: "E-mail", children: orAbsent(me.email) },
          ]}
        />
      </Card>
      <OwnProfileDialog me={me} open={editingSelf} onClose={() => setEditingSelf(false)} />
      <OwnPasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </>
  );
}
