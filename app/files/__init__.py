"""Files between the person's disk and the browser: which files the agent may upload (policy), and the text of
the files a task downloaded (text)."""
