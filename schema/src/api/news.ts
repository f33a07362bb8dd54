import { z } from "zod";
import {
  NEWS_CATEGORIES,
  NEWS_TYPES,
  type NewsCategory,
  type NewsImpact,
  type NewsKind,
  type NewsParticipant,
  type NewsPriority,
  type NewsType,
} from "../rules/news.js";
import { idParamSchema, limitSchema, pageSchema } from "./common.js";

/** Items per page of GET /news: default and ceiling. */
export const NEWS_PAGE_DEFAULT = 20;
export const NEWS_PAGE_MAX = 100;

/**
 * GET /api/news?category=&type=&page=&limit=&unread=: category one of global, alliance,
 * personal (absent or "all": every category); type one of the spec's types (absent or "all":
 * every type); page from 1.
 */
export const newsQuerySchema = z.object({
  category: z
    .enum(["all", ...NEWS_CATEGORIES], { error: `category must be one of all, ${NEWS_CATEGORIES.join(", ")}` })
    .default("all"),
  type: z.enum(["all", ...NEWS_TYPES], { error: `type must be one of all, ${NEWS_TYPES.join(", ")}` }).default("all"),
  page: pageSchema,
  limit: limitSchema(NEWS_PAGE_DEFAULT, NEWS_PAGE_MAX),
  /** "true": unread items only */
  unread: z.enum(["true", "false"], { error: "unread must be true or false" }).default("false"),
});
export type NewsQuery = z.infer<typeof newsQuerySchema>;

/** POST /api/news/{id}/read */
export const newsIdParamsSchema = z.object({ id: idParamSchema });

/** A news item (spec: id, type, title, description, content, timestamp, priority, participants, tags, isRead, category, location, impact). */
export interface NewsItemJson {
  /** the item's id as a string */
  id: string;
  /** the catalogue entry that produced it */
  kind: NewsKind;
  type: NewsType;
  title: string;
  description: string;
  content: string;
  /** ISO time */
  timestamp: string;
  priority: NewsPriority;
  participants: NewsParticipant[];
  tags: string[];
  isRead: boolean;
  category: NewsCategory;
  location: string;
  impact: NewsImpact;
  /** the battle a battle item reports (its report and replay), else null */
  battleId: number | null;
}

/** GET /news */
export interface NewsListResponse {
  data: NewsItemJson[];
  /** unread items the caller can see, whatever the filters */
  unreadCount: number;
  /** items matching the filters */
  total: number;
  page: number;
  limit: number;
}

/** POST /news/{id}/read and POST /news/read-all */
export interface NewsReadResponse {
  unreadCount: number;
}
