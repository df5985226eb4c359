import FuzzDriver
import WebAuthn

/// Parses an attestation object; what parses must rebuild into authenticator data that parses.
func fuzz(_ bytes: [UInt8]) -> CInt {
    guard let object = try? AttestationObject(bytes: bytes) else { return 0 }
    let parsed = object.authenticatorData
    let rebuilt = AuthenticatorData(
        rpIDHash: parsed.rpIDHash, flags: parsed.flags, signCount: parsed.signCount,
        attestedCredentialData: parsed.attestedCredentialData, extensions: parsed.extensions)
    guard (try? AuthenticatorData(bytes: rebuilt.raw)) != nil else {
        fatalError("rebuilt authenticator data does not parse")
    }
    _ = object.statement[textKey: "sig"]?.bytesValue
    _ = object.statement[textKey: "x5c"]?.arrayValue
    return 0
}

/// libFuzzer's hook, for drivers that look it up by name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
}

/// The entry point SwiftPM links as `main`; it runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzAttestationObject_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    sesame_fuzz_run(argc, argv) { data, size in fuzz(Array(UnsafeBufferPointer(start: data, count: size))) }
}
