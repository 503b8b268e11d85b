// Small DOM helpers. Text always goes in as text nodes (never as HTML), so server messages and file
// names cannot inject markup.

/** The element with this id, checked to be of the expected class. */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`#${id}: expected a ${type.name} in index.html`);
  return el;
}

/** Creates an element with attributes and text or element children. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

export type StatusKind = 'ok' | 'busy' | 'error';

/** Sets a status line's text and kind (styled by `data-kind`). */
export function setStatus(el: HTMLElement, kind: StatusKind, text: string): void {
  el.dataset.kind = kind;
  el.textContent = text;
}

export function markInvalid(input: HTMLElement): void {
  input.setAttribute('aria-invalid', 'true');
  input.focus();
}

export function clearInvalid(...inputs: HTMLElement[]): void {
  for (const input of inputs) input.removeAttribute('aria-invalid');
}
