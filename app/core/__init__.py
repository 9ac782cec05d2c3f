"""The app core without any window: bridge pool, socket server and the CLI service."""
