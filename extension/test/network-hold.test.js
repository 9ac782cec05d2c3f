import { test } from "node:test";
import assert from "node:assert/strict";

import { DebuggerController } from "../src/tabs/debugger-controller.js";
import { LINGER_MS, NetworkHolds, carriesAway } from "../src/safety/network-hold.js";
import { MAX_BODY_CHARS, SECRET_REASON, bodyFields, bodyText, bodyUnjudged, hasCardNumber, isCredentialName, localReasons, mayChange,
  messageReasons }
  from "../src/safety/network-judge.js";
import { noteSecret, secretForms } from "../src/safety/network-secrets.js";
import { STRICT_OFF, StrictSetting, parseStrictMode, strictFor } from "../src/safety/network-strict.js";
import { NewTabCover, DATA_RULE_ID, RULE_ID } from "../src/safety/network-new-tabs.js";
import { DialogGuard } from "../src/tabs/dialogs.js";
import { createChrome, createStorageArea, realTimers } from "./chrome-stub.js";

/** @param {string} method @param {string} url @param {string} [body] @param {string} [resourceType] */
const reasons = (method, url, body = "", resourceType = "Fetch") => localReasons({ method, url, body, resourceType });

test("what can change something: any method but GET, HEAD and OPTIONS, beacons, form submissions", () => {
  assert.equal(mayChange({ method: "GET", url: "https://a.example/", resourceType: "Fetch" }), false);
  assert.equal(mayChange({ method: "OPTIONS", url: "https://a.example/", resourceType: "Preflight" }), false);
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    assert.equal(mayChange({ method, url: "https://a.example/", resourceType: "XHR" }), true, method);
  }
  assert.equal(mayChange({ method: "POST", url: "https://a.example/", resourceType: "Ping" }), true);
  assert.equal(mayChange({ method: "GET", url: "https://a.example/s?q=1", resourceType: "Document", formSubmission: true }), true);
});

test("card data: a Luhn-valid run with or without separators, or card fields by name", () => {
  assert.equal(hasCardNumber("4111 1111 1111 1111"), true);
  assert.equal(hasCardNumber("5500-0000-0000-0004"), true);
  assert.equal(hasCardNumber("4111 1111 1111 1112"), false, "fails Luhn");
  assert.equal(hasCardNumber("0000000000000000"), false, "one digit repeated is no card");
  for (const written of ["4111.1111.1111.1111", "n=4111_1111_1111_1111", "4111\u00a01111\u00a01111\u00a01111",
    "4111\u20131111\u20131111\u20131111", "3782/822463/10005", "card 4111,1111,1111,1111 exp"]) {
    assert.equal(hasCardNumber(written), true, written);
  }
  assert.equal(hasCardNumber("4111.1111.1111.1112"), false, "grouped, but fails Luhn");
  assert.equal(hasCardNumber("v1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6"), false, "small numbers are no card");
  assert.equal(hasCardNumber("4111.1111-1111_1111"), false, "one separator throughout");
  assert.match(reasons("POST", "https://a.example/notes", "n=4111111111111111").join(), /payment-card/);
  assert.match(reasons("POST", "https://a.example/x", JSON.stringify({ billing: { cardNumber: "x", cvc: "1" } })).join(), /payment-card/);
  assert.match(reasons("POST", "https://a.example/x", "cc-exp=12%2F29").join(), /payment-card/);
});

test("credentials by field name; a CSRF token alone is not one", () => {
  assert.match(reasons("POST", "https://a.example/x", "user=a&new_password=b").join(), /credential/);
  assert.deepEqual(reasons("POST", "https://a.example/notes", "csrf_token=abc&note=hi"), []);
});

test("credential names are read by their words and parts, however they are joined", () => {
  for (const name of ["pass", "pw", "pwd", "passwd", "secret", "user_pw", "loginPwd", "newpassword", "client_secret",
    "otp_code", "mfaToken", "Passcode", "x-api-key-secret"]) {
    assert.equal(isCredentialName(name), true, name);
    assert.match(reasons("POST", "https://a.example/x", `user=a&${name}=b`).join(), /credential/, name);
  }
  for (const name of ["passenger", "passport_country", "compass", "spinner", "token", "csrf_token", "page", "q"]) {
    assert.equal(isCredentialName(name), false, name);
  }
});

test("a value the task typed into a password field is a credential wherever it goes, whatever its field is named", () => {
  noteSecret("task-secrets", "hunter2!x");
  const secrets = secretForms("task-secrets");
  const held = (/** @type {string} */ url, /** @type {string} */ body) =>
    localReasons({ method: "POST", url, body, resourceType: "Fetch" }, { secrets }).join();
  assert.match(held("https://b.example/c", "n=hunter2!x"), /password field/);
  assert.match(held("https://b.example/c", "n=hunter2%21x"), /password field/, "percent-encoded");
  assert.match(held("https://b.example/c", JSON.stringify({ d: btoa("hunter2!x") })), /password field/, "base64");
  assert.match(held("https://b.example/c?k=hunter2!x", ""), /password field/, "in the URL");
  assert.equal(held("https://b.example/c", "n=hunter3"), "");
  assert.deepEqual(secretForms("another-task"), [], "per task");
  assert.match(messageReasons(JSON.stringify({ t: "hunter2!x" }), secrets).join(), /password field/, "a socket message");
  assert.deepEqual(messageReasons(JSON.stringify({ t: "hello" }), secrets), []);
});

