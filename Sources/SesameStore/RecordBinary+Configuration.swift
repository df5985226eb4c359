import Foundation

// The configuration records in the binary form: what a login reads when the configuration cache
// misses (tenant, client, connection, API) and what the signing-key ring loads. With these, no
// stored record needs Foundation's JSON coders; JSON rows from before SQLite migration 11 /
// PostgreSQL migration 4 still read, and those migrations rewrite them.

extension TenantRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(id)
        writer.string(name)
        writer.string(domain)
        writer.strings(customDomains)
        writer.string(rpID)
        writer.string(publicURL)
        writer.strings(allowedOrigins)
        writer.strings(relatedOrigins)
        writer.int(accessTokenLifetime)
        writer.int(idTokenLifetime)
        writer.int(refreshTokenLifetime)
        writer.int(refreshTokenIdleLifetime)
        writer.optionalString(defaultConnectionID)
        writer.optionalBool(signupUserExistsError)
        writer.date(createdAt)
        writer.date(updatedAt)
        writer.values(mfa.factors)
        writer.string(mfa.policy.rawValue)
        let breached = breachedPasswords
        writer.bool(breached.enabled)
        writer.values(breached.shields)
        writer.values(breached.adminNotificationFrequency)
        writer.string(breached.method.rawValue)
        writer.values(breached.signupShields)
        writer.values(breached.changePasswordShields)
        writer.optionalString(breached.rangeURL)
        writer.int(sessionLifetime)
        writer.int(idleSessionLifetime)
        writer.strings(adminUserIDs ?? [])
        writer.bool(branding != nil)
        if let branding {
            writer.optionalString(branding.primaryColor)
            writer.optionalString(branding.pageBackground)
            writer.optionalString(branding.logoURL)
            let keys = branding.texts.keys.sorted()
            writer.strings(keys)
            for key in keys { writer.stringMap(branding.texts[key] ?? [:]) }
        }
        writer.int(auditRetentionDays)
        writer.int(deletedPasskeyRetentionDays)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        try self.init(readingVersionOne: &reader)
        if version >= 2 {
            mfa = MFASettings(
                factors: try reader.values(MFAFactor.self, "mfa.factors"),
                policy: try reader.value(MFAPolicy.self, "mfa.policy"))
            breachedPasswords = BreachedPasswordSettings(
                enabled: try reader.bool("breached.enabled"),
                shields: try reader.values(BreachShield.self, "breached.shields"),
                adminNotificationFrequency: try reader.values(
                    BreachNotificationFrequency.self, "breached.adminNotificationFrequency"),
                method: try reader.value(BreachMethod.self, "breached.method"),
                signupShields: try reader.values(BreachShield.self, "breached.signupShields"),
                changePasswordShields: try reader.values(BreachShield.self, "breached.changePasswordShields"),
                rangeURL: try reader.optionalString("breached.rangeURL"))
        }
        if version >= 3 {
            sessionLifetime = try reader.int("sessionLifetime")
            idleSessionLifetime = try reader.int("idleSessionLifetime")
            let admins = try reader.strings("adminUserIDs")
            adminUserIDs = admins.isEmpty ? nil : admins
            if try reader.bool("branding") {
                var settings = BrandingSettings(
                    primaryColor: try reader.optionalString("branding.primaryColor"),
                    pageBackground: try reader.optionalString("branding.pageBackground"),
                    logoURL: try reader.optionalString("branding.logoURL"))
                for key in try reader.strings("branding.texts") {
                    settings.texts[key] = try reader.stringMap("branding.texts.\(key)")
                }
                branding = settings
            }
        }
        if version >= 4 { auditRetentionDays = try reader.int("auditRetentionDays") }
        if version >= 5 { deletedPasskeyRetentionDays = try reader.int("deletedPasskeyRetentionDays") }
        // Read from an older row, it is the current version now.
        self.version = Self.currentVersion
    }

    private init(readingVersionOne reader: inout RecordReader) throws(RecordReader.Failure) {
        self.init(
            id: try reader.string("id"), name: try reader.string("name"), domain: try reader.string("domain"),
            customDomains: try reader.strings("customDomains"), rpID: try reader.string("rpID"),
            publicURL: try reader.string("publicURL"), allowedOrigins: try reader.strings("allowedOrigins"),
            relatedOrigins: try reader.strings("relatedOrigins"),
            accessTokenLifetime: try reader.int("accessTokenLifetime"),
            idTokenLifetime: try reader.int("idTokenLifetime"),
            refreshTokenLifetime: try reader.int("refreshTokenLifetime"),
            refreshTokenIdleLifetime: try reader.int("refreshTokenIdleLifetime"),
            defaultConnectionID: try reader.optionalString("defaultConnectionID"),
            signupUserExistsError: try reader.optionalBool("signupUserExistsError"),
            createdAt: try reader.date("createdAt"), updatedAt: try reader.date("updatedAt"))
    }
}

