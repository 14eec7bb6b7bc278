// «Загрузить список датчиков» (D56): the mine's sensor list from an .xlsx or CSV into the register, as a
// calculation's file is taken (docs/user-guide.md › «Загрузка файла: предпросмотр»): the template to
// download, the file read by the server the moment it is chosen (a dry run) with every row it would
// refuse named by row and column, and «Загрузить» only once nothing is refused — then all the list's
// sensors are made, or none. Loaded when opened.
import { useState } from "react";
import { Alert, Button, Flex, Modal, Typography, Upload } from "antd";
import { UploadOutlined } from "@ant-design/icons";
import { downloadSensorTemplate, previewSensorList, useImportSensors } from "../../../api/monitoring";
import { ChosenFile, useFileChoice } from "../../../shared/FileChoice";
import { FILE_ACCEPT, fileProblem } from "../../../shared/fileChecks";
import { refusalText, TemplateLinks, UploadReadView, useUploadRead } from "../../../shared/UploadRead";
import { useFeedback } from "../../../shared/feedback";

export default function SensorImportDialog({ facility, onClose }: { facility: string; onClose: () => void }) {
  const { message } = useFeedback();
  const [file, setFile] = useState<File>();
  const choice = useFileChoice(FILE_ACCEPT, (chosen) => fileProblem(chosen), setFile);
  const read = useUploadRead(file, facility, (chosen) => previewSensorList(facility, chosen));
  const save = useImportSensors(facility);
  const ready = read?.status === "done" && read.data.errors.length === 0;
  const template = (format: "xlsx" | "csv") => void downloadSensorTemplate(facility, format).catch((e) => message.error(refusalText(e)));

  return (
    <Modal
      open
      width={1000}
      title="Загрузить список датчиков"
      okText="Загрузить"
      cancelText="Отмена"
      okButtonProps={{ disabled: !ready, loading: save.isPending }}
      onCancel={onClose}
      onOk={() =>
        file &&
        save.mutate(file, {
          onSuccess: (made) => {
            message.success(`Добавлено датчиков: ${made.length}`);
            onClose();
          },
        })
      }
    >
      <Flex vertical gap={8}>
        <Typography.Paragraph style={{ margin: 0 }}>
          Список каналов АГК шахты в книге Excel (.xlsx) или файле CSV: по строке на датчик, столбцы как в шаблоне. Источник выбросов
          указывается названием, как на странице «Профиль». Датчики добавляются, только если в списке нет ни одной ошибки.
        </Typography.Paragraph>
        <Flex gap={12} align="center" wrap>
          <Upload {...choice.upload}>
            <Button icon={<UploadOutlined />}>{file ? "Заменить файл" : "Выбрать файл"}</Button>
          </Upload>
          <TemplateLinks download={template} />
        </Flex>
        <ChosenFile file={file} problem={choice.problem} testId="chosen-sensor-list" removeLabel="Убрать файл" onRemove={choice.remove} />
        <UploadReadView read={read} />
        {save.isError && <Alert type="error" showIcon role="alert" title={refusalText(save.error)} />}
      </Flex>
    </Modal>
  );
}
