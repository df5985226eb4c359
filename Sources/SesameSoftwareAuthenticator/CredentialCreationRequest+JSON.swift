import WebAuthn

extension CredentialCreationRequest {
    /// Reads `PublicKeyCredentialCreationOptions` in JSON form, as Sesame's `/passkey/register`
    /// returns it: either the whole response (`{"authn_params_public_key": {…}, …}`), a
    /// `{"publicKey": {…}}` wrapper, or the options object itself. Binary members are base64url.
    ///
    /// Required: `challenge`, `rp.id`, `user.id`, `user.name`. `user.displayName` defaults to
    /// `user.name`; `pubKeyCredParams` entries whose type is not "public-key" are skipped.
    public init(optionsJSON: [UInt8]) throws(AuthenticatorError) {
        let options = try OptionsJSON.publicKeyOptions(optionsJSON)
        let challenge = try OptionsJSON.bytes(options, "challenge", path: "challenge")
        guard let rp = try OptionsJSON.object(options, "rp", path: "rp") else {
            throw AuthenticatorError(.invalidOptions, "rp is missing")
        }
        let rpID = try OptionsJSON.string(rp, "id", path: "rp.id")
        let rpName = try OptionsJSON.optionalString(rp, "name", path: "rp.name")
        guard let user = try OptionsJSON.object(options, "user", path: "user") else {
            throw AuthenticatorError(.invalidOptions, "user is missing")
        }
        let userHandle = try OptionsJSON.bytes(user, "id", path: "user.id", lenient: true)
        let userName = try OptionsJSON.string(user, "name", path: "user.name")
        let displayName = try OptionsJSON.optionalString(user, "displayName", path: "user.displayName") ?? userName

        var algorithms: [Int] = []
        for (index, item) in try OptionsJSON.array(options, "pubKeyCredParams", path: "pubKeyCredParams").enumerated() {
            let path = "pubKeyCredParams[\(index)]"
            guard case .object = item else { throw AuthenticatorError(.invalidOptions, "\(path) must be an object") }
            let type = try OptionsJSON.string(item, "type", path: "\(path).type")
            guard case .number(let text)? = item["alg"], let alg = Int(text) else {
                throw AuthenticatorError(.invalidOptions, "\(path).alg must be an integer")
            }
            if type == "public-key" { algorithms.append(alg) }
        }

        let selection = try OptionsJSON.object(options, "authenticatorSelection", path: "authenticatorSelection")
        var residentKey = ResidentKeyRequirement.discouraged
        if let selection {
            if let text = try OptionsJSON.optionalString(
                selection, "residentKey", path: "authenticatorSelection.residentKey"),
                let known = ResidentKeyRequirement(rawValue: text)
            {
                residentKey = known
            } else if selection["requireResidentKey"]?.boolValue == true {
                residentKey = .required
            }
        }
        self.init(
            rpID: rpID, rpName: rpName, userHandle: userHandle, userName: userName, userDisplayName: displayName,
            challenge: challenge, pubKeyCredParams: algorithms,
            excludeCredentials: try OptionsJSON.credentialIDs(options, "excludeCredentials"),
            residentKey: residentKey,
            userVerification: try OptionsJSON.userVerification(
                selection, path: "authenticatorSelection.userVerification"))
    }
}
