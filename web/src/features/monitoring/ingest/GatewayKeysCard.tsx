// «Ключи шлюза» of a facility's «Датчики» (D56): the keys its gateway posts readings with — made (the key
// shown once), listed by label and first characters, revoked. A chunk of its own, loaded with the page:
// the page stood at the 300 KB initial-JS budget (bundle.test.ts).
import { lazy, Suspense, useState } from "react";
import { Button, Popconfirm, Tag, Typography, type TableColumnsType } from "antd";
import { GATEWAY_KEY_LABEL_MAX } from "@server/contract";
import { AddLine } from "../../../shared/AddLine";
import { displayDateTime } from "../../../shared/dates";
import { ListCard, QueryTable } from "../../../shared/QueryTable";
import { useCreateGatewayKey, useGatewayKeys, useRevokeGatewayKey, type CreatedGatewayKey, type GatewayKey } from "../../../api/monitoring";

// The key's dialog loads when a key is made.
const KeyShownDialog = lazy(() => import("./KeyShownDialog"));

export default function GatewayKeysCard({ facility }: { facility: string }) {
  const keys = useGatewayKeys(facility);
  const create = useCreateGatewayKey(facility);
  const revoke = useRevokeGatewayKey(facility);
  const [made, setMade] = useState<CreatedGatewayKey | null>(null);
  const columns: TableColumnsType<GatewayKey> = [
    { title: "Ключ", dataIndex: "label" },
    { title: "Начало ключа", dataIndex: "prefix", render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text> },
    { title: "Создан", key: "created", render: (_: unknown, k) => `${displayDateTime(k.created_at)}, ${k.created_by}` },
    {
      title: "Состояние",
      key: "state",
      render: (_: unknown, k) => (k.revoked_at ? <Tag>Отозван {displayDateTime(k.revoked_at)}</Tag> : <Tag color="green">Действует</Tag>),
    },
    {
      title: "",
      key: "actions",
      width: 120,
      render: (_: unknown, k) =>
        k.revoked_at ? null : (
          <Popconfirm
            title={`Отозвать ключ «${k.label}»?`}
            description="Шлюз с этим ключом больше не сможет передавать показания."
            okText="Отозвать"
            cancelText="Отмена"
            onConfirm={() => revoke.mutate(k)}
          >
            <Button size="small" danger>
              Отозвать
            </Button>
          </Popconfirm>
        ),
    },
  ];
  return (
    <ListCard
      title="Ключи шлюза"
      intro={
        <>
          Шлюз диспетчерской передает показания датчиков этой площадки с заголовком «Authorization: Gateway &lt;ключ&gt;». Ключ только
          передает показания: читать данные с ним нельзя. Ключ показывается один раз при создании.
        </>
      }
      failure={create.error ?? revoke.error}
    >
      <QueryTable<GatewayKey> query={keys} what="ключи шлюза" empty="Ключей пока нет" width={800} rowKey="id" columns={columns} />
      <AddLine
        compact
        style={{ maxWidth: 520 }}
        fields={[{ label: "Название ключа", placeholder: "Шлюз диспетчерской", maxLength: GATEWAY_KEY_LABEL_MAX }]}
        button="Создать ключ"
        onAdd={([label]) => create.mutateAsync(label.trim()).then(setMade)}
      />
      {made && (
        <Suspense>
          <KeyShownDialog made={made} onClose={() => setMade(null)} />
        </Suspense>
      )}
    </ListCard>
  );
}
