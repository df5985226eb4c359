// The parsing layer's types now live in their own files (WebAuthnError.swift, Base64URL.swift,
// CBOR*.swift, COSE*.swift, AuthenticatorData.swift, CollectedClientData.swift,
// AttestationObject.swift, AAGUIDRegistry*.swift).

@inline(never)
func fatalStub(_ function: StaticString = #function) -> Never {
    fatalError("WebAuthn: \(function) is not implemented yet")
}
