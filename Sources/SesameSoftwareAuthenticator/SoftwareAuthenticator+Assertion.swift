import SesameCrypto
import WebAuthn

extension SoftwareAuthenticator {
    /// Makes an assertion, as `navigator.credentials.get()` with this authenticator would.
    ///
    /// With `allowCredentials`, the candidates are the stored credentials for the RP ID that it
    /// lists, in its order; without, every stored credential for the RP ID, newest first. The first
    /// candidate is used unless `selectCredential` is given, which plays the account picker: it
    /// gets the candidates and returns one of them, or nil to cancel. Throws `notAllowed` when no
    /// candidate exists or the picker declines, `invalidOptions` for an empty RP ID or challenge.
    public func getAssertion(
        _ request: CredentialAssertionRequest,
        selectCredential: ((_ candidates: [AuthenticatorCredential]) -> AuthenticatorCredential?)? = nil
    ) throws(AuthenticatorError) -> AssertionResult {
        guard !request.rpID.isEmpty else { throw AuthenticatorError(.invalidOptions, "rpId is empty") }
        guard !request.challenge.isEmpty else { throw AuthenticatorError(.invalidOptions, "challenge is empty") }
        let stored = try store.credentials(rpID: request.rpID)
        let candidates: [AuthenticatorCredential]
        if request.allowCredentials.isEmpty {
            candidates = stored.enumerated().sorted { lhs, rhs in
                lhs.element.created != rhs.element.created
                    ? lhs.element.created > rhs.element.created : lhs.offset > rhs.offset
            }.map(\.element)
        } else {
            candidates = request.allowCredentials.compactMap { id in stored.first { $0.id == id } }
        }
        guard let first = candidates.first else {
            let what = request.allowCredentials.isEmpty ? "no credential" : "none of the allowed credentials"
            throw AuthenticatorError(.notAllowed, "this authenticator holds \(what) for \(request.rpID)")
        }
        var chosen = first
        if let selectCredential {
            guard let picked = selectCredential(candidates), let match = candidates.first(where: { $0.id == picked.id })
            else { throw AuthenticatorError(.notAllowed, "no credential was selected") }
            chosen = match
        }

        let signCount: UInt32
        switch configuration.signCounter {
        case .zero:
            signCount = 0
        case .increment:
            chosen = try store.incrementSignCount(credentialID: chosen.id)
            signCount = chosen.signCount
        }
        let authenticatorData = AuthenticatorData(
            rpIDHash: Digest.sha256(Array(request.rpID.utf8)),
            flags: flags(request.userVerification, backupEligible: chosen.backupEligible), signCount: signCount,
            attestedCredentialData: nil, extensions: nil)
        let clientDataJSON = clientData(type: "webauthn.get", challenge: request.challenge, rpID: request.rpID)
        // §6.3.3 authenticatorGetAssertion step 11: sign authenticatorData ‖ clientDataHash.
        let signature = try sign(
            authenticatorData.raw + Digest.sha256(clientDataJSON), with: try signingKey(for: chosen),
            algorithm: chosen.algorithm)

        let credential = AuthenticationCredential(
            id: chosen.id, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData.raw,
            signature: signature, userHandle: chosen.userHandle,
            authenticatorAttachment: configuration.authenticatorAttachment)
        var response = JSONText()
        response.string("clientDataJSON", Base64URL.encode(clientDataJSON))
        response.string("authenticatorData", Base64URL.encode(authenticatorData.raw))
        response.string("signature", Base64URL.encode(signature))
        response.string("userHandle", Base64URL.encode(chosen.userHandle))
        return AssertionResult(
            credential: credential, json: credentialJSON(id: chosen.id, response: response),
            authenticatorData: authenticatorData, storedCredential: chosen)
    }

    /// Makes an assertion from request options JSON (see `CredentialAssertionRequest(optionsJSON:)`),
    /// such as the body of Sesame's `/passkey/challenge` response.
    public func getAssertion(
        optionsJSON: [UInt8],
        selectCredential: ((_ candidates: [AuthenticatorCredential]) -> AuthenticatorCredential?)? = nil
    ) throws(AuthenticatorError) -> AssertionResult {
        try getAssertion(CredentialAssertionRequest(optionsJSON: optionsJSON), selectCredential: selectCredential)
    }
}
