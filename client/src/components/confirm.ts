import { useCallback } from "react";
import { defaultSettings } from "@game/schema/api/settingsDefaults";
import { useSettings } from "../api/shell";

/**
 * Asks the player before a costly action: always for the actions that cannot be taken back
 * cheaply (a war declaration: about $950 a turn for 48 hours at least), and for purchases,
 * missile launches and government changes while the "Confirm actions" setting is on (its
 * default). Returns whether to go ahead. The browser's own dialog: modal, announced by screen
 * readers and answered with the keyboard.
 */
export function useConfirmAction(): (question: string, options?: { always?: boolean }) => boolean {
  const settings = useSettings();
  const confirmActions = settings.data?.settings?.gameplay?.confirmActions ?? defaultSettings().gameplay.confirmActions;
  return useCallback((question, options) => (!confirmActions && !options?.always) || window.confirm(question), [confirmActions]);
}
