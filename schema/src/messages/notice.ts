import { z } from "zod";
import { NOTICE_SEVERITIES } from "./constants.js";

export { NOTICE_SEVERITIES, type NoticeSeverity } from "./constants.js";

/**
 * A live notice for one player: something happened to their country that they should see at
 * once (attacked, a spy caught, an alliance invitation). The world room sends it to that
 * player's clients only, as WorldMessage.notice; domains choose the kind and the words.
 */

export const noticePayloadSchema = z.object({
  /** unique per notice (the event's id, e.g. "battle-42") */
  id: z.string(),
  /** the domain's kind, e.g. "attacked", "spy_detected" */
  kind: z.string(),
  severity: z.enum(NOTICE_SEVERITIES),
  title: z.string(),
  body: z.string(),
  /** epoch ms */
  at: z.number(),
  /** the view that shows more ("military", "spy-center"...), if any */
  view: z.string().optional(),
  /** the record it is about (a battle report id...), for the view */
  refId: z.number().optional(),
});
export type NoticePayload = z.infer<typeof noticePayloadSchema>;
