// SesameCrypto's public types now live one per file (Digest.swift, PublicKey.swift, …).
// `fatalStub` stays only while X509API.swift still has stubs; delete this file when it has none.

@inline(never)
func fatalStub(_ function: StaticString = #function) -> Never {
    fatalError("SesameCrypto: \(function) is not implemented yet")
}
