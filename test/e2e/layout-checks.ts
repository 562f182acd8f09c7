// Layout checks for the end-to-end tests: nothing overflows the viewport horizontally, no control is cut off, and
// every control is a target of at least 24×24 CSS px (WCAG 2.2 success criterion 2.5.8, Target Size (Minimum), with
// its spacing and inline exceptions). Each problem names the element (role, accessible name, a CSS path) and its box,
// so a failure says what to fix.
import type { Page } from "@playwright/test";

/** The minimum target size of WCAG 2.2 SC 2.5.8, in CSS px. */
export const MIN_TARGET = 24;

export interface LayoutProblem {
  /**
   * page-overflow: the document is wider than the viewport; past-viewport: a control reaches past its left or right
   * edge; sideways-scroll: a box that scrolls up and down is also wider than itself, so part of it is off to the side;
   * cut-off: a control is clipped by a box it cannot be scrolled into; target-size: SC 2.5.8 fails.
   */
  kind: "page-overflow" | "past-viewport" | "sideways-scroll" | "cut-off" | "target-size";
  /** Role "name" (CSS path) of the element, or "document". */
  element: string;
  /** Its box: x y width×height, in CSS px. */
  box: string;
  detail: string;
}

/** What a pointer or a finger can aim at. Labels are not listed: they count as part of the control they label. */
const INTERACTIVE = [
  "a[href]",
  "button",
  "input:not([type=hidden])",
  "select",
  "textarea",
  "summary",
  "[contenteditable=''], [contenteditable=true]",
  ...[
    "button",
    "link",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "spinbutton",
    "combobox",
    "textbox",
    "searchbox",
    "treeitem",
  ].map((role) => `[role=${role}]`),
].join(", ");

/**
 * Everything wrong with the page as it is now (an empty list when all is well). Looks inside the top-most modal
 * dialog when one is open (the rest of the page is inert then), else at the whole page, and checks that:
 *
 * - the document is no wider than the viewport (`scrollWidth <= innerWidth`);
 * - no visible control reaches past the viewport's left or right edge, unless it sits in a strip that scrolls only
 *   sideways (a row of chips, a code block) and that strip is on screen;
 * - no box that scrolls up and down is wider than itself (a dialog whose fields stick out to the right);
 * - no visible control is cut off by a box that clips without scrolling (`overflow: hidden` or `clip`), nor, inside
 *   a fixed box (a dialog, a drawer), by the bottom of the viewport, which such a box does not scroll with;
 * - every visible, enabled control is a target of at least 24×24 CSS px. A control's target is what a tap on it
 *   activates: its box, a `<label>` that names it (but a select's or slider's label, which only focuses it), and a
 *   `::before`/`::after` it stretches over its card. SC 2.5.8's
 *   exceptions apply: an undersized target passes when a circle of 24 px diameter centred on its box intersects
 *   neither another target nor another undersized target's circle (spacing), and a target inside a sentence (a
 *   link, a link-styled button laid out inline) passes (inline). Its other exceptions (an equivalent control elsewhere, a size the browser sets, an essential
 *   presentation) cannot be judged by a script and are not taken.
 */
