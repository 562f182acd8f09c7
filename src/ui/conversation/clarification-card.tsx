// The Clarification card: the agent's question (ask_clarification) with option buttons and a free answer, or a
// form. Only the latest open question takes an answer; an answered one shows the answer, read-only.
import { createMemo, createSignal, createUniqueId, For, Index, Match, Show, Switch } from "solid-js";
import type { HumanInputField, HumanInputFormRequest, HumanInputRequest } from "../../protocol/index.ts";
import {
  emptyFormValues,
  formProblems,
  humanInputReply,
  type FieldValue,
  type HumanInputAnswer,
} from "./clarification-form.ts";
import { t } from "../i18n/index.ts";

/** Answers as they are sent: the reply's text. */
export type AnswerHandler = (text: string) => void;

function FreeAnswer(props: { request: HumanInputRequest; onAnswer: AnswerHandler }) {
  const [text, setText] = createSignal("");
  const submit = () => {
    const reply = humanInputReply(props.request, { kind: "text", text: text() });
    if (reply) props.onAnswer(reply);
  };
  const withOptions = () => props.request.input_mode === "choice_with_other";
  return (
    <form
      class="clarification-answer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Show
        when={withOptions()}
        fallback={
          <textarea
            aria-label={t("clarification.yourAnswer")}
            placeholder={t("clarification.yourAnswer")}
            rows={2}
            value={text()}
            onInput={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
                event.preventDefault();
                submit();
              }
            }}
          />
        }
      >
        <input
          type="text"
          aria-label={t("clarification.yourAnswer")}
          placeholder={t("clarification.otherAnswer")}
          value={text()}
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </Show>
      <button type="submit" class="primary" disabled={text().trim().length === 0}>
        {t("clarification.answer")}
      </button>
    </form>
  );
}

interface FieldProps {
  field: HumanInputField;
  id: string;
  value: FieldValue | undefined;
  problem: string | undefined;
  onChange: (value: FieldValue) => void;
}

/** The attributes every control of a field shares: its id, and what assistive technology says about it. */
function controlAttributes(props: FieldProps) {
  return {
    id: props.id,
    "aria-required": props.field.required ? ("true" as const) : undefined,
    "aria-invalid": props.problem ? ("true" as const) : undefined,
    "aria-describedby": props.problem ? `${props.id}-problem` : undefined,
  };
}

function RequiredMarker(props: { field: HumanInputField }) {
  return (
    <Show when={props.field.required}>
      <span class="clarification-required" aria-hidden="true">
        {" *"}
      </span>
    </Show>
  );
}

/** A text, textarea, number, date or select field: a label above its control. */
function LabelledControl(props: FieldProps) {
  const text = () => (typeof props.value === "string" ? props.value : "");
  const type = () => (props.field.type === "number" || props.field.type === "date" ? props.field.type : "text");
  return (
    <>
      <label for={props.id}>
        {props.field.label}
        <RequiredMarker field={props.field} />
      </label>
      <Switch
        fallback={
          <input
            {...controlAttributes(props)}
            type={type()}
            step={type() === "number" ? "any" : undefined}
            placeholder={props.field.placeholder}
            value={text()}
            onInput={(event) => props.onChange(event.currentTarget.value)}
          />
        }
      >
        <Match when={props.field.type === "textarea"}>
          <textarea
            {...controlAttributes(props)}
            rows={3}
            placeholder={props.field.placeholder}
            value={text()}
            onInput={(event) => props.onChange(event.currentTarget.value)}
          />
        </Match>
        <Match when={props.field.type === "select"}>
          <select
            {...controlAttributes(props)}
            value={text()}
            onChange={(event) => props.onChange(event.currentTarget.value)}
          >
            <option value="">{props.field.placeholder ?? t("clarification.choose")}</option>
            <For each={props.field.options}>{(option) => <option value={option.value}>{option.label}</option>}</For>
          </select>
        </Match>
      </Switch>
    </>
  );
}

/** A multi_select field: one checkbox per option, under the field's label. */
function MultiSelectControl(props: FieldProps) {
  const ticked = () => (Array.isArray(props.value) ? (props.value as readonly string[]) : []);
  const toggle = (value: string, on: boolean) => {
    // Kept in the options' order, whatever order they were ticked in.
    const next = new Set(ticked().filter((item) => item !== value));
    if (on) next.add(value);
    props.onChange((props.field.options ?? []).map((option) => option.value).filter((item) => next.has(item)));
  };
  return (
    <fieldset class="clarification-choices" aria-describedby={props.problem ? `${props.id}-problem` : undefined}>
      <legend>
        {props.field.label}
        <RequiredMarker field={props.field} />
      </legend>
      <For each={props.field.options}>
        {(option) => (
          <label class="clarification-check">
            <input
              type="checkbox"
              checked={ticked().includes(option.value)}
              onChange={(event) => toggle(option.value, event.currentTarget.checked)}
            />
            {option.label}
          </label>
        )}
      </For>
    </fieldset>
  );
}

