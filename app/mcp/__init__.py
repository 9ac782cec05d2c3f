"""`bua mcp`: bua as the browser of any MCP client, one lane per client (see app.mcp.server)."""
