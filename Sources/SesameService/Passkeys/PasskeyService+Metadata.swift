import Foundation
import SesameStore
import WebAuthn

/// Registrations against FIDO metadata (docs/mds.md): the roots of the attested model come from
/// the store, the WebAuthn core chains the path to them, and the model's status and the
/// connection's attestation requirement decide.
extension PasskeyService {
    /// `attestation` in creation options: `direct` when the connection requires attested
    /// authenticators, else left out (the WebAuthn default, `none`).
    static func attestationConveyance(_ connection: ConnectionRecord) -> String? {
        connection.passkey.attestationRequirement == .none ? nil : "direct"
    }

    /// Parses and verifies a registration response with the metadata of the model it names, and
    /// applies the metadata's verdict and the connection's requirement.
    func verifyRegistration(
        _ relyingParty: RelyingParty, response: CredentialJSONInput, state: RegistrationState,
        connection: ConnectionRecord, now: Date
    ) throws(ServiceError) -> (VerifiedRegistration, RegistrationMetadata) {
        let credential: RegistrationCredential
        do {
            credential = try RegistrationCredential(json: response)
        } catch {
            throw .invalidGrant("passkey registration failed: \(error.message)")
        }
        let metadata = try access.read { transaction in
            try RegistrationMetadata.lookUp(attestationObject: credential.attestationObject, in: transaction)
        }
        var party = relyingParty
        party.policy.attestation.metadataAnchors = metadata.anchors
        let verified: VerifiedRegistration
        do {
            verified = try party.finishRegistration(credential, state: state, now: now)
        } catch {
            throw .invalidGrant("passkey registration failed: \(error.message)")
        }
        try metadata.check(verified, requirement: connection.passkey.attestationRequirement)
        return (verified, metadata)
    }
}
