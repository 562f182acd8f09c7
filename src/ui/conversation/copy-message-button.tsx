// The Copy button of an Assistant message: the reply's Markdown as the model wrote it, not the rendered page.
import type { MessageContent } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";
import { CopyButton } from "../shared/copy-button.tsx";
import { messageCopyText } from "./copy-text.ts";

/** "Copy" for one Assistant message; `content` is read at click time. */
export function CopyMessageButton(props: { content: MessageContent }) {
  return <CopyButton label={t("copy.message")} text={() => messageCopyText(props.content)} class="copy-message" />;
}
