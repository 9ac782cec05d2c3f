"""Tool declarations (ServerToolConfig shape) and the registry generated from them."""
