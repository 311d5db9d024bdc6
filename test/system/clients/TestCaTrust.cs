// How .NET users trust a private CA for one program: a
// ServerCertificateValidationCallback that accepts the server's certificate
// only when its name matches and its chain ends at that CA.
using System.Net;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

static class TestCaTrust
{
    static X509Certificate2 ca;

    public static void Install(string caFile)
    {
        ca = new X509Certificate2(caFile);
        ServicePointManager.ServerCertificateValidationCallback = Validate;
    }

    static bool Validate(object sender, X509Certificate certificate, X509Chain _, SslPolicyErrors errors)
    {
        // A wrong name (or no certificate) is never accepted; an unknown root is checked against the CA below.
        if ((errors & ~SslPolicyErrors.RemoteCertificateChainErrors) != SslPolicyErrors.None) return false;
        var chain = new X509Chain();
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.VerificationFlags = X509VerificationFlags.AllowUnknownCertificateAuthority;
        chain.ChainPolicy.ExtraStore.Add(ca);
        if (!chain.Build(new X509Certificate2(certificate))) return false;
        var root = chain.ChainElements[chain.ChainElements.Count - 1].Certificate;
        return root.Thumbprint == ca.Thumbprint;
    }
}
