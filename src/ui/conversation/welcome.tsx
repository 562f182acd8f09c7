// The welcome screen of an empty thread: a greeting, which model answers (or how to set one up), and four examples
// of what the agent does. An example fills the composer rather than sending: each is a template people adapt (their
// topic, their file), and a filled box lets them read and edit it before anything costs a request.
import { For, Show } from "solid-js";
import type { AgentMode } from "../../protocol/index.ts";
import type { AppState } from "../app-state.ts";
import { rich, t, type TextKey } from "../i18n/index.ts";

interface Example {
  title: TextKey;
  prompt: TextKey;
  hint?: TextKey;
  /** The Mode the example needs (subagents need Ultra). */
  mode?: AgentMode;
  /** A 24×24 line drawing (an emoji would need an emoji font, which not every system has). */
  icon: string;
}

const EXAMPLES: readonly Example[] = [
  // A line chart.
  { title: "welcome.report", prompt: "welcome.reportPrompt", icon: "M4 4v16h16M7 15l4-5 3 3 5-6" },
  // A table.
  {
    title: "welcome.csv",
    prompt: "welcome.csvPrompt",
    hint: "welcome.csvHint",
    icon: "M4 5h16v14H4zM4 10h16M4 15h16M10 5v14",
  },
  // A browser window.
  { title: "welcome.page", prompt: "welcome.pagePrompt", icon: "M3 5h18v14H3zM3 9h18M6 7h.01M9 7h.01" },
  // Three nodes from one: subagents.
  {
    title: "welcome.research",
    prompt: "welcome.researchPrompt",
    hint: "welcome.researchHint",
    mode: "ultra",
    icon: "M10 3h4v4h-4zM12 7v4M6 11h12M6 11v4M12 11v4M18 11v4M4 15h4v4H4zM10 15h4v4h-4zM16 15h4v4h-4z",
  },
];

/** The example's element ids' stem: "welcome-report" for "welcome.report". */
const idOf = (example: Example) => example.title.replace(".", "-");

export function Welcome(props: { state: AppState }) {
  const configured = () => props.state.modelChoices().length > 0;
  const choose = (example: Example) => {
    if (example.mode) props.state.setMode(example.mode);
    props.state.composerExtras.fillComposer(t(example.prompt));
  };
  return (
    <div class="welcome">
      <h1>{t("conversation.welcome")}</h1>
      <Show
        when={configured()}
        fallback={
          <p>
            {rich("conversation.setUp", {
              link: (
                <button type="button" class="link-button" onClick={() => props.state.setSettingsOpen(true)}>
                  {t("conversation.setUpLink")}
                </button>
              ),
            })}
          </p>
        }
      >
        <p>{rich("conversation.using", { model: <strong>{props.state.model()?.id}</strong> })}</p>
      </Show>
      <Show when={props.state.canReply()}>
        <section class="welcome-examples" aria-labelledby="welcome-examples-title">
          <h2 id="welcome-examples-title">{t("welcome.examples")}</h2>
          <ul>
            <For each={EXAMPLES}>
              {(example) => (
                <li class="welcome-card">
                  <svg class="welcome-icon" aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
                    <path
                      d={example.icon}
                      fill="none"
                      stroke="currentColor"
                      stroke-width="1.7"
                      stroke-linecap="round"
                      stroke-linejoin="round"
                    />
                  </svg>
                  {/* The button is its title (its name is what it shows); it covers the whole card, so the prompt
                      below, which describes it, is a click target too. */}
                  <button
                    type="button"
                    class="welcome-example"
                    aria-describedby={`${idOf(example)}-prompt${example.hint ? ` ${idOf(example)}-hint` : ""}`}
                    onClick={() => choose(example)}
                  >
                    {t(example.title)}
                  </button>
                  <span class="welcome-prompt" id={`${idOf(example)}-prompt`}>
                    {t(example.prompt)}
                  </span>
                  <Show when={example.hint}>
                    {(hint) => (
                      <span class="welcome-hint" id={`${idOf(example)}-hint`}>
                        {t(hint())}
                      </span>
                    )}
                  </Show>
                </li>
              )}
            </For>
          </ul>
        </section>
      </Show>
    </div>
  );
}
