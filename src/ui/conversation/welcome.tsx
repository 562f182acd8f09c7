// The welcome screen of an empty thread: a greeting, which model answers (or how to set one up), and four examples
// of what the agent does. An example fills the composer rather than sending: each is a template people adapt (their
// topic, their file), and a filled box lets them read and edit it before anything costs a request.
import { For, Show } from "solid-js";
import { useComposerExtras, useModelChoice, useNotices, useOpenThread, useWorkspace } from "../state/stores.tsx";
import { rich, t } from "../i18n/index.ts";
import { WELCOME_EXAMPLES as EXAMPLES, type WelcomeExample as Example } from "./welcome-examples.ts";

/** The example's element ids' stem: "welcome-report" for "welcome.report". */
const idOf = (example: Example) => example.title.replace(".", "-");

export function Welcome() {
  const modelChoice = useModelChoice();
  const notices = useNotices();
  const openThread = useOpenThread();
  const extras = useComposerExtras();
  const workspace = useWorkspace();
  const configured = () => modelChoice.modelChoices().length > 0;
  const choose = (example: Example) => {
    if (example.mode) modelChoice.setMode(example.mode);
    extras.fillComposer(t(example.prompt));
  };
  return (
    <div class="welcome">
      <h1>{t("conversation.welcome")}</h1>
      <Show
        when={configured() || workspace}
        fallback={
          <p>
            {rich("conversation.setUp", {
              link: (
                <button type="button" class="link-button" onClick={() => notices.setSettingsOpen(true)}>
                  {t("conversation.setUpLink")}
                </button>
              ),
            })}
          </p>
        }
      >
        {/* A server workspace's threads are kept on its server; it is named once its record is read. */}
        <Show
          when={workspace}
          fallback={<p>{rich("conversation.using", { model: <strong>{modelChoice.model()?.id}</strong> })}</p>}
        >
          {(shown) => (
            <Show when={shown().server()?.name}>
              {(server) => (
                <p>
                  {configured()
                    ? rich("workspace.using", { model: <strong>{modelChoice.model()?.id}</strong>, server: server() })
                    : // A server whose models are not listed (langgraphjs dev): its graph's own model answers.
                      rich("workspace.usingServerModel", { server: server() })}
                </p>
              )}
            </Show>
          )}
        </Show>
      </Show>
      <Show when={openThread.canReply()}>
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
