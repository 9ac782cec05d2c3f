// What bua keeps on globalThis in its own isolated world (never the page's world): the in-page library
// (extract/run-in-page.js installs it), and per-call state of the page helpers. Declared so that page code reads
// them typed instead of indexing globalThis.
declare var __bua: any;
declare var __buaEffects: Record<string, import("./effects.js").EffectsState> | undefined;
declare var __buaKept: Map<string, unknown> | undefined;
declare var __buaPointer: any;
