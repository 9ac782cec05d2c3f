"""Safety enforced in code, not asked of the model: the person confirms sensitive actions (the extension decides
what is sensitive and holds the action; `confirmations` asks the person; `guard` resends an approved action),
and data stays on its site unless the person agrees (`dataflow`)."""
