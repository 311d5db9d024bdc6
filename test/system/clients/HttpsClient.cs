// .NET (Mono) HttpWebRequest over HTTPS, every WSDL variant by hand, a private
// CA trusted as TestCaTrust.cs does (compiled with it).
//
// Usage: mono HttpsClient.exe BASE_URL CA_FILE < calls
// Each line of stdin: VARIANT SECRET PIN (VARIANT: soap11, soap12, httpGet, httpPost)
// Each line of stdout: VARIANT STATUS RESULT (RESULT: true, false, or the fault/error text on one line)
using System;
using System.IO;
using System.Net;
using System.Text;
using System.Xml;

static class HttpsClient
{
    const string Ns = "http://authenticatorapi.com/";

    static string Envelope(string version, string pin, string secret)
    {
        var env = version == "soap12" ? "http://www.w3.org/2003/05/soap-envelope" : "http://schemas.xmlsoap.org/soap/envelope/";
        var doc = new XmlDocument();
        var envelope = doc.AppendChild(doc.CreateElement("soap", "Envelope", env));
        var body = envelope.AppendChild(doc.CreateElement("soap", "Body", env));
        var call = body.AppendChild(doc.CreateElement("ValidatePin", Ns));
        call.AppendChild(doc.CreateElement("pin", Ns)).InnerText = pin;
        call.AppendChild(doc.CreateElement("secretCode", Ns)).InnerText = secret;
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>" + doc.OuterXml;
    }

    static string Call(string baseUrl, string variant, string secret, string pin)
    {
        var query = "pin=" + Uri.EscapeDataString(pin) + "&secretCode=" + Uri.EscapeDataString(secret);
        HttpWebRequest request;
        string body = null;
        if (variant == "httpGet")
        {
            request = (HttpWebRequest)WebRequest.Create(baseUrl + "/api.asmx/ValidatePin?" + query);
        }
        else if (variant == "httpPost")
        {
            request = (HttpWebRequest)WebRequest.Create(baseUrl + "/api.asmx/ValidatePin");
            request.ContentType = "application/x-www-form-urlencoded";
            body = query;
        }
        else
        {
            request = (HttpWebRequest)WebRequest.Create(baseUrl + "/api.asmx");
            if (variant == "soap12") request.ContentType = "application/soap+xml; charset=utf-8";
            else
            {
                request.ContentType = "text/xml; charset=utf-8";
                request.Headers.Add("SOAPAction", "\"" + Ns + "ValidatePin\"");
            }
            body = Envelope(variant, pin, secret);
        }
        request.Timeout = 30000;
        if (body != null)
        {
            request.Method = "POST";
            var bytes = Encoding.UTF8.GetBytes(body);
            using (var stream = request.GetRequestStream()) stream.Write(bytes, 0, bytes.Length);
        }
        HttpWebResponse response;
        try { response = (HttpWebResponse)request.GetResponse(); }
        catch (WebException error) when (error.Response != null) { response = (HttpWebResponse)error.Response; }
        using (response)
        using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8))
        {
            var text = reader.ReadToEnd();
            var doc = new XmlDocument();
            doc.LoadXml(text);
            var names = new XmlNamespaceManager(doc.NameTable);
            names.AddNamespace("t", Ns);
            var result = doc.SelectSingleNode(variant.StartsWith("soap") ? "//t:ValidatePinResult" : "/t:boolean", names);
            return (int)response.StatusCode + " " + (result != null ? result.InnerText : text.Replace('\n', ' '));
        }
    }

    static int Main(string[] args)
    {
        TestCaTrust.Install(args[1]);
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            if (line.Trim() == "") continue;
            var parts = line.Split(' ');
            string outcome;
            try { outcome = Call(args[0], parts[0], parts[1], parts[2]); }
            catch (Exception error) { outcome = "0 " + error.GetType().Name + ": " + error.Message.Replace('\n', ' '); }
            Console.WriteLine(parts[0] + " " + outcome);
        }
        return 0;
    }
}
