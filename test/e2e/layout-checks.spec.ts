// The layout checks (layout-checks.ts) on pages made for them: each rule finds what it should, names it, and lets
// pass what WCAG 2.2's target size criterion (2.5.8) lets pass.
import { expect, test, type Page } from "@playwright/test";
import { formatProblems, layoutProblems } from "./layout-checks.ts";

test.use({ viewport: { width: 390, height: 844 } });

async function problemsOf(page: Page, body: string): Promise<string[]> {
  await page.setContent(
    `<!doctype html><html><head><style>
      body { margin: 0; font: 16px/1.5 sans-serif; }
      button { margin: 0; padding: 0; border: 0; font: inherit; }
    </style></head><body>${body}</body></html>`,
  );
  return formatProblems(await layoutProblems(page));
}

test("a page wider than the viewport, and a control past its edge, are named", async ({ page }) => {
  const problems = await problemsOf(
    page,
    `<div style="width: 500px"><button style="width: 480px; height: 40px">Wide</button></div>`,
  );
  expect(problems).toEqual([
    expect.stringMatching(/^page-overflow: document .*the page is 500 px wide in a 390 px viewport/),
    expect.stringMatching(/^past-viewport: button "Wide" \(div > button\) at 0 0 480×40: reaches past/),
  ]);
});

test("a control in a strip that scrolls sideways is in reach; one in a box that also scrolls up and down is not", async ({
  page,
}) => {
  const strip = await problemsOf(
    page,
    `<div style="display: flex; overflow-x: auto; gap: 8px">${Array.from({ length: 8 }, (_, i) => `<button style="flex: none; width: 80px; height: 32px">Chip ${i}</button>`).join("")}</div>`,
  );
  expect(strip).toEqual([]);

  const dialog = await problemsOf(
    page,
    `<div style="position: fixed; inset: 20px; overflow: auto"><div style="height: 2000px"><button style="width: 420px; height: 40px">Add endpoint</button></div></div>`,
  );
  expect(dialog).toEqual([
    expect.stringMatching(
      /^sideways-scroll: div .*scrolls up and down, and its content is 420 px wide in 350 px.*Add endpoint/,
    ),
    expect.stringMatching(/^past-viewport: button "Add endpoint"/),
  ]);
});

test("a control that overflow: hidden cuts, or that a fixed box holds below the screen, is cut off", async ({
  page,
}) => {
  const hidden = await problemsOf(
    page,
    `<div style="width: 200px; overflow: hidden; white-space: nowrap"><span style="display: inline-block; width: 190px"></span><button style="width: 60px; height: 30px">Tools</button></div>`,
  );
  expect(hidden).toEqual([expect.stringMatching(/^cut-off: button "Tools" .*cut off at the side by div/)]);

  const fixed = await problemsOf(
    page,
    `<div style="position: fixed; top: 0; left: 0; right: 0; height: 1000px"><button style="margin-top: 830px; width: 80px; height: 40px">Save</button></div>`,
  );
  expect(fixed).toEqual([
    expect.stringMatching(/^cut-off: button "Save" .*past the top or bottom of the 844 px viewport/),
  ]);
});

test("an undersized target fails when its 24 px circle meets another target, and passes when spaced", async ({
  page,
}) => {
  const crowded = await problemsOf(
    page,
    `<button style="width: 20px; height: 20px" aria-label="Copy"></button><button style="width: 20px; height: 20px" aria-label="Regenerate"></button>`,
  );
  expect(crowded).toEqual([
    expect.stringMatching(
      /^target-size: button "Copy" .* 20×20 px is under 24×24, and a 24 px circle on it meets button "Regenerate"/,
    ),
    expect.stringMatching(/^target-size: button "Regenerate" .*meets button "Copy"/),
  ]);

  // 20 px targets 30 px apart, centre to centre: their 24 px circles do not meet.
  const spaced = await problemsOf(
    page,
    `<button style="width: 20px; height: 20px" aria-label="Copy"></button><button style="width: 20px; height: 20px; margin-left: 10px" aria-label="Regenerate"></button>`,
  );
  expect(spaced).toEqual([]);

  // 20 px apart, centre to centre: the circles meet, though neither meets the other's 4 px box.
  const circles = await problemsOf(
    page,
    `<button style="width: 4px; height: 4px; margin: 40px 0 0 40px" aria-label="A"></button><button style="width: 4px; height: 4px; margin-left: 16px" aria-label="B"></button>`,
  );
  expect(circles).toEqual([
    expect.stringMatching(/^target-size: button "A" .*meets button "B"/),
    expect.stringMatching(/^target-size: button "B" .*meets button "A"/),
  ]);
  // 30 px apart, they do not.
  const apart = await problemsOf(
    page,
    `<button style="width: 4px; height: 4px; margin: 40px 0 0 40px" aria-label="A"></button><button style="width: 4px; height: 4px; margin-left: 26px" aria-label="B"></button>`,
  );
  expect(apart).toEqual([]);
});

