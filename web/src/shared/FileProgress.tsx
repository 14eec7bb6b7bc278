// While the server makes a file: how much of it has arrived or, for a file made as a job (a large
// export or report passport, docs/user-guide.md), the job's state and progress from the server.
// Used by the export page and the inventory's report passport.
import { Flex, Progress, Spin } from "antd";
import { fileSize } from "@server/contract";
import type { FileJob } from "../api/client";

export function fileProgressText(job: FileJob | undefined, received: number): string {
  if (job?.state === "queued") return "Файл в очереди на формирование";
  if (job?.state === "running") return `Файл формируется: ${job.progress} %`;
  if (job?.state === "done") return `Файл готов${received > 0 ? `, получено ${fileSize(received)}` : ""}`;
  return `Формирование файла…${received > 0 ? ` получено ${fileSize(received)}` : ""}`;
}

export function FileProgress({ job, received }: { job: FileJob | undefined; received: number }) {
  return (
    <Flex gap={12} align="center" role="status" wrap>
      {job ? <Progress type="circle" size={36} percent={job.progress} status={job.state === "done" ? "success" : "active"} /> : <Spin />}
      <span>{fileProgressText(job, received)}</span>
    </Flex>
  );
}