test("a request and a socket message carrying card data and a typed password say both, by one rule", () => {
  noteSecret("task-both", "hunter2!x");
  const secrets = secretForms("task-both");
  const payload = JSON.stringify({ n: "4111 1111 1111 1111", t: "hunter2!x" });
  const request = localReasons({ method: "POST", url: "https://b.example/c", body: payload, resourceType: "Fetch" }, { secrets });
  assert.deepEqual(messageReasons(payload, secrets), request);
  assert.deepEqual(request, ["it carries payment-card data", SECRET_REASON]);
  const named = JSON.stringify({ password: "hunter2!x" });
  assert.deepEqual(messageReasons(named, secrets), ["it carries a password or other credential"], "one credential reason");
});

test("a body past what bua reads, or one it cannot read, is held: padding does not hide what follows", () => {
  const padded = "pad=" + "x".repeat(MAX_BODY_CHARS) + "&n=4111111111111111";
  const text = bodyText({ postData: padded });
  assert.equal(text.length, MAX_BODY_CHARS + 1);
  const unjudged = bodyUnjudged({ postData: padded }, text);
  assert.match(localReasons({ method: "POST", url: "https://a.example/notes", body: text, resourceType: "Fetch", unjudged }).join(), /longer than/);
  const big = "note=" + "y".repeat(200 * 1024) + "&n=4111111111111111";
  assert.equal(bodyUnjudged({ postData: big }, bodyText({ postData: big })), "", "a 200 KB body is read whole");
  assert.match(reasons("POST", "https://a.example/notes", bodyText({ postData: big })).join(), /payment-card/,
    "card data after 200 KB of padding");
  assert.match(bodyUnjudged({ hasPostData: true, postDataEntries: [{}] }, ""), /could not be read/);
  assert.equal(bodyUnjudged({ hasPostData: false }, ""), "");
});

test("endpoint words come from the path, query names, body names and operation names, never from values", () => {
  assert.match(reasons("POST", "https://a.example/api/placeOrder").join(), /an order/);
  assert.match(reasons("POST", "https://a.example/rpc", JSON.stringify({ action: "delete_item", id: 3 })).join(), /deleting/);
  assert.match(reasons("POST", "https://a.example/graphql", JSON.stringify({ query: "mutation TransferFunds { x }" })).join(), /transfer/);
  assert.match(reasons("DELETE", "https://a.example/api/items/3").join(), /DELETE/);
  assert.deepEqual(reasons("POST", "https://a.example/search", "q=pay+slips+transfer+history"), [], "values are data");
  assert.deepEqual(reasons("POST", "https://a.example/collect", JSON.stringify({ event: "view", page: "/checkout-guide" })), []);
  assert.deepEqual(reasons("POST", "https://a.example/stats", "e=view", "Ping"), [], "a beacon to a neutral endpoint");
});

test("bodies: URL-encoded, JSON with nested keys, multipart", () => {
  assert.deepEqual(bodyFields("a=1&b=two").pairs, [["a", "1"], ["b", "two"]]);
  assert.deepEqual(bodyFields(JSON.stringify({ a: { b: 1 } })).names, ["a", "b"]);
  const multipart = "--x\r\nContent-Disposition: form-data; name=\"pan\"\r\n\r\n4111\r\n--x--";
  assert.deepEqual(bodyFields(multipart).pairs, [["pan", "4111"]]);
});

test("strict mode: for every site, or for the page's or the destination's site; checked input", async () => {
  assert.equal(strictFor(STRICT_OFF, "https://a.example/x", "https://a.example/"), false);
  assert.equal(strictFor({ all: true, sites: [] }, "https://a.example/x", ""), true);
  assert.equal(strictFor({ all: false, sites: ["shop.example"] }, "https://api.other.example/x", "https://www.shop.example/"), true);
  assert.equal(strictFor({ all: false, sites: ["shop.example"] }, "https://a.example/x", "https://b.example/"), false);
  assert.deepEqual(reasons("POST", "https://a.example/notes"), []);
  assert.match(localReasons({ method: "POST", url: "https://a.example/notes", resourceType: "Fetch" }, { strict: true }).join(), /strict mode/);
  assert.throws(() => parseStrictMode({ all: "yes" }), /'all'/);
  const storage = createStorageArea();
  const setting = new StrictSetting(storage);
  assert.deepEqual(await setting.get(), STRICT_OFF, "off by default");
  await setting.set({ all: false, sites: ["Shop.Example"] });
  assert.deepEqual(await new StrictSetting(storage).get(), { all: false, sites: ["shop.example"] }, "kept across restarts");
});

