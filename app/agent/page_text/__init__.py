"""Page text as the model sees it: marked as data with a per-task boundary, forgeries neutralised, text that
addresses the agent flagged (issue 11). Enforced in code, whatever the model decides."""
