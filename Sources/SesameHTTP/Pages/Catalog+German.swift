extension Catalog {
    /// German (`de`). Glossary: docs/i18n.md.
    static func german(_ text: Text) -> String {
        switch text {
        case .signInTitle: return "Anmelden"
        case .signInLead: return "Weiter zu %1"
        case .identifierLabel: return "E-Mail-Adresse oder Nutzername"
        case .continueButton: return "Weiter"
        case .passkeyButton: return "Mit Passkey anmelden"
        case .orDivider: return "oder"
        case .noAccount: return "Sie haben noch kein Konto?"
        case .signUpLink: return "Registrieren"
        case .passwordLabel: return "Passwort"
        case .signInButton: return "Anmelden"
        case .changeIdentifier: return "Ändern"
        case .forgotPassword: return "Passwort vergessen?"
        case .passkeyFailed:
            return
                "Der Passkey konnte nicht verwendet werden. Versuchen Sie es noch einmal oder melden Sie sich auf andere Weise an."
        case .passkeyUnsupported: return "Dieser Browser unterstützt keine Passkeys."
        case .passkeyExists: return "Auf diesem Gerät gibt es bereits einen Passkey für dieses Konto."
        case .passkeyNotOffered: return "Melden Sie sich mit Ihrem Passkey bei diesem Konto an."
        case .mfaTitle: return "Bestätigen Sie Ihre Identität"
        case .mfaLead: return "Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein."
        case .codeLabel: return "Bestätigungscode"
        case .verifyButton: return "Bestätigen"
        case .mfaEnrollNeeded:
            return
                "Für dieses Konto ist die Bestätigung in zwei Schritten erforderlich. Richten Sie sie zuerst in der Anwendung ein."
        case .signupTitle: return "Konto erstellen"
        case .signupLead: return "für %1"
        case .emailLabel: return "E-Mail-Adresse"
        case .nameLabel: return "Ihr Name (optional)"
        case .continueWithPasskey: return "Mit Passkey fortfahren"
        case .usePasswordInstead: return "Stattdessen ein Passwort verwenden"
        case .newPasswordLabel: return "Passwort"
        case .signUpWithPassword: return "Mit Passwort registrieren"
        case .haveAccount: return "Sie haben bereits ein Konto?"
        case .signInLink: return "Anmelden"
        case .createPasskeyTitle: return "Passkey erstellen"
        case .createPasskeyLead:
            return
                "für %1. Ihr Gerät fragt nach Ihrem Fingerabdruck, Ihrem Gesicht oder Ihrer Displaysperre. Nichts davon verlässt das Gerät."
        case .createPasskeyButton: return "Passkey erstellen"
        case .formPostTitle: return "Weiterleitung zur Anwendung"
        case .formPostLead: return "Falls nichts passiert, klicken Sie auf „Weiter“."
        case .continueToApp: return "Weiter"
        case .logoutTitle: return "Abmelden"
        case .logoutLead: return "In diesem Browser von %1 abmelden?"
        case .logoutButton: return "Abmelden"
        case .signedOutTitle: return "Abgemeldet"
        case .signedOutLead: return "Sie sind jetzt abgemeldet. Sie können diese Seite schließen."
        case .backToApp: return "Zurück zur Anwendung"
        case .errorTitle: return "Etwas ist schiefgelaufen"
        case .errorWaysOn: return "Weitere Schritte"
        case .passwordRulesHeading: return "Anforderungen an Ihr Passwort:"
        case .ruleMinLength: return "Mindestens %1 Zeichen"
        case .ruleMaxLength: return "Höchstens %1 Zeichen"
        case .ruleRequired: return "Mindestens 1 %1"
        case .ruleAllowed: return "Erlaubte Zeichen: %1"
        case .ruleRepeating: return "Höchstens %1-mal dasselbe Zeichen hintereinander"
        case .ruleSequential: return "Höchstens %1 aufeinanderfolgende Zeichen wie abc oder 321"
        case .ruleOr: return " oder "
        case .ruleAnd: return ", "
        case .classLower: return "Kleinbuchstabe (a–z)"
        case .classUpper: return "Großbuchstabe (A–Z)"
        case .classDigit: return "Ziffer (0–9)"
        case .classSpecial: return "Sonderzeichen wie ! oder #"
        case .classASCII: return "Buchstaben, Ziffern, Leerzeichen und Sonderzeichen einer englischen Tastatur"
        case .classAny: return "beliebiges Zeichen"
        case .classCustom: return "Zeichen aus %1"
        case .errorWeakPasswordBecause: return "Dieses Passwort erfüllt die Anforderungen nicht: %1."
        case .showPassword: return "Anzeigen"
        case .passkeyMenu: return "Optionen für %1"
        case .passkeyNewName: return "Neuer Name für %1"
        case .removePasskeyLink: return "Entfernen"
        case .removePasskeyTitle: return "Diesen Passkey entfernen?"
        case .removePasskeyLead:
            return
                "Sie können sich dann nicht mehr mit „%1“ anmelden. Der Passkey bleibt in %2 gespeichert, bis Sie ihn auch dort löschen."
        case .removePasskeyButton: return "Passkey entfernen"
        case .cancelLink: return "Abbrechen"
        case .passwordManager: return "Ihrem Passwortmanager"
        case .passkeyCancelled:
            return
                "Das Passkey-Fenster wurde geschlossen, bevor der Vorgang abgeschlossen war. Versuchen Sie es noch einmal oder wählen Sie eine andere Methode."
        case .adminOnlyTitle: return "Nur für Administratoren"
        case .signedInAs: return "Angemeldet als %1"
        case .useAnotherAccount: return "Anderes Konto verwenden"
        case .listSeparator: return ", "
        case .adoptionTotal: return "Gesamt"
        case .adoptionPasskey: return "Mit Passkey"
        case .adoptionDeviceKey: return "Mit Geräteschlüssel"
        case .adoptionPassword: return "Mit Passwort"
        case .adoptionApple: return "Mit Apple anmelden"
        case .adoptionRefresh: return "Token-Erneuerung"
        case .adoptionShare: return "Passkey-Anteil"
        case .errorLastPasskey:
            return
                "Dieser Passkey ist Ihre einzige Möglichkeit, sich anzumelden. Fügen Sie einen weiteren Passkey oder ein Passwort hinzu, bevor Sie ihn entfernen."
        case .errorLastPassword:
            return
                "Ihr Passwort ist Ihre einzige Möglichkeit, sich anzumelden. Fügen Sie einen Passkey hinzu, bevor Sie es entfernen."
        case .hidePassword: return "Ausblenden"
        case .errorAccountLink: return "Zu Ihrem Konto"
        case .languageName: return "Deutsch"
        case .languageMenu: return "Sprache"
        case .errorWrongCredentials: return "E-Mail-Adresse oder Passwort ist falsch."
        case .errorTooManyAttempts:
            return "Zu viele Versuche. Warten Sie eine Weile und versuchen Sie es dann noch einmal."
        case .errorExpired:
            return
                "Diese Anmeldung ist nicht mehr offen: Sie wurde abgeschlossen, ist abgelaufen oder wurde in einem anderen Browser begonnen. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn."
        case .errorWrongCode: return "Dieser Code ist nicht richtig. Versuchen Sie es noch einmal."
        case .errorUnknownCredential:
            return
                "Dieser Passkey ist hier nicht mehr registriert. Melden Sie sich auf andere Weise an; Ihr Gerät wurde angewiesen, ihn zu vergessen."
        case .errorGeneric:
            return "Das hat nicht funktioniert. Prüfen Sie Ihre Eingaben und versuchen Sie es noch einmal."
        case .errorUserExists:
            return "Es gibt bereits ein Konto mit dieser E-Mail-Adresse. Melden Sie sich stattdessen an."
        case .errorWeakPassword: return "Dieses Passwort erfüllt die Anforderungen nicht."
        case .errorLeakedPassword:
            return "Dieses Passwort ist durch ein Datenleck bekannt geworden. Wählen Sie ein anderes."
        case .errorBlocked: return "Dieses Konto ist gesperrt."
        case .errorForm:
            return
                "Dieses Formular ist abgelaufen oder wurde von einer anderen Website gesendet. Laden Sie die Seite neu und versuchen Sie es noch einmal."
        case .errorUnavailable: return "Der Dienst ist gerade ausgelastet. Versuchen Sie es gleich noch einmal."
        case .errorPasskeyFailed: return "Der Passkey konnte nicht überprüft werden. Versuchen Sie es noch einmal."
        case .resetRequestTitle: return "Passwort zurücksetzen"
        case .resetRequestLead:
            return
                "Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort festlegen können."
        case .sendResetLink: return "Link senden"
        case .resetSentLead:
            return
                "Falls ein Konto diese Adresse verwendet, ist ein Link unterwegs. Er funktioniert einmal und 30 Minuten lang."
        case .backToSignIn: return "Zurück zur Anmeldung"
        case .resetTitle: return "Neues Passwort festlegen"
        case .resetLead: return "Ihr neues Passwort ersetzt das alte, und Sie werden auf allen Geräten abgemeldet."
        case .newPasswordButton: return "Neues Passwort speichern"
        case .resetDoneTitle: return "Passwort geändert"
        case .resetDoneLead: return "Ihr Passwort wurde geändert. Melden Sie sich damit in Ihrer Anwendung an."
        case .errorResetExpired:
            return
                "Dieser Link ist abgelaufen oder wurde bereits verwendet. Fordern Sie auf der Anmeldeseite einen neuen an."
        case .verifyTitle: return "E-Mail-Adresse bestätigen"
        case .verifyLead: return "Bestätigen Sie, dass %1 Ihre Adresse ist."
        case .confirmEmailButton: return "Bestätigen"
        case .verifiedTitle: return "E-Mail-Adresse bestätigt"
        case .verifiedLead: return "Vielen Dank. Sie können diese Seite schließen."
        case .errorVerifyExpired: return "Dieser Link ist abgelaufen oder wurde bereits verwendet."
        case .verifyPriorLead:
            return
                "Dieses Konto wurde am %1 eingerichtet. Bevor diese Adresse bestätigt wurde, wurden diese Anmeldemethoden hinzugefügt:"
        case .priorPasskeys: return "Anzahl der Passkeys: %1"
        case .priorPassword: return "Ein Passwort"
        case .priorSecondFactors: return "Methoden für die Bestätigung in zwei Schritten: %1"
        case .priorDeviceKeys: return "Geräteschlüssel: %1"
        case .priorAppleID: return "Eine verknüpfte Apple-ID"
        case .verifyPriorQuestion: return "Haben Sie diese hinzugefügt?"
        case .keepPriorButton: return "Ja, das war ich"
        case .removePriorButton: return "Nein, entfernen"
        case .verifyPriorHint:
            return
                "Mit beiden Antworten wird Ihre Adresse bestätigt. Falls sich jemand anderes damit registriert hat, wird diese Person durch das Entfernen endgültig abgemeldet, und Sie können anschließend Ihren eigenen Passkey oder Ihr eigenes Passwort hinzufügen."
        case .verifiedClearedLead:
            return
                "Ihre Adresse ist bestätigt. Die zuvor hinzugefügten Anmeldemethoden wurden entfernt, und alle Geräte wurden abgemeldet."
        case .setUpSignInLink: return "Eigenen Passkey oder eigenes Passwort hinzufügen"
        case .mfaEnrollTitle: return "Bestätigung in zwei Schritten einrichten"
        case .mfaEnrollLead:
            return
                "Scannen Sie diesen Code mit einer Authenticator-App und geben Sie dann den 6-stelligen Code ein, den die App anzeigt."
        case .secretKeyLabel: return "Oder geben Sie diesen Schlüssel in der App ein:"
        case .recoveryCodeLead:
            return
                "Mit Ihrem Wiederherstellungscode können Sie sich anmelden, wenn Sie die App verlieren. Bewahren Sie ihn sicher auf: Er wird nur jetzt angezeigt."
        case .smsLead: return "Geben Sie den 6-stelligen Code ein, den wir per SMS an Ihr Smartphone gesendet haben."
        case .accountTitle: return "Ihr Konto"
        case .passkeysHeading: return "Ihre Passkeys"
        case .passkeyName: return "Bezeichnung"
        case .passkeyProvider: return "Gespeichert in"
        case .passkeyCreated: return "Hinzugefügt"
        case .passkeyLastUsed: return "Zuletzt verwendet"
        case .passkeySynced: return "Auf Ihren Geräten synchronisiert"
        case .passkeyDeviceBound: return "Auf einem Gerät"
        case .renameButton: return "Umbenennen"
        case .deleteButton: return "Löschen"
        case .addPasskeyButton: return "Passkey hinzufügen"
        case .noPasskeys: return "Sie haben noch keine Passkeys."
        case .passwordHeading: return "Passwort"
        case .passwordSetOn: return "Zuletzt geändert: %1"
        case .noPassword: return "Sie melden sich ohne Passwort an."
        case .currentPasswordLabel: return "Aktuelles Passwort"
        case .changePasswordButton: return "Passwort ändern"
        case .setPasswordButton: return "Passwort festlegen"
        case .factorsHeading: return "Bestätigung in zwei Schritten"
        case .noFactors: return "Die Bestätigung in zwei Schritten ist nicht eingerichtet."
        case .factorTOTP: return "Authenticator-App"
        case .factorSMS: return "SMS an %1"
        case .factorRecovery: return "Wiederherstellungscode"
        case .sessionsHeading: return "Wo Sie angemeldet sind"
        case .sessionThisBrowser: return "Dieser Browser"
        case .sessionStarted: return "Angemeldet: %1"
        case .sessionLastSeen: return "zuletzt aktiv: %1"
        case .endSessionButton: return "Dort abmelden"
        case .signOutEverywhereButton: return "Überall abmelden"
        case .signOutButton: return "Abmelden"
        case .neverUsed: return "nie"
        case .addPasskeyLead:
            return
                "Mit einem Passkey melden Sie sich per Fingerabdruck, Gesicht oder Displaysperre an. Ihr Gerät bittet Sie um Bestätigung."
        case .doneRenamed: return "Der Passkey wurde umbenannt."
        case .doneDeleted: return "Gelöscht."
        case .doneAdded: return "Der Passkey wurde hinzugefügt."
        case .donePassword: return "Ihr Passwort wurde geändert. Ihre anderen Geräte wurden abgemeldet."
        case .doneFactor: return "Die Methode für die Bestätigung in zwei Schritten wurde entfernt."
        case .doneSession: return "Diese Sitzung wurde abgemeldet."
        case .errorReauth: return "Melden Sie sich für diese Änderung zuerst noch einmal an."
        case .enrollPromptTitle: return "Beim nächsten Mal schneller anmelden"
        case .enrollPromptLead:
            return
                "Erstellen Sie einen Passkey für %1: Beim nächsten Mal melden Sie sich per Fingerabdruck, Gesicht oder Displaysperre an – ganz ohne Passwort."
        case .localEnrollTitle: return "Passkey auf diesem Gerät erstellen"
        case .localEnrollLead:
            return
                "Sie haben sich mit einem Passkey von einem anderen Gerät angemeldet. Erstellen Sie hier einen, um sich beim nächsten Mal direkt anzumelden."
        case .notNowButton: return "Jetzt nicht"
        case .neverAskButton: return "Auf diesem Gerät nicht mehr fragen"
        case .deviceKeyEnrollTitle: return "Zu einem Passkey wechseln"
        case .deviceKeyEnrollLead:
            return
                "Erstellen Sie einen Passkey für %1: Damit melden Sie sich auf diesem und Ihren anderen Geräten an, und er bleibt sicher erhalten, wenn Sie das Smartphone wechseln."
        case .enrollDoneTitle: return "Passkey erstellt"
        case .enrollDoneLead:
            return "Melden Sie sich beim nächsten Mal mit Ihrem Passkey an. Sie können jetzt zur App zurückkehren."
        case .enrollSkippedTitle: return "Vorerst kein Passkey"
        case .enrollSkippedLead:
            return "Sie können später in Ihrem Konto einen erstellen. Sie können jetzt zur App zurückkehren."
        case .alreadyRegisteredTitle: return "Sie haben bereits einen Passkey"
        case .alreadyRegisteredLead:
            return
                "Dieses Konto hat bereits einen Passkey in %1. Melden Sie sich beim nächsten Mal damit an; Sie müssen nichts erstellen."
        case .errorAlreadyRegistered: return "Dieses Konto hat bereits einen Passkey von diesem Anbieter."
        case .enrollBenefitNoPassword: return "Kein Passwort, das Sie sich merken oder eingeben müssen."
        case .enrollBenefitUnlock: return "Entsperren Sie ihn mit Fingerabdruck, Gesicht oder Displaysperre."
        case .enrollBenefitPhishing: return "Er funktioniert nur auf dieser Website und ist so vor Phishing geschützt."
        case .adminTitle: return "Verwaltung"
        case .adoptionTitle: return "Passkey-Verbreitung"
        case .adoptionLead:
            return
                "Der Passkey-Anteil an den Geräteauthentifizierungen (Passkey ÷ (Passkey + Geräteschlüssel)), Tag für Tag, in UTC."
        case .adoptionChartLabel: return "Passkey-Anteil an den Geräteauthentifizierungen von %1 bis %2"
        case .adoptionDownload: return "CSV herunterladen"
        case .adoptionUsers: return "%1 Nutzer: %2 mit Passkey, %3 nur mit Geräteschlüssel, %4 mit keinem von beiden"
        case .adoptionShow: return "Anzeigen"
        case .adoptionFrom: return "Von"
        case .adoptionTo: return "Bis"
        case .adoptionDate: return "Datum"
        case .adminSetupTitle: return "Administrator werden"
        case .adminSetupLead: return "Sie sind als %1 angemeldet. Dieses Konto zum Administrator von %2 machen?"
        case .adminSetupButton: return "Administrator werden"
        case .adminUsers: return "Nutzer"
        case .adminClients: return "Anwendungen"
        case .adminConnections: return "Verbindungen"
        case .adminNewClient: return "Neue Anwendung"
        case .adminClientName: return "Bezeichnung"
        case .adminClientType: return "Typ"
        case .adminCreateButton: return "Erstellen"
        case .adminSaveButton: return "Speichern"
        case .adminCallbacks: return "Callback-URLs"
        case .adminLogoutURLs: return "Erlaubte Abmelde-URLs"
        case .adminOrigins: return "Erlaubte Web-Ursprünge"
        case .adminGrantTypes: return "Grant-Typen"
        case .adminIOS: return "iOS-App (apple-app-site-association)"
        case .adminTeamID: return "Team-ID"
        case .adminBundleID: return "Bundle-ID"
        case .adminAndroid: return "Android-App (assetlinks.json)"
        case .adminPackage: return "Paketname"
        case .adminFingerprints: return "SHA-256-Fingerabdrücke des Signaturzertifikats"
        case .adminOnePerLine: return "Ein Eintrag pro Zeile."
        case .adminSecretOnce: return "Das Client-Secret (wird nur jetzt angezeigt): %1"
        case .adminSaved: return "Gespeichert."
        case .adminBack: return "Zurück zur Übersicht"
        case .adminPasskeyCount: return "Anzahl Passkeys"
        case .adminHasPassword: return "Passwort"
        case .adminNotAdmin: return "Diese Seite ist den Administratoren des Mandanten vorbehalten."
        case .adminAllUsers: return "Alle Nutzer durchsuchen"
        case .adminSearchLabel: return "E-Mail, Name oder Nutzer-ID"
        case .adminSearchButton: return "Suchen"
        case .adminNoUsers: return "Keine passenden Nutzer."
        case .adminUser: return "Nutzer"
        case .adminUserID: return "Nutzer-ID"
        case .adminEmailVerified: return "E-Mail bestätigt"
        case .adminCreated: return "Erstellt"
        case .adminLastLogin: return "Letzte Anmeldung"
        case .adminPreviousPage: return "Vorherige Seite"
        case .adminNextPage: return "Nächste Seite"
        case .adminYes: return "ja"
        case .adminNo: return "nein"
        case .adminConnection: return "Verbindung"
        case .adminBlocked: return "Gesperrt"
        case .adminNoUserPasskeys: return "Keine Passkeys."
        case .adminPasskeyKind: return "Art"
        case .adminBackedUp: return "Gesichert"
        case .adminSynced: return "synchronisiert"
        case .adminDeviceBound: return "gerätegebunden"
        case .adminPasswordChanged: return "Festgelegt; zuletzt geändert:"
        case .adminNoUserPassword: return "Dieser Nutzer meldet sich nicht mit einem Passwort an."
        case .adminDeviceKeys: return "Bisherige Geräteschlüssel"
        case .adminFactor: return "Methode"
        case .adminFactorActive: return "Bestätigt"
        case .adminFactorPending: return "Noch nicht bestätigt"
        case .adminResetFactors: return "Bestätigung in zwei Schritten zurücksetzen"
        case .adminResetFactorsHint:
            return
                "Für Nutzer, die alle Methoden und ihren Wiederherstellungscode verloren haben. Prüfen Sie zuerst, ob das Konto der anfragenden Person gehört, wie bei jeder Kontowiederherstellung. Die Methoden und der Wiederherstellungscode werden entfernt, alle Geräte werden abgemeldet und der Nutzer wird per E-Mail benachrichtigt; bei der nächsten Anmeldung richtet er erneut eine Methode ein."
        case .adminFactorsReset:
            return
                "Die Bestätigung in zwei Schritten wurde zurückgesetzt, und der Nutzer wurde per E-Mail benachrichtigt."
        case .adminDevice: return "Gerät"
        case .adminPlatform: return "Plattform"
        case .adminState: return "Status"
        case .adminRecentLogs: return "Letzte Protokolleinträge"
        case .adminNoLogs: return "Keine Protokolleinträge."
        case .adminLogType: return "Typ"
        case .adminLogDescription: return "Ereignis"
        case .recoverLink: return "Passkey verloren?"
        case .recoverTitle: return "Konto wiederherstellen"
        case .recoverLead:
            return
                "Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Code, mit dem Sie nachweisen, dass sie Ihnen gehört."
        case .sendCodeButton: return "Code senden"
        case .recoverCodeLead:
            return
                "Falls ein Konto diese Adresse verwendet, haben wir einen 6-stelligen Code dorthin gesendet. Geben Sie ihn hier ein."
        case .recoveryEnrollTitle: return "Neue Anmeldemethode wählen"
        case .recoveryEnrollLead:
            return "Erstellen Sie einen Passkey auf diesem Gerät. Danach werden alle anderen Geräte abgemeldet."
        case .recoveryPasswordLead: return "Oder legen Sie ein neues Passwort fest:"
        case .errorPasswordReused: return "Wählen Sie ein anderes Passwort als Ihr aktuelles."
        case .errorSignsInWithApple: return "Dieses Konto verwendet „Mit Apple anmelden“."
        case .errorSignsInWithPasskey: return "Für dieses Konto melden Sie sich mit einem Passkey an."
        case .upgradeHeading: return "Kontosicherheit"
        case .upgradeLead: return "Ersetzen Sie das Passwort Ihres Kontos durch eine sicherere Methode."
        case .upgradeWeakLead:
            return "Ihr Passwort erfüllt die Regeln dieser Website nicht mehr. Schützen Sie Ihr Konto jetzt besser."
        case .upgradeBreachedLead:
            return
                "Ihr Passwort ist durch ein Datenleck auf einer anderen Website bekannt geworden. Schützen Sie Ihr Konto jetzt besser."
        case .upgradePasskeyButton: return "Mein Passwort durch einen Passkey ersetzen"
        case .upgradeStrongPasswordButton: return "Sicheres Passwort wählen"
        case .upgradeAppleButton: return "„Mit Apple anmelden“ verwenden"
        case .upgradeNotNow: return "Später"
        case .doneUpgraded: return "Ihr Konto ist jetzt besser geschützt."
        case .passwordReplacedApple: return "Ersetzt durch „Mit Apple anmelden“"
        case .passwordReplacedPasskey: return "Ersetzt durch einen Passkey"
        case .poweredBy: return "Geschützt durch Sesame"
        case .mfaOtherWays: return "Andere Bestätigungsmethoden"
        case .useRecoveryCodeButton: return "Wiederherstellungscode verwenden"
        case .useSMSButton: return "Stattdessen Code per SMS erhalten"
        case .useAppButton: return "Meine Authenticator-App verwenden"
        case .usePasskeyInstead: return "Stattdessen mit Passkey anmelden"
        case .cancelSignIn: return "Abbrechen und neu beginnen"
        case .recoveryCodeStepLead:
            return
                "Geben Sie den 24-stelligen Wiederherstellungscode ein, den Sie beim Einrichten der Bestätigung in zwei Schritten gespeichert haben."
        case .recoveryCodeLabel: return "Wiederherstellungscode"
        case .mfaSupportHint:
            return
                "Sie haben Ihre Authenticator-App und Ihren Wiederherstellungscode verloren? Bitten Sie den Support dieser Website, Ihre Bestätigung in zwei Schritten zurückzusetzen; dort wird zuerst Ihre Identität geprüft."
        case .recoverySecondFactorLead:
            return
                "Ihre E-Mail-Adresse ist bestätigt. Für dieses Konto ist außerdem die Bestätigung in zwei Schritten aktiv: Bestätigen Sie Ihre Identität, um fortzufahren."
        case .saveRecoveryTitle: return "Wiederherstellungscode speichern"
        case .saveRecoveryLead:
            return
                "Wenn Sie Ihr Smartphone oder Ihre Authenticator-App verlieren, können Sie sich mit diesem Code einmal anmelden. Bewahren Sie ihn an einem sicheren Ort auf, zum Beispiel in einem Passwortmanager. Bei jeder Verwendung erhalten Sie einen neuen."
        case .copyButton: return "Kopieren"
        case .copiedNotice: return "Kopiert"
        case .downloadButton: return "Herunterladen"
        case .savedCheckbox: return "Ich habe meinen Wiederherstellungscode gespeichert"
        case .passkeyCreateFailed:
            return "Es wurde kein Passkey erstellt. Versuchen Sie es noch einmal oder fahren Sie ohne Passkey fort."
        case .errorPasskeyNotRegistered:
            return
                "Dieser Passkey ist hier nicht registriert. Wählen Sie einen anderen Passkey oder geben Sie Ihre E-Mail-Adresse ein."
        case .profileHeading: return "Profil"
        case .profileNameLabel: return "Ihr Name"
        case .emailVerifiedBadge: return "Bestätigt"
        case .emailUnverifiedBadge: return "Nicht bestätigt"
        case .resendVerificationButton: return "Bestätigungslink erneut senden"
        case .saveButton: return "Speichern"
        case .doneProfile: return "Ihr Profil wurde gespeichert."
        case .doneVerificationSent:
            return
                "Falls Ihre Adresse noch bestätigt werden muss, ist ein neuer Link unterwegs. Sehen Sie in Ihrem Posteingang nach."
        case .sessionDevice: return "%1 auf %2"
        case .sessionUnknownDevice: return "Unbekanntes Gerät"
        case .appsHeading: return "Verbundene Apps"
        case .appsLead:
            return
                "Apps, die in Ihrem Konto angemeldet bleiben. Wenn Sie den Zugriff entfernen, wird die App auf allen Geräten abgemeldet."
        case .appsNone: return "Keine App bleibt in Ihrem Konto angemeldet."
        case .appActivity: return "Angemeldet seit %1 · zuletzt aktiv: %2"
        case .revokeAppButton: return "Zugriff entfernen"
        case .revokeAppNamed: return "Zugriff für %1 entfernen"
        case .doneAppRevoked:
            return "Der Zugriff der App wurde entfernt. Die App fordert Sie auf, sich noch einmal anzumelden."
        case .checkupHeading: return "Sicherheitscheck"
        case .checkupAddPasskey:
            return
                "Fügen Sie einen Passkey hinzu, damit Sie sich per Fingerabdruck, Gesicht oder Displaysperre statt mit einem Passwort anmelden können."
        case .checkupSecondPasskey:
            return
                "Fügen Sie einen zweiten Passkey hinzu, damit Sie sich auch dann anmelden können, wenn Sie das Gerät mit Ihrem ersten Passkey verlieren."
        case .checkupRemovePassword:
            return
                "Sie melden sich mit einem Passkey an. Entfernen Sie Ihr Passwort, damit es weder gestohlen noch erraten werden kann."
        case .checkupSaveRecovery:
            return
                "Bestätigen Sie, dass Sie Ihren Wiederherstellungscode gespeichert haben. Damit melden Sie sich an, wenn Sie Ihre Methode für die Bestätigung in zwei Schritten verlieren."
        case .checkupAllGood: return "Ihr Konto ist gut geschützt. Es gibt nichts zu tun."
        case .removePasswordLink: return "Passwort entfernen"
        case .removePasswordTitle: return "Passwort entfernen?"
        case .removePasswordLead:
            return
                "Sie melden sich dann mit Ihren Passkeys an. Sie können später auf Ihrer Kontoseite ein neues Passwort festlegen."
        case .donePasswordRemoved: return "Ihr Passwort wurde entfernt. Sie melden sich mit Ihren Passkeys an."
        case .showRecoveryLink: return "Wiederherstellungscode anzeigen"
        case .doneRecoverySaved: return "Ihr Wiederherstellungscode ist bestätigt."
        case .deleteAccountHeading: return "Konto löschen"
        case .deleteAccountLead:
            return
                "Wenn Sie Ihr Konto löschen, werden Ihre Passkeys entfernt und Sie werden von allen Apps abgemeldet. Dies kann nicht rückgängig gemacht werden."
        case .deleteAccountLink: return "Konto löschen"
        case .deleteAccountTitle: return "Konto löschen?"
        case .deleteAccountConfirmLabel: return "Geben Sie zur Bestätigung %1 ein"
        case .deleteAccountButton: return "Mein Konto löschen"
        case .errorDeleteConfirmation:
            return "Ihre Eingabe stimmt nicht überein. Geben Sie den Text genau wie angezeigt ein."
        case .accountDeletedTitle: return "Ihr Konto wurde gelöscht"
        case .accountDeletedLead: return "Ihre Passkeys wurden entfernt, und Sie wurden überall abgemeldet."
        }
    }
}