/** A session tab, a controller on the stub debugger, a hold service that records what it posts. */
function rig(timers = realTimers, post = (/** @type {any[]} */ posted, /** @type {any} */ m) => posted.push(m) > 0) {
  const chrome = createChrome();
  const tab = chrome.tabs.add({ url: "https://shop.example/" });
  const dbg = new DebuggerController(chrome.debugger);
  /** @type {any[]} */
  const posted = [];
  const sessions = { get: (/** @type {number} */ id) => (id === tab.id ? { url: tab.url } : undefined) };
  const holds = new NetworkHolds({ post: (m) => post(posted, m), timers, strict: async () => STRICT_OFF, debugger: dbg, sessions });
  const controller = new AbortController();
  const ctx = /** @type {any} */ ({ debugger: dbg, taskId: "t1", requestId: "r1", signal: controller.signal });
  /** @param {string} requestId @param {string} method @param {string} url @param {string} [type] */
  const pause = (requestId, method, url, type = "Fetch") =>
    chrome.debugger.emit(tab.id, "Fetch.requestPaused", { requestId, resourceType: type, frameId: "F", request: { method, url } });
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const asked = () => posted.filter((m) => m.type === "request_held");
  return { chrome, tab, dbg, holds, ctx, controller, posted, pause, tick, asked,
    calls: (/** @type {string} */ m) => chrome.debugger.callsOf(m).map((c) => c.params.requestId) };
}

test("a session tab is held from its start: a GET continues at once, a POST waits for the app's answer", async () => {
  const r = rig();
  await r.holds.hold("t1", r.tab.id);
  assert.equal(r.chrome.debugger.callsOf("Fetch.enable").length, 1, "on before any action");
  const action = await r.holds.begin(r.ctx, r.tab.id, "click");
  assert.equal(r.chrome.debugger.callsOf("Fetch.enable").length, 1, "an action turns nothing on");
  r.pause("1", "GET", "https://shop.example/img.png", "XHR");
  r.pause("2", "POST", "https://shop.example/api/checkout");
  await r.tick();
  assert.deepEqual(r.calls("Fetch.continueRequest"), ["1"]);
  const [asked] = r.asked();
  assert.equal(asked.data.url, "https://shop.example/api/checkout");
  assert.equal(asked.data.action, "click");
  assert.equal(asked.data.between_actions, false);
  assert.match(asked.data.why.join(), /payment/);
  assert.equal(r.holds.answer(asked.data.hold_id, { decision: "allow", asked: true }), true);
  const result = await action.settle({ effects: {} });
  assert.deepEqual(r.calls("Fetch.continueRequest"), ["1", "2"]);
  assert.deepEqual(/** @type {any} */ (result).effects.held_requests,
    [{ method: "POST", url: "https://shop.example/api/checkout", why: asked.data.why, decision: "allow" }]);
  action.linger();
  await r.holds.begin(r.ctx, r.tab.id, "type");
  assert.equal(r.chrome.debugger.callsOf("Fetch.disable").length, 0, "nothing is turned off between actions");
});

test("between actions the page's requests are held and judged the same, asked about as the page's own", async () => {
  /** @type {{fn: () => void, ms: number}[]} */
  const timers = [];
  const r = rig({ setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => timers.push({ fn, ms }), clearTimeout: () => {} });
  const action = await r.holds.begin(r.ctx, r.tab.id, "click", { approved: true });
  await action.settle({});
  action.linger();
  r.pause("3", "POST", "https://shop.example/api/pay");
  await r.tick();
  assert.equal(r.asked()[0].data.action, "click", "a moment after the action: asked as the action's, with its approval");
  assert.equal(r.asked()[0].data.approved, true);
  timers.find((t) => t.ms === LINGER_MS)?.fn();
  r.pause("4", "POST", "https://shop.example/api/pay");
  r.pause("5", "POST", "https://shop.example/api/notes", "Ping");
  await r.tick();
  const later = r.asked()[1];
  assert.deepEqual([later.data.action, later.data.approved, later.data.between_actions, later.data.task_id], ["", false, true, "t1"]);
  assert.match(later.data.why.join(), /payment/);
  r.holds.answer(r.asked()[0].data.hold_id, { decision: "allow", asked: true });
  r.holds.answer(later.data.hold_id, { decision: "deny", asked: true });
  r.holds.answer(r.asked()[2].data.hold_id, { decision: "allow", asked: false });
  await r.tick();
  assert.deepEqual(r.calls("Fetch.failRequest"), ["4"]);
  assert.deepEqual(r.calls("Fetch.continueRequest"), ["3", "5"]);
});

test("deny fails the request and the action answers confirmation_required", async () => {
  const r = rig();
  const action = await r.holds.begin(r.ctx, r.tab.id, "click");
  r.pause("7", "POST", "https://shop.example/api/orders");
  await r.tick();
  r.holds.answer(r.asked()[0].data.hold_id, { decision: "deny", asked: true, why: ["the person denied it"] });
  await assert.rejects(action.settle({}), (err) => /** @type {any} */ (err).code === "confirmation_required"
    && /** @type {any} */ (err).details.confirmation.held_requests[0].decision === "deny");
  assert.deepEqual(r.chrome.debugger.callsOf("Fetch.failRequest").map((c) => c.params), [{ requestId: "7", errorReason: "BlockedByClient" }]);
});

