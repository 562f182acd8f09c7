// The one-line outcome of an action: an alert for an error (read out at once), a polite status otherwise.
import { Show } from "solid-js";

/** What a view tells the user about its last action. */
export interface Status {
  kind: "ok" | "error" | "busy";
  text: string;
}

export function StatusLine(props: { status: Status | undefined }) {
  return (
    <Show when={props.status}>
      {(current) => (
        <p class={`status ${current().kind}`} role={current().kind === "error" ? "alert" : "status"}>
          {current().text}
        </p>
      )}
    </Show>
  );
}
