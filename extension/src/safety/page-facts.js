/**
 * Page functions (run in bua's isolated world, see page/functions.js) that read what the sensitive-action
 * classifier needs about the real target, before any input reaches the page: the control an element belongs to
 * (its label from the accessible name, text, value or title), whether it submits a form, that form's fields and
 * submit button, a link's download and file name. They only read; the words are matched in the service worker
 * (safety/classify.js), so the page never sees bua's word lists.
 */

import { definePageFunction } from "../page/page-code.js";
import { deepActiveElement } from "../page/functions.js";

/**
 * @typedef {{type: string, autocomplete: string, name: string, label: string, placeholder?: string, nearby?: string,
 *   inputmode?: string, maxlength?: number, pattern?: string, value?: string}} FieldFacts `value`: kept only when it
 *   is digits (a card number typed before the submit), never other text
 * @typedef {{fields: FieldFacts[], submit: string, submitReadings?: string[], name: string}} FormFacts
 * @typedef {{tag: string, role: string, type: string, label: string, readings?: string[], hint?: string,
 *   link?: boolean, editable: boolean, submits: boolean, href: string, download: string | null, form: FormFacts | null,
 *   frame?: boolean, changeSubmits?: boolean, shown?: string}} ControlFacts `label`: what the person sees (its visible text first);
 *   `readings`: every way it reads (accessible name, visible text with CSS generated content, value, title, icon
 *   title), the classifier takes the most sensitive; `shown`: what a person sees of it by the visibility judgement
 *   (the library's seenLabel, extract/page-seen.js), the only label a confirmation quotes; `hint`: class, id and symbol names of a control with no text
 * @typedef {{url: string, control: ControlFacts | null}} TargetFacts
 * @typedef {{url: string, controls: ControlFacts[], forms: FormFacts[]}} PageFacts
 */

/**
 * The text CSS draws into `el` and up to `limit` of its descendants (`::before` and `::after` content: quoted
 * strings and attr() values), in document order.
 * @param {any} el
 * @param {number} limit
 * @returns {{before: string, after: string, inner: string}}
 */
export function generatedText(el, limit) {
  const view = el.ownerDocument?.defaultView;
  /** @param {any} node @param {string} which */
  const content = (node, which) => {
    const value = String(view?.getComputedStyle(node, which)?.content ?? "");
    if (!value || value === "none" || value === "normal") return "";
    const parts = [];
    for (const m of value.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)/g)) {
      parts.push(m[3] ? String(node.getAttribute(m[3]) ?? "") : String(m[1] ?? m[2]).replace(/\\(.)/g, "$1"));
    }
    return parts.join("");
  };
  const inner = [];
  const walker = el.ownerDocument.createTreeWalker(el, 1);
  for (let node = walker.nextNode(), n = 0; node && n < limit; node = walker.nextNode(), n++) {
    const text = `${content(node, "::before")} ${content(node, "::after")}`.trim();
    if (text) inner.push(text);
  }
  return { before: content(el, "::before"), after: content(el, "::after"), inner: inner.join(" ") };
}

/**
 * Class, id, test-id and symbol names of `el` and its first descendants: how a control with no text names its icon.
 * @param {any} el
 * @returns {string}
 */
export function hintOf(el) {
  const names = [];
  for (const node of [el, ...Array.from(el.querySelectorAll?.("*") ?? []).slice(0, 12)]) {
    const cls = typeof node.className === "string" ? node.className : node.className?.baseVal ?? "";
    names.push(cls, node.id || "", node.getAttribute?.("data-testid") || "", node.getAttribute?.("data-icon") || "",
      node.getAttribute?.("name") || "", String(node.getAttribute?.("href") || node.getAttribute?.("xlink:href") || "").split("#")[1] || "",
      node.tagName === "IMG" ? String(node.getAttribute("src") || "").split("/").pop()?.replace(/\.\w+$/, "") ?? "" : "");
  }
  return names.filter(Boolean).join(" ").slice(0, 200);
}

