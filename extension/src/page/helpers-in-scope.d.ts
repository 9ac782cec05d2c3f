// Page functions run with page/functions.js's helpers in scope (they are sent as one source text with them, see
// pageFunction there); this tells the type checker so.
declare const describeElement: typeof import("./functions.js").describeElement;
declare const deepActiveElement: typeof import("./functions.js").deepActiveElement;
declare const hiddenReason: typeof import("./functions.js").hiddenReason;
declare const disabledReason: typeof import("./functions.js").disabledReason;