const FAILED = /stopped before the person answered.*never left the browser/;
for (const [name, end, said] of /** @type {[string, (r: ReturnType<typeof rig>) => void, RegExp][]} */ ([
  ["Stop (the request's abort)", (r) => r.controller.abort("Stop all"), FAILED],
  // Chromium continues what is paused when the debugger detaches: the result says so, never "never left"
  ["the tab's debugger detaching", (r) => r.chrome.debugger.forceDetach(r.tab.id, "target_closed"),
    /went before the person answered \(.*Chrome let it go.*may have been sent\); the page/],
  ["the app going away", (r) => r.holds.releaseAll("port closed"), FAILED],
  ["the session ending", (r) => r.holds.sessionEnded(r.tab.id, "stopped"), FAILED],
  ["the page's renderer crashing", (r) => r.chrome.debugger.emit(r.tab.id, "Inspector.targetCrashed", {}), FAILED],
])) {
  test(`${name} ends a request waiting for the person and withdraws the question`, async () => {
    const r = rig();
    const action = await r.holds.begin(r.ctx, r.tab.id, "click");
    r.pause("9", "PUT", "https://shop.example/api/account");
    await r.tick();
    const [asked] = r.asked();
    end(r);
    await assert.rejects(action.settle({}), said);
    assert.deepEqual(r.calls("Fetch.failRequest"), ["9"]);
    assert.deepEqual(r.posted.filter((m) => m.type === "request_released").map((m) => m.data.hold_id), [asked.data.hold_id]);
    assert.equal(r.holds.answer(asked.data.hold_id, { decision: "allow" }), false, "a late answer changes nothing");
  });
}

test("a tab left while its request waits: the close guard is on before it is asked, and the beforeunload dialog is answered only once the request failed", async () => {
  const r = rig();
  r.chrome.debugger.handlers["Page.handleJavaScriptDialog"] = () => ({});
  r.chrome.debugger.handlers["Page.getFrameTree"] = () => ({ frameTree: { frame: { id: "TOP" } } });
  r.chrome.debugger.handlers["Page.createIsolatedWorld"] = () => ({ executionContextId: 7 });
  const dialogs = new DialogGuard({ send: (tabId, method, params, sessionId) => r.dbg.send(tabId, method, params, sessionId),
    beforeLeaving: (tabId) => r.holds.leaving(tabId) });
  const action = await r.holds.begin(r.ctx, r.tab.id, "click");
  r.pause("11", "POST", "https://shop.example/api/pay");
  await r.tick();
  const [asked] = r.asked();
  const methods = () => r.chrome.debugger.calls.map((c) => c.method);
  const guardOn = r.chrome.debugger.calls.findIndex((c) => c.method === "Runtime.callFunctionOn" && c.params.arguments[0].value === true);
  assert.ok(guardOn >= 0, methods().join());
  await dialogs.onEvent({ tabId: r.tab.id }, "Page.javascriptDialogOpening", { type: "beforeunload", message: "" });
  const order = methods();
  assert.ok(order.indexOf("Fetch.failRequest") >= 0 && order.indexOf("Fetch.failRequest") < order.indexOf("Page.handleJavaScriptDialog"), order.join());
  assert.deepEqual(r.calls("Fetch.continueRequest"), [], "never continued");
  assert.deepEqual(r.posted.filter((m) => m.type === "request_released").map((m) => m.data.hold_id), [asked.data.hold_id]);
  await assert.rejects(action.settle({}), /stopped before the person answered/);
  await r.tick();
  assert.equal(r.chrome.debugger.calls.filter((c) => c.method === "Runtime.callFunctionOn").at(-1)?.params.arguments[0].value, false,
    "off again once nothing waits");
});

test("a new tab's request the session rules failed before its hold was on is reported in the task's next result, a Deny after it is not", async () => {
  const r = rig();
  const writes = /** @type {any[]} */ ([]);
  const cover = new NewTabCover({ rules: { updateSessionRules: async (change) => { writes.push(change); } },
    tabs: { query: async () => [{ id: r.tab.id }] } });
  /** @type {any[]} */
  const posted = [];
  const holds = new NetworkHolds({ post: (m) => posted.push(m) > 0, timers: realTimers, strict: async () => STRICT_OFF, debugger: r.dbg,
    sessions: { get: () => ({ url: "https://shop.example/" }) }, cover });
  await holds.hold("t1", r.tab.id);
  const popup = r.chrome.tabs.add({ url: "about:blank" });
  holds.opened(r.tab.id, popup.id);
  const failed = (/** @type {number} */ timeStamp) => cover.requestFailed({ tabId: popup.id, type: "xmlhttprequest", method: "POST",
    url: "https://shop.example/api/notes", error: "net::ERR_BLOCKED_BY_CLIENT", timeStamp });
  failed(Date.now());
  cover.requestFailed({ tabId: r.tab.id, type: "xmlhttprequest", method: "POST", url: "https://shop.example/x",
    error: "net::ERR_BLOCKED_BY_CLIENT", timeStamp: Date.now() });
  await holds.hold("t1", popup.id);
  // its document loads through the hold: it is left out of the rules then
  r.chrome.debugger.emit(popup.id, "Fetch.requestPaused", { requestId: "d1", resourceType: "Document", frameId: "P",
    request: { method: "GET", url: "https://shop.example/notes" } });
  await r.tick();
  holds.answer(posted.filter((m) => m.type === "request_held").at(-1).data.hold_id, { decision: "allow", asked: false });
  await r.tick();
  failed(Date.now() + 60_000);
  const action = await holds.begin(r.ctx, r.tab.id, "click");
  const result = /** @type {any} */ (await action.settle({ effects: {} }));
  assert.deepEqual(result.effects.unsent_requests.map((/** @type {any} */ u) => [u.method, u.url, u.tab_id]),
    [["POST", "https://shop.example/api/notes", popup.id]], "once, and only what the rule failed before the hold was on");
  assert.match(result.effects.unsent_requests[0].why, /not sent/);
  action.linger();
  const next = /** @type {any} */ (await (await holds.begin(r.ctx, r.tab.id, "click")).settle({ effects: {} }));
  assert.equal(next.effects.unsent_requests, undefined, "reported once");
});

