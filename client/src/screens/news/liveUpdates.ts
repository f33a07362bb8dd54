import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { newsKeys } from "../../api/news";
import { useUnreadNews } from "../../realtime/hooks";

/**
 * Keeps the news lists live: the world room pushes the player's unread count whenever a news
 * item of theirs is published (attacked, war declared, spy caught...) or read, and each change
 * fetches the news lists again. Without it the overview's Happenings stayed "No new happenings"
 * through three attacks until the next sign-in (issue 30 #2).
 */
export function useNewsRefreshOnUnread(): void {
  const unread = useUnreadNews();
  const client = useQueryClient();
  const last = useRef<number | null>(null);
  useEffect(() => {
    if (unread === null) return;
    const before = last.current;
    last.current = unread;
    // The first count only says what the list fetched at mount already holds.
    if (before !== null && before !== unread) void client.invalidateQueries({ queryKey: newsKeys.all });
  }, [unread, client]);
}
