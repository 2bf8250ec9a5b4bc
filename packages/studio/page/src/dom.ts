// A small element builder: the page is plain DOM, no framework.

type Child = Node | string | null | undefined | false;

/** Creates `<tag>` with attributes (`on…` functions become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | ((event: any) => void) | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child) element.append(typeof child === 'string' ? visibleText(child) : child);
  return element;
}

/** Bidi controls (U+202A–202E, U+2066–2069, U+200E/F, U+061C): text that reorders what is shown. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * A server's text as the page shows it: each bidi control becomes a visible marker (`⟦U+202E⟧`),
 * so `safe\u202Egnp.exe` cannot pass for `safeexe.png`.
 */
function visibleText(text: string): string {
  return text.replace(BIDI_CONTROLS, (char) => `⟦U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

/** Replaces an element's children. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(
    ...children
      .filter((child): child is Node | string => Boolean(child))
      .map((child) => (typeof child === 'string' ? visibleText(child) : child)),
  );
}

let nextId = 0;
/** A unique id for `<label for>` and `aria-describedby`. */
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}
