#!/usr/bin/env python3
"""Fails when LedgerCore's DocC catalogue misses a public name of the module, or names one that is
not public any more.

Usage: Scripts/check-catalogue.py

Every public or open top-level declaration of the LedgerCore module (`struct`, `enum`, `class`,
`actor`, `protocol`, `typealias`, `macro`, and top-level `func`, `let` and `var`) must be
mentioned as a symbol link in one of the catalogue's files
(Sources/LedgerCore/LedgerCore.docc/*.md): ``Name``, a function as ``name(label:_:)`` or
``name``. Every symbol link there must in turn start with a public name of the module
(``Name``, ``Name/member``) or be the module's own, ``LedgerCore``. Extensions declare no name.
Fenced code blocks are not read.

The names come from Sources/LedgerCore/**/*.swift, with strings and comments left out, at brace
depth 0. Names generated at build time are counted too: GenerateEventStreamPlugin writes
LedgerEvents.swift from Events/LedgerEvents.schema with the GenerateEventStream tool, and the
schema's objects and events become types nested in `LedgerEvent`. The top-level names of that
file are the declarations the tool writes with a literal name at the start of a line of its
generated text (`public enum LedgerEvent`), read from Sources/GenerateEventStream/*.swift; so a
fresh checkout needs no build. When a build has left the plugin's output under .build*/ and it is
newer than the schema and the tool, its top-level names count as well.
"""

import glob
import os
import re
import sys

from swift_source import split_code

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE = "LedgerCore"
SOURCES = os.path.join(ROOT, "Sources", MODULE)
CATALOGUE = os.path.join(SOURCES, f"{MODULE}.docc")
GENERATOR = os.path.join(ROOT, "Sources", "GenerateEventStream")
SCHEMA = os.path.join(SOURCES, "Events", "LedgerEvents.schema")
PLUGIN_OUTPUTS = [
    f".build*/plugins/outputs/*/{MODULE}/*/GenerateEventStreamPlugin/*.swift",
    f".build*/*/plugins/outputs/*/{MODULE}/*/GenerateEventStreamPlugin/*.swift",
]

IDENTIFIER = r"`?[A-Za-z_][A-Za-z0-9_]*`?"
OPERATOR = r"[-+*/%<>=!&|^~?.]+"
# Attributes may stand on lines of their own; modifiers share the declaration's line.
MODIFIER = r"(?:@[\w.]+(?:\([^()\n]*\))?\s+)*(?:\w+(?:\([\w \t]*\))?[ \t]+)*"
DECLARATION = re.compile(
    rf"^[ \t]*(?P<modifiers>{MODIFIER})"
    rf"(?P<keyword>struct|enum|class|actor|protocol|typealias|macro|func|let|var)\s+"
    rf"(?P<name>{IDENTIFIER}|{OPERATOR})",
    re.MULTILINE,
)
SYMBOL_LINK = re.compile(r"(?<!`)``([^`\n]+)``(?!`)")
FENCE = re.compile(r"^\s*(```|~~~)")


def depth_zero(code):
    """The code with everything inside braces blanked: what is left is top-level."""
    out, depth = [], 0
    for c in code:
        if c == "}":
            depth -= 1
        out.append(c if depth == 0 or c == "\n" else " ")
        if c == "{":
            depth += 1
    return "".join(out)


def parameter_labels(code, start):
    """DocC's labels of the parameter clause after a function's name (`(_:label:)`), or `None`."""
    i = start
    if code[i:].lstrip().startswith("<"):
        i, depth = code.index("<", i), 0
        while i < len(code):
            depth += {"<": 1, ">": -1 if code[i - 1] != "-" else 0}.get(code[i], 0)
            i += 1
            if depth == 0:
                break
    i = code.find("(", i)
    if i < 0:
        return None
    parameters, current, depth = [], "", 0
    for c in code[i + 1 :]:
        if c in "([<" and depth >= 0:
            depth += 1
        elif c in ")]>" and not (c == ">" and current.endswith("-")):
            depth -= 1
            if depth < 0:
                break
        if c == "," and depth == 0:
            parameters.append(current)
            current = ""
        else:
            current += c
    parameters.append(current)
    labels = [re.match(r"\s*(`?[\w]+`?)", parameter) for parameter in parameters if parameter.strip()]
    return "(" + "".join(f"{label.group(1).strip('`')}:" for label in labels if label) + ")"


def declarations(source, where):
    """The public top-level names declared in Swift `source`: {name: where}, a function's name in
    DocC's form, `name(label:_:)`."""
    code = depth_zero(split_code(source)[0])
    found = {}
    for match in DECLARATION.finditer(code):
        modifiers = re.findall(r"\b\w+\b", re.sub(r"@[\w.]+(?:\([^()]*\))?", " ", match.group("modifiers")))
        if not {"public", "open"} & set(modifiers):
            continue
        name = match.group("name").strip("`")
        if match.group("keyword") == "func":
            labels = parameter_labels(code, match.end())
            name += labels if labels is not None else "()"
        line = code.count("\n", 0, match.start()) + 1
        found.setdefault(name, f"{where}:{line}")
    return found


