import { test } from "node:test";
import assert from "node:assert/strict";

import { PROFILE_ID_KEY, browserName, helloData, profileId } from "../src/wire/hello.js";
import { STORAGE_KEY as BLOCKLIST_KEY } from "../src/sessions/blocklist.js";
import { createRuntime, createStorageArea } from "./chrome-stub.js";

const CHROME_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";

const chromeNavigator = {
  userAgent: CHROME_UA,
  userAgentData: {
    brands: [
      { brand: "Not)A;Brand", version: "8" },
      { brand: "Chromium", version: "138" },
      { brand: "Google Chrome", version: "138" },
    ],
    getHighEntropyValues: async () => ({
      fullVersionList: [
        { brand: "Not)A;Brand", version: "8.0.0.0" },
        { brand: "Chromium", version: "138.0.7204.157" },
        { brand: "Google Chrome", version: "138.0.7204.157" },
      ],
    }),
  },
};

test("hello carries version, browser, profile id and user agent", async () => {
  const data = await helloData({
    runtime: createRuntime({ version: "0.1.0" }),
    storageLocal: createStorageArea(),
    navigator: chromeNavigator,
  });
  assert.deepEqual(Object.keys(data).sort(), ["blocklist", "browser", "extension_version", "profile_id", "user_agent"]);
  assert.deepEqual(data.blocklist, []);
  assert.equal(data.extension_version, "0.1.0");
  assert.equal(data.browser, "Google Chrome 138.0.7204.157");
  assert.equal(data.user_agent, CHROME_UA);
  assert.match(data.profile_id, /^[0-9a-f-]{36}$/);
});

test("hello carries the extension's stored copy of the blocklist", async () => {
  const storage = createStorageArea({ [BLOCKLIST_KEY]: ["bank.example", "*.mail.example", 7] });
  const data = await helloData({ runtime: createRuntime({ version: "0.1.0" }), storageLocal: storage, navigator: chromeNavigator });
  assert.deepEqual(data.blocklist, ["bank.example", "*.mail.example"]);
});

test("the profile id is made once and survives a worker restart", async () => {
  const storage = createStorageArea();
  const first = await profileId(storage);
  assert.equal(await profileId(storage), first);
  assert.equal(storage.data[PROFILE_ID_KEY], first);

  const afterRestart = createStorageArea(storage.data);
  assert.equal(await profileId(afterRestart), first);

  const otherProfile = createStorageArea();
  assert.notEqual(await profileId(otherProfile), first);
});

test("concurrent lookups agree on one profile id", async () => {
  const storage = createStorageArea();
  const [a, b] = await Promise.all([profileId(storage), profileId(storage)]);
  assert.equal(a, b);
});

test("browser name: plain Chromium, Edge, and without high-entropy values", async () => {
  const chromium = {
    userAgentData: {
      brands: [{ brand: "Chromium", version: "156" }, { brand: "Not.A/Brand", version: "99" }],
      getHighEntropyValues: async () => { throw new Error("denied"); },
    },
  };
  assert.equal(await browserName(chromium), "Chromium 156");
  const edge = {
    userAgentData: {
      brands: [{ brand: "Microsoft Edge", version: "138" }, { brand: "Chromium", version: "138" }],
      getHighEntropyValues: async () => ({}),
    },
  };
  assert.equal(await browserName(edge), "Microsoft Edge 138");
});

test("browser name falls back to the UA string", async () => {
  assert.equal(await browserName({ userAgent: CHROME_UA }), "Chrome 138.0.0.0");
  assert.equal(
    await browserName({ userAgent: `${CHROME_UA} Edg/138.0.3351.95` }),
    "Microsoft Edge 138.0.3351.95",
  );
  assert.equal(await browserName({}), "unknown");
});
