import { test } from "node:test";
import assert from "node:assert/strict";

import { STORAGE_KEY, TaskTabs } from "../src/tabs/task-tabs.js";
import { createStorageArea } from "./chrome-stub.js";

test("remembers each task's tab in session storage", async () => {
  const storage = createStorageArea();
  const taskTabs = new TaskTabs(storage);
  assert.equal(await taskTabs.get("t1"), undefined);
  await taskTabs.set("t1", 5);
  await taskTabs.set("t2", 6);
  await taskTabs.set("t1", 7);
  assert.equal(await taskTabs.get("t1"), 7);
  assert.equal(await taskTabs.get("t2"), 6);
  assert.deepEqual(storage.data[STORAGE_KEY], { t1: 7, t2: 6 });
});

test("a new instance (worker restart) reads what was stored", async () => {
  const storage = createStorageArea();
  await new TaskTabs(storage).set("t1", 5);
  const restarted = new TaskTabs(createStorageArea(storage.data));
  assert.equal(await restarted.get("t1"), 5);
});

test("forgetTab drops the tab for every task; forgetTask drops one task", async () => {
  const storage = createStorageArea();
  const taskTabs = new TaskTabs(storage);
  await taskTabs.set("t1", 5);
  await taskTabs.set("t2", 5);
  await taskTabs.set("t3", 6);
  await taskTabs.forgetTab(5);
  assert.deepEqual(storage.data[STORAGE_KEY], { t3: 6 });
  await taskTabs.forgetTask("t3");
  assert.deepEqual(storage.data[STORAGE_KEY], {});
});

test("concurrent writes are all kept", async () => {
  const storage = createStorageArea();
  const taskTabs = new TaskTabs(storage);
  await Promise.all([taskTabs.set("a", 1), taskTabs.set("b", 2), taskTabs.set("c", 3)]);
  assert.deepEqual(new Set(Object.entries(storage.data[STORAGE_KEY])), new Set([["a", 1], ["b", 2], ["c", 3]]));
});

test("a task owns the tabs it was given and those added to it; closing one forgets it", async () => {
  const storage = createStorageArea();
  const taskTabs = new TaskTabs(storage);
  await taskTabs.set("t1", 5);
  await taskTabs.own("t1", 9);
  await taskTabs.set("t1", 6);
  assert.deepEqual(await taskTabs.ownedTabs("t1"), [5, 9, 6]);
  assert.equal(await taskTabs.owns("t1", 9), true);
  assert.equal(await taskTabs.owns("t2", 9), false);
  await taskTabs.forgetTab(9);
  assert.deepEqual(await taskTabs.ownedTabs("t1"), [5, 6]);
  const restarted = new TaskTabs(createStorageArea(storage.data));
  assert.equal(await restarted.owns("t1", 5), true);
  await restarted.forgetTask("t1");
  assert.deepEqual(await restarted.ownedTabs("t1"), []);
});
