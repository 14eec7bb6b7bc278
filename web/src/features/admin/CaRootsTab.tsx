// «Корневые сертификаты УЦ»: the CA certificates a climate period's КЭП chain is checked against
// (v1/admin/ca-roots/). None ship with the platform: the operator loads the accredited
// CAs' root certificates (.cer, DER or PEM; an intermediate too, which then counts as an anchor); until
// one is loaded a signature is kept with «цепочка не проверена: корневые сертификаты не загружены».
import { useState } from "react";
import { Alert, Button, Card, Flex, Popconfirm, Typography } from "antd";
import { DeleteOutlined } from "@ant-design/icons";
import { FileButton } from "../../shared/FileButton";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { api, encoded, routePath, typedClient, type Client } from "../../api/client";
import { adminKeys, errorText } from "../../api/admin";
import { displayDate, displayDateTime } from "../../shared/dates";
import { useFeedback } from "../../shared/feedback";

type Admin = Client<"admin">;
export type CaRoot = InferResponseType<Admin["ca-roots"]["$get"], 200>["results"][number];

const admin = typedClient("admin");
const rootsKey = ["admin", "ca-roots"] as const;

export function CaRootsTab() {
  const client = useQueryClient();
  const { message } = useFeedback();
  const [failure, setFailure] = useState<string>();
  const roots = useQuery({ queryKey: rootsKey, queryFn: () => admin((c) => c["ca-roots"].$get()).then((r) => r.results) });
  const invalidate = async () => {
    await client.invalidateQueries({ queryKey: rootsKey });
    await client.invalidateQueries({ queryKey: adminKeys.auditAll });
  };
  const load = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.set("file_data", file, file.name);
      return api.upload<{ results: CaRoot[]; count: number }>("POST", await routePath("admin", (c) => c["ca-roots"].$path()), form);
    },
    onMutate: () => setFailure(undefined),
    onSuccess: async (added) => {
      await invalidate();
      message.success(added.count > 0 ? `Загружено сертификатов: ${added.count}` : "Эти сертификаты уже загружены");
    },
    onError: (error) => setFailure(`Сертификат не загружен: ${errorText(error).replace(/^file_data: /, "")}`),
  });
  const remove = useMutation({
    mutationFn: (id: string) => admin((c) => c["ca-roots"][":id"].$delete({ param: encoded({ id }) })),
    onSuccess: async () => {
      await invalidate();
      message.success("Корневой сертификат удален");
    },
    onError: (error) => message.error(errorText(error)),
  });

  const list = roots.data ?? [];
  return (
    <Card title="Корневые сертификаты УЦ для проверки КЭП" data-testid="ca-roots">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          Подпись КЭП периода климатического проекта проверяется до этих сертификатов: загрузите корневые сертификаты аккредитованных
          удостоверяющих центров (.cer, .crt, .pem). Пока ни один не загружен, подпись принимается с отметкой «цепочка не проверена».
        </Typography.Text>
        <FileButton
          type="primary"
          accept=".cer,.crt,.pem,.der"
          label="Файл сертификата УЦ"
          loading={load.isPending}
          onFile={(file) => load.mutate(file)}
        >
          Загрузить сертификат
        </FileButton>
        {failure && <Alert type="error" showIcon title={failure} />}
        {roots.isError && <Alert type="error" showIcon title="Не удалось загрузить список сертификатов" />}
        {roots.isSuccess && list.length === 0 && (
          <Typography.Text>Корневые сертификаты не загружены: цепочка сертификата подписанта не проверяется.</Typography.Text>
        )}
        {list.map((root) => (
          <Flex key={root.id} justify="space-between" align="flex-start" gap={12} data-testid="ca-root" wrap>
            <Flex vertical gap={2} style={{ minWidth: 0, flex: 1 }}>
              <Typography.Text strong style={{ overflowWrap: "anywhere" }}>
                {root.subject}
              </Typography.Text>
              <Typography.Text>
                Действует с {displayDate(root.valid_from)} по {displayDate(root.valid_to)}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ overflowWrap: "anywhere" }}>
                Отпечаток SHA-256: {root.id}; загружен {displayDateTime(root.created_at)} ({root.created_by})
              </Typography.Text>
            </Flex>
            <Popconfirm title="Удалить корневой сертификат?" okText="Удалить" cancelText="Отмена" onConfirm={() => remove.mutate(root.id)}>
              <Button danger icon={<DeleteOutlined />} loading={remove.isPending && remove.variables === root.id}>
                Удалить
              </Button>
            </Popconfirm>
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
