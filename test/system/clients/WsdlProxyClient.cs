// .NET (Mono) through a proxy class that `wsdl` generated from the service's
// WSDL (any of its protocols: SOAP, SOAP12, HttpGet, HttpPost; the class is
// AuthenticatorAPI in each), at the address the WSDL gives, a private CA
// trusted as TestCaTrust.cs does (compiled with both).
//
// Usage: mono WsdlProxyClient.exe CA_FILE < calls
// Each line of stdin: "pair SECRET" or "validate SECRET PIN"
// Each line of stdout: "ok VALUE" (Pair: the ManualSetupCode; ValidatePin: true/false) or "error TYPE: MESSAGE"
using System;

static class WsdlProxyClient
{
    static int Main(string[] args)
    {
        TestCaTrust.Install(args[0]);
        var api = new AuthenticatorAPI();
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            if (line.Trim() == "") continue;
            var parts = line.Split(' ');
            try
            {
                var value = parts[0] == "pair"
                    ? api.Pair("Example", "alice@example.com", parts[1]).ManualSetupCode
                    : api.ValidatePin(parts[2], parts[1]) ? "true" : "false";
                Console.WriteLine("ok " + value);
            }
            catch (Exception error)
            {
                Console.WriteLine("error " + error.GetType().Name + ": " + error.Message.Replace('\n', ' '));
            }
        }
        return 0;
    }
}