extension ClientRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.string(name)
        writer.string(appType.rawValue)
        writer.values(grantTypes)
        writer.strings(callbacks)
        writer.strings(allowedOrigins)
        writer.bool(isFirstParty)
        writer.string(tokenEndpointAuthMethod.rawValue)
        writer.optionalBytes(secretHash)
        writer.string(jwtAlgorithm.rawValue)
        writer.bool(ios != nil)
        if let ios {
            writer.string(ios.teamID)
            writer.string(ios.bundleIdentifier)
        }
        writer.bool(android != nil)
        if let android {
            writer.string(android.packageName)
            writer.strings(android.sha256CertFingerprints)
        }
        writer.list(grants) { writer, grant in
            writer.string(grant.audience)
            writer.strings(grant.scopes)
        }
        writer.date(createdAt)
        writer.date(updatedAt)
        writer.strings(allowedLogoutURLs)
    }

    /// The binary form began with version 2 (the typed vocabulary); an older version is damage.
    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        guard version >= 2 else {
            throw RecordReader.Failure(field: "version", why: "version \(version) has no binary form")
        }
        let tenantID = try reader.string("tenantID")
        let id = try reader.string("id")
        let name = try reader.string("name")
        let appType = try reader.value(ClientAppType.self, "appType")
        let grantTypes = try reader.values(OAuthGrantType.self, "grantTypes")
        let callbacks = try reader.strings("callbacks")
        let allowedOrigins = try reader.strings("allowedOrigins")
        let isFirstParty = try reader.bool("isFirstParty")
        let method = try reader.value(TokenEndpointAuthMethod.self, "tokenEndpointAuthMethod")
        let secretHash = try reader.optionalBytes("secretHash")
        let jwtAlgorithm = try reader.value(JWTAlgorithm.self, "jwtAlgorithm")
        let ios =
            try reader.bool("ios")
            ? IOSAppSettings(
                teamID: try reader.string("ios.teamID"), bundleIdentifier: try reader.string("ios.bundleIdentifier"))
            : nil
        let android =
            try reader.bool("android")
            ? AndroidAppSettings(
                packageName: try reader.string("android.packageName"),
                sha256CertFingerprints: try reader.strings("android.sha256CertFingerprints"))
            : nil
        let grants = try reader.list("grants", minimumBytes: 8) { reader, field throws(RecordReader.Failure) in
            ClientGrantSettings(
                audience: try reader.string("\(field).audience"), scopes: try reader.strings("\(field).scopes"))
        }
        self.init(
            tenantID: tenantID, id: id, name: name, appType: appType, grantTypes: grantTypes, callbacks: callbacks,
            allowedOrigins: allowedOrigins, isFirstParty: isFirstParty, tokenEndpointAuthMethod: method,
            secretHash: secretHash, jwtAlgorithm: jwtAlgorithm, ios: ios, android: android, grants: grants,
            createdAt: try reader.date("createdAt"), updatedAt: try reader.date("updatedAt"))
        if version >= 3 { allowedLogoutURLs = try reader.strings("allowedLogoutURLs") }
        // Read from an older row, it is the current version now.
        self.version = Self.currentVersion
    }
}