/**
 * The control `el` belongs to, described for the classifier (a helper the other page functions use).
 * @param {any} el
 * @param {boolean} [seen] also judge what a person sees of it (`shown`: the visibility judgement, the costly part
 *   of a read; the check asks for it only once the facts made the action sensitive, safety/confirmations.js)
 * @returns {ControlFacts | null}
 */
export function controlFacts(el, seen = true) {
  if (!el || el.nodeType !== 1) return null;
  const control = el.closest("button, a[href], input, select, textarea, summary, label, [role=button], [role=link], "
    + "[role=menuitem], [role=tab], [role=option], [role=checkbox], [role=switch], [contenteditable='true'], "
    + "[contenteditable='']") || el;
  const clean = (/** @type {any} */ s) => String(s ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
  const byIds = (/** @type {string} */ ids) => ids.split(/\s+/).map((id) => control.ownerDocument.getElementById(id)?.textContent ?? "").join(" ");
  const tag = String(control.tagName).toLowerCase();
  const type = clean(control.getAttribute("type")).toLowerCase();
  const editable = (tag === "input" && !/^(button|submit|reset|image|checkbox|radio|file|hidden|range|color)$/.test(type))
    || tag === "textarea" || control.isContentEditable === true;
  const labelled = control.getAttribute("aria-labelledby");
  const name = clean(control.getAttribute("aria-label") || (labelled ? byIds(labelled) : ""));
  const fieldLabel = clean(editable && control.labels && control.labels.length ? control.labels[0].textContent : "");
  let visible = "";
  if (!editable) {
    const drawn = generatedText(control, 30);
    visible = clean(`${drawn.before} ${control.innerText ?? control.textContent ?? ""} ${drawn.inner} ${drawn.after}`);
  }
  const value = clean(tag === "input" && /^(submit|button|reset)$/.test(type) ? control.value || (type === "submit" ? "Submit" : "") : "");
  const lib = /** @type {any} */ (globalThis).__bua;
  // An icon-only control is named by extract's one rule (extract/page-icon-name.js: an SVG's title, an icon font's
  // ligature, a class or sprite hint), so the check reads the name extract shows.
  const ligature = lib?.ligatureOf && !editable && !name ? clean(lib.ligatureOf(control, clean(control.textContent))) : "";
  const iconNamed = lib?.iconName && !editable && !name && (!visible || ligature) ? clean(lib.iconName(control, ligature)) : "";
  const icon = clean(control.querySelector?.("svg title")?.textContent || control.querySelector?.("img[alt]")?.getAttribute("alt")
    || control.getAttribute("alt") || "") || iconNamed;
  const title = clean(control.getAttribute("title"));
  const placeholder = clean(control.getAttribute("placeholder"));
  const label = visible || name || fieldLabel || value || placeholder || title || icon;
  const readings = [...new Set([name, visible, fieldLabel, value, placeholder, title, icon].filter(Boolean))];
  const form = control.form || control.closest("form");
  const submits = !!form && ((tag === "button" && (type === "" || type === "submit"))
    || (tag === "input" && (type === "submit" || type === "image")));
  // A <select> whose change handler attribute submits its form ("onchange=this.form.submit()").
  const changeSubmits = tag === "select" && /submit/i.test(control.getAttribute("onchange") || "");
  const role = clean(control.getAttribute("role"));
  // What a confirmation may quote: only what a person sees (the readings above also hear hidden text, so that a
  // label hidden from the eye can still make a control ask, but it never reaches the model as the label).
  const shown = seen && lib && typeof lib.seenLabel === "function" ? clean(lib.seenLabel(control)) : undefined;
  return {
    tag, role, type, label, readings, editable, submits, changeSubmits, ...(shown === undefined ? {} : { shown }),
    hint: !visible && !name && !editable ? hintOf(control) : "",
    link: (tag === "a" && !!control.getAttribute("href") && !/^(#?$|javascript:)/i.test(control.getAttribute("href").trim())) || role === "link",
    href: tag === "a" ? String(control.href || "") : "",
    download: tag === "a" && control.hasAttribute("download") ? clean(control.getAttribute("download")) : null,
    // Only a control that submits or takes text needs its form read (the classifier looks at no other's).
    form: form && (submits || editable || changeSubmits) ? formFacts(form) : null,
  };
}

/**
 * A form's fields (at most 60: what a person sees of each, see card-fields.js) and its submit button's readings.
 * @param {any} form
 * @returns {FormFacts}
 */
export function formFacts(form) {
  const clean = (/** @type {any} */ s) => String(s ?? "").replace(/\s+/g, " ").trim().slice(0, 120);
  /** The text just before a field that has no label of its own ("Credit card" in a div above it). @param {any} f */
  const nearby = (f) => {
    let node = f;
    for (let depth = 0; depth < 3 && node; depth++, node = node.parentElement) {
      for (let prev = node.previousSibling; prev; prev = prev.previousSibling) {
        const text = clean(prev.textContent);
        if (text) return text.slice(-80);
      }
    }
    return "";
  };
  /** @type {FieldFacts[]} */
  const fields = [];
  for (const field of Array.from(form.elements || []).slice(0, 60)) {
    const f = /** @type {any} */ (field);
    if (!/^(INPUT|SELECT|TEXTAREA)$/.test(f.tagName)) continue;
    const type = clean(f.getAttribute("type")).toLowerCase();
    if (/^(submit|button|reset|image|hidden)$/.test(type)) continue;
    const labelText = f.labels && f.labels.length ? f.labels[0].textContent : "";
    const value = String(f.value ?? "");
    fields.push({
      type, autocomplete: clean(f.getAttribute("autocomplete")).toLowerCase(),
      name: clean(`${f.getAttribute("name") || ""} ${f.id || ""}`),
      label: clean(f.getAttribute("aria-label") || labelText || ""),
      placeholder: clean(f.getAttribute("placeholder")),
      nearby: labelText || f.getAttribute("aria-label") ? "" : nearby(f),
      inputmode: clean(f.getAttribute("inputmode")).toLowerCase(),
      maxlength: Number(f.getAttribute("maxlength")) || 0,
      pattern: clean(f.getAttribute("pattern")),
      value: type !== "password" && /^[\d\s-]{12,30}$/.test(value) ? value : "",
    });
  }
  const button = form.querySelector("button:not([type]), button[type=submit], input[type=submit], input[type=image]");
  const readings = button ? [...new Set([button.getAttribute("aria-label"),
    button.tagName === "INPUT" ? button.value || "Submit" : button.innerText || button.textContent].map(clean).filter(Boolean))] : [];
  return { fields, submit: readings[readings.length - 1] ?? "", submitReadings: readings,
    name: clean(form.getAttribute("aria-label") || form.getAttribute("name") || form.id || "") };
}

/**
 * `this` = the action's target element: what it is, in the page that holds it.
 * @this {any}
 * @param {boolean} [seen] with what a person sees of it (controlFacts)
 * @returns {TargetFacts}
 */
export function targetFacts(seen = true) {
  return { url: String(this.ownerDocument?.location?.href ?? location.href), control: controlFacts(this, seen) };
}

/**
 * The element a key goes to (the focused one, through shadow roots and same-origin frames); a focused frame
 * bua cannot look into is reported as one (`frame: true`).
 * @param {boolean} [seen] with what a person sees of it (controlFacts)
 * @returns {TargetFacts}
 */
export function focusFacts(seen = true) {
  const el = deepActiveElement();
  if (!el || el === document.body || el === document.documentElement) return { url: location.href, control: null };
  if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
    return { url: location.href, control: { tag: "iframe", role: "", type: "", label: "", editable: false, submits: false,
      href: String(el.src || ""), download: null, form: null, frame: true } };
  }
  return { url: String(el.ownerDocument?.location?.href ?? location.href), control: controlFacts(el, seen) };
}

/**
 * Every control and form of the page (its open and closed shadow roots and same-origin frames too), for
 * `evaluate`: a script can reach any of them, so none is left out. Cheap on large pages: a control's readings are
 * its aria-label, value, text content, CSS generated content of it and its first descendants, and title (no
 * layout); a link's URL is kept only when it names a file, and identical controls ("View" a thousand times) are
 * sent once. Closed shadow roots are the ones extract found (lib.closedRoots, extract/page-shadow.js; the reader
 * asks for them first).
 * @returns {PageFacts}
 */
export function pageFacts() {
  /** @type {Map<string, ControlFacts>} */
  const controls = new Map();
  /** @type {FormFacts[]} */
  const forms = [];
  const lib = /** @type {any} */ (globalThis).__bua;
  const closed = lib?.closedRoots;
  const selector = "button, a[href], input[type=submit], input[type=button], input[type=image], [role=button], "
    + "[role=link], [role=menuitem]";
  const clean = (/** @type {any} */ s) => String(s ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
  /** @param {any} root */
  const visit = (root) => {
    for (const el of root.querySelectorAll(selector)) {
      const tag = String(el.tagName).toLowerCase();
      const type = clean(el.getAttribute("type")).toLowerCase();
      const role = clean(el.getAttribute("role"));
      const drawn = generatedText(el, 8);
      const text = clean(`${drawn.before} ${tag === "input" ? el.value : el.textContent} ${drawn.inner} ${drawn.after}`);
      const name = clean(el.getAttribute("aria-label"));
      const title = clean(el.getAttribute("title") || el.querySelector?.("svg title")?.textContent || "");
      const icon = !text && !name && !title && lib?.iconName ? clean(lib.iconName(el, "")) : "";
      const readings = [...new Set([name, text, title, icon].filter(Boolean))];
      const download = tag === "a" && el.hasAttribute("download") ? clean(el.getAttribute("download")) : null;
      const raw = tag === "a" ? String(el.getAttribute("href") || "") : "";
      const href = download !== null || /\.[a-z0-9]{1,9}(?:[?#]|$)/i.test(raw) ? String(el.href || "") : "";
      const hint = !text && !name ? hintOf(el) : "";
      const link = (tag === "a" && !/^(#?$|javascript:)/i.test(raw.trim())) || role === "link";
      const key = `${tag}|${role}|${type}|${readings.join("|")}|${hint}|${href}|${download}`;
      if (!controls.has(key)) {
        controls.set(key, { tag, role, type, label: text || name || title || icon, readings, hint, link, editable: false,
          submits: false, href, download, form: null });
      }
    }
    for (const form of root.querySelectorAll("form")) {
      // Forms built from one template (a search box per section) are read once.
      const shape = Array.from(form.elements || [], (/** @type {any} */ f) => `${f.type}|${f.name}|${f.id}|${f.autocomplete}`).join(",");
      if (!shapes.has(shape)) {
        shapes.add(shape);
        forms.push(formFacts(form));
      }
    }
    for (const host of root.querySelectorAll("*")) {
      const shadow = host.shadowRoot || closed?.get(host);
      if (shadow) visit(shadow);
    }
    for (const frame of root.querySelectorAll("iframe, frame")) {
      let doc = null;
      try {
        doc = frame.contentDocument;
      } catch {
        doc = null;
      }
      if (doc) visit(doc);
    }
  };
  /** @type {Set<string>} */
  const shapes = new Set();
  visit(document);
  return { url: location.href, controls: [...controls.values()], forms };
}

// What each page function here calls (page/page-code.js assembles them; test/page-code.test.js checks it).
definePageFunction(generatedText);
definePageFunction(hintOf);
definePageFunction(formFacts);
definePageFunction(controlFacts, { uses: [generatedText, hintOf, formFacts] });
definePageFunction(targetFacts, { uses: [controlFacts] });
definePageFunction(focusFacts, { uses: [deepActiveElement, controlFacts] });
definePageFunction(pageFacts, { uses: [generatedText, hintOf, formFacts] });