test("a web page's read the session rules failed before its tab's hold was on loads the tab again through the hold, once; an about:blank popup's is only reported", async () => {
  const r = rig();
  const cover = new NewTabCover({ rules: { updateSessionRules: async () => {} }, tabs: { query: async () => [{ id: r.tab.id }] } });
  const holds = new NetworkHolds({ post: () => true, timers: realTimers, strict: async () => STRICT_OFF, debugger: r.dbg,
    sessions: { get: () => ({ url: "https://shop.example/" }) }, cover });
  await holds.hold("t1", r.tab.id);
  const web = r.chrome.tabs.add({ url: "https://shop.example/photos" });
  const blank = r.chrome.tabs.add({ url: "about:blank" });
  holds.opened(r.tab.id, web.id);
  holds.opened(r.tab.id, blank.id);
  const read = (/** @type {number} */ tabId, /** @type {string} */ documentUrl, /** @type {string} */ url) => cover.requestFailed({
    tabId, type: "image", method: "GET", url, documentUrl, error: "net::ERR_BLOCKED_BY_CLIENT", timeStamp: Date.now() });
  read(web.id, "https://shop.example/photos", "https://cdn.example/px.gif?d=1");
  read(web.id, "https://shop.example/photos", "https://cdn.example/px.gif?d=2");
  read(blank.id, "about:blank", "https://cdn.example/px.gif?d=3");
  await holds.hold("t1", web.id);
  await holds.hold("t1", blank.id);
  await r.tick();
  const reloads = r.chrome.debugger.calls.filter((c) => c.method === "Page.reload").map((c) => c.tabId);
  assert.deepEqual(reloads, [web.id], "the web page once, once its hold is on; the written popup never");
  const action = await holds.begin(r.ctx, r.tab.id, "click");
  const result = /** @type {any} */ (await action.settle({ effects: {} }));
  const whys = result.effects.unsent_requests.map((/** @type {any} */ u) => [u.tab_id, /loaded again/.test(u.why)]);
  assert.deepEqual(whys, [[web.id, true], [web.id, true], [blank.id, false]]);
});

test("a new tab's request the rule failed while the write leaving the tab out was still under way is reported", async () => {
  const r = rig();
  /** @type {(() => void)[]} */
  const gates = [];
  let writes = 0;
  const cover = new NewTabCover({ rules: { updateSessionRules: () => {
    writes += 1;
    return writes <= 2 ? Promise.resolve() : new Promise((resolve) => { gates.push(() => resolve(undefined)); });
  } }, tabs: { query: async () => [{ id: r.tab.id }] } });
  /** @type {any[]} */
  const posted = [];
  const holds = new NetworkHolds({ post: (m) => posted.push(m) > 0, timers: realTimers, strict: async () => STRICT_OFF, debugger: r.dbg,
    sessions: { get: () => ({ url: "https://shop.example/" }) }, cover });
  await holds.hold("t1", r.tab.id);
  const popup = r.chrome.tabs.add({ url: "about:blank" });
  holds.opened(r.tab.id, popup.id);
  await holds.hold("t1", popup.id);
  r.chrome.debugger.emit(popup.id, "Fetch.requestPaused", { requestId: "d1", resourceType: "Document", frameId: "P",
    request: { method: "GET", url: "https://shop.example/notes" } });
  await r.tick();
  holds.answer(posted.filter((m) => m.type === "request_held").at(-1).data.hold_id, { decision: "allow", asked: false });
  for (let i = 0; i < 50 && gates.length === 0; i++) await r.tick();
  assert.equal(gates.length, 1, "the write that leaves the new tab out is under way");
  cover.requestFailed({ tabId: popup.id, type: "xmlhttprequest", method: "POST", url: "https://shop.example/api/notes",
    error: "net::ERR_BLOCKED_BY_CLIENT", timeStamp: Date.now() + 60_000 });
  gates[0]();
  await holds.hold("t1", popup.id);
  const action = await holds.begin(r.ctx, r.tab.id, "click");
  const result = /** @type {any} */ (await action.settle({ effects: {} }));
  assert.deepEqual(result.effects.unsent_requests?.map((/** @type {any} */ u) => u.url), ["https://shop.example/api/notes"]);
});

