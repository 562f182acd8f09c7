// How a backup's (or a `.fawn`'s) feedback note is checked before it is written: the rating of a reply, or its
// withdrawal, with a comment no longer than the feedback domain keeps (protocol/feedback-api.ts).
import { z } from "zod";
import { FEEDBACK_COMMENT_MAX } from "../protocol/index.ts";

export const feedbackNoteSchema = z.object({
  kind: z.literal("feedback"),
  id: z.string().min(1).max(200),
  message_id: z.string().min(1).max(1000),
  rating: z.union([z.literal(1), z.literal(-1), z.null()]),
  comment: z.string().max(FEEDBACK_COMMENT_MAX).optional(),
  at: z.number().finite(),
});
