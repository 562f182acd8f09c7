// Settings → Schedules: every schedule of the workspace on screen (this browser's, run while Fawn is open; or a
// server's, run by the server), each a group named by its name with on/off, Edit and Delete, and "New schedule".
import { SchedulesPanel, type SchedulesClient } from "../../schedules/schedules-panel.tsx";
import { useWorkspace } from "../../state/stores.tsx";

export function SchedulesTab(props: { client: SchedulesClient }) {
  const workspace = useWorkspace();
  return (
    <SchedulesPanel
      client={props.client}
      {...(workspace && { serverName: workspace.server()?.name ?? workspace.id })}
    />
  );
}