test("no app to ask: a changing request is failed at once, a navigation only the app could object to goes on", async () => {
  const r = rig(realTimers, () => false);
  const action = await r.holds.begin(r.ctx, r.tab.id, "click");
  r.pause("3", "POST", "https://shop.example/api/notes");
  r.pause("4", "GET", "https://other.example/land?from=shop", "Document");
  await r.tick();
  await assert.rejects(action.settle({}), /confirmation_required|not approved/);
  assert.deepEqual(r.calls("Fetch.failRequest"), ["3"]);
  assert.deepEqual(r.calls("Fetch.continueRequest"), ["4"]);
});

test("an action that came with an approval token says so; the app decides whether that spares a question", async () => {
  const r = rig();
  const action = await r.holds.begin(r.ctx, r.tab.id, "click", { approved: true });
  r.pause("4", "POST", "https://shop.example/api/checkout");
  await r.tick();
  const [asked] = r.asked();
  assert.equal(asked.data.approved, true);
  assert.match(asked.data.why.join(), /payment/);
  r.holds.answer(asked.data.hold_id, { decision: "allow", asked: false });
  assert.deepEqual(await action.settle({ ok: 1 }), { ok: 1 }, "nothing asked: nothing reported");
});

test("a read is sent to the app only when it goes to another host with a URL that can carry data", () => {
  assert.equal(carriesAway("https://cdn.example/app.js", "https://shop.example/"), false, "no query, a plain path");
  assert.equal(carriesAway("https://shop.example/api?q=1", "https://shop.example/"), false, "the page's own host");
  assert.equal(carriesAway("https://stats.example/c?d=ZX44", "https://shop.example/"), true);
  assert.equal(carriesAway("https://stats.example/u/ZX44719920QQ", "https://shop.example/"), true, "data in the path");
  assert.equal(carriesAway("https://stats.example/go/qWmZbXkRt", "https://shop.example/"), true, "data by letter case");
  assert.equal(carriesAway("https://stats.example/c?d=ZX44", ""), true, "a page not known yet (a new tab's first moment)");
  assert.equal(carriesAway("https://stats.example/app.js", ""), false);
});

test("Stop ends the session's hold at once: what waits for the person is failed and Fetch goes off", async () => {
  const r = rig();
  await r.holds.hold("t1", r.tab.id);
  r.pause("5", "POST", "https://shop.example/api/checkout");
  await r.tick();
  r.holds.endWhere((h) => h.taskId === "other", "the session was ended");
  assert.equal(r.chrome.debugger.callsOf("Fetch.disable").length, 0, "another task's hold is left alone");
  r.holds.endWhere((h) => h.taskId === "t1", "Stop all");
  assert.equal(r.holds.holdsTab(r.tab.id), false, "ended synchronously");
  await r.tick();
  assert.deepEqual(r.calls("Fetch.failRequest"), ["5"]);
  assert.ok(r.posted.some((m) => m.type === "request_released" && m.data.reason === "Stop all"));
  assert.equal(r.chrome.debugger.callsOf("Fetch.disable").length, 1);
  const order = r.chrome.debugger.calls.map((/** @type {any} */ c) => c.method).filter((m) => m === "Fetch.failRequest" || m === "Fetch.disable");
  assert.deepEqual(order, ["Fetch.failRequest", "Fetch.disable"], "failed before Fetch goes off (disabling would let it continue)");
  r.pause("6", "POST", "https://shop.example/api/checkout");
  await r.tick();
  assert.equal(r.asked().length, 1, "an ended hold asks nothing");
});

