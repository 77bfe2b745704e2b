#!/usr/bin/env python3
"""A real MCP client (PyPI's `mcp`) for the tests: starts `testledger mcp`, lists its tools,
makes the calls given as JSON, and prints what came back as one JSON document.

    client.py CALLS_JSON -- testledger mcp --db LEDGER

CALLS_JSON is a list of [tool, arguments]. The output is {"tools": [...], "calls": [{"tool",
"text"} or {"tool", "error": {"code", "message"}}]}.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:
    from mcp import MCPError
except ImportError:  # mcp 1.x
    from mcp.shared.exceptions import McpError as MCPError


async def main(calls, command):
    server = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        answers = []
        for tool, arguments in calls:
            try:
                result = await session.call_tool(tool, arguments)
                failed = getattr(result, "is_error", getattr(result, "isError", False))
                answers.append({"tool": tool, "text": result.content[0].text, "isError": bool(failed)})
            except MCPError as error:
                data = getattr(error, "error", None)
                code = getattr(data, "code", getattr(error, "code", None))
                message = getattr(data, "message", getattr(error, "message", str(error)))
                answers.append({"tool": tool, "error": {"code": code, "message": message}})
        print(json.dumps({"tools": [tool.name for tool in listed.tools], "calls": answers}))


if __name__ == "__main__":
    separator = sys.argv.index("--")
    asyncio.run(main(json.loads(sys.argv[1]), sys.argv[separator + 1 :]))