extension ConnectionRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.string(name)
        writer.string(identifiers.email.rawValue)
        writer.string(identifiers.phoneNumber.rawValue)
        writer.string(identifiers.username.rawValue)
        writer.bool(passkey.enabled)
        writer.string(passkey.challengeUI.rawValue)
        writer.bool(passkey.progressiveEnrollmentEnabled)
        writer.bool(passkey.localEnrollmentEnabled)
        writer.string(passkey.userVerification.rawValue)
        writer.int(passkey.maxPasskeysPerUser)
        writer.bool(password.enabled)
        writer.string(password.rules)
        writer.int(password.hashing.memoryKiB)
        writer.int(password.hashing.iterations)
        writer.int(password.hashing.parallelism)
        writer.strings(enabledClients)
        writer.date(createdAt)
        writer.date(updatedAt)
        let migration = passkey.migration
        writer.string(migration.minIOSVersion)
        writer.string(migration.minAndroidVersion)
        writer.string(migration.minIOSWebViewVersion)
        writer.string(migration.minAndroidWebViewVersion)
        writer.int(migration.deviceKeyGraceDays)
        writer.int(migration.promptSnoozeDays)
        writer.string(strategy.rawValue)
        writer.values(upgrades.allowed)
        writer.int(upgrades.maxAuthAge)
        writer.string(upgrades.stepUp.rawValue)
        writer.bool(apple != nil)
        if let apple {
            writer.string(apple.teamID)
            writer.string(apple.keyID)
            writer.optionalString(apple.servicesID)
            writer.strings(apple.appIDs)
            writer.bytes(apple.sealedKey)
            writer.string(apple.issuer)
            writer.string(apple.keysURL)
            writer.string(apple.tokenURL)
            writer.string(apple.authorizeURL)
        }
        writer.string(passkey.attestationRequirement.rawValue)
        writer.bool(passkey.onePerProvider)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        let tenantID = try reader.string("tenantID")
        let id = try reader.string("id")
        let name = try reader.string("name")
        let identifiers = IdentifierPolicy(
            email: try reader.value(IdentifierRule.self, "identifiers.email"),
            phoneNumber: try reader.value(IdentifierRule.self, "identifiers.phoneNumber"),
            username: try reader.value(IdentifierRule.self, "identifiers.username"))
        let passkey = PasskeyPolicy(
            enabled: try reader.bool("passkey.enabled"),
            challengeUI: try reader.value(ChallengeUI.self, "passkey.challengeUI"),
            progressiveEnrollmentEnabled: try reader.bool("passkey.progressiveEnrollmentEnabled"),
            localEnrollmentEnabled: try reader.bool("passkey.localEnrollmentEnabled"),
            userVerification: try reader.value(UserVerificationPolicy.self, "passkey.userVerification"),
            maxPasskeysPerUser: try reader.int("passkey.maxPasskeysPerUser"))
        let password: PasswordPolicy
        if version < 2 {
            // Version 1 kept only a minimum length.
            password = PasswordPolicy(
                enabled: try reader.bool("password.enabled"),
                rules: PasswordPolicy.rules(minLength: try reader.int("password.minLength")))
        } else {
            password = PasswordPolicy(
                enabled: try reader.bool("password.enabled"), rules: try reader.string("password.rules"),
                hashing: Argon2Parameters(
                    memoryKiB: try reader.int("password.hashing.memoryKiB"),
                    iterations: try reader.int("password.hashing.iterations"),
                    parallelism: try reader.int("password.hashing.parallelism")))
        }
        self.init(
            tenantID: tenantID, id: id, name: name, identifiers: identifiers, passkey: passkey, password: password,
            enabledClients: try reader.strings("enabledClients"), createdAt: try reader.date("createdAt"),
            updatedAt: try reader.date("updatedAt"))
        if version >= 3 {
            self.passkey.migration = PasskeyMigrationPolicy(
                minIOSVersion: try reader.string("passkey.migration.minIOSVersion"),
                minAndroidVersion: try reader.string("passkey.migration.minAndroidVersion"),
                minIOSWebViewVersion: try reader.string("passkey.migration.minIOSWebViewVersion"),
                minAndroidWebViewVersion: try reader.string("passkey.migration.minAndroidWebViewVersion"),
                deviceKeyGraceDays: try reader.int("passkey.migration.deviceKeyGraceDays"),
                promptSnoozeDays: try reader.int("passkey.migration.promptSnoozeDays"))
        }
        if version >= 4 {
            strategy = try reader.value(ConnectionStrategy.self, "strategy")
            upgrades = UpgradePolicy(
                allowed: try reader.values(UpgradeType.self, "upgrades.allowed"),
                maxAuthAge: try reader.int("upgrades.maxAuthAge"),
                stepUp: try reader.value(StepUpRule.self, "upgrades.stepUp"))
            if try reader.bool("apple") {
                apple = AppleSettings(
                    teamID: try reader.string("apple.teamID"), keyID: try reader.string("apple.keyID"),
                    servicesID: try reader.optionalString("apple.servicesID"),
                    appIDs: try reader.strings("apple.appIDs"), sealedKey: try reader.bytes("apple.sealedKey"),
                    issuer: try reader.string("apple.issuer"), keysURL: try reader.string("apple.keysURL"),
                    tokenURL: try reader.string("apple.tokenURL"),
                    authorizeURL: try reader.string("apple.authorizeURL"))
            }
        }
        if version >= 5 {
            self.passkey.attestationRequirement = try reader.value(
                AttestationRequirement.self, "passkey.attestationRequirement")
        }
        if version >= 6 {
            self.passkey.onePerProvider = try reader.bool("passkey.onePerProvider")
        }
        // Read from an older row, it is the current version now.
        self.version = Self.currentVersion
    }
}

