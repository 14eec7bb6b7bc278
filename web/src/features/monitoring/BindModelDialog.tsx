// «Модель прогноза» of a working on «Мониторинг»: one model per horizon (the company's own of that
// horizon or the platform's), or none — then the tile says there is no forecast and why. A model is
// named short in the list («Модель платформы, версия 1», as «Модели прогноза» names it); the chosen one's
// description (XGBoost, its trees) is read in full under it (in the list it was cut to «…(модель платф…»
// on a phone).
import { useState } from "react";
import { Alert, Flex, Modal, Select, Typography } from "antd";
import { HORIZONS, horizonLabel } from "@core/gbdt/horizon";
import { horizonModels, useForecastModels } from "../../api/calculations";
import { useBindLiveModel, useLiveModels } from "../../api/live";

const NONE = "";

export default function BindModelDialog({ facility, working, onClose }: { facility: string; working: string; onClose: () => void }) {
  const [horizon, setHorizon] = useState(60);
  const models = useForecastModels();
  const bindings = useLiveModels(facility);
  const bound = bindings.data?.find((b) => b.working === working && b.horizon === horizon);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const bind = useBindLiveModel(facility);
  const choices = horizonModels(models.data, "xgboost", horizon);
  const value = chosen ?? bound?.model ?? NONE;
  const described = choices.find((v) => v.id === value)?.description;
  return (
    <Modal
      open
      title={`Модель прогноза: ${working}`}
      onCancel={onClose}
      okText="Сохранить"
      cancelText="Отмена"
      okButtonProps={{ loading: bind.isPending }}
      onOk={() => bind.mutate({ working, horizon, model: value === NONE ? null : value }, { onSuccess: onClose })}
    >
      <Flex vertical gap={12}>
        <Flex vertical gap={4}>
          <Typography.Text>Горизонт прогноза</Typography.Text>
          <Select
            aria-label="Горизонт прогноза"
            style={{ width: "100%" }}
            value={horizon}
            onChange={(h) => {
              setHorizon(h);
              setChosen(undefined);
            }}
            options={HORIZONS.filter((h) => h > 0).map((h) => ({ value: h, label: horizonLabel(h) }))}
          />
        </Flex>
        <Flex vertical gap={4}>
          <Typography.Text>Модель</Typography.Text>
          <Select
            aria-label="Модель"
            style={{ width: "100%" }}
            value={value}
            loading={models.isPending}
            onChange={setChosen}
            options={[
              { value: NONE, label: "Без модели: прогноз не считается" },
              ...choices.map((v) => ({
                value: v.id,
                label: `${v.company === undefined ? "Модель платформы" : "Модель компании"}, версия ${v.version}`,
              })),
            ]}
          />
          {described && (
            <Typography.Text type="secondary" data-testid="model-description">
              {described}
            </Typography.Text>
          )}
        </Flex>
        <Typography.Text type="secondary">
          Прогноз считается по последним минутам показаний выработки с шагом 10 минут при каждом новом пакете показаний.
        </Typography.Text>
        {bind.isError && <Alert type="error" showIcon role="alert" title={bind.error.message} />}
      </Flex>
    </Modal>
  );
}
