import FuzzDriver
import WebAuthn

/// Decoding is strict, so anything that decodes is canonical: encoding the result must give the
/// input back without padding. And any bytes must survive encode → decode.
func fuzz(_ bytes: [UInt8]) -> CInt {
    if let decoded = try? Base64URL.decode(bytes) {
        let unpadded = Array(bytes.reversed().drop { $0 == UInt8(ascii: "=") }.reversed())
        guard Array(Base64URL.encode(decoded).utf8) == unpadded else { fatalError("accepted a non-canonical encoding") }
    }
    guard (try? Base64URL.decode(Base64URL.encode(bytes))) == bytes else {
        fatalError("encode/decode round trip failed")
    }
    return 0
}

/// libFuzzer's hook, for drivers that look it up by name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
}

/// The entry point SwiftPM links as `main`; it runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzBase64URL_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    sesame_fuzz_run(argc, argv) { data, size in fuzz(Array(UnsafeBufferPointer(start: data, count: size))) }
}
