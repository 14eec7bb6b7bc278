// The company's own forecast models (forecast_models/, PATCH …/{method}/{id}/own/): which one the
// company's forecasts use, how it is named, archived or not. The list and its query key are the
// models screen's of /admin (features/admin/api.ts), so both screens show one list.
import { typedClient } from "../../api/client";
import type { ForecastMethod, ForecastModelVersion } from "../../api/admin";

const forecastModels = typedClient("forecastModels");

export interface OwnModelChange {
  is_active?: boolean;
  description?: string;
  archived?: boolean;
}

/** PATCH forecast_models/{method}/{id}/own/: the company's own version as changed. */
export function changeOwnForecastModel(method: ForecastMethod, id: string, change: OwnModelChange): Promise<ForecastModelVersion> {
  return forecastModels((c) => c[":method"][":id"].own.$patch({ param: { method, id }, json: change }));
}
