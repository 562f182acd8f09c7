// The English dictionary, part: workspaces (the sidebar's "Workspace", a server workspace's note, Thread actions →
// Copy to…). en.ts joins the parts.
import { template } from "@solid-primitives/i18n";

export const enWorkspaces = {
  "workspace.label": "Workspace",
  "workspace.using": template<{ model: string; server: string }>(
    "Using {{ model }} on {{ server }}. This workspace's threads are kept on that server.",
  ),
  "workspace.usingServerModel": template<{ server: string }>(
    "Using the model {{ server }} runs its agent with. This workspace's threads are kept on that server.",
  ),
  "workspace.thisBrowser": "This browser",
  "workspace.notOpened": template<{ name: string; error: string }>(
    "{{ name }} could not be opened: {{ error }} Showing this browser's threads.",
  ),
  "workspace.uploadsOff": template<{ name: string }>("Uploads are not available on {{ name }}."),
  "workspace.copyTo": "Copy to…",
  "workspace.copying": template<{ name: string }>("Copying the thread to {{ name }}…"),
  "workspace.copied": template<{ name: string }>("Copied to {{ name }}."),
  "workspace.openCopy": "Open the copy",
  "workspace.notCopied": template<{ name: string; error: string }>("Not copied to {{ name }}: {{ error }}"),
};
