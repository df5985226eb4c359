/// A self-signed P-256 certificate for 127.0.0.1 and its key, made with `openssl req -x509` for the TLS test only.
enum TestTLSFixture {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBnDCCAUGgAwIBAgIUDWtdPYb2JZSB8koFFqI/E6DblgQwCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEzMDEyMDk1M1oYDzIxMjYxMTA2
        MTIwOTUzWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAATq5xfsg67spqcO6oDMsrY5m4UmqVvZNQ1ZwwfT03fuRFDUIcM07DO5
        eU3l80X0rUNKfEEzYaSEcO9pD6wGH6zPo28wbTAdBgNVHQ4EFgQUuxhfSe0R3pfX
        pok43uHQi2WcjX0wHwYDVR0jBBgwFoAUuxhfSe0R3pfXpok43uHQi2WcjX0wDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
        zj0EAwIDSQAwRgIhAPPPrmhYJHQlzNoBwbuEwAHQa+JePkl2GRw/UIAOZB72AiEA
        ufDoJGQgvsCmZofXN7eE68RTklZXCWJeiu702hsPt8g=
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgKuOlVj9/N7g54PsB
        4mI6W7KNDulOlTSEfVPMH2Ph4sehRANCAATq5xfsg67spqcO6oDMsrY5m4UmqVvZ
        NQ1ZwwfT03fuRFDUIcM07DO5eU3l80X0rUNKfEEzYaSEcO9pD6wGH6zP
        -----END PRIVATE KEY-----
        """
}
