import { useQuery } from "@tanstack/react-query";
import type { AccountDeletedJson, AccountExportJson, AccountStatsJson, ChangePasswordRequest, DeleteAccountRequest } from "@game/schema/api";
import { routes } from "@game/schema/routes";
import { callRoute } from "./http";

/** The account calls' fallback messages. */
export const ACCOUNT_FALLBACK = {
  changePassword: "Failed to change password",
  export: "Failed to export account data",
  stats: "Failed to load account statistics",
  delete: "Failed to delete account",
} as const;

export const accountKeys = { stats: ["account", "stats"] as const };

export const accountApi = {
  async changePassword(body: ChangePasswordRequest): Promise<string> {
    return (await callRoute(routes.changePassword, body)).message;
  },
  async exportData(): Promise<AccountExportJson> {
    const { filename, export: data } = await callRoute(routes.exportAccount);
    return { filename, export: data };
  },
  async stats(): Promise<AccountStatsJson> {
    return (await callRoute(routes.accountStats)).stats;
  },
  async deleteAccount(body: DeleteAccountRequest): Promise<AccountDeletedJson> {
    return callRoute(routes.deleteAccount, body);
  },
};

export function useAccountStats() {
  return useQuery({ queryKey: accountKeys.stats, queryFn: accountApi.stats, staleTime: 30_000 });
}

/** Saves JSON as a file download in the browser (the export's file name carries the date). */
export function downloadJson(filename: string, data: unknown): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
