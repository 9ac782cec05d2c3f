/**
 * Page functions (run in bua's isolated world, see page/functions.js) that read what the sensitive-action
 * classifier needs about the real target, before any input reaches the page: the control an element belongs to
 * (its label from the accessible name, text, value or title), whether it submits a form, that form's fields and
 * submit button, a link's download and file name. They only read; the words are matched in the service worker
 * (safety/classify.js), so the page never sees bua's word lists.
 */

/**
 * @typedef {{type: string, autocomplete: string, name: string, label: string}} FieldFacts
 * @typedef {{fields: FieldFacts[], submit: string, name: string}} FormFacts
 * @typedef {{tag: string, role: string, type: string, label: string, editable: boolean, submits: boolean,
 *   href: string, download: string | null, form: FormFacts | null, frame?: boolean, changeSubmits?: boolean}} ControlFacts
 * @typedef {{url: string, control: ControlFacts | null}} TargetFacts
 * @typedef {{url: string, controls: ControlFacts[], forms: FormFacts[]}} PageFacts
 */

/**
 * The control `el` belongs to, described for the classifier (a helper the other page functions use).
 * @param {any} el
 * @returns {ControlFacts | null}
 */
export function controlFacts(el) {
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
  const fieldLabel = editable && control.labels && control.labels.length ? control.labels[0].textContent : "";
  const text = editable ? "" : (control.innerText ?? control.textContent ?? "");
  const label = clean(control.getAttribute("aria-label") || (labelled ? byIds(labelled) : "") || fieldLabel || text
    || (tag === "input" && /^(submit|button|reset)$/.test(type) ? control.value || (type === "submit" ? "Submit" : "") : "")
    || control.getAttribute("placeholder") || control.getAttribute("title")
    || control.querySelector?.("img[alt]")?.getAttribute("alt") || control.getAttribute("alt") || "");
  const form = control.form || control.closest("form");
  const submits = !!form && ((tag === "button" && (type === "" || type === "submit"))
    || (tag === "input" && (type === "submit" || type === "image")));
  // A <select> whose change handler attribute submits its form ("onchange=this.form.submit()").
  const changeSubmits = tag === "select" && /submit/i.test(control.getAttribute("onchange") || "");
  return {
    tag, role: clean(control.getAttribute("role")), type, label, editable, submits, changeSubmits,
    href: tag === "a" ? String(control.href || "") : "",
    download: tag === "a" && control.hasAttribute("download") ? clean(control.getAttribute("download")) : null,
    // Only a control that submits or takes text needs its form read (the classifier looks at no other's).
    form: form && (submits || editable || changeSubmits) ? formFacts(form) : null,
  };
}

/**
 * A form's fields (at most 60) and its submit button's label.
 * @param {any} form
 * @returns {FormFacts}
 */
export function formFacts(form) {
  const clean = (/** @type {any} */ s) => String(s ?? "").replace(/\s+/g, " ").trim().slice(0, 120);
  /** @type {FieldFacts[]} */
  const fields = [];
  for (const field of Array.from(form.elements || []).slice(0, 60)) {
    const f = /** @type {any} */ (field);
    if (!/^(INPUT|SELECT|TEXTAREA)$/.test(f.tagName)) continue;
    const type = clean(f.getAttribute("type")).toLowerCase();
    if (/^(submit|button|reset|image|hidden)$/.test(type)) continue;
    const labelText = f.labels && f.labels.length ? f.labels[0].textContent : "";
    fields.push({
      type, autocomplete: clean(f.getAttribute("autocomplete")).toLowerCase(),
      name: clean(`${f.getAttribute("name") || ""} ${f.id || ""}`),
      label: clean(f.getAttribute("aria-label") || labelText || f.getAttribute("placeholder") || ""),
    });
  }
  const button = form.querySelector("button:not([type]), button[type=submit], input[type=submit], input[type=image]");
  const submit = button ? clean(button.getAttribute("aria-label") || (button.tagName === "INPUT" ? button.value || "Submit" : button.innerText || button.textContent)) : "";
  return { fields, submit, name: clean(form.getAttribute("aria-label") || form.getAttribute("name") || form.id || "") };
}

/**
 * `this` = the action's target element: what it is, in the page that holds it.
 * @this {any}
 * @returns {TargetFacts}
 */
export function targetFacts() {
  return { url: String(this.ownerDocument?.location?.href ?? location.href), control: controlFacts(this) };
}

/**
 * The element a key goes to (the focused one, through shadow roots and same-origin frames); a focused frame
 * bua cannot look into is reported as one (`frame: true`).
 * @returns {TargetFacts}
 */
export function focusFacts() {
  const el = deepActiveElement();
  if (!el || el === document.body || el === document.documentElement) return { url: location.href, control: null };
  if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
    return { url: location.href, control: { tag: "iframe", role: "", type: "", label: "", editable: false, submits: false,
      href: String(el.src || ""), download: null, form: null, frame: true } };
  }
  return { url: String(el.ownerDocument?.location?.href ?? location.href), control: controlFacts(el) };
}

/**
 * Every control and form of the page (its open shadow roots and same-origin frames too), for `evaluate`: a script
 * can reach any of them, so none is left out. Cheap on large pages: a control's label is its aria-label, value,
 * text content or title (no layout), a link's URL is kept only when it names a file, and identical controls
 * ("View" a thousand times) are sent once.
 * @returns {PageFacts}
 */
export function pageFacts() {
  /** @type {Map<string, ControlFacts>} */
  const controls = new Map();
  /** @type {FormFacts[]} */
  const forms = [];
  const selector = "button, a[href], input[type=submit], input[type=button], input[type=image], [role=button], "
    + "[role=link], [role=menuitem]";
  const clean = (/** @type {any} */ s) => String(s ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
  /** @param {any} root */
  const visit = (root) => {
    for (const el of root.querySelectorAll(selector)) {
      const tag = String(el.tagName).toLowerCase();
      const type = clean(el.getAttribute("type")).toLowerCase();
      const role = clean(el.getAttribute("role"));
      const label = clean(el.getAttribute("aria-label") || (tag === "input" ? el.value : el.textContent)
        || el.getAttribute("title") || "");
      const download = tag === "a" && el.hasAttribute("download") ? clean(el.getAttribute("download")) : null;
      const raw = tag === "a" ? String(el.getAttribute("href") || "") : "";
      const href = download !== null || /\.[a-z0-9]{1,9}(?:[?#]|$)/i.test(raw) ? String(el.href || "") : "";
      const key = `${tag}|${role}|${type}|${label}|${href}|${download}`;
      if (!controls.has(key)) {
        controls.set(key, { tag, role, type, label, editable: false, submits: false, href, download, form: null });
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
    for (const host of root.querySelectorAll("*")) if (host.shadowRoot) visit(host.shadowRoot);
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
