"""Calls the encoded tracker contract (test/fixtures/encoded/tracker.wsdl) through Python suds (python3-suds),
built from the WSDL the server serves: suds reads the rpc/encoded binding and writes SOAP-encoded calls.

Reads {"wsdl": URL, "calls": [{"op": NAME, "args": {PART: VALUE, ...}}, ...]} on stdin, VALUES in the normalized JSON
form of test/system/encoded-clients.test.ts (structs as objects, arrays as lists, base64Binary as Base64 text,
dateTime as UTC "YYYY-MM-DDTHH:MM:SSZ", nil as null), and prints {"client": "suds VERSION", "results": [...]}:
  {"ok": VALUE, "sent": XML}   {"fault": {"code", "message", "detail"}, "sent": XML}   {"error": {"type", "message"}}
"""
import base64
import datetime
import json
import sys

import suds
from suds.client import Client
from suds.plugin import MessagePlugin
from suds.sax.text import Text
from suds.sudsobject import Object, asdict


class Keep(MessagePlugin):
    """The envelope sent (suds's plugin hook)."""

    sent = None

    def sending(self, context):
        self.sent = context.envelope.decode("utf-8") if isinstance(context.envelope, bytes) else str(context.envelope)


def to_suds(client, value, name=None):
    """A normalized JSON value as suds takes it: dateTime as a datetime, base64Binary as Base64 text (suds sends it as
    is); an array of arrays (echoMatrix's rows) as a list of ArrayOf_int objects of the factory: a plain list of lists
    suds flattens into one array of all the items."""
    if name == "rows" and isinstance(value, list):
        rows = []
        for row in value:
            array = client.factory.create("{urn:tracker}ArrayOf_int")
            array.item = row
            rows.append(array)
        return rows
    if name == "when" and isinstance(value, str):
        return datetime.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    if isinstance(value, dict):
        return {k: to_suds(client, v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [to_suds(client, v) for v in value]
    return value


def normalized(value, name=None):
    """What suds decoded, normalized: suds objects as maps, datetimes in UTC, suds's Text as str."""
    if isinstance(value, Object):
        fields = asdict(value)
        # suds decodes a SOAP-ENC:Array as an object of one repeated member (the items' element name), or as a list.
        return {k: normalized(v, k) for k, v in fields.items()}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc)
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return value


def main():
    job = json.load(sys.stdin)
    keep = Keep()
    client = Client(job["wsdl"], cache=None, plugins=[keep], timeout=60)
    results = []
    for call in job["calls"]:
        keep.sent = None
        result = {}
        try:
            args = [to_suds(client, v, k) for k, v in call["args"].items()]
            result["ok"] = normalized(getattr(client.service, call["op"])(*args))
        except suds.WebFault as fault:
            detail = getattr(fault.fault, "detail", None)
            if isinstance(detail, Object):
                members = asdict(detail)
                detail = list(members.values())[0] if len(members) == 1 else detail
            result["fault"] = {
                "code": str(fault.fault.faultcode),
                "message": str(fault.fault.faultstring),
                "detail": normalized(detail),
            }
        except Exception as error:
            result["error"] = {"type": f"{type(error).__module__}.{type(error).__qualname__}", "message": str(error)}
        result["sent"] = keep.sent
        results.append(result)
    json.dump({"client": f"suds {suds.__version__}", "results": results}, sys.stdout, default=str, ensure_ascii=False)


main()
