import { test } from "node:test";
import assert from "node:assert/strict";

import { pageIconName } from "../src/extract/page-icon-name.js";

const lib = /** @type {any} */ ({ clean: (/** @type {string} */ s) => s.replace(/\s+/g, " ").trim() });
pageIconName(lib);

test("a class hint names the icon by one rule: the family prefix and style words go", () => {
  const cases = {
    "fa-bold": "bold", "icon-italic": "italic", "bi-trash": "trash", "glyphicon-trash": "trash",
    "fa-solid": "", "fa-lg": "", "fa-2x": "", "fa-trash-alt": "trash", "ri-delete-bin-line": "delete bin",
    "mdi-format-underline": "format underline", "ql-bold": "bold", "octicon-git-branch": "git branch",
    "material-icons": "", "btn-primary": "", "toolbar-button": "", "fa": "", "icon": "", "x_3": "", "text-gray-500": "gray",
    "#icon-trash": "trash", "ti-arrow-left": "arrow left", "bi-x-lg": "x",
  };
  for (const [token, words] of Object.entries(cases)) assert.equal(lib.iconWords(token), words, token);
  assert.equal(lib.iconWords("feather-x"), "", "a long family counts only when the element carries it bare");
  assert.equal(lib.iconWords("feather-x", true), "x");
});

test("a ligature is a lowercase word or words joined by underscores", () => {
  assert.equal(lib.ligatureWords("format_bold"), "format bold");
  assert.equal(lib.ligatureWords("delete"), "delete");
  assert.equal(lib.ligatureWords("Delete"), "");
  assert.equal(lib.ligatureWords("save now"), "");
  assert.equal(lib.ligatureWords("€"), "");
});
