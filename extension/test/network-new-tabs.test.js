import { test } from "node:test";
import assert from "node:assert/strict";

import { NewTabCover, DATA_RULE_ID, READ_RULE_ID, RULE_ID } from "../src/safety/network-new-tabs.js";
import { URL_DATA_PATTERNS } from "../src/safety/network-url-data.js";

/** Every rule id the cover writes. */
const IDS = [RULE_ID, ...URL_DATA_PATTERNS.map((_, i) => DATA_RULE_ID + i), ...URL_DATA_PATTERNS.map((_, i) => READ_RULE_ID + i)];

function rulesStub() {
  /** @type {any[]} */
  const writes = [];
  return { writes, updateSessionRules: async (/** @type {any} */ change) => { writes.push(change); } };
}
const tabsStub = (/** @type {number[]} */ ids) => ({ query: async () => ids.map((id) => ({ id })) });

test("the rules are on while a hold is, block changing methods, top-level GETs and other reads that can carry data, and leave out every tab that existed and no-tab requests", async () => {
  const rules = rulesStub();
  const cover = new NewTabCover({ rules, tabs: tabsStub([1, 2]) });
  await cover.cover();
  assert.equal(rules.writes.length, 2);
  const [rule, ...all] = rules.writes[1].addRules;
  const queries = all.slice(0, URL_DATA_PATTERNS.length);
  const reads = all.slice(URL_DATA_PATTERNS.length);
  assert.deepEqual(reads.map((r) => [r.condition.regexFilter, r.condition.requestMethods, r.condition.resourceTypes.includes("main_frame")]),
    queries.map((q) => [q.condition.regexFilter, ["get"], false]), "each pattern also for reads of every other type");
  assert.ok(["image", "script", "xmlhttprequest", "sub_frame", "font", "stylesheet"].every((t) => reads[0].condition.resourceTypes.includes(t)));
  assert.equal(rule.id, RULE_ID);
  assert.equal(rule.action.type, "block");
  assert.ok(!rule.condition.requestMethods.includes("get") && rule.condition.requestMethods.includes("post"));
  assert.deepEqual([...rule.condition.excludedTabIds].sort(), [-1, 1, 2]);
  assert.deepEqual(all.map((q) => q.id), IDS.slice(1));
  for (const query of queries) {
    assert.deepEqual([query.condition.requestMethods, query.condition.resourceTypes], [["get"], ["main_frame"]]);
  }
  const matchers = queries.map((q) => new RegExp(q.condition.regexFilter, q.condition.isUrlFilterCaseSensitive ? "" : "i"));
  const carries = { test: (/** @type {string} */ u) => matchers.some((m) => m.test(u)) };
  /** @type {[string, boolean][]} */
  const urls = [
    ["https://a.test/land?d=1", true], ["https://a.test/land", false], ["https://a.test/p#x?y", false], ["https://a.test/?", false],
    ["https://a.test/u/ana@mail.example", true], ["https://a.test/u/ana%40mail.example", true],
    ["https://a.test/4111111111111111", true], ["https://a.test/c/4111-1111-1111-1111", true],
    ["https://a.test/n/hello%20there%20my%20friend", true], ["https://a.test/r/ZX44719920QQ", true],
    ["https://ana:pw@a.test/", true], ["https://4111-1111-1111-1111.evil.test/", true],
    ["https://a.test/help/delivery-times", false], ["https://www.a.test/", false], ["http://127.0.0.1:8080/about", false],
    ["https://a.test/#/u/4111111111111111", false], ["https://a.test/go/qWmZbXkRt", true], ["https://a.test/go/qwmzbxkrt", false],
  ];
  assert.deepEqual(urls.map(([u]) => [u, carries.test(u)]), urls);
  await cover.cover();
  assert.equal(rules.writes.length, 2, "a second hold writes nothing (its tab is left out once Fetch is on in it)");
  await cover.leaveOut(7);
  assert.ok(rules.writes.at(-1).addRules[0].condition.excludedTabIds.includes(7));
  cover.uncover();
  assert.equal(cover.covering, true);
  cover.uncover();
  await cover.leaveOut(9);
  assert.deepEqual(rules.writes.at(-1), { removeRuleIds: IDS, addRules: [] }, "the last hold takes the rules away");
});

test("a worker that starts removes rules an earlier worker left behind (session rules outlive it)", async () => {
  const rules = rulesStub();
  const cover = new NewTabCover({ rules, tabs: tabsStub([1]) });
  await cover.leaveOut(1);
  assert.deepEqual(rules.writes, [{ removeRuleIds: IDS, addRules: [] }]);
  assert.equal(cover.covering, false);
});

test("a blocked top-level navigation is handed over once, whether it came before or after the listener", async () => {
  const cover = new NewTabCover({ rules: rulesStub(), tabs: tabsStub([1]) });
  await cover.cover();
  /** @type {string[]} */
  const seen = [];
  cover.navigationFailed({ tabId: 5, frameId: 0, error: "net::ERR_BLOCKED_BY_CLIENT", url: "http://a.test/pay" });
  cover.onBlocked(5, (url) => seen.push(url));
  cover.onBlocked(6, (url) => seen.push(url));
  cover.navigationFailed({ tabId: 6, frameId: 3, error: "net::ERR_BLOCKED_BY_CLIENT", url: "http://a.test/frame" });
  cover.navigationFailed({ tabId: 6, frameId: 0, error: "net::ERR_ABORTED", url: "http://a.test/other" });
  cover.navigationFailed({ tabId: 6, frameId: 0, error: "net::ERR_BLOCKED_BY_CLIENT", url: "http://a.test/order" });
  cover.navigationFailed({ tabId: 6, frameId: 0, error: "net::ERR_BLOCKED_BY_CLIENT", url: "http://a.test/again" });
  assert.deepEqual(seen, ["http://a.test/pay", "http://a.test/order"]);
});

test("with no declarativeNetRequest nothing is covered and nothing throws", async () => {
  const cover = new NewTabCover({ tabs: tabsStub([1]) });
  await cover.cover();
  await cover.leaveOut(2);
  cover.uncover();
});

test("tabs the person opens are left out as soon as they are known to be theirs; a session tab's stay covered", async () => {
  const rules = rulesStub();
  const cover = new NewTabCover({ rules, tabs: { ...tabsStub([1]), reload: async () => {} }, isSessionTab: (id) => id === 1 });
  await cover.cover();
  const excluded = () => rules.writes.at(-1).addRules[0].condition.excludedTabIds;
  cover.tabCreated({ id: 5, openerTabId: 1 });
  cover.tabCreated({ id: 6 });
  cover.navigationTarget({ sourceTabId: 1, tabId: 6 });
  cover.tabCreated({ id: 7 });
  cover.committed({ tabId: 7, frameId: 0 });
  cover.tabCreated({ id: 8, openerTabId: 3 });
  cover.tabCreated({ id: 9 });
  cover.navigationTarget({ sourceTabId: 3, tabId: 9 });
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual([5, 6, 7, 8, 9].filter((id) => excluded().includes(id)), [7, 8, 9],
    "opened by the session tab (by opener or as a navigation target): covered; the person's: left out");
});