test("what a tap on a control activates is its target: a wrapping label, a card-wide ::after", async ({ page }) => {
  const labelled = await problemsOf(
    page,
    `<label style="display: inline-flex; align-items: center; height: 28px"><input type="checkbox" style="margin: 0"> Tools</label><button style="width: 60px; height: 28px">Next</button>`,
  );
  expect(labelled).toEqual([]);
  // Its own label's words do not make a checkbox a target in a sentence: too close to the next, it fails.
  const crowded = await problemsOf(
    page,
    `<div style="font-size: 12px; line-height: 1"><label><input type="checkbox" style="margin: 0"> Tools</label></div><button style="width: 60px; height: 28px">Next</button>`,
  );
  // A tap on a select's label opens nothing: a small select is measured alone, not with its label.
  const select = await problemsOf(
    page,
    `<label style="display: flex; align-items: center; height: 20px">Speed <select style="height: 16px; font-size: 11px"><option>1×</option></select></label><button style="width: 60px; height: 28px">Exit</button>`,
  );
  expect(select).toEqual([expect.stringMatching(/^target-size: select "Speed" .*meets button "Exit"/)]);
  expect(crowded).toEqual([
    expect.stringMatching(/^target-size: input\[type=checkbox\] "Tools" .*meets button "Next"/),
  ]);

  const card = await problemsOf(
    page,
    `<style>.card { position: relative; height: 100px } .card button::after { content: ""; position: absolute; inset: 0 }</style>
     <div class="card"><button style="height: 20px">A report</button></div><div class="card"><button style="height: 20px">A table</button></div>`,
  );
  expect(card).toEqual([]);
});

test("links and link-styled buttons inside a sentence are exempt; the same targets without the sentence are not", async ({
  page,
}) => {
  // Footnote marks: one-letter targets a few px apart, whose circles meet.
  const marks = `<a href="#a">1</a> <a href="#b">2</a> <button style="display: inline; background: none">3</button>`;
  const sentence = await problemsOf(page, `<p style="font-size: 14px; line-height: 1.2">As shown ${marks} before.</p>`);
  expect(sentence).toEqual([]);

  const alone = await problemsOf(page, `<p style="font-size: 14px; line-height: 1.2">${marks}</p>`);
  expect(alone).toEqual([
    expect.stringMatching(/^target-size: a "1"/),
    expect.stringMatching(/^target-size: a "2"/),
    expect.stringMatching(/^target-size: button "3"/),
  ]);
});

test("with a modal dialog open only the dialog is checked; hidden and disabled controls are not targets", async ({
  page,
}) => {
  await problemsOf(
    page,
    `<button style="width: 10px; height: 10px" aria-label="Behind"></button><button style="width: 10px; height: 10px" aria-label="Also behind"></button>
     <dialog><button style="width: 40px; height: 40px">Close</button></dialog>
     <button style="width: 10px; height: 10px; display: none">Gone</button>
     <button disabled style="width: 10px; height: 10px">Off</button><button disabled style="width: 10px; height: 10px">Off too</button>`,
  );
  await page.evaluate(() => document.querySelector("dialog")!.showModal());
  expect(formatProblems(await layoutProblems(page))).toEqual([]);
  await page.evaluate(() => document.querySelector("dialog")!.close());
  expect(formatProblems(await layoutProblems(page))).toEqual([
    expect.stringMatching(/^target-size: button "Behind"/),
    expect.stringMatching(/^target-size: button "Also behind"/),
  ]);
});
