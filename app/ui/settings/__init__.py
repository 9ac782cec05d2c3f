"""Settings: API key (keyring), models, base URL, browser tool, idle threshold, start at login."""
