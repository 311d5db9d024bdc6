"""Has Python zeep read a contract's WSDL as the service serves it (with the WSDLs and schemas it names) and
decode the answers of the service to requests sent as they are given: zeep's own reading of each operation's
output message, from its own model of the WSDL.

Reads one JSON object on stdin:
  {"wsdl": URL, "service": NAME, "port": NAME, "address": URL,
   "calls": [{"op": NAME, "envelope": XML, "headers": {NAME: VALUE}}]}
and prints {"zeep": VERSION, "results": [{"ok": TEXT} | {"error": {"type", "message"}}]} on stdout,
TEXT the decoded answer as zeep prints it (a one-way operation's is null).
"""
import json
import sys

import requests
import zeep


def main():
    given = json.load(sys.stdin)
    client = zeep.Client(given["wsdl"])
    binding = client.bind(given["service"], given["port"])._binding
    results = []
    for call in given["calls"]:
        try:
            operation = binding.get(call["op"])
            response = requests.post(given["address"], data=call["envelope"].encode("utf-8"), headers=call["headers"], timeout=30)
            if operation.output is None:
                results.append({"ok": None if response.status_code == 202 else f"HTTP {response.status_code}"})
                continue
            decoded = binding.process_reply(client, operation, response)
            results.append({"ok": str(decoded)[:200]})
        except Exception as error:  # noqa: BLE001 - every failure is reported, by type and message
            results.append({"error": {"type": type(error).__name__, "message": str(error)[:400]}})
    print(json.dumps({"zeep": zeep.__version__, "results": results}))


main()
