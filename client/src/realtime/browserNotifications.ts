import { useEffect, useRef, useSyncExternalStore } from "react";
import { useNotices, useUnreadNews } from "./hooks";

/**
 * Opt-in browser notifications (issue 30): while the game's tab is hidden, the alerts that call
 * for the player (an attack, spies detected, an ally asking for help) are also shown by the
 * browser (the Notification API). A choice of this browser (the permission is), kept in local
 * storage; off until the player turns it on under Settings, Notifications.
 */

/** The notice kinds shown as browser notifications. */
export const BROWSER_NOTICE_KINDS: ReadonlySet<string> = new Set(["attacked", "spy_detected", "ally_attacked"]);

const SETTING_KEY = "browser_notifications";
const listeners = new Set<() => void>();

export function browserNotificationsSupported(): boolean {
  return typeof window !== "undefined" && "Notification" in window;
}

export function browserNotificationsOn(): boolean {
  return localStorage.getItem(SETTING_KEY) === "on" && browserNotificationsSupported() && Notification.permission === "granted";
}

/** Turns them on (asking the browser's permission first) or off; answers whether they are on. */
export async function setBrowserNotifications(on: boolean): Promise<boolean> {
  if (on && browserNotificationsSupported() && Notification.permission !== "granted") await Notification.requestPermission();
  localStorage.setItem(SETTING_KEY, on ? "on" : "off");
  for (const l of listeners) l();
  return browserNotificationsOn();
}

/** Whether browser notifications are on (re-renders when the setting changes). */
export function useBrowserNotificationsOn(): boolean {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, browserNotificationsOn);
}

/** Shows the calling notices as browser notifications while the page is hidden. */
export function useBrowserNotifications(): void {
  const notices = useNotices();
  const shown = useRef(new Set<string>());
  const started = useRef(false);
  useEffect(() => {
    // notices already there when the game opened were seen on screen (toasts)
    if (!started.current) {
      started.current = true;
      for (const n of notices) shown.current.add(n.id);
      return;
    }
    for (const n of notices) {
      if (shown.current.has(n.id)) continue;
      shown.current.add(n.id);
      if (!BROWSER_NOTICE_KINDS.has(n.kind) || document.visibilityState !== "hidden" || !browserNotificationsOn()) continue;
      const notification = new Notification(n.title, { body: n.body, tag: n.id });
      notification.onclick = () => {
        window.focus();
        notification.close();
      };
    }
  }, [notices]);
}

/** The product title, with the unread news count in front while there is some: "(3) Nation Command". */
export function useUnreadTitle(product: string): void {
  const unread = useUnreadNews();
  useEffect(() => {
    document.title = unread ? `(${unread}) ${product}` : product;
    return () => {
      document.title = product;
    };
  }, [unread, product]);
}
