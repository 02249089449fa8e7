/**
 * A small element builder. Text always goes in as text nodes, never as HTML: answers, labels and
 * publisher values are data, and none of them may become markup.
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, ...children);
  return el;
}

export function append(el: Element, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** A link that opens in a new tab when it leaves the gateway. */
export function link(href: string, text: string, label?: string): HTMLAnchorElement {
  const external = !href.startsWith('/') && !href.startsWith(location.origin);
  return h('a', { href, ...(external ? { rel: 'noopener noreferrer', target: '_blank' } : {}), ...(label ? { 'aria-label': label } : {}) }, text);
}

/** Text only screen readers announce. */
export function srOnly(text: string): HTMLSpanElement {
  return h('span', { class: 'sr-only' }, text);
}

let counter = 0;
/** A unique id for aria-labelledby / aria-describedby pairs within the page. */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}
