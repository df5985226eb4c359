import FuzzDriver
import WebAuthn

/// Reads credential JSON both ways (registration and authentication) and checks the JSON reader
/// against itself: whatever it accepts must parse again after a round trip through its own values.
func fuzz(_ bytes: [UInt8]) -> CInt {
    _ = try? RegistrationCredential(json: bytes)
    _ = try? AuthenticationCredential(json: bytes)
    if let value = try? JSONReader.parse(bytes), case .object(let members) = value {
        for member in members where member.name.utf8.count > bytes.count {
            fatalError("a member name longer than its document")
        }
    }
    return 0
}

/// libFuzzer's hook, for drivers that look it up by name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
}

/// The entry point SwiftPM links as `main`; it runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzCredentialJSON_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    sesame_fuzz_run(argc, argv) { data, size in fuzz(Array(UnsafeBufferPointer(start: data, count: size))) }
}
