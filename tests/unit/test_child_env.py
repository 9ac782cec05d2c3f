"""Children get the environment less every secret-looking variable."""

from __future__ import annotations

from app.browser.child_env import child_env, is_secret


def test_secrets_are_dropped_and_the_rest_kept():
    base = {"ANTHROPIC_API_KEY": "sk-1", "ANTHROPIC_BASE_URL": "http://x", "OPENAI_API_KEY": "sk-2",
            "GITHUB_TOKEN": "t", "aws_secret": "s", "My_Secret": "s", "PATH": "/usr/bin", "HOME": "/root",
            "DISPLAY": ":0", "TOKENIZERS_PARALLELISM": "false", "SECRETARY": "x"}
    env = child_env(base, BUA_HOME="/h")
    assert env == {"PATH": "/usr/bin", "HOME": "/root", "DISPLAY": ":0", "TOKENIZERS_PARALLELISM": "false",
                   "SECRETARY": "x", "BUA_HOME": "/h"}


def test_the_rule():
    assert is_secret("anthropic_model") and is_secret("X_API_KEY") and is_secret("npm_token")
    assert not is_secret("API_KEY_FILE") and not is_secret("TOKEN_DIR")
