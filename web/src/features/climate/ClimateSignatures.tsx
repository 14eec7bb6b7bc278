// «Подписать КЭП» of a monitoring period (docs/api.md «КЭП of a period»): the
// executor downloads the file to sign — the verifier's pack's manifest.json, which names every file of
// the pack by its SHA-256 — signs it in CryptoPro or КриптоАРМ as a detached signature, and uploads
// the .sig here. The server checks it (OpenSSL's GOST engine, or its TypeScript twin in AWS) and keeps
// it with the period; the list shows each signer, organisation, certificate validity and the chain's
// state, in Russian.
import { useState } from "react";
import { Alert, Button, Card, Flex, Tag, Typography } from "antd";
import { EditOutlined, DownloadOutlined } from "@ant-design/icons";
import { FileButton } from "../../shared/FileButton";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { api, encoded, isApiError, routePath, typedClient, type Client } from "../../api/client";
import { saveBlob } from "../../shared/saveBlob";
import { displayDate, displayDateTime } from "../../shared/dates";
import { withoutFieldNames } from "../../shared/fieldErrors";
import { climateKey } from "./api";

type Climate = Client<"climate">;
export type ClimateSignature = InferResponseType<Climate[":id"]["periods"][":period"]["signatures"]["$get"], 200>["results"][number];

const climate = typedClient("climate");
const signaturesKey = (project: string, period: string) => [...climateKey, "signatures", project, period] as const;

const payloadPath = (project: string, period: string) =>
  routePath("climate", (c) => c[":id"].periods[":period"].signatures.payload.$path({ param: { id: project, period } }));
const signaturesPath = (project: string, period: string) =>
  routePath("climate", (c) => c[":id"].periods[":period"].signatures.$path({ param: { id: project, period } }));

/** The chain's state as the list says it. */
export function chainLabel(chain: ClimateSignature["chain"]): { text: string; color: string } {
  if (chain.state === "verified") return { text: "цепочка проверена: до загруженного корневого сертификата", color: "green" };
  if (chain.state === "failed") return { text: `цепочка не подтверждена: ${chain.reason}`, color: "red" };
  return { text: "цепочка не проверена: корневые сертификаты не загружены", color: "gold" };
}

/** «ИНН 421234567890, ОГРН 1024200001234» where the certificate has them. */
function requisites(signer: ClimateSignature["signer"]): string {
  const parts = [
    signer.inn && `ИНН ${signer.inn}`,
    signer.inn_le && `ИНН ЮЛ ${signer.inn_le}`,
    signer.ogrn && `ОГРН ${signer.ogrn}`,
    signer.ogrnip && `ОГРНИП ${signer.ogrnip}`,
  ];
  return parts.filter(Boolean).join(", ");
}

function SignatureItem({ signature }: { signature: ClimateSignature }) {
  const { signer } = signature;
  const chain = chainLabel(signature.chain);
  const organisation = [signer.organization, signer.title].filter(Boolean).join(", ");
  return (
    <div data-testid="climate-signature" style={{ borderTop: "1px solid rgba(5, 5, 5, 0.06)", paddingTop: 8 }}>
      <Flex vertical gap={2}>
        <Typography.Text strong>{signer.common_name}</Typography.Text>
        {organisation && <Typography.Text>{organisation}</Typography.Text>}
        {requisites(signer) && <Typography.Text type="secondary">{requisites(signer)}</Typography.Text>}
        <Typography.Text>
          Сертификат действует с {displayDate(signer.valid_from)} по {displayDate(signer.valid_to)}, выдан: {signer.issuer}
        </Typography.Text>
        <Typography.Text type="secondary">
          Подпись принята {displayDateTime(signature.created_at)} ({signature.created_by})
          {signature.signing_time ? `, время подписи по часам подписанта ${displayDateTime(signature.signing_time)}` : ""}
        </Typography.Text>
        <span>
          <Tag color={chain.color}>{chain.text}</Tag>
          {!signature.current && (
            <Tag color="red" data-testid="climate-signature-stale">
              подпись к прежней версии файла
            </Tag>
          )}
        </span>
        {signature.warnings.map((warning) => (
          <Alert key={warning} type="warning" showIcon title={warning} data-testid="climate-signature-warning" />
        ))}
        {!signature.current && (
          <Typography.Text type="danger">
            Период или его отчет изменились после подписания: подпись сделана над прежним файлом и в пакет для верификатора не входит.
            Скачайте файл для подписи заново и подпишите его.
          </Typography.Text>
        )}
      </Flex>
    </div>
  );
}

