<?php
/**
 * Calls the service through PHP's SoapClient (ext-soap), WSDL mode, built
 * from the WSDL the service serves, and reports each answer with the PHP
 * types SoapClient decoded it into, and the raw SOAP request and answer
 * (trace: __getLastRequest, __getLastResponse), for the test to validate
 * against the schema. SOAP_SINGLE_ELEMENT_ARRAYS: an array of one item
 * (ArrayOfString's <string>) stays an array, as PHP users of such services set.
 *
 * Reads one JSON object on stdin:
 *   {"wsdl": URL, "soapVersion": "1.1" | "1.2", "calls": [{"op": NAME, "args": {...}}, ...]}
 * and prints {"php": VERSION, "results": [...]} on stdout, one entry per call:
 *   {"ok": TYPED, "sent": XML, "received": XML}     TYPED: {"type": PHP type or class, "value": ...}
 *   {"fault": {"type", "code", "message"}, "sent": XML, "received": XML}   a SoapFault
 *   {"error": {"type", "message"}}                   anything else
 */

/** A decoded value as JSON: its PHP type (an object's class), an object's fields and an array's items typed in turn. */
function typed($value)
{
    if (is_object($value)) {
        $fields = [];
        foreach (get_object_vars($value) as $name => $field) {
            $fields[$name] = typed($field);
        }
        return ['type' => get_class($value), 'value' => (object) $fields];
    }
    if (is_array($value)) {
        return ['type' => 'array', 'value' => array_map('typed', $value)];
    }
    return ['type' => gettype($value), 'value' => $value];
}

$request = json_decode(file_get_contents('php://stdin'), true, 512, JSON_THROW_ON_ERROR);
try {
    $client = new SoapClient($request['wsdl'], [
        'soap_version' => $request['soapVersion'] === '1.2' ? SOAP_1_2 : SOAP_1_1,
        'cache_wsdl' => WSDL_CACHE_NONE,
        'exceptions' => true,
        'trace' => true,
        'features' => SOAP_SINGLE_ELEMENT_ARRAYS,
        'connection_timeout' => 10,
    ]);
} catch (SoapFault $fault) {
    fwrite(STDERR, "SoapClient could not load the WSDL: {$fault->getMessage()}\n");
    exit(1);
}

$results = [];
foreach ($request['calls'] as $call) {
    try {
        $answer = $client->__soapCall($call['op'], [$call['args']]);
        $results[] = ['ok' => typed($answer), 'sent' => $client->__getLastRequest(), 'received' => $client->__getLastResponse()];
    } catch (SoapFault $fault) {
        $results[] = [
            'fault' => ['type' => get_class($fault), 'code' => $fault->faultcode, 'message' => $fault->faultstring],
            'sent' => $client->__getLastRequest(),
            'received' => $client->__getLastResponse(),
        ];
    } catch (Throwable $error) {
        $results[] = ['error' => ['type' => get_class($error), 'message' => $error->getMessage()]];
    }
}
echo json_encode(['php' => PHP_VERSION, 'results' => $results], JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE);
