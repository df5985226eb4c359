import Foundation
import Testing

@testable import SesameHTTP
@testable import SesameService

/// The eight languages: every text translated with the same placeholders, each language's
/// glossary kept (docs/i18n.md), and the page's language picked from a browser's tags.
@Suite("Hosted pages: the languages")
struct CatalogLanguagesTests {
    /// Words each glossary chose against (docs/i18n.md), which no text of that language may hold.
    static let forbidden: [PageLocale: [String]] = [
        .zhHans: [
            "密钥通行", "二步验证", "双重验证", "双重认证", "双因素", "两步骤", "二次验证", "登入", "登出", "登陆", "注销", "帐号", "帐户", "账户", "恢复代码",
            "备用码", "认证器", "通行秘钥", "设备秘钥", "密码管理工具",
        ],
        .ko: [
            "사인인", "로그온", "로그오프", "로그 아웃", "회원가입", "2차 인증", "이중 인증", "2단계 확인", "복원 코드", "백업 코드", "인증기", "디바이스", "장치",
            "패스 키", "암호", "패스워드", "비밀번호 매니저",
        ],
        .es: [
            "regístrate", "registrarse", "registrarte", "clave de acceso", "llave del dispositivo",
            "clave de dispositivo", "administrador de contraseñas", "gestor de claves", "dos factores", "doble factor",
            "autenticación en dos pasos", "verificación en 2 pasos", "app de autenticación", "aplicación autenticadora",
            "loguear", "desconectar",
        ],
        .fr: [
            "clé d'identification", "clé d’identification", "double authentification",
            "authentification à deux facteurs", "authentification en deux étapes", "vérification en deux étapes",
            "validation en 2 étapes", "2fa", "code de secours", "code de restauration", "code de sauvegarde",
            "gestionnaire de mot de passe", "s'identifier", "s’identifier", "se loguer", "s'enregistrer",
            "s’enregistrer", "clé de l'appareil", "clé de l’appareil", "authentificateur",
        ],
        .de: [
            "einloggen", "eingeloggt", "ausloggen", "ausgeloggt", "log-in", "zwei-faktor", "2-faktor", "zweistufig",
            "2fa", "kennwort", "passwort-manager", "passwortverwaltung", "authentifizierungs-app", "authenticator app",
            "authentifikator", "wiederherstellungsschlüssel", "sicherungscode", "backup-code", "passschlüssel",
            "zugangsschlüssel",
        ],
        .ptBR: [
            "chave-senha", "deslogar", "desconectar", "entrar", "cadastre", "cadastrar", "cadastro", "inscrever",
            "chave de dispositivo", "gestor de senhas", "dois fatores", "autenticação em duas etapas",
            "verificação em dois passos", "aplicativo autenticador", "app de autenticação", "código de backup",
            "códigos de backup",
        ],
    ]

    static func placeholders(_ text: String) -> [String] {
        var found: [String] = []
        var characters = text[...]
        while let character = characters.popFirst() {
            if character == "%", let digit = characters.first, digit.isNumber { found.append("%\(digit)") }
        }
        return found.sorted()
    }

    @Test("every text in every language: not empty, not left in English, with the English placeholders")
    func everyText() {
        for locale in PageLocale.allCases where locale != .en {
            for key in Text.allCases {
                let text = Catalog.raw(key, locale)
                let english = Catalog.raw(key, .en)
                #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(locale) \(key)")
                // A separator may be the same punctuation as English's.
                if ![.listSeparator, .ruleAnd].contains(key) {
                    #expect(text != english, "\(locale) \(key) is left in English: \(text)")
                }
                #expect(Self.placeholders(text) == Self.placeholders(english), "\(locale) \(key): \(text)")
            }
        }
    }

    @Test("each glossary's rejected words appear in no text of its language")
    func glossaries() {
        #expect(Set(Self.forbidden.keys) == Set(PageLocale.allCases).subtracting([.en, .ja]))
        for (locale, words) in Self.forbidden {
            for key in Text.allCases {
                let text = Catalog.raw(key, locale).lowercased()
                for word in words { #expect(!text.contains(word), "\(locale) \(key): \(word) in \(text)") }
            }
        }
    }

    @Test("a browser's tag picks the language by its primary subtag; Traditional Chinese is not Simplified")
    func matching() {
        #expect(PageLocale.first(in: ["fr-CA"]) == .fr)
        #expect(PageLocale.first(in: ["de_AT"]) == .de)
        #expect(PageLocale.first(in: ["zh-CN"]) == .zhHans)
        #expect(PageLocale.first(in: ["zh-Hans-SG"]) == .zhHans)
        #expect(PageLocale.first(in: ["zh"]) == .zhHans)
        #expect(PageLocale.first(in: ["zh-TW", "en"]) == .en)
        #expect(PageLocale.first(in: ["zh-Hant-HK", "ko-KR"]) == .ko)
        #expect(PageLocale.first(in: ["pt-PT"]) == .ptBR)
        #expect(PageLocale.first(in: ["pt-BR"]) == .ptBR)
        #expect(PageLocale.first(in: ["ES"]) == .es)
        #expect(PageLocale.first(in: ["it", "nl"]) == nil)
        #expect(PageLocale.first(in: [String(repeating: "a", count: 100)]) == nil)
        #expect(PageLocale.allCases.map(\.rawValue) == ["en", "ja", "zh-Hans", "ko", "es", "fr", "de", "pt-BR"])
    }
}
