// «Пакет для верификатора» of a monitoring period (GET
// climate-projects/{id}/periods/{p}/pack/): a zip of every meter's readings, the hourly tables, the
// calibration register, the deviations, the totals, a signed manifest and verify.py, which a verifier
// runs offline (docs/user-guide.md). A pack over the registry's 100 MB comes as a zip of its parts.
import { useState } from "react";
import { Alert, Button, Flex } from "antd";
import { SafetyCertificateOutlined } from "@ant-design/icons";
import { api, routePath, type Download } from "../../api/client";
import { saveBlob } from "../../shared/saveBlob";
import { FileProgress } from "../../shared/FileProgress";

export const climatePackPath = (project: string, period: string) =>
  routePath("climate", (c) => c[":id"].periods[":period"].pack.$path({ param: { id: project, period } }));

/** Saves the file, or goes to the storage address a large one is handed out as. */
function save(file: Download, name: string) {
  if (file.redirectUrl) window.location.assign(file.redirectUrl);
  else saveBlob(file.blob, name);
}

export function ClimatePackDownload({ project, period }: { project: string; period: string }) {
  const [pending, setPending] = useState(false);
  const [received, setReceived] = useState(0);
  const [failure, setFailure] = useState<string>();

  async function download() {
    setPending(true);
    setReceived(0);
    setFailure(undefined);
    try {
      const file = await api.download(await climatePackPath(project, period), setReceived);
      save(file, file.fileName ?? "Пакет верификации.zip");
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <Flex vertical gap={8} align="flex-start">
      <Button
        icon={<SafetyCertificateOutlined />}
        loading={pending}
        onClick={() => void download()}
        title="Показания счетчиков, часовые таблицы, реестр поверок, отклонения, итоги, подписанный манифест и программа проверки verify.py (Python 3)"
      >
        Пакет для верификатора
      </Button>
      {pending && <FileProgress job={undefined} received={received} />}
      {failure && <Alert type="error" showIcon title={`Не удалось скачать пакет для верификатора: ${failure}`} />}
    </Flex>
  );
}
