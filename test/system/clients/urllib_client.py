"""Calls the HTTP GET and HTTP POST variants with nothing but Python's standard library
(urllib.request, and xml.etree.ElementTree to read the XML answer).

Reads one JSON object on stdin:
  {"endpoint": "http://host:port/api.asmx", "verb": "GET" | "POST", "namespace": NS,
   "calls": [{"op": "Pair" | "ValidatePin", "args": {...}}, ...]}
and prints {"results": [...]} on stdout, one entry per call:
  {"ok": value, "status": 200}          Pair: {"ManualSetupCode", "Html"} (null for xsi:nil); ValidatePin: true/false
  {"fault": {"type", "code", "message", "retryAfter"}}  a urllib.error.HTTPError (code = HTTP status)
  {"error": {"type", "message"}}        anything else
"""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree

XSI = "http://www.w3.org/2001/XMLSchema-instance"


def qualified_name(error):
    kind = type(error)
    return f"{kind.__module__}.{kind.__qualname__}"


def send(endpoint, verb, op, args):
    fields = urllib.parse.urlencode(args).encode("ascii")
    url = f"{endpoint}/{op}"
    if verb == "GET":
        request = urllib.request.Request(f"{url}?{fields.decode('ascii')}", method="GET")
    else:
        request = urllib.request.Request(url, data=fields, method="POST",
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read()


def decode(op, namespace, body):
    root = ElementTree.fromstring(body)
    if op == "Pair":
        if root.tag != f"{{{namespace}}}PairingInfo":
            raise ValueError(f"unexpected root {root.tag}")
        if root.get(f"{{{XSI}}}nil") == "true":
            return None
        return {name: root.findtext(f"{{{namespace}}}{name}") for name in ("ManualSetupCode", "Html")}
    if root.tag != f"{{{namespace}}}boolean":
        raise ValueError(f"unexpected root {root.tag}")
    text = (root.text or "").strip()
    if text not in ("true", "false", "1", "0"):
        raise ValueError(f"not an xsd:boolean: {text!r}")
    return text in ("true", "1")


def main():
    request = json.load(sys.stdin)
    results = []
    for call in request["calls"]:
        try:
            status, body = send(request["endpoint"], request["verb"], call["op"], call["args"])
            results.append({"ok": decode(call["op"], request["namespace"], body), "status": status})
        except urllib.error.HTTPError as error:
            message = error.read().decode("utf-8").strip()
            results.append({"fault": {"type": qualified_name(error), "code": error.code, "message": message,
                                      "retryAfter": error.headers.get("Retry-After")}})
        except Exception as error:
            results.append({"error": {"type": qualified_name(error), "message": str(error)}})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
