#!/usr/bin/env python3
"""A real MCP client (PyPI's `mcp`) for the tests: starts `testledger mcp`, lists its tools and
prompts, makes the calls given as JSON, and prints what came back as one JSON document.

    client.py CALLS_JSON -- testledger mcp --db LEDGER

CALLS_JSON is a list of [tool, arguments]; a name `prompt:NAME` gets that prompt instead. The
output is {"tools": [names], "listed": [each tool as the protocol sends it], "prompts": [...],
"calls": [{"tool", "text", "structured", "schemaErrors"} or {"tool", "error": {"code",
"message"}}]}. Each structured answer is checked here, with `jsonschema`, against the output
schema its tool was listed with; "schemaErrors" holds what did not fit.
"""

import asyncio
import json
import sys

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:
    from mcp import MCPError
except ImportError:  # mcp 1.x
    from mcp.shared.exceptions import McpError as MCPError


def wire(model):
    """A protocol object as JSON sends it: camelCase keys, nothing unset."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def schema_errors(structured, schema):
    if schema is None:
        return ["the tool was listed without an output schema"]
    if structured is None:
        return ["the answer has no structured content"]
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(structured)]


async def answer(session, name, arguments, schemas):
    if name.startswith("prompt:"):
        prompt = await session.get_prompt(name.removeprefix("prompt:"), arguments)
        return {"tool": name, "text": "\n".join(wire(m)["content"]["text"] for m in prompt.messages)}
    result = wire(await session.call_tool(name, arguments))
    structured = result.get("structuredContent")
    return {
        "tool": name,
        "text": result["content"][0]["text"],
        "isError": bool(result.get("isError", False)),
        "structured": structured,
        "schemaErrors": schema_errors(structured, schemas.get(name)),
    }


async def main(calls, command):
    server = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = [wire(tool) for tool in (await session.list_tools()).tools]
        schemas = {tool["name"]: tool.get("outputSchema") for tool in listed}
        prompts = [wire(prompt) for prompt in (await session.list_prompts()).prompts]
        answers = []
        for name, arguments in calls:
            try:
                answers.append(await answer(session, name, arguments, schemas))
            except MCPError as error:
                data = getattr(error, "error", None)
                code = getattr(data, "code", getattr(error, "code", None))
                message = getattr(data, "message", getattr(error, "message", str(error)))
                answers.append({"tool": name, "error": {"code": code, "message": message}})
        document = {"tools": [tool["name"] for tool in listed], "listed": listed, "prompts": prompts}
        print(json.dumps(document | {"calls": answers}))


if __name__ == "__main__":
    separator = sys.argv.index("--")
    asyncio.run(main(json.loads(sys.argv[1]), sys.argv[separator + 1 :]))
