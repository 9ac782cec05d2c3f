/**
 * JavaScript dialogs (alert, confirm, prompt, beforeunload) never block a
 * tab bua controls: every Page.javascriptDialogOpening of an attached tab is
 * answered at once with Page.handleJavaScriptDialog, and reported in the
 * response of the action that was running on that tab (or of the next one).
 *
 * Policy: alert is accepted (it only has OK). beforeunload is accepted (the
 * navigation goes ahead) unless the action says `dialog: "dismiss"`. confirm
 * and prompt are dismissed unless the action says `dialog: "accept"`;
 * `prompt_text` answers a prompt with that text (and accepts it unless
 * `dialog: "dismiss"`).
 */

/**
 * @typedef {{dialog?: "accept" | "dismiss", promptText?: string}} DialogPolicy
 * @typedef {object} DialogRecord
 * @property {string} type alert | confirm | prompt | beforeunload
 * @property {string} message
 * @property {"accepted" | "dismissed" | "failed"} handled
 * @property {string} [prompt_text] the text answered to a prompt
 * @property {boolean} [while_idle] it opened between actions
 * @typedef {(tabId: number, method: string, params: Record<string, unknown>, sessionId?: string) => Promise<unknown>} Send
 */

const MAX_MESSAGE = 500;

/**
 * What to answer to a dialog under a policy.
 * @param {string} type
 * @param {DialogPolicy} policy
 * @param {string} [defaultPrompt]
 * @returns {{accept: boolean, promptText?: string}}
 */
export function decideDialog(type, policy, defaultPrompt = "") {
  switch (type) {
    case "alert":
      return { accept: true };
    case "beforeunload":
      return { accept: policy.dialog !== "dismiss" };
    case "prompt": {
      const accept = policy.dialog === "accept" || (policy.promptText !== undefined && policy.dialog !== "dismiss");
      return accept ? { accept, promptText: policy.promptText ?? defaultPrompt } : { accept };
    }
    default:
      return { accept: policy.dialog === "accept" };
  }
}

/**
 * The dialog policy fields of an action.
 * @param {Record<string, unknown>} action
 * @returns {DialogPolicy}
 */
export function policyOf(action) {
  /** @type {DialogPolicy} */
  const policy = {};
  if (action.dialog === "accept" || action.dialog === "dismiss") policy.dialog = action.dialog;
  if (typeof action.prompt_text === "string") policy.promptText = action.prompt_text;
  return policy;
}

export class DialogGuard {
  #send;
  #log;
  /** @type {(tabId: number) => Promise<void>} */
  #beforeLeaving;
  /** @type {Map<number, {policy: DialogPolicy, records: DialogRecord[]}[]>} running actions per tab */
  #running = new Map();
  /** @type {Map<number, DialogRecord[]>} dialogs seen while no action ran */
  #idle = new Map();

  /**
   * @param {{send: Send, log?: {warn: Function}, beforeLeaving?: (tabId: number) => Promise<void>}} deps send =
   *   DebuggerController.send; `beforeLeaving`: awaited before a beforeunload dialog is answered (the network hold
   *   fails what waits, safety/network-close-guard.js)
   */
  constructor({ send, log = console, beforeLeaving = async () => {} }) {
    this.#send = send;
    this.#log = log;
    this.#beforeLeaving = beforeLeaving;
  }

  /**
   * Handle a raw chrome.debugger event (registered for all tabs at top level,
   * so a dialog is answered even when no action is waiting for it).
   * @param {{tabId?: number, sessionId?: string}} source
   * @param {string} method
   * @param {any} params
   * @returns {Promise<void> | undefined}
   */
  onEvent(source, method, params) {
    if (method !== "Page.javascriptDialogOpening" || source?.tabId === undefined) return undefined;
    return this.#answer(source.tabId, source.sessionId, params ?? {});
  }

  /**
   * An action starts on a tab: its policy applies until `end()`; `records()`
   * gives the dialogs seen since (plus those seen while idle before it).
   * @param {number} tabId
   * @param {DialogPolicy} policy
   */
  begin(tabId, policy) {
    const entry = { policy, records: this.#idle.get(tabId) ?? [] };
    this.#idle.delete(tabId);
    let list = this.#running.get(tabId);
    if (!list) this.#running.set(tabId, (list = []));
    list.push(entry);
    return {
      records: () => [...entry.records],
      end: () => {
        const current = this.#running.get(tabId);
        if (!current) return;
        const index = current.indexOf(entry);
        if (index >= 0) current.splice(index, 1);
        if (current.length === 0) this.#running.delete(tabId);
      },
    };
  }

  /**
   * Answer a dialog that may have opened before bua listened (e.g. before
   * Page.enable): dismiss it blindly; "No dialog is showing" is the usual reply.
   * @param {number} tabId
   * @returns {Promise<boolean>} whether a dialog was closed
   */
  async closeStray(tabId) {
    try {
      await this.#send(tabId, "Page.handleJavaScriptDialog", { accept: false });
    } catch {
      return false;
    }
    this.#record(tabId, { type: "unknown", message: "(a dialog that was already open)", handled: "dismissed" });
    return true;
  }

  /**
   * @param {number} tabId
   * @param {string | undefined} sessionId
   * @param {any} params
   */
  async #answer(tabId, sessionId, params) {
    const type = String(params.type ?? "alert");
    const running = this.#running.get(tabId);
    const policy = running?.[running.length - 1]?.policy ?? {};
    const decision = decideDialog(type, policy, params.defaultPrompt ?? "");
    /** @type {Record<string, unknown>} */
    const command = { accept: decision.accept };
    if (decision.promptText !== undefined) command.promptText = decision.promptText;
    /** @type {DialogRecord} */
    const record = {
      type,
      message: String(params.message ?? "").slice(0, MAX_MESSAGE),
      handled: decision.accept ? "accepted" : "dismissed",
    };
    if (decision.promptText !== undefined) record.prompt_text = decision.promptText;
    this.#record(tabId, record);
    if (type === "beforeunload" && decision.accept) await this.#beforeLeaving(tabId).catch(() => {});
    try {
      await this.#send(tabId, "Page.handleJavaScriptDialog", command, sessionId);
    } catch (err) {
      if (sessionId === undefined) {
        record.handled = "failed";
        this.#log.warn("bua: could not answer a dialog:", err);
      } else {
        await this.#send(tabId, "Page.handleJavaScriptDialog", command).catch(() => {
          record.handled = "failed";
        });
      }
    }
  }

  /**
   * @param {number} tabId
   * @param {DialogRecord} record
   */
  #record(tabId, record) {
    const running = this.#running.get(tabId);
    if (running && running.length > 0) {
      running[running.length - 1].records.push(record);
      return;
    }
    let idle = this.#idle.get(tabId);
    if (!idle) this.#idle.set(tabId, (idle = []));
    record.while_idle = true;
    idle.push(record);
    if (idle.length > 10) idle.shift();
  }

  /**
   * Drop what is remembered for a closed tab.
   * @param {number} tabId
   */
  forgetTab(tabId) {
    this.#idle.delete(tabId);
    this.#running.delete(tabId);
  }
}
