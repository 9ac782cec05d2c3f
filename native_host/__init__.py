"""bua native messaging host: a string pipe between Chrome's stdio and the app's local socket.

Started by Chrome; must start fast, so it imports only the standard library
(no Qt, no pydantic, never `app`).
"""