test("a tab a session tab opens is held by its own session: covered until the hold loads it again, its blocked POST reloaded", async () => {
  const chrome = createChrome();
  const tab = chrome.tabs.add({ url: "https://shop.example/" });
  const dbg = new DebuggerController(chrome.debugger);
  /** @type {any[]} */
  const writes = [];
  /** @type {Set<number>} */
  const sessionTabs = new Set([tab.id]);
  /** @type {number[]} */
  const reloaded = [];
  const tabs = { query: chrome.tabs.query, reload: async (/** @type {number} */ id) => { reloaded.push(id); } };
  const cover = new NewTabCover({ rules: { updateSessionRules: async (/** @type {any} */ c) => { writes.push(c); } }, tabs,
    isSessionTab: (id) => sessionTabs.has(id) });
  /** @type {any[]} */
  const posted = [];
  const holds = new NetworkHolds({ post: (m) => posted.push(m) > 0, timers: realTimers, strict: async () => STRICT_OFF, cover,
    debugger: dbg, sessions: { get: () => ({ url: "https://shop.example/" }) } });
  await holds.hold("t1", tab.id);
  const rules = () => writes.at(-1).addRules;
  assert.deepEqual(rules().map((/** @type {any} */ x) => x.id).slice(0, 2), [RULE_ID, DATA_RULE_ID], "the rules are on while a session is held");
  const popup = chrome.tabs.add({ url: "about:blank" });
  cover.tabCreated({ id: popup.id, openerTabId: tab.id });
  assert.equal(rules()[0].condition.excludedTabIds.includes(popup.id), false, "a tab newer than the rules is covered");
  cover.navigationFailed({ tabId: popup.id, frameId: 0, error: "net::ERR_BLOCKED_BY_CLIENT", url: "https://shop.example/pay" });
  holds.opened(tab.id, popup.id);
  holds.opened(9999, popup.id + 1);
  const tick = () => new Promise((r) => setTimeout(r, 5));
  await tick();
  assert.deepEqual(chrome.debugger.callsOf("Fetch.enable").map((c) => c.tabId), [tab.id, popup.id],
    "held as soon as it is known to be a held tab's, before it joined the task; a tab another tab opened is not");
  sessionTabs.add(popup.id);
  await holds.hold("t1", popup.id);
  assert.equal(chrome.debugger.callsOf("Fetch.enable").length, 2, "its session's start finds it held");
  assert.ok(rules()[0].condition.excludedTabIds.includes(popup.id), "left out of the rules just before the hold loads it again");
  assert.deepEqual(chrome.debugger.callsOf("Page.reload").map((c) => c.tabId), [popup.id], "the blocked POST is sent again");
  chrome.debugger.emit(popup.id, "Fetch.requestPaused", { requestId: "p1", resourceType: "Document", frameId: "P",
    request: { method: "POST", url: "https://shop.example/next", postData: "n=4111111111111111" } });
  await tick();
  const asked = posted.find((m) => m.type === "request_held");
  assert.match(asked.data.why.join(), /payment-card/);
  assert.equal(asked.data.tab_id, popup.id);
  holds.answer(asked.data.hold_id, { decision: "deny", asked: true });
  await tick();
  assert.deepEqual(chrome.debugger.callsOf("Fetch.failRequest").map((c) => [c.tabId, c.params.errorReason]), [[popup.id, "Aborted"]]);
  chrome.debugger.emit(popup.id, "Fetch.requestPaused", { requestId: "p2", resourceType: "Document", frameId: "P",
    request: { method: "GET", url: "https://shop.example/next" } });
  await tick();
  holds.answer(posted.filter((m) => m.type === "request_held").at(-1).data.hold_id, { decision: "allow", asked: false });
  await tick();
  assert.deepEqual(chrome.debugger.callsOf("Fetch.continueRequest").map((c) => c.params.requestId), ["p2"], "an allowed document goes");
  const mine = chrome.tabs.add({ url: "about:blank" });
  cover.tabCreated({ id: mine.id, openerTabId: 9999 });
  const typed = chrome.tabs.add({ url: "about:blank" });
  cover.tabCreated({ id: typed.id });
  cover.navigationFailed({ tabId: typed.id, frameId: 0, error: "net::ERR_BLOCKED_BY_CLIENT", url: "https://mail.example/?q=1" });
  await tick();
  assert.ok(rules()[0].condition.excludedTabIds.includes(mine.id), "a tab the person's tab opened is theirs: left out");
  assert.ok(rules()[0].condition.excludedTabIds.includes(typed.id), "so is a tab with no session tab behind its first navigation");
  assert.deepEqual(reloaded, [typed.id], "and what the rules blocked in it is loaded again");
  holds.sessionEnded(popup.id, "tab_closed");
  holds.sessionEnded(tab.id, "stopped");
  await tick();
  assert.deepEqual(writes.at(-1).addRules, [], "the last hold takes the rules away");
  assert.deepEqual(writes.at(-1).removeRuleIds.slice(0, 2), [RULE_ID, DATA_RULE_ID]);
});

test("a request that went without an answer between actions is reported in the task's next result, once", async () => {
  const r = rig();
  await r.holds.hold("t1", r.tab.id);
  r.pause("21", "POST", "https://shop.example/api/pay");
  await r.tick();
  assert.equal(r.asked().length, 1, "asked as the page's own");
  r.chrome.debugger.emit(r.tab.id, "Inspector.targetCrashed", {});
  await r.tick();
  assert.deepEqual(r.calls("Fetch.failRequest"), ["21"], "failed, not left for the detach that closing the tab brings");
  const other = r.chrome.tabs.add({ url: "https://shop.example/" });
  const next = /** @type {any} */ (await (await r.holds.begin(r.ctx, other.id, "navigate")).settle({ effects: {} }));
  assert.deepEqual(next.effects.unanswered_requests.map((/** @type {any} */ u) => [u.method, u.url, u.tab_id, u.decision]),
    [["POST", "https://shop.example/api/pay", r.tab.id, "stopped"]]);
  assert.match(next.effects.unanswered_requests[0].why, /crashed.*not sent/);
  const again = /** @type {any} */ (await (await r.holds.begin(r.ctx, other.id, "click")).settle({ effects: {} }));
  assert.equal(again.effects.unanswered_requests, undefined, "reported once");
});

