"""`make bench`: timing goals, measured side by side in one run (ratios), printed and written as JSON."""
