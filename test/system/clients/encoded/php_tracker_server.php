<?php
/**
 * The reference server of the encoded tracker contract (test/fixtures/encoded/tracker.wsdl): PHP's own
 * SoapServer (ext-soap), in WSDL mode, with an echo handler. Run as PHP's built-in web server's router:
 *
 *   php -S 127.0.0.1:PORT php_tracker_server.php
 *
 * GET /tracker/soap.php?wsdl answers the WSDL with its soap:address pointed at this server; POST
 * /tracker/soap.php is served by SoapServer. With TRACKER_LOG=DIR set, each request's body is kept as
 * DIR/NNNN-SOAPACTION.xml (the wire format each client writes). test/system/encoded-clients.test.ts runs the
 * client scripts against it (ENCODED_REFERENCE=php) to check the scripts and the contract apart from our server.
 */

/** Every operation but getVersion answers what it was sent; touchIssue of a negative id raises the declared fault. */
class TrackerEcho
{
    public function echoScalars($text, $count, $flag, $when, $ratio, $data)
    {
        return ['text' => $text, 'count' => $count, 'flag' => $flag, 'when' => $when, 'ratio' => $ratio, 'data' => $data];
    }

    public function echoIssue($issue)
    {
        return $issue;
    }

    public function echoIssues($issues)
    {
        return $issues;
    }

    public function echoStrings($values)
    {
        return $values;
    }

    public function echoMatrix($rows)
    {
        return $rows;
    }

    public function getVersion()
    {
        return 'tracker 1.0';
    }

    public function touchIssue($id)
    {
        if ($id < 0) {
            throw new SoapFault('Client', "Issue $id not found", null, ['id' => $id, 'reason' => 'no such issue'], 'IssueNotFound');
        }
        return null;
    }
}

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path !== '/tracker/soap.php') {
    http_response_code(404);
    echo "not found\n";
    return true;
}
$wsdl = getenv('TRACKER_WSDL') ?: __DIR__ . '/../../../fixtures/encoded/tracker.wsdl';
$text = str_replace('http://localhost/tracker/soap.php', "http://{$_SERVER['HTTP_HOST']}/tracker/soap.php", file_get_contents($wsdl));
if ($_SERVER['REQUEST_METHOD'] === 'GET') {
    header('Content-Type: text/xml; charset=utf-8');
    echo $text;
    return true;
}
$body = file_get_contents('php://input');
$log = getenv('TRACKER_LOG');
if ($log) {
    $action = preg_replace('/[^A-Za-z0-9]+/', '_', trim($_SERVER['HTTP_SOAPACTION'] ?? 'none', '"'));
    $count = count(glob("$log/*.xml"));
    file_put_contents(sprintf('%s/%04d-%s.xml', $log, $count, $action), $body);
}
$served = sys_get_temp_dir() . '/tracker-' . md5($text) . '.wsdl';
if (!file_exists($served)) {
    file_put_contents($served, $text);
}
$server = new SoapServer($served, ['soap_version' => SOAP_1_1, 'cache_wsdl' => WSDL_CACHE_NONE]);
$server->setClass('TrackerEcho');
$server->handle($body);
return true;