export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(
    ({ selector, min }) => {
      type Kind = "page-overflow" | "past-viewport" | "sideways-scroll" | "cut-off" | "target-size";
      interface Rect {
        left: number;
        top: number;
        right: number;
        bottom: number;
        width: number;
        height: number;
      }
      const problems: { kind: Kind; element: string; box: string; detail: string }[] = [];
      const viewWidth = window.innerWidth;
      const viewHeight = window.innerHeight;
      const slack = 1;
      const round = (n: number) => Math.round(n * 10) / 10;
      const boxText = (r: Rect) => `${round(r.left)} ${round(r.top)} ${round(r.width)}×${round(r.height)}`;
      const rect = (left: number, top: number, width: number, height: number): Rect => ({
        left,
        top,
        width,
        height,
        right: left + width,
        bottom: top + height,
      });
      const rectOf = (r: DOMRect): Rect => rect(r.left, r.top, r.width, r.height);
      const union = (a: Rect, b: Rect) => {
        const left = Math.min(a.left, b.left);
        const top = Math.min(a.top, b.top);
        return rect(left, top, Math.max(a.right, b.right) - left, Math.max(a.bottom, b.bottom) - top);
      };

      function path(el: Element): string {
        const parts: string[] = [];
        for (
          let node: Element | null = el;
          node && node !== document.body && parts.length < 4;
          node = node.parentElement
        ) {
          if (node.id) {
            parts.unshift(`${node.localName}#${node.id}`);
            break;
          }
          let part = node.localName;
          const classes = [...node.classList].slice(0, 2);
          if (classes.length > 0) part += `.${classes.join(".")}`;
          const parent = node.parentElement;
          const same = parent ? [...parent.children].filter((child) => child.localName === node!.localName) : [];
          if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
          parts.unshift(part);
        }
        return parts.join(" > ");
      }

      function roleOf(el: Element): string {
        const explicit = el.getAttribute("role");
        if (explicit) return explicit;
        if (el.localName === "input") return `input[type=${(el as HTMLInputElement).type}]`;
        return el.localName;
      }

      /** The accessible name, roughly as assistive technology computes it (enough to find the control). */
      function nameOf(el: Element): string {
        const text = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
        const labelledBy = el.getAttribute("aria-labelledby");
        if (labelledBy) {
          const named = text(
            labelledBy
              .split(/\s+/)
              .map((id) => document.getElementById(id)?.textContent ?? "")
              .join(" "),
          );
          if (named) return named;
        }
        const label = text(el.getAttribute("aria-label"));
        if (label) return label;
        const labels = (el as HTMLInputElement).labels;
        if (labels && labels.length > 0) {
          // A label's own words, without the text of the control it wraps (a select's options).
          const words = [...labels].map((l) => {
            const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
            let found = "";
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (!el.contains(node)) found += ` ${node.textContent ?? ""}`;
            }
            return found;
          });
          const named = text(words.join(" "));
          if (named) return named;
        }
        const own = text((el as HTMLElement).innerText ?? el.textContent);
        if (own) return own.slice(0, 60);
        return text(el.getAttribute("title") ?? el.getAttribute("placeholder") ?? el.getAttribute("alt"));
      }

      const describe = (el: Element) => `${roleOf(el)} "${nameOf(el)}" (${path(el)})`;

      const doc = document.documentElement;
      if (doc.scrollWidth > viewWidth) {
        const past = [...document.body.querySelectorAll("*")]
          .filter((el) => el.getBoundingClientRect().right > viewWidth + 0.5 && el.checkVisibility())
          .slice(0, 3)
          .map((el) => path(el))
          .join("; ");
        problems.push({
          kind: "page-overflow",
          element: "document",
          box: `0 0 ${doc.scrollWidth}×${doc.scrollHeight}`,
          detail: `the page is ${doc.scrollWidth} px wide in a ${viewWidth} px viewport (past its right edge: ${past})`,
        });
      }

      // The top-most modal dialog makes everything outside it inert.
      const modals = [...document.querySelectorAll("dialog")].filter((d) => d.matches(":modal"));
      const topModal = modals.find((d) => {
        const r = d.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
        return hit !== null && d.contains(hit);
      });
      const scope: Element = topModal ?? modals.at(-1) ?? document.body;

      const scrollsX = (style: CSSStyleDeclaration) => style.overflowX === "auto" || style.overflowX === "scroll";
      const scrollsY = (style: CSSStyleDeclaration) => style.overflowY === "auto" || style.overflowY === "scroll";
      /** Boxes whose own content is meant to scroll sideways and may: code, text fields, the terminal. */
      const sidewaysContent = (el: Element) => el.matches("pre, code, textarea, input, .xterm, .xterm *");

      // Boxes that scroll up and down and are wider than themselves: what sticks out is off to the side.
      for (const el of [scope, ...scope.querySelectorAll("*")]) {
        if (sidewaysContent(el)) continue;
        const style = getComputedStyle(el);
        if (!(scrollsX(style) && scrollsY(style))) continue;
        if (el.scrollWidth <= el.clientWidth + slack || el.scrollHeight <= el.clientHeight + slack) continue;
        if (!el.checkVisibility()) continue;
        const r = el.getBoundingClientRect();
        const edge = r.left + el.clientLeft + el.clientWidth;
        const sticking = [...el.querySelectorAll("*")]
          .filter((child) => child.getBoundingClientRect().right > edge + slack && child.checkVisibility())
          .filter((child, _, all) => !all.some((other) => other !== child && other.contains(child)))
          .slice(0, 4)
          .map((child) => `${roleOf(child)} "${nameOf(child).slice(0, 30)}"`)
          .join(", ");
        problems.push({
          kind: "sideways-scroll",
          element: `${roleOf(el)} "${nameOf(el).slice(0, 30)}" (${path(el)})`,
          box: boxText(rectOf(r)),
          detail:
            `scrolls up and down, and its content is ${el.scrollWidth} px wide in ${el.clientWidth} px, so part of ` +
            `it is off to the side (sticking out: ${sticking || "?"})`,
        });
      }

      function visuallyHidden(el: Element, r: DOMRect): boolean {
        if (r.width <= 1 || r.height <= 1) return true;
        const style = getComputedStyle(el);
        return style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)";
      }

      interface Control {
        el: Element;
        /** What is drawn of it: its own box, or for a visually hidden input, its label's. */
        shown: Rect;
      }
      const controls: Control[] = [];
      for (const el of scope.querySelectorAll(selector)) {
        if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
        if (el.closest("[inert]")) continue;
        const own = el.getBoundingClientRect();
        if (!visuallyHidden(el, own)) {
          controls.push({ el, shown: rectOf(own) });
          continue;
        }
        // A visually hidden input drawn as its label (a pill radio, a custom switch) is the label on screen.
        const label = [...((el as HTMLInputElement).labels ?? [])]
          .filter((l) => l.checkVisibility())
          .map((l) => l.getBoundingClientRect())
          .find((lr) => lr.width > 1 && lr.height > 1);
        if (label) controls.push({ el, shown: rectOf(label) });
      }

      /** The nearest ancestor that scrolls only sideways (a strip), or null. */
      function sidewaysStrip(el: Element): Element | null {
        for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
          const style = getComputedStyle(node);
          if (scrollsX(style) && (!scrollsY(style) || node.scrollHeight <= node.clientHeight + slack)) return node;
          if (scrollsY(style)) return null;
        }
        return null;
      }

      /** Why the control is cut off, or null: the first ancestor that clips part of it out of reach. */
      function cutOffBy(el: Element, r: Rect): string | null {
        for (let node = el.parentElement; node && node !== document.documentElement; node = node.parentElement) {
          const style = getComputedStyle(node);
          const nr = node.getBoundingClientRect();
          const clipsX = style.overflowX === "hidden" || style.overflowX === "clip";
          const clipsY = style.overflowY === "hidden" || style.overflowY === "clip";
          const outX = r.left < nr.left - slack || r.right > nr.right + slack;
          const outY = r.top < nr.top - slack || r.bottom > nr.bottom + slack;
          if (clipsX && outX) return `cut off at the side by ${path(node)} (${boxText(rectOf(nr))}, overflow-x hidden)`;
          if (clipsY && outY) return `cut off at the top or bottom by ${path(node)} (${boxText(rectOf(nr))})`;
          if (scrollsX(style) && scrollsY(style) && outX && node.scrollHeight > node.clientHeight + slack) {
            return `off to the side of ${path(node)} (${boxText(rectOf(nr))}), a box that scrolls up and down`;
          }
          // A control scrolled out of a box that scrolls it back in is in reach.
          if (scrollsX(style) || scrollsY(style)) return null;
          if (style.position === "fixed") {
            if (r.bottom > viewHeight + slack || r.top < -slack) {
              return `past the top or bottom of the ${viewHeight} px viewport, inside ${path(node)}, a fixed box that does not scroll`;
            }
            return null;
          }
        }
        return null;
      }

      for (const { el, shown: r } of controls) {
        if (r.left < -0.5 || r.right > viewWidth + 0.5) {
          const strip = sidewaysStrip(el);
          const sr = strip?.getBoundingClientRect();
          if (!sr || sr.left < -0.5 || sr.right > viewWidth + 0.5) {
            problems.push({
              kind: "past-viewport",
              element: describe(el),
              box: boxText(r),
              detail: `reaches past the ${viewWidth} px viewport (left ${round(r.left)}, right ${round(r.right)})`,
            });
            continue;
          }
        }
        const cut = cutOffBy(el, r);
        if (cut) problems.push({ kind: "cut-off", element: describe(el), box: boxText(r), detail: cut });
      }

      // --- Target size (SC 2.5.8). ---

      /** The box a `::before`/`::after` of `el` covers, when it is positioned (a card-wide hit area), else null. */
      function pseudoRect(el: Element, pseudo: "::before" | "::after"): Rect | null {
        const style = getComputedStyle(el, pseudo);
        if (style.content === "none" || style.content === "normal" || style.display === "none") return null;
        if (style.pointerEvents === "none") return null;
        if (style.position !== "absolute" && style.position !== "fixed") return null;
        let block: Element | null = el;
        if (style.position === "absolute") {
          while (block && block !== document.body && getComputedStyle(block).position === "static") {
            block = block.parentElement;
          }
        }
        const base =
          style.position === "fixed" || !block
            ? rect(0, 0, viewWidth, viewHeight)
            : (() => {
                const b = block.getBoundingClientRect();
                const bs = getComputedStyle(block);
                const left = b.left + parseFloat(bs.borderLeftWidth);
                const top = b.top + parseFloat(bs.borderTopWidth);
                return rect(left, top, block.clientWidth, block.clientHeight);
              })();
        const width = parseFloat(style.width);
        const height = parseFloat(style.height);
        const left = parseFloat(style.left);
        const top = parseFloat(style.top);
        if (![width, height, left, top].every(Number.isFinite)) return null;
        return rect(base.left + left, base.top + top, width, height);
      }

      /** The control's target: its box, grown by a label that names it and a positioned pseudo-element it draws. */
      function targetRect(el: Element, shown: Rect): Rect {
        let target = shown;
        for (const pseudo of ["::before", "::after"] as const) {
          const extra = pseudoRect(el, pseudo);
          if (extra) target = union(target, extra);
        }
        // A tap on a label checks a checkbox and focuses a text field, but opens no select or slider.
        const opensFromLabel = !el.matches("select, input[type=range]");
        for (const label of opensFromLabel ? ((el as HTMLInputElement).labels ?? []) : []) {
          if (!label.checkVisibility()) continue;
          const lr = rectOf(label.getBoundingClientRect());
          // A label that wraps the control, or sits on the same row, adds to its target.
          const wraps = label.contains(el);
          const sameRow = lr.top < target.bottom && lr.bottom > target.top;
          if (wraps || sameRow) target = union(target, lr);
          else if (lr.width * lr.height > target.width * target.height) target = lr;
        }
        return target;
      }

      /**
       * A target inside a sentence (a link, a link-styled button): laid out in a line of text that has words of its
       * own, so the line height of that text sets its size. (Browsers draw a button as an inline block even when
       * told `display: inline`; a flex or grid item is never inline.)
       */
      function inlineInText(el: Element): boolean {
        const display = getComputedStyle(el).display;
        if (display !== "inline" && display !== "inline-block") return false;
        let block: Element | null = el.parentElement;
        while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
        if (!block) return false;
        // Words of other targets, and of the control's own label, are not a sentence around it.
        const own = [...((el as HTMLInputElement).labels ?? [])];
        const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!/\S/.test(node.textContent ?? "")) continue;
          if (node.parentElement?.closest(selector) || own.some((label) => label.contains(node))) continue;
          return true;
        }
        return false;
      }

      /** The nearest ancestor that scrolls: targets in one scroll context are compared as laid out. */
      function scrollContext(el: Element): Element | null {
        for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
          const style = getComputedStyle(node);
          if (scrollsX(style) || scrollsY(style)) return node;
        }
        return null;
      }

      /** What of `r` shows: cut by every scrolling or clipping ancestor of `el` and by the viewport. */
      function visiblePart(el: Element, r: Rect): Rect | null {
        let left = Math.max(r.left, 0);
        let top = Math.max(r.top, 0);
        let right = Math.min(r.right, viewWidth);
        let bottom = Math.min(r.bottom, viewHeight);
        for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
          const style = getComputedStyle(node);
          if (style.overflowX === "visible" && style.overflowY === "visible") continue;
          const nr = node.getBoundingClientRect();
          left = Math.max(left, nr.left);
          top = Math.max(top, nr.top);
          right = Math.min(right, nr.right);
          bottom = Math.min(bottom, nr.bottom);
        }
        return right > left && bottom > top ? rect(left, top, right - left, bottom - top) : null;
      }

      interface Target {
        el: Element;
        box: Rect;
        small: boolean;
        context: Element | null;
        visible: Rect | null;
      }
      const targets: Target[] = controls
        .filter(({ el }) => !(el as HTMLButtonElement).disabled && el.getAttribute("aria-disabled") !== "true")
        .map(({ el, shown }) => {
          const box = targetRect(el, shown);
          return {
            el,
            box,
            small: box.width < min - 0.01 || box.height < min - 0.01,
            context: scrollContext(el),
            visible: visiblePart(el, box),
          };
        });

      const centre = (r: Rect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
      function circleMeetsRect(c: { x: number; y: number }, radius: number, r: Rect): boolean {
        const nx = Math.max(r.left, Math.min(c.x, r.right));
        const ny = Math.max(r.top, Math.min(c.y, r.bottom));
        return (c.x - nx) ** 2 + (c.y - ny) ** 2 < radius ** 2;
      }

      for (const target of targets) {
        if (!target.small || inlineInText(target.el)) continue;
        const conflicts: string[] = [];
        for (const other of targets) {
          if (other === target || other.el.contains(target.el) || target.el.contains(other.el)) continue;
          // In one scroll context the two move together; across contexts only what shows of each can meet.
          const same = other.context === target.context;
          const mine = same ? target.box : target.visible;
          const theirs = same ? other.box : other.visible;
          if (!mine || !theirs) continue;
          const c = centre(mine);
          const meetsBox = circleMeetsRect(c, min / 2, theirs);
          const oc = centre(theirs);
          const meetsCircle = other.small && Math.hypot(c.x - oc.x, c.y - oc.y) < min;
          if (meetsBox || meetsCircle) conflicts.push(`${roleOf(other.el)} "${nameOf(other.el).slice(0, 40)}"`);
        }
        if (conflicts.length > 0) {
          problems.push({
            kind: "target-size",
            element: describe(target.el),
            box: boxText(target.box),
            detail:
              `${round(target.box.width)}×${round(target.box.height)} px is under ${min}×${min}, and a ${min} px ` +
              `circle on it meets ${conflicts.slice(0, 3).join(", ")}${conflicts.length > 3 ? ", …" : ""}`,
          });
        }
      }
      return problems;
    },
    { selector: INTERACTIVE, min: MIN_TARGET },
  );
}

/** The problems as lines for an assertion message. */
export function formatProblems(problems: LayoutProblem[]): string[] {
  return problems.map((p) => `${p.kind}: ${p.element} at ${p.box}: ${p.detail}`);
}
