/**
 * The types every action handler is written against: what it is given (its action, as the generated contract
 * types it, and the ActionContext) and what it answers (its declared result). The fields were validated by the
 * app (app/protocol/actions/, pydantic) before the request was sent, and the dispatcher checked the envelope and
 * the required fields (wire/action-dispatcher.js): a handler trusts them and re-checks only what depends on the
 * page (a selector's CSS, a point inside the viewport, an element's kind).
 *
 * @typedef {import("../../generated/protocol-types.js").ActionType} ActionType
 * @typedef {import("../../generated/protocol-types.js").ActionsByType} ActionsByType
 * @typedef {import("../../generated/protocol-types.js").ResultsByType} ResultsByType
 *
 * @typedef {object} Services what action handlers work with
 * @property {typeof chrome.tabs} tabs
 * @property {typeof chrome.windows} [windows]
 * @property {import("../../tabs/debugger-controller.js").DebuggerController} debugger
 * @property {import("../../tabs/task-tabs.js").TaskTabs} taskTabs
 * @property {{setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (handle: unknown) => void}} timers
 * @property {import("../../tabs/dialogs.js").DialogGuard} [dialogs] answers JavaScript dialogs, reports them per action
 * @property {import("../../tabs/bua-window.js").BuaWindow} [buaWindow] where new tabs go
 * @property {import("../../sessions/blocklist.js").Blocklist} [blocklist] the person's blocklist
 * @property {import("../../sessions/session-store.js").SessionStore} [sessions] live sessions
 * @property {import("../../tabs/tab-log.js").PageLogs} [pageLogs] what session tabs logged (page_log)
 * @property {import("../../tabs/downloads.js").TaskDownloads} [downloads] what session tabs downloaded, per task
 *
 * @typedef {Services & {taskId: string, requestId: string | number, signal?: AbortSignal,
 *   noteTab?: (tabId: number) => void, claimTab?: (tabId: number, windowId?: number) => Promise<void>}} ActionContext
 *   (ctx.debugger fails with `stopped` once the request is aborted; noteTab tells Stop which tab the request works
 *   on; claimTab makes the tab an action just opened the task's at once, before it has loaded)
 *
 * @typedef {object} Tuning extension-side tuning fields outside the model's schema, which only the benches send
 *   on raw frames (bench/click_bench.py): the app's validation refuses them
 * @property {number} [settle_ms] how long an input action waits for its effects (input/effects.js)
 * @property {boolean} [report_changes] false: no change list (extract/action-changes.js)
 */

/**
 * An action of type K as its handler gets it.
 * @template {ActionType} K
 * @typedef {ActionsByType[K] & Tuning} ActionOf
 */

/**
 * What the handler of K answers.
 * @template {ActionType} K
 * @typedef {ResultsByType[K]} ResultOf
 */

/**
 * The handler of action type K.
 * @template {ActionType} K
 * @typedef {(action: ActionOf<K>, ctx: ActionContext) => Promise<ResultOf<K>>} Handler
 */

/**
 * One handler per declared action type, each typed by its own action and result.
 * @typedef {{[K in ActionType]: Handler<K>}} HandlerMap
 */

export {};
