"""The popup: milestones per task, live sessions, Stop all and the blocklist editor."""
