"""Has Python zeep fetch binary content from the mtom fixture's Documents contract, built from the WSDL the service
serves, for test/system/mtom-clients.test.ts. zeep cannot send MTOM; it reads a multipart/related XOP answer, which
the service gives where the operation's policy asks for MTOM.

Reads one JSON object on stdin: {"wsdl": URL, "calls": [{"binding": QNAME, "address": URL, "name": NAME, "out": FILE}]}
and prints {"zeep": VERSION, "results": [{"fetched": SIZE} | {"error": {"type", "message"}}]} on stdout, the bytes
of each Fetch written to its file.
"""
import json
import sys

import zeep


def main():
    given = json.load(sys.stdin)
    client = zeep.Client(given["wsdl"])
    results = []
    for call in given["calls"]:
        try:
            service = client.create_service(call["binding"], call["address"])
            content = service.Fetch(name=call["name"])
            with open(call["out"], "wb") as out:
                out.write(content)
            results.append({"fetched": len(content)})
        except Exception as error:  # noqa: BLE001 - every failure is reported, by type and message
            results.append({"error": {"type": type(error).__name__, "message": str(error)[:400]}})
    print(json.dumps({"zeep": zeep.__version__, "results": results}))


main()
