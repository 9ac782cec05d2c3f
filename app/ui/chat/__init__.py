"""The chat window: conversation with the main agent, task cards, hand-off cards, guided notices."""
