import WebAuthn

extension CredentialAssertionRequest {
    /// Reads `PublicKeyCredentialRequestOptions` in JSON form, as Sesame's `/passkey/challenge`
    /// returns it: the whole response (`{"authn_params_public_key": {…}, …}`), a `{"publicKey": {…}}`
    /// wrapper, or the options object itself.
    ///
    /// Required: `challenge` and `rpId`; `allowCredentials` and `userVerification` are optional.
    public init(optionsJSON: [UInt8]) throws(AuthenticatorError) {
        let options = try OptionsJSON.publicKeyOptions(optionsJSON)
        self.init(
            rpID: try OptionsJSON.string(options, "rpId", path: "rpId"),
            challenge: try OptionsJSON.bytes(options, "challenge", path: "challenge"),
            allowCredentials: try OptionsJSON.credentialIDs(options, "allowCredentials"),
            userVerification: try OptionsJSON.userVerification(options, path: "userVerification"))
    }
}