test("the close guard gives a frame that never had a user activation one, so its own close asks first", async () => {
  const r = rig();
  r.chrome.debugger.handlers["Page.getFrameTree"] = () => ({ frameTree: { frame: { id: "TOP" } } });
  r.chrome.debugger.handlers["Page.createIsolatedWorld"] = () => ({ executionContextId: 7 });
  let active = false;
  r.chrome.debugger.handlers["Runtime.callFunctionOn"] = (/** @type {any} */ params) => {
    if (params.userGesture) active = true;
    // guardLeaving answers whether the page, closable by a script and never activated, needs an activation
    return { result: { value: params.arguments ? !active : true } };
  };
  await r.holds.hold("t1", r.tab.id);
  r.pause("30", "GET", "https://shop.example/next?order=1", "Document");
  await r.tick();
  assert.deepEqual(r.chrome.debugger.callsOf("Runtime.callFunctionOn").map((c) => Boolean(c.params.userGesture)), [false],
    "a navigation arms the guard but never borrows the page an activation");
  r.chrome.debugger.calls.splice(0);
  r.holds.answer(r.asked()[0].data.hold_id, { decision: "allow", asked: false });
  await r.tick();
  r.chrome.debugger.calls.splice(0);
  r.pause("31", "POST", "https://shop.example/api/pay");
  await r.tick();
  const calls = () => r.chrome.debugger.callsOf("Runtime.callFunctionOn").map((c) => Boolean(c.params.userGesture));
  assert.deepEqual(calls(), [false, true], "armed, then the frame is activated");
  r.holds.answer(r.asked()[1].data.hold_id, { decision: "allow", asked: true });
  await r.tick();
  r.pause("32", "POST", "https://shop.example/api/pay");
  await r.tick();
  assert.deepEqual(calls(), [false, true, false, false], "off, then on again with no second activation");
  r.holds.answer(r.asked()[2].data.hold_id, { decision: "deny", asked: true });
});

test("a popup's initial about:blank, loaded before its opener's POST navigates it, keeps the popup under the rules; a web page's load leaves it out", async () => {
  const chrome = createChrome();
  const tab = chrome.tabs.add({ url: "https://shop.example/" });
  const dbg = new DebuggerController(chrome.debugger);
  /** @type {any[]} */
  const writes = [];
  const cover = new NewTabCover({ rules: { updateSessionRules: async (/** @type {any} */ c) => { writes.push(c); } },
    tabs: { query: chrome.tabs.query }, isSessionTab: (id) => id === tab.id });
  const holds = new NetworkHolds({ post: () => true, timers: realTimers, strict: async () => STRICT_OFF, cover,
    debugger: dbg, sessions: { get: () => ({ url: "https://shop.example/" }) } });
  /** @type {Map<number, string>} each tab's document as Runtime.evaluate reads it in bua's world */
  const documents = new Map();
  chrome.debugger.handlers["Page.getFrameTree"] = () => ({ frameTree: { frame: { id: "TOP" } } });
  chrome.debugger.handlers["Page.createIsolatedWorld"] = () => ({ executionContextId: 7 });
  chrome.debugger.handlers["Runtime.evaluate"] = (_params, tabId) => ({ result: { value: ["complete", documents.get(tabId) ?? "about:blank"] } });
  await holds.hold("t1", tab.id);
  const excluded = () => writes.at(-1).addRules[0].condition.excludedTabIds;
  const tick = () => new Promise((r) => setTimeout(r, 5));

  const popup = chrome.tabs.add({ url: "about:blank" });
  cover.tabCreated({ id: popup.id, openerTabId: tab.id });
  holds.opened(tab.id, popup.id);
  await tick();
  assert.deepEqual(chrome.debugger.callsOf("Fetch.enable").map((c) => c.tabId), [tab.id, popup.id], "the popup is held");
  assert.equal(excluded().includes(popup.id), false,
    "its about:blank was complete when Fetch went on, which proves nothing of the POST its opener sends into it: still covered");
  chrome.debugger.emit(popup.id, "Page.frameNavigated", { frame: { id: "TOP", url: "about:blank" } });
  chrome.debugger.emit(popup.id, "Page.loadEventFired", {});
  await tick();
  assert.equal(excluded().includes(popup.id), false, "nor does about:blank's load event leave it out");
  chrome.debugger.emit(popup.id, "Page.frameNavigated", { frame: { id: "TOP", url: "https://shop.example/next" } });
  chrome.debugger.emit(popup.id, "Page.loadEventFired", {});
  await tick();
  assert.ok(excluded().includes(popup.id), "a web page loaded through Fetch: left out");

  const loaded = chrome.tabs.add({ url: "https://shop.example/help" });
  documents.set(loaded.id, "https://shop.example/help");
  cover.tabCreated({ id: loaded.id, openerTabId: tab.id });
  holds.opened(tab.id, loaded.id);
  await tick();
  assert.ok(excluded().includes(loaded.id), "a popup whose web page had loaded when Fetch went on is left out at once");

  const own = chrome.tabs.add({ url: "about:blank" });
  await holds.hold("t2", own.id);
  await tick();
  assert.ok(excluded().includes(own.id), "bua's own new about:blank tab, which its actions navigate through Fetch, is left out at once");
});
