// SPEC 2 /profile: read-only company and user fields, then the user's statistics.
import { lazy, Suspense } from "react";
import { Alert, Card, Descriptions, Flex, Typography } from "antd";
import { LazyLoading } from "../../shared/LazyLoading";
import { orAbsent } from "../../shared/text";
import { PageLoading } from "../shell/PageLoading";
import { useMe } from "./api";
import { StatisticsCard } from "./StatisticsCard";
// The facilities' table and dialog load after the requisites.
const FacilitiesCard = lazy(() => import("./FacilitiesCard").then((m) => ({ default: m.FacilitiesCard })));

export default function ProfilePage() {
  const me = useMe();

  return (
    <Flex vertical gap={24}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Профиль
      </Typography.Title>
      {me.isPending && <PageLoading />}
      {me.isError && <Alert type="error" showIcon title={me.error.message} />}
      {me.data && (
        <>
          <Card title="Компания">
            <Descriptions
              column={1}
              bordered
              styles={{ label: { width: 260 } }}
              items={[
                { key: "name", label: "Название", children: orAbsent(me.data.company?.name) },
                { key: "address", label: "Почтовый адрес", children: orAbsent(me.data.company?.postal_address) },
                { key: "ogrn", label: "ОГРН", children: orAbsent(me.data.company?.ogrn) },
                { key: "inn", label: "ИНН", children: orAbsent(me.data.company?.inn) },
                { key: "kpp", label: "КПП", children: orAbsent(me.data.company?.kpp) },
                { key: "okved", label: "ОКВЭД", children: orAbsent(me.data.company?.okved) },
                { key: "region", label: "Регион", children: orAbsent(me.data.company?.region) },
              ]}
            />
          </Card>
          <Card title="Пользователь">
            <Descriptions
              column={1}
              bordered
              styles={{ label: { width: 260 } }}
              items={[
                { key: "first", label: "Имя", children: orAbsent(me.data.first_name) },
                { key: "last", label: "Фамилия", children: orAbsent(me.data.last_name) },
                { key: "email", label: "E-mail", children: orAbsent(me.data.email) },
              ]}
            />
          </Card>
          <Suspense fallback={<LazyLoading />}>
            <FacilitiesCard />
          </Suspense>
          <StatisticsCard />
        </>
      )}
    </Flex>
  );
}
