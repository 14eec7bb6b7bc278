// A sensor's rarer actions behind «…» on «Датчики» (SensorsPage.tsx): change it, retire it (confirmed
// first). Loaded on the first press of «…», which it opens: its popover and confirmation are no part of
// the page's first load (tests/web/bundle.test.ts).
import { useState } from "react";
import { Button, Flex, Popconfirm, Popover } from "antd";
import type { Sensor } from "../../../api/monitoring";

export default function SensorMoreMenu({ sensor, onEdit, onRetire }: { sensor: Sensor; onEdit: () => void; onRetire: () => void }) {
  // Open as it mounts: the press that loaded it asked for the menu.
  const [open, setOpen] = useState(true);
  const [confirming, setConfirming] = useState(false);
  /** One of the menu's actions: it closes the menu, then acts. */
  const item = (label: string, act: () => void) => (
    <Button
      type="text"
      role="menuitem"
      style={{ justifyContent: "flex-start" }}
      onClick={() => {
        setOpen(false);
        act();
      }}
    >
      {label}
    </Button>
  );
  return (
    <Popconfirm
      open={confirming}
      onOpenChange={(next) => !next && setConfirming(false)}
      title={`Вывести датчик «${sensor.code}» из эксплуатации?`}
      description="Его показания и история сохранятся."
      okText="Вывести"
      cancelText="Отмена"
      onConfirm={() => {
        setConfirming(false);
        onRetire();
      }}
      onCancel={() => setConfirming(false)}
    >
      <Popover
        open={open}
        onOpenChange={setOpen}
        trigger="click"
        placement="bottomRight"
        content={
          <Flex vertical gap={4} role="menu" aria-label={`Действия с датчиком ${sensor.code}`}>
            {item("Изменить", onEdit)}
            {sensor.is_active && item("Вывести из эксплуатации", () => setConfirming(true))}
          </Flex>
        }
      >
        <Button size="small" aria-label={`Другие действия с датчиком ${sensor.code}`} aria-haspopup="menu" aria-expanded={open}>
          …
        </Button>
      </Popover>
    </Popconfirm>
  );
}