def relative(path):
    return os.path.relpath(path, ROOT)


def module_names():
    """Every public top-level name of the module: {name: where it is declared}."""
    names = {}
    for path in sorted(glob.glob(os.path.join(SOURCES, "**", "*.swift"), recursive=True)):
        with open(path, encoding="utf-8") as file:
            names.update(declarations(file.read(), relative(path)))
    return names


def generated_names():
    """The public top-level names the event stream's build plugin writes, and what they were read
    from: the tool's generated text, and the plugin's output of a build when it is current."""
    names, sources = {}, []
    for path in sorted(glob.glob(os.path.join(GENERATOR, "*.swift"))):
        with open(path, encoding="utf-8") as file:
            literals = split_code(file.read())[1]
        for text in literals:
            # Only a line with no indentation is a top-level declaration of the generated file.
            unindented = "\n".join(line for line in text.split("\n") if not line[:1].isspace())
            for name in declarations(unindented, relative(path)):
                names.setdefault(name, f"{relative(path)} (generated from {relative(SCHEMA)})")
    sources.append(f"{relative(GENERATOR)}'s generated text")
    inputs = [path for path in [SCHEMA] + glob.glob(os.path.join(GENERATOR, "*.swift")) if os.path.exists(path)]
    newest_input = max((os.path.getmtime(path) for path in inputs), default=0)
    outputs = [path for pattern in PLUGIN_OUTPUTS for path in glob.glob(os.path.join(ROOT, pattern))]
    current = [path for path in outputs if os.path.getmtime(path) >= newest_input]
    if current:
        output = max(current, key=os.path.getmtime)
        with open(output, encoding="utf-8") as file:
            for name in declarations(file.read(), relative(output)):
                names.setdefault(name, relative(output))
        sources.append(relative(output))
    elif outputs:
        sources.append("no current build output (those under .build* are older than the schema or its generator)")
    return names, sources


def catalogue_links():
    """Every symbol link of the catalogue's files outside fenced code: [(link, where)]."""
    links = []
    for path in sorted(glob.glob(os.path.join(CATALOGUE, "*.md"))):
        fenced = False
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if FENCE.match(line):
                    fenced = not fenced
                elif not fenced:
                    links += [(link, f"{relative(path)}:{number}") for link in SYMBOL_LINK.findall(line)]
    return links


def base(name):
    """A function's name without its labels: `iso8601` for `iso8601(_:)`."""
    return name.split("(", 1)[0] if not name.startswith("(") else name


def first_component(link):
    """The top-level name a symbol link starts with, without a DocC disambiguation suffix
    (`-swift.struct`, `-2f3k`)."""
    depth, end = 0, len(link)
    for index, c in enumerate(link):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "/" and depth == 0:
            end = index
            break
    return re.sub(r"-(?:swift\.\w+|[0-9a-z]{4,5})$", "", link[:end])


def main():
    names = module_names()
    if not names:
        print(
            f"check-catalogue: found no public name in {relative(SOURCES)}: is the pattern still right?",
            file=sys.stderr,
        )
        return 1
    generated, sources = generated_names()
    if os.path.exists(SCHEMA) and not generated:
        print(
            f"check-catalogue: found no name that {relative(GENERATOR)} generates from {relative(SCHEMA)}: "
            "is the pattern still right?",
            file=sys.stderr,
        )
        return 1
    for name, where in generated.items():
        names.setdefault(name, where)
    links = catalogue_links()
    mentioned = {link for link, _ in links}
    allowed = set(names) | {base(name) for name in names} | {MODULE}
    problems = []
    for name, where in sorted(names.items(), key=lambda item: item[0].lower()):
        if name not in mentioned and base(name) not in mentioned:
            problems.append(
                f"{name} ({where}) is public but not in the catalogue: add ``{name}`` to a topic group "
                f"of {relative(os.path.join(CATALOGUE, MODULE + '.md'))}, with a line on what it is for"
            )
    for link, where in links:
        if first_component(link) not in allowed:
            problems.append(
                f"{where}: ``{link}`` names no public name of {MODULE}: link the name it has now, or remove the entry"
            )
    for problem in problems:
        print(f"check-catalogue: {problem}", file=sys.stderr)
    print(
        f"check-catalogue: read {len(names)} public names ({len(generated)} generated, from "
        f"{'; '.join(sources)}) and {len(links)} symbol links of {relative(CATALOGUE)}",
        file=sys.stderr,
    )
    if problems:
        print(f"check-catalogue: {len(problems)} problems", file=sys.stderr)
        return 1
    print(f"check-catalogue: {MODULE}.docc lists all {len(names)} public names", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