extension ResourceServerRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.string(identifier)
        writer.string(name)
        writer.list(scopes) { writer, scope in
            writer.string(scope.value)
            writer.string(scope.description)
        }
        writer.string(signingAlgorithm.rawValue)
        writer.int(tokenLifetime)
        writer.bool(allowOfflineAccess)
        writer.bool(skipConsentForVerifiableFirstPartyClients)
        writer.date(createdAt)
        writer.date(updatedAt)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        let tenantID = try reader.string("tenantID")
        let id = try reader.string("id")
        let identifier = try reader.string("identifier")
        let name = try reader.string("name")
        let scopes = try reader.list("scopes", minimumBytes: 8) { reader, field throws(RecordReader.Failure) in
            ResourceServerScope(
                value: try reader.string("\(field).value"), description: try reader.string("\(field).description"))
        }
        self.init(
            tenantID: tenantID, id: id, identifier: identifier, name: name, scopes: scopes,
            signingAlgorithm: try reader.value(JWTAlgorithm.self, "signingAlgorithm"),
            tokenLifetime: try reader.int("tokenLifetime"), allowOfflineAccess: try reader.bool("allowOfflineAccess"),
            skipConsentForVerifiableFirstPartyClients: try reader.bool("skipConsentForVerifiableFirstPartyClients"),
            createdAt: try reader.date("createdAt"), updatedAt: try reader.date("updatedAt"))
        self.version = version
    }
}

extension SigningKeyRecord: BinaryCodedRecord {
    public func encode(to writer: inout RecordWriter) {
        writer.string(tenantID)
        writer.string(id)
        writer.string(algorithm.rawValue)
        writer.bytes(sealedPrivateKey)
        writer.bytes(publicKeySPKI)
        writer.string(state.rawValue)
        writer.date(createdAt)
        writer.optionalDate(rotatedAt)
    }

    public init(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) {
        self.init(
            tenantID: try reader.string("tenantID"), id: try reader.string("id"),
            algorithm: try reader.value(JWTAlgorithm.self, "algorithm"),
            sealedPrivateKey: try reader.bytes("sealedPrivateKey"), publicKeySPKI: try reader.bytes("publicKeySPKI"),
            state: try reader.value(SigningKeyState.self, "state"), createdAt: try reader.date("createdAt"),
            rotatedAt: try reader.optionalDate("rotatedAt"))
        self.version = version
    }
}
