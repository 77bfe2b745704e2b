#!/usr/bin/env python3
"""Keeps of an xcresulttool tests document the test cases a run selects, as Xcode does with
-only-testing: and -skip-testing: (each Target, Target/Class or Target/Class/method; a method
with or without its "()"): with any -only-testing, only the cases one names; never those a
-skip-testing names. Suites and targets left empty are dropped.

Usage: select_tests.py DOCUMENT OUTPUT [XCODEBUILD ARGUMENTS...]
"""

import json
import sys

# What is dropped once it holds no test.
CONTAINERS = ("Test Suite", "Unit test bundle", "UI test bundle")


def bare(identifier):
    return "/".join(part.removesuffix("()") for part in identifier.split("/"))


def names(selector, test):
    selector, test = bare(selector), bare(test)
    return test == selector or test.startswith(selector + "/")


def main():
    source, output, *arguments = sys.argv[1:]
    only = [word.split(":", 1)[1] for word in arguments if word.startswith("-only-testing:")]
    skip = [word.split(":", 1)[1] for word in arguments if word.startswith("-skip-testing:")]
    with open(source, encoding="utf-8") as file:
        document = json.load(file)

    def kept(node, target):
        if node.get("nodeType") == "Test Case":
            test = f"{target}/{node.get('nodeIdentifier', '')}"
            chosen = not only or any(names(selector, test) for selector in only)
            return chosen and not any(names(selector, test) for selector in skip)
        children = node.get("children")
        if children is None:
            return True
        if node.get("nodeType") in ("Unit test bundle", "UI test bundle"):
            target = node.get("name", target)
        node["children"] = [child for child in children if kept(child, target)]
        return bool(node["children"]) or node.get("nodeType") not in (
            "Test Suite",
            "Unit test bundle",
            "UI test bundle",
        )

    document["testNodes"] = [node for node in document.get("testNodes", []) if kept(node, "")]
    with open(output, "w", encoding="utf-8") as file:
        json.dump(document, file)


if __name__ == "__main__":
    main()
