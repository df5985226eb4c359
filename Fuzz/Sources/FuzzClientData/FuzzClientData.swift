import FuzzDriver
import WebAuthn

/// Parses clientDataJSON; the raw bytes must be kept exactly.
func fuzz(_ bytes: [UInt8]) -> CInt {
    guard let clientData = try? CollectedClientData(json: bytes) else { return 0 }
    guard clientData.raw == bytes else { fatalError("raw bytes not kept") }
    return 0
}

/// libFuzzer's hook, for drivers that look it up by name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
}

/// The entry point SwiftPM links as `main`; it runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzClientData_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    sesame_fuzz_run(argc, argv) { data, size in fuzz(Array(UnsafeBufferPointer(start: data, count: size))) }
}
