"""The desktop app: tray icon, chat window, popup, settings. The only package (with its entry point) that imports Qt."""
