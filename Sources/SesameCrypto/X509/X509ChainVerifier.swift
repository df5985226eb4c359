internal import COpenSSL
internal import CShims
import Foundation

/// Verifies certificate chains with libcrypto's X509_verify_cert.
///
/// Policy: the roots are trust anchors, and so may be any configured intermediate (partial chains
/// are accepted); X509_V_FLAG_X509_STRICT is off because attestation certificates are often
/// sloppy; no purpose is checked. A critical extension libcrypto does not know is still an error,
/// except for the attestation extensions listed in `toleratedCriticalExtensionOIDs`.
public enum X509ChainVerifier {
    /// Attestation extensions that may be marked critical without failing verification.
    static let toleratedCriticalExtensionOIDs: Set<String> = [
        "1.3.6.1.4.1.45724.1.1.4",  // FIDO AAGUID
        "1.3.6.1.4.1.45724.2.1.1",  // FIDO U2F transports
        "1.2.840.113635.100.8.2",  // Apple anonymous attestation nonce
        "1.3.6.1.4.1.11129.2.1.17",  // Android key attestation KeyDescription
        "2.5.29.9",  // subjectDirectoryAttributes (TPM specification attributes)
    ]

    /// Verifies `chain` (leaf first, then intermediates) to one of `roots` at instant `at`.
    /// Returns the verified path, leaf first, ending at the anchor. Throws `chainVerification`
    /// naming libcrypto's reason.
    public static func verify(chain: [X509Certificate], roots: [X509Certificate], at: Date) throws
        -> [X509Certificate]
    {
        guard let leaf = chain.first else { throw CryptoError.chainVerification("empty certificate chain") }
        let seconds = at.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, let time = Int(exactly: seconds) else {
            throw CryptoError.chainVerification("verification time out of range")
        }
        let store = try X509StoreHandle()
        for root in roots {
            guard X509_STORE_add_cert(store.pointer, root.handle) == 1 else {
                throw CryptoError.chainVerification(X509Support.takeError("cannot add a root"))
            }
        }
        let untrusted = try X509StackHandle()
        for certificate in chain.dropFirst() {
            guard sesame_sk_X509_push(untrusted.pointer, certificate.handle) > 0 else {
                throw CryptoError.library("cannot build the intermediate list")
            }
        }
        let context = try X509StoreContextHandle()
        let verified: [OpaquePointer] = try withExtendedLifetime((chain, roots)) {
            guard X509_STORE_CTX_init(context.pointer, store.pointer, leaf.handle, untrusted.pointer) == 1 else {
                throw CryptoError.library(X509Support.takeError("X509_STORE_CTX_init"))
            }
            X509_STORE_CTX_set_flags(context.pointer, UInt(X509_V_FLAG_PARTIAL_CHAIN))
            X509_STORE_CTX_set_time(context.pointer, 0, time)
            X509_STORE_CTX_set_verify_cb(context.pointer, toleratingAttestationExtensions)
            guard X509_verify_cert(context.pointer) == 1 else {
                let code = X509_STORE_CTX_get_error(context.pointer)
                ERR_clear_error()
                let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "unknown error"
                throw CryptoError.chainVerification(reason)
            }
            guard let path = X509_STORE_CTX_get0_chain(context.pointer) else {
                throw CryptoError.chainVerification("libcrypto returned no chain")
            }
            let count = sesame_sk_X509_num(path)
            return (0..<max(count, 0)).compactMap { sesame_sk_X509_value(path, $0) }
        }
        // Every certificate on the path is one of ours: the leaf, an intermediate, or a root (the
        // store holds references to the same X509 objects). Return those objects, in path order.
        let known = chain + roots
        return try verified.map { pointer in
            if let match = known.first(where: { $0.handle == pointer }) { return match }
            throw CryptoError.chainVerification("libcrypto built a path through an unknown certificate")
        }
    }
}

/// The verify callback: accepts only "unhandled critical extension", and only when every unknown
/// critical extension of the certificate is a tolerated attestation extension.
private func toleratingAttestationExtensions(_ ok: Int32, _ context: OpaquePointer?) -> Int32 {
    guard ok == 0, let context else { return ok }
    guard X509_STORE_CTX_get_error(context) == X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION,
        let certificate = X509_STORE_CTX_get_current_cert(context)
    else { return ok }
    let count = X509_get_ext_count(certificate)
    for index in 0..<max(count, 0) {
        guard let ext = X509_get_ext(certificate, index) else { return ok }
        guard X509_EXTENSION_get_critical(ext) != 0, X509_supported_extension(ext) == 0 else { continue }
        guard let oid = X509Support.dottedOID(X509_EXTENSION_get_object(ext)),
            X509ChainVerifier.toleratedCriticalExtensionOIDs.contains(oid)
        else { return ok }
    }
    X509_STORE_CTX_set_error(context, X509_V_OK)
    return 1
}

/// Owns an X509_STORE.
private final class X509StoreHandle {
    let pointer: OpaquePointer
    init() throws {
        guard let pointer = X509_STORE_new() else { throw CryptoError.library("X509_STORE_new failed") }
        self.pointer = pointer
    }
    deinit { X509_STORE_free(pointer) }
}

/// Owns an X509_STORE_CTX.
private final class X509StoreContextHandle {
    let pointer: OpaquePointer
    init() throws {
        guard let pointer = X509_STORE_CTX_new() else { throw CryptoError.library("X509_STORE_CTX_new failed") }
        self.pointer = pointer
    }
    deinit { X509_STORE_CTX_free(pointer) }
}

/// Owns a STACK_OF(X509) whose entries are borrowed (freed with sk_X509_free, not pop_free).
private final class X509StackHandle {
    let pointer: OpaquePointer
    init() throws {
        guard let pointer = sesame_sk_X509_new_null() else { throw CryptoError.library("sk_X509_new_null failed") }
        self.pointer = pointer
    }
    deinit { sesame_sk_X509_free(pointer) }
}
