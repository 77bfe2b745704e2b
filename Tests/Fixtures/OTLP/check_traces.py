#!/usr/bin/env python3
"""Reads an OTLP/JSON traces request with OpenTelemetry's own protobuf definitions (PyPI's
opentelemetry-proto) and checks what a collector relies on; prints a summary as JSON.

OTLP/JSON writes trace and span ids as hex, where protobuf's JSON mapping writes bytes as
base64: the ids are turned into base64 first, as a collector's JSON reader does, after checking
that each is hex. Then `json_format.Parse` reads the request into ExportTraceServiceRequest,
refusing unknown fields and values of the wrong type, and the checks follow: trace ids of 16
bytes, span ids of 8, each parent a span of the same trace, one root per trace, no span ending
before it starts.

Usage: check_traces.py FILE
"""

import base64
import binascii
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

ID_FIELDS = ("traceId", "spanId", "parentSpanId")


def fail(message):
    sys.exit(f"check_traces: {message}")


def hex_to_base64(value, where):
    try:
        return base64.b64encode(binascii.unhexlify(value)).decode()
    except (binascii.Error, ValueError):
        fail(f"{where} is not hex: {value!r}")


def ids_as_base64(request):
    for resource in request.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for field in ID_FIELDS:
                    if field in span and span[field] != "":
                        span[field] = hex_to_base64(span[field], f"span {span.get('name')!r} {field}")
                for link in span.get("links", []):
                    for field in ("traceId", "spanId"):
                        if field in link:
                            link[field] = hex_to_base64(link[field], f"a link of {span.get('name')!r}")
    return request


def check(parsed):
    spans = [span for resource in parsed.resource_spans for scope in resource.scope_spans for span in scope.spans]
    if not spans:
        fail("the request has no spans")
    by_trace = {}
    for span in spans:
        if len(span.trace_id) != 16:
            fail(f"span {span.name!r}: trace id of {len(span.trace_id)} bytes, not 16")
        if len(span.span_id) != 8:
            fail(f"span {span.name!r}: span id of {len(span.span_id)} bytes, not 8")
        if span.parent_span_id and len(span.parent_span_id) != 8:
            fail(f"span {span.name!r}: parent span id of {len(span.parent_span_id)} bytes, not 8")
        if span.end_time_unix_nano < span.start_time_unix_nano:
            fail(f"span {span.name!r} ends before it starts")
        by_trace.setdefault(span.trace_id, []).append(span)
    for trace, members in by_trace.items():
        ids = {span.span_id for span in members}
        if len(ids) != len(members):
            fail(f"trace {trace.hex()}: two spans share an id")
        roots = [span for span in members if not span.parent_span_id]
        if len(roots) != 1:
            fail(f"trace {trace.hex()}: {len(roots)} root spans, not 1")
        for span in members:
            if span.parent_span_id and span.parent_span_id not in ids:
                fail(f"span {span.name!r}: its parent is not a span of its trace")
    return {
        "spans": len(spans),
        "traces": sorted(trace.hex() for trace in by_trace),
        "roots": sorted(span.name for span in spans if not span.parent_span_id),
    }


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    with open(sys.argv[1], encoding="utf-8") as file:
        request = json.load(file)
    parsed = ExportTraceServiceRequest()
    try:
        json_format.Parse(json.dumps(ids_as_base64(request)), parsed, ignore_unknown_fields=False)
    except json_format.ParseError as error:
        fail(f"not an ExportTraceServiceRequest: {error}")
    print(json.dumps(check(parsed)))


if __name__ == "__main__":
    main()
