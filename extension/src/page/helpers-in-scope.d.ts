// A page function without a declaration of its own (page/page-code.js) is sent with page/functions.js's HELPERS in
// scope; this tells the type checker so. A declared one imports what it uses instead.
declare const describeElement: typeof import("./functions.js").describeElement;
declare const deepActiveElement: typeof import("./functions.js").deepActiveElement;
declare const hiddenReason: typeof import("./functions.js").hiddenReason;
declare const disabledReason: typeof import("./functions.js").disabledReason;
