import FuzzDriver
import WebAuthn

/// Decodes the input; whatever decodes must re-encode canonically, decode again, and re-encode to
/// the same bytes. Rejections are fine; a trap or a broken round trip is a finding.
func fuzz(_ bytes: [UInt8]) -> CInt {
    let decoder = CBORDecoder()
    if let (prefix, used) = try? decoder.decodePrefix(bytes[...]) {
        guard used > 0, used <= bytes.count else { fatalError("decodePrefix used \(used) of \(bytes.count) bytes") }
        _ = prefix
    }
    guard let value = try? decoder.decode(bytes) else { return 0 }
    let encoded = CBOREncoder.encode(value)
    guard let again = try? decoder.decode(encoded) else {
        fatalError("canonical encoding of a decoded item does not decode")
    }
    guard CBOREncoder.encode(again) == encoded else { fatalError("canonical encoding is not stable") }
    return 0
}

/// libFuzzer's hook, for drivers that look it up by name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
}

/// The entry point SwiftPM links as `main`; it runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzCBOR_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    sesame_fuzz_run(argc, argv) { data, size in fuzz(Array(UnsafeBufferPointer(start: data, count: size))) }
}
