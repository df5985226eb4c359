// SesameSoftwareAuthenticator
