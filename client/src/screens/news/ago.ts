/* Apart from NewsScreen so the overview (Happenings, World News) does not load the news screen with it (issue 30). */
import { shortDateText } from "../../components/format";

/** "5 minutes ago", "3 hours ago", a date beyond a week. */
export function ago(iso: string, now = Date.now()): string {
  const ms = now - Date.parse(iso);
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} ${minutes === 1 ? "minute" : "minutes"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} ${hours === 1 ? "hour" : "hours"} ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days} ${days === 1 ? "day" : "days"} ago`;
  return shortDateText(Date.parse(iso));
}
