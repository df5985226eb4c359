extension CollectedClientData {
    /// `tokenBinding.status` when the client sent a tokenBinding object (WebAuthn Level 2; Level 3
    /// dropped the member). A non-object value (some old browsers sent the string "unused") is
    /// ignored. Parsed only when the member is present, so the common path costs a byte search.
    public var tokenBindingStatus: String? {
        guard raw.count < 1 << 16, containsTokenBindingKey else { return nil }
        guard let tokenBinding = (try? JSONReader.parse(raw))?["tokenBinding"], case .object = tokenBinding else {
            return nil
        }
        // An object without a string status is malformed; report it so the check rejects it.
        return tokenBinding["status"]?.stringValue ?? "(missing)"
    }

    private var containsTokenBindingKey: Bool {
        let key = Array("\"tokenBinding\"".utf8)
        guard raw.count >= key.count else { return false }
        for start in 0...(raw.count - key.count) where raw[start] == key[0] {
            if raw[start..<(start + key.count)].elementsEqual(key) { return true }
        }
        return false
    }
}
