// Settings → Data (Fawn's own): the whole store as one backup archive, back in, or gone.
import { json, type RouteGroup } from "./route-kit.ts";

export const dataRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/data/export", async () => {
    const backup = await gateway.data.export();
    return new Response(backup.blob, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="${backup.file_name}"`,
      },
    });
  });
  // `?accept_additions=true` applies a backup that adds what can act or send data; without it that is only listed.
  app.post("/api/data/import", async (c) => {
    const accept = c.req.query("accept_additions") === "true";
    const archive = new Uint8Array(await c.req.raw.arrayBuffer());
    return json(await gateway.data.import(archive, { acceptAdditions: accept }));
  });
  app.delete("/api/data", async () => {
    await gateway.data.deleteAll();
    return json({ success: true });
  });
};
