// Settings → Skills: the skills shipped with Fawn and those the user installed, each turned on or off; installing
// a skill from a .skill or .zip archive, and deleting an installed one.
import { createSignal, For, onMount, Show } from "solid-js";
import { createStore, reconcile } from "solid-js/store";
import { SKILL_ARCHIVE_LIMITS, type GatewayApi, type SkillInfo } from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { formatBytes, t } from "../../i18n/index.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";

/** The Gateway methods the Skills tab calls. */
export type SkillsClient = { skills: Pick<GatewayApi["skills"], "list" | "setEnabled" | "install" | "delete"> };

function SkillItem(props: {
  skill: SkillInfo;
  busy: boolean;
  confirming: boolean;
  onToggle: (enabled: boolean, box: HTMLInputElement) => void;
  onDelete: () => void;
  onConfirm: (confirming: boolean) => void;
}) {
  return (
    <li class="skill">
      <input
        type="checkbox"
        aria-label={t("skills.enable", { name: props.skill.name })}
        checked={props.skill.enabled}
        onChange={(event) => props.onToggle(event.currentTarget.checked, event.currentTarget)}
      />
      <div class="skill-text">
        <span class="skill-name">{props.skill.name}</span>
        <span class="skill-description">{props.skill.description}</span>
        <small class="skill-path">
          <code>{props.skill.path}</code>
        </small>
      </div>
      <Show when={props.skill.editable}>
        <div class="skill-actions">
          <Show
            when={props.confirming}
            fallback={
              <button
                type="button"
                class="ghost"
                aria-label={t("skills.deleteSkill", { name: props.skill.name })}
                disabled={props.busy}
                onClick={() => props.onConfirm(true)}
              >
                {t("common.delete")}
              </button>
            }
          >
            <button
              type="button"
              id={`skill-confirm-delete-${props.skill.name}`}
              class="danger"
              disabled={props.busy}
              onClick={() => props.onDelete()}
            >
              {t("common.confirmDelete")}
            </button>
            <button type="button" class="ghost" onClick={() => props.onConfirm(false)}>
              {t("skills.keep")}
            </button>
          </Show>
        </div>
      </Show>
    </li>
  );
}

export function SkillsTab(props: { client: SkillsClient }) {
  // A store reconciled by name keeps each item's elements across reloads, so a toggled checkbox keeps the focus.
  const [state, setState] = createStore<{ skills: SkillInfo[]; loaded: boolean }>({ skills: [], loaded: false });
  const [status, setStatus] = createSignal<Status | undefined>();
  const [busy, setBusy] = createSignal(false);
  const [confirming, setConfirming] = createSignal<string | undefined>();
  let picker!: HTMLInputElement;

  const refresh = async () => {
    setState("skills", reconcile(await props.client.skills.list(), { key: "name" }));
    setState("loaded", true);
  };

  onMount(() => {
    refresh().catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  const builtIn = () => state.skills.filter((skill) => skill.category === "public");
  const installed = () => state.skills.filter((skill) => skill.category === "custom");

  const toggle = async (skill: SkillInfo, enabled: boolean, box: HTMLInputElement) => {
    try {
      const updated = await props.client.skills.setEnabled(skill.name, enabled);
      setState("skills", (each) => each.name === updated.name, reconcile(updated));
      setStatus({
        kind: "ok",
        text: t(updated.enabled ? "skills.enabled" : "skills.disabled", { name: updated.name }),
      });
    } catch (error) {
      // The store did not change, so the checkbox is put back by hand.
      box.checked = skill.enabled;
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  const confirm = (name: string, on: boolean) => {
    setConfirming(on ? name : undefined);
    if (on) document.getElementById(`skill-confirm-delete-${name}`)?.focus();
  };

  const remove = async (name: string) => {
    setBusy(true);
    try {
      await props.client.skills.delete(name);
      setConfirming(undefined);
      await refresh();
      setStatus({ kind: "ok", text: t("skills.deleted", { name }) });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const install = async (file: File) => {
    if (file.size > SKILL_ARCHIVE_LIMITS.maxArchiveBytes) {
      setStatus({
        kind: "error",
        text: t("skills.tooLarge", {
          file: file.name,
          size: formatBytes(file.size),
          max: formatBytes(SKILL_ARCHIVE_LIMITS.maxArchiveBytes),
        }),
      });
      return;
    }
    setBusy(true);
    setStatus({ kind: "busy", text: t("skills.installing", { file: file.name }) });
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const skill = await props.client.skills.install({ name: file.name, bytes });
      await refresh();
      setStatus({ kind: "ok", text: t("skills.installed", { name: skill.name }) });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const list = (skills: SkillInfo[], labelledBy: string) => (
    <ul class="skill-list" aria-labelledby={labelledBy}>
      <For each={skills}>
        {(skill) => (
          <SkillItem
            skill={skill}
            busy={busy()}
            confirming={confirming() === skill.name}
            onToggle={(enabled, box) => void toggle(skill, enabled, box)}
            onDelete={() => void remove(skill.name)}
            onConfirm={(on) => confirm(skill.name, on)}
          />
        )}
      </For>
    </ul>
  );

  return (
    <div class="settings-form skills-tab">
      <p class="hint">{t("skills.intro")}</p>
      <div class="actions">
        <button type="button" disabled={busy()} onClick={() => picker.click()}>
          {t("skills.install")}
        </button>
        <input
          ref={picker}
          type="file"
          accept=".skill,.zip"
          hidden
          aria-label={t("skills.archive")}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = "";
            if (file) void install(file);
          }}
        />
      </div>
      <StatusLine status={status()} />
      <Show when={state.loaded} fallback={<p class="hint">{t("skills.loading")}</p>}>
        <section class="skill-group">
          <h3 id="skills-built-in">{t("skills.builtIn")}</h3>
          <Show when={builtIn().length > 0} fallback={<p class="hint">{t("skills.noneShipped")}</p>}>
            {list(builtIn(), "skills-built-in")}
          </Show>
        </section>
        <section class="skill-group">
          <h3 id="skills-installed">{t("skills.installedTitle")}</h3>
          <Show when={installed().length > 0} fallback={<p class="hint">{t("skills.noneInstalled")}</p>}>
            {list(installed(), "skills-installed")}
          </Show>
        </section>
      </Show>
    </div>
  );
}
