internal import COpenSSL

/// AES-256-GCM with a 12-byte nonce and a 16-byte tag.
public enum AES256GCM {
    /// Key length in bytes.
    public static let keySize = 32
    /// Nonce length in bytes.
    public static let nonceSize = 12
    /// Tag length in bytes.
    public static let tagSize = 16

    /// Returns nonce ‖ ciphertext ‖ tag. The nonce is drawn from `random`.
    public static func seal(
        _ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = [], random: any RandomSource = SystemRandom()
    ) throws -> [UInt8] {
        try checkSizes(key: key, payload: plaintext.count, associatedData: associatedData.count)
        let nonce = try random.bytes(count: nonceSize)
        guard nonce.count == nonceSize else { throw CryptoError.invalidInput("the random source gave a short nonce") }
        let context = try cipher(key: key, nonce: nonce, encrypting: true)
        try addAssociatedData(associatedData, context: context, encrypting: true)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        var produced: Int32 = 0
        var finalLength: Int32 = 0
        let ok = ciphertext.withUnsafeMutableBufferPointer { output -> Bool in
            guard let out = output.baseAddress else { return false }
            if !plaintext.isEmpty {
                let updated = withNonNullBytes(plaintext) { input, count in
                    EVP_EncryptUpdate(context.pointer, out, &produced, input, Int32(truncatingIfNeeded: count))
                }
                guard updated == 1 else { return false }
            }
            return EVP_EncryptFinal_ex(context.pointer, out + Int(produced), &finalLength) == 1
        }
        guard ok, Int(produced) + Int(finalLength) == plaintext.count else {
            throw OpenSSLError.library("AES-GCM encryption")
        }
        ciphertext.removeLast(tagSize)
        var tag = [UInt8](repeating: 0, count: tagSize)
        let tagged = tag.withUnsafeMutableBytes {
            EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), $0.baseAddress)
        }
        guard tagged == 1 else { throw OpenSSLError.library("EVP_CTRL_GCM_GET_TAG") }
        return nonce + ciphertext + tag
    }

    /// A context set up for AES-256-GCM with `key` and `nonce`, to encrypt or to decrypt.
    private static func cipher(key: [UInt8], nonce: [UInt8], encrypting: Bool) throws -> CipherContext {
        let context = try CipherContext()
        let initialized = withNonNullBytes(key) { keyBytes, _ in
            withNonNullBytes(nonce) { nonceBytes, _ in
                encrypting
                    ? EVP_EncryptInit_ex(context.pointer, EVP_aes_256_gcm(), nil, keyBytes, nonceBytes)
                    : EVP_DecryptInit_ex(context.pointer, EVP_aes_256_gcm(), nil, keyBytes, nonceBytes)
            }
        }
        guard initialized == 1 else {
            throw OpenSSLError.library(encrypting ? "EVP_EncryptInit_ex" : "EVP_DecryptInit_ex")
        }
        return context
    }

    /// Opens nonce ‖ ciphertext ‖ tag; throws `authenticationFailed` on any tampering.
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        guard sealed.count >= nonceSize + tagSize else {
            throw CryptoError.invalidInput("sealed data is shorter than nonce and tag")
        }
        let ciphertextCount = sealed.count - nonceSize - tagSize
        try checkSizes(key: key, payload: ciphertextCount, associatedData: associatedData.count)
        let nonce = Array(sealed.prefix(nonceSize))
        let ciphertext = Array(sealed.dropFirst(nonceSize).prefix(ciphertextCount))
        var tag = Array(sealed.suffix(tagSize))
        let context = try cipher(key: key, nonce: nonce, encrypting: false)
        try addAssociatedData(associatedData, context: context, encrypting: false)
        var plaintext = [UInt8](repeating: 0, count: ciphertextCount + tagSize)
        var produced: Int32 = 0
        var finalLength: Int32 = 0
        let tagSet = tag.withUnsafeMutableBytes {
            EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), $0.baseAddress)
        }
        guard tagSet == 1 else { throw OpenSSLError.library("EVP_CTRL_GCM_SET_TAG") }
        let updated = plaintext.withUnsafeMutableBufferPointer { output -> Bool in
            guard let out = output.baseAddress else { return false }
            if ciphertext.isEmpty { return true }
            return withNonNullBytes(ciphertext) { input, count in
                EVP_DecryptUpdate(context.pointer, out, &produced, input, Int32(truncatingIfNeeded: count))
            } == 1
        }
        guard updated else { throw OpenSSLError.library("EVP_DecryptUpdate") }
        let verified = plaintext.withUnsafeMutableBufferPointer { output -> Int32 in
            guard let out = output.baseAddress else { return 0 }
            return EVP_DecryptFinal_ex(context.pointer, out + Int(produced), &finalLength)
        }
        guard verified == 1 else {
            OPENSSL_cleanse(&plaintext, plaintext.count)
            OpenSSLError.clear()
            throw CryptoError.authenticationFailed
        }
        guard Int(produced) + Int(finalLength) == ciphertextCount else {
            throw OpenSSLError.library("AES-GCM decryption length")
        }
        plaintext.removeLast(tagSize)
        return plaintext
    }

    private static func checkSizes(key: [UInt8], payload: Int, associatedData: Int) throws {
        guard key.count == keySize else { throw CryptoError.invalidInput("an AES-256 key is 32 bytes") }
        guard payload <= Int(Int32.max) - 2 * tagSize, associatedData <= Int(Int32.max) else {
            throw CryptoError.invalidInput("message too large for one AES-GCM call")
        }
    }

    private static func addAssociatedData(_ data: [UInt8], context: CipherContext, encrypting: Bool) throws {
        guard !data.isEmpty else { return }
        var ignored: Int32 = 0
        let ok = withNonNullBytes(data) { bytes, count in
            encrypting
                ? EVP_EncryptUpdate(context.pointer, nil, &ignored, bytes, Int32(truncatingIfNeeded: count))
                : EVP_DecryptUpdate(context.pointer, nil, &ignored, bytes, Int32(truncatingIfNeeded: count))
        }
        guard ok == 1 else { throw OpenSSLError.library("AES-GCM associated data") }
    }
}