/** One field of a form, with its problem (if any) below it. */
function FieldControl(props: FieldProps) {
  return (
    <div class="clarification-field" classList={{ invalid: Boolean(props.problem) }}>
      <Switch fallback={<LabelledControl {...props} />}>
        <Match when={props.field.type === "checkbox"}>
          <label class="clarification-check">
            <input
              {...controlAttributes(props)}
              type="checkbox"
              checked={props.value === true}
              onChange={(event) => props.onChange(event.currentTarget.checked)}
            />
            {props.field.label}
            <RequiredMarker field={props.field} />
          </label>
        </Match>
        <Match when={props.field.type === "multi_select"}>
          <MultiSelectControl {...props} />
        </Match>
      </Switch>
      <Show when={props.problem}>
        {(problem) => (
          <p class="clarification-problem" id={`${props.id}-problem`}>
            {problem()}
          </p>
        )}
      </Show>
    </div>
  );
}

function FormAnswer(props: { request: HumanInputFormRequest; onAnswer: AnswerHandler }) {
  const prefix = createUniqueId();
  const [values, setValues] = createSignal<ReadonlyMap<string, FieldValue>>(emptyFormValues(props.request));
  // Problems show once the user tries to send, then follow their edits.
  const [tried, setTried] = createSignal(false);
  const problems = createMemo(() => formProblems(props.request, values()));
  const [empty, setEmpty] = createSignal(false);
  const answer = (): HumanInputAnswer => ({ kind: "form", values: values() });
  return (
    <form
      class="clarification-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (problems().size > 0) return;
        const reply = humanInputReply(props.request, answer());
        setEmpty(!reply);
        if (reply) props.onAnswer(reply);
      }}
    >
      <Index each={props.request.fields}>
        {(field, index) => (
          <FieldControl
            field={field()}
            id={`${prefix}-${index}`}
            value={values().get(field().name)}
            problem={tried() ? problems().get(field().name) : undefined}
            onChange={(value) => {
              setEmpty(false);
              setValues((all) => new Map(all).set(field().name, value));
            }}
          />
        )}
      </Index>
      <Show when={tried() && (problems().size > 0 || empty())}>
        <p class="clarification-problem" role="alert">
          {problems().size > 0
            ? t("clarification.beforeAnswering", { problems: [...problems().values()].join(" ") })
            : t("clarification.fillOne")}
        </p>
      </Show>
      <div class="clarification-form-actions">
        <button type="submit" class="primary">
          {t("clarification.answer")}
        </button>
      </div>
    </form>
  );
}

/**
 * The question of `request`. With `onAnswer` (the latest open question, nothing running) it takes an answer;
 * once a later message answers it, it shows `answer`, read-only.
 */
export function ClarificationCard(props: {
  request: HumanInputRequest;
  answer?: string | undefined;
  onAnswer?: AnswerHandler | undefined;
}) {
  const answer = () => props.answer;
  const onAnswer = () => (answer() === undefined ? props.onAnswer : undefined);
  const options = () => (props.request.input_mode === "choice_with_other" ? (props.request.options ?? []) : []);
  const form = () => (props.request.input_mode === "form" ? props.request : undefined);
  const pick = (index: number) => {
    const option = options()[index];
    const reply = option && humanInputReply(props.request, { kind: "option", option });
    if (reply) onAnswer()?.(reply);
  };
  return (
    <div class="clarification" role="group" aria-label={t("clarification.group")}>
      <Show when={props.request.context}>{(context) => <p class="clarification-context">{context()}</p>}</Show>
      <p class="clarification-question">{props.request.question}</p>
      <Show when={options().length > 0}>
        <div class="clarification-options">
          <For each={options()}>
            {(option, index) => (
              <button
                type="button"
                class="chip"
                disabled={!onAnswer()}
                aria-pressed={answer() === undefined ? undefined : answer() === option.value}
                onClick={() => pick(index())}
              >
                {option.label}
              </button>
            )}
          </For>
        </div>
      </Show>
      <Show when={onAnswer()}>
        {(handler) => (
          <Show when={form()} fallback={<FreeAnswer request={props.request} onAnswer={handler()} />}>
            {(request) => <FormAnswer request={request()} onAnswer={handler()} />}
          </Show>
        )}
      </Show>
      <Show when={answer()}>
        {(value) => (
          <p class="clarification-answered">
            <span class="clarification-answered-label">{t("clarification.answered")}</span> {value()}
          </p>
        )}
      </Show>
    </div>
  );
}
