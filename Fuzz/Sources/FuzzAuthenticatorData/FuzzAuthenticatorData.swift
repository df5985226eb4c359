import FuzzDriver
import WebAuthn

/// Parses authenticator data; what parses must serialise back to bytes that parse to the same
/// structure (extensions are re-encoded canonically, so only the structure is compared).
func fuzz(_ bytes: [UInt8]) -> CInt {
    guard let parsed = try? AuthenticatorData(bytes: bytes) else { return 0 }
    let rebuilt = AuthenticatorData(
        rpIDHash: parsed.rpIDHash, flags: parsed.flags, signCount: parsed.signCount,
        attestedCredentialData: parsed.attestedCredentialData, extensions: parsed.extensions)
    guard let reparsed = try? AuthenticatorData(bytes: rebuilt.raw) else {
        fatalError("rebuilt authenticator data does not parse")
    }
    guard reparsed.attestedCredentialData == parsed.attestedCredentialData, reparsed.flags == parsed.flags,
        reparsed.signCount == parsed.signCount
    else { fatalError("rebuilt authenticator data differs") }
    if parsed.extensions == nil {
        guard rebuilt.raw == bytes else { fatalError("serialisation without extensions is not exact") }
    }
    return 0
}

/// libFuzzer's hook, for drivers that look it up by name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
}

/// The entry point SwiftPM links as `main`; it runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzAuthenticatorData_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    sesame_fuzz_run(argc, argv) { data, size in fuzz(Array(UnsafeBufferPointer(start: data, count: size))) }
}
