"""Swift source as the check scripts read it: code apart from comments and string literals."""

import re


def skip_string(source, i):
    """The index just past the string literal that starts at `i` (a `"` or the `#` of a raw one),
    and the literal's text: interpolations inside it, strings and all, are skipped whole."""
    hashes = len(re.match(r"#*", source[i:]).group(0))
    start = i + hashes
    delimiter = '"""' if source.startswith('"""', start) else '"'
    closing = delimiter + "#" * hashes
    escape = "\\" + "#" * hashes
    j, n = start + len(delimiter), len(source)
    while j < n and not source.startswith(closing, j):
        if source.startswith(escape + "(", j):
            j, depth = j + len(escape) + 1, 1
            while j < n and depth:
                if source[j] == '"' or (source[j] == "#" and re.match(r'#+"', source[j:])):
                    j = skip_string(source, j)[0]
                    continue
                depth += {"(": 1, ")": -1}.get(source[j], 0)
                j += 1
        elif source.startswith(escape, j):
            j += len(escape) + 1
        else:
            j += 1
    text = source[start + len(delimiter) : j]
    if delimiter == '"""':
        # A multi-line literal loses its first line break and the closing delimiter's indentation.
        lines = text.split("\n")[1:]
        indent = lines[-1] if lines and not lines[-1].strip() else ""
        text = "\n".join(line[len(indent) :] if line.startswith(indent) else line for line in lines[:-1])
    return min(n, j + len(closing)), text


def split_code(source):
    """The source with string literals and comments blanked (line breaks kept), and the text of
    each string literal."""
    out, literals, i, n = [], [], 0, len(source)
    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
        elif source.startswith("/*", i):
            depth, end = 1, i + 2
            while end < n and depth:
                if source.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif source.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
        elif source[i] == '"' or (source[i] == "#" and re.match(r'#+"', source[i:])):
            end, text = skip_string(source, i)
            literals.append(text)
        else:
            out.append(source[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", source[i:end]))
        i = end
    return "".join(out), literals