export function ClimateSignatures({ project, period }: { project: string; period: string }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<"download" | "upload">();
  const [failure, setFailure] = useState<string>();
  const [accepted, setAccepted] = useState<ClimateSignature>();
  const signatures = useQuery({
    queryKey: signaturesKey(project, period),
    queryFn: () =>
      climate((c) => c[":id"].periods[":period"].signatures.$get({ param: encoded({ id: project, period }) })).then((r) => r.results),
    staleTime: 0,
  });

  async function download() {
    setBusy("download");
    setFailure(undefined);
    try {
      const file = await api.download(await payloadPath(project, period));
      saveBlob(file.blob, file.fileName ?? "manifest.json");
    } catch (error) {
      setFailure(`Не удалось скачать файл для подписи: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(undefined);
    }
  }

  async function upload(file: File) {
    setBusy("upload");
    setFailure(undefined);
    setAccepted(undefined);
    try {
      const form = new FormData();
      form.set("file_data", file, file.name);
      const kept = await api.upload<ClimateSignature>("POST", await signaturesPath(project, period), form);
      setAccepted(kept);
      // the accepted signature is listed at once, then the list is read again.
      client.setQueryData<ClimateSignature[]>(signaturesKey(project, period), (shown) => [...(shown ?? []), kept]);
      await client.invalidateQueries({ queryKey: signaturesKey(project, period) });
    } catch (error) {
      setFailure(`Подпись не принята: ${isApiError(error) ? withoutFieldNames(error) : String(error)}`);
    } finally {
      setBusy(undefined);
    }
  }

  const kept = signatures.data ?? [];
  return (
    <Card size="small" title="Квалифицированная электронная подпись (КЭП)" data-testid="climate-signatures">
      <Flex vertical gap={12}>
        {!open && (
          <span>
            <Button type="primary" icon={<EditOutlined />} onClick={() => setOpen(true)}>
              Подписать КЭП
            </Button>
          </span>
        )}
        {open && (
          <Flex vertical gap={8}>
            <Typography.Text>
              1. Скачайте файл для подписи — манифест пакета для верификатора: он называет каждый файл пакета (отчет, показания счетчиков,
              часовые таблицы, итоги) по его SHA-256.
            </Typography.Text>
            <span>
              <Button icon={<DownloadOutlined />} loading={busy === "download"} onClick={() => void download()}>
                Скачать файл для подписи
              </Button>
            </span>
            <Typography.Text>
              2. Подпишите его в КриптоПро или КриптоАРМ отсоединенной подписью (ГОСТ Р 34.10-2012), не меняя файл, и загрузите файл подписи
              (.sig, .p7s).
            </Typography.Text>
            <FileButton
              accept=".sig,.p7s,.sgn,.pem,.txt"
              label="Файл подписи"
              loading={busy === "upload"}
              onFile={(file) => void upload(file)}
            >
              Загрузить подпись
            </FileButton>
          </Flex>
        )}
        {accepted && (
          <Alert
            type="success"
            showIcon
            title={`Подпись принята: ${accepted.signer.common_name}${accepted.signer.organization ? `, ${accepted.signer.organization}` : ""}`}
          />
        )}
        {failure && <Alert type="error" showIcon title={failure} />}
        {signatures.isError && <Alert type="error" showIcon title="Не удалось загрузить подписи периода" />}
        {kept.length > 0 ? (
          <Flex vertical gap={8}>
            {kept.map((signature) => (
              <SignatureItem key={signature.id} signature={signature} />
            ))}
          </Flex>
        ) : (
          signatures.isSuccess && <Typography.Text type="secondary">Период еще не подписан.</Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
