"""Calls the service through Python zeep, built from the WSDL the service serves, and reports each answer
with the Python types zeep decoded it into, and the raw SOAP envelopes sent and received (zeep's
HistoryPlugin), for the test to validate against the schema.

Reads one JSON object on stdin:
  {"wsdl": URL, "port": "AuthenticatorAPISoap" | "AuthenticatorAPISoap12" | ...,
   "service": NAME (default "AuthenticatorAPI"), "calls": [{"op": NAME, "args": {...}}, ...]}
(zeep also speaks a WSDL's HTTP GET and POST ports; their calls have no envelopes: "sent" and "received" are null)
and prints {"zeep": VERSION, "results": [...]} on stdout, one entry per call:
  {"ok": TYPED, "sent": XML, "received": XML}   TYPED: see typed() below
  {"fault": {"type", "code", "message"}, "sent": XML, "received": XML}   a zeep.exceptions.Fault
  {"error": {"type", "message"}}                 anything else
"""
import datetime
import json
import sys

import zeep
from lxml import etree
from zeep.exceptions import Fault
from zeep.plugins import HistoryPlugin


def qualified_name(value):
    kind = value if isinstance(value, type) else type(value)
    return f"{kind.__module__}.{kind.__qualname__}"


def typed(value):
    """A decoded value as JSON: {"type": Python type, "value": ...}; an object's fields and a list's items typed in turn."""
    if isinstance(value, datetime.datetime):
        offset = value.utcoffset()
        return {
            "type": qualified_name(value),
            "value": value.isoformat(),
            "utcOffsetSeconds": None if offset is None else offset.total_seconds(),
        }
    if isinstance(value, list):
        return {"type": qualified_name(value), "value": [typed(item) for item in value]}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return {"type": qualified_name(value), "value": value}
    # A zeep object (zeep.objects.<ComplexType>): its fields in order.
    return {"type": qualified_name(value), "value": {name: typed(value[name]) for name in value}}


def envelope(entry):
    if entry is None:  # no answer was read, or an HTTP GET/POST call (no envelope)
        return None
    return etree.tostring(entry["envelope"], encoding="unicode")


def last(history, direction):
    """The envelope the last call sent or received; None when it took none (HTTP GET/POST)."""
    try:
        return history.last_sent if direction == "sent" else history.last_received
    except IndexError:
        return None


def main():
    request = json.load(sys.stdin)
    client = zeep.Client(request["wsdl"], plugins=[])
    service = client.bind(request.get("service", "AuthenticatorAPI"), request["port"])
    results = []
    for call in request["calls"]:
        history = HistoryPlugin(maxlen=1)  # a fresh one: an HTTP call leaves no entry, never the call before's
        client.plugins[:] = [history]
        try:
            value = getattr(service, call["op"])(**call["args"])
            results.append({"ok": typed(value), "sent": envelope(last(history, "sent")), "received": envelope(last(history, "received"))})
        except Fault as fault:
            fault_entry = {"type": qualified_name(fault), "code": fault.code, "message": str(fault.message)}
            results.append({"fault": fault_entry, "sent": envelope(last(history, "sent")), "received": envelope(last(history, "received"))})
        except Exception as error:  # reported, so the test says what went wrong instead of a traceback
            results.append({"error": {"type": qualified_name(error), "message": str(error)}})
    json.dump({"zeep": zeep.__version__, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
