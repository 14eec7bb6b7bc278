// Export of a project to a file (docs/user-guide.md, «Export»; docs/api.md): GET projects/{id}/export_to_{format}/
// with detail=true for the detailed workbook, saved under the name the server gives (the project's
// name, or «Report»). The earlier product's error texts (docs/user-guide.md) go to the console; the page shows the user why.
import { useMutation } from "@tanstack/react-query";
import { api, encoded, isApiError, routePath, type ApiError, type FileJob } from "../../api/client";
import { clampDecimals, COMMA_KEY } from "../../shared/decimals";
import { saveBlob } from "../../shared/saveBlob";

export const EXPORT_FORMATS = ["txt", "xls", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportRequest {
  projectId: string;
  format: ExportFormat;
  detail: boolean;
}

/** The `comma` setting, when the user saved one; the server rounds to 2 decimals otherwise. */
export function storedDecimals(): number | undefined {
  const raw = localStorage.getItem(COMMA_KEY);
  return raw === null ? undefined : clampDecimals(raw, 2);
}

export function exportPath({ projectId, format, detail }: ExportRequest, decimals = storedDecimals()): Promise<string> {
  // docs/api.md: the plain export sends no detail parameter at all.
  const query = { detail: detail ? "true" : undefined, decimals: decimals === undefined ? undefined : String(decimals) } as const;
  return routePath("exports", (c) =>
    c[":id"][":action{export_to_[^\\x2f]*}"].$path({ param: encoded({ id: projectId, action: `export_to_${format}` }), query }),
  );
}

export async function exportProject(
  request: ExportRequest,
  onProgress?: (received: number) => void,
  onJob?: (job: FileJob) => void,
): Promise<string> {
  if (!request.projectId) {
    console.error("Project ID is required.");
    throw new Error("Выберите проект");
  }
  if (!EXPORT_FORMATS.includes(request.format)) throw new Error("Unsupported file type");
  try {
    const file = await api.download(await exportPath(request), onProgress, onJob);
    const fileName = file.fileName ?? `Report.${request.format}`;
    if (file.redirectUrl) window.location.assign(file.redirectUrl);
    else saveBlob(file.blob, fileName);
    return fileName;
  } catch (error) {
    if (isApiError(error) && error.status > 0) console.error("Network response was not ok", error.status, error.detail);
    console.error("Failed to export project", error);
    throw error;
  }
}

export function useExportProject(onProgress: (received: number) => void, onJob?: (job: FileJob) => void) {
  return useMutation<string, ApiError | Error, ExportRequest>({
    mutationFn: (request) => exportProject(request, onProgress, onJob),
  });
}
