extension Catalog {
    /// French (`fr`). Glossary: docs/i18n.md.
    static func french(_ text: Text) -> String {
        switch text {
        case .signInTitle: return "Connexion"
        case .signInLead: return "Accéder à %1"
        case .identifierLabel: return "Adresse e-mail ou nom d’utilisateur"
        case .continueButton: return "Continuer"
        case .passkeyButton: return "Se connecter avec une clé d’accès"
        case .orDivider: return "ou"
        case .noAccount: return "Vous n’avez pas de compte ?"
        case .signUpLink: return "S’inscrire"
        case .passwordLabel: return "Mot de passe"
        case .signInButton: return "Se connecter"
        case .changeIdentifier: return "Modifier"
        case .forgotPassword: return "Mot de passe oublié ?"
        case .passkeyFailed:
            return "Impossible d’utiliser la clé d’accès. Réessayez ou connectez-vous d’une autre manière."
        case .passkeyUnsupported: return "Ce navigateur ne prend pas en charge les clés d’accès."
        case .passkeyExists: return "Cet appareil possède déjà une clé d’accès pour ce compte."
        case .passkeyNotOffered: return "Utilisez votre clé d’accès pour vous connecter à ce compte."
        case .mfaTitle: return "Confirmez votre identité"
        case .mfaLead: return "Saisissez le code à 6 chiffres affiché dans votre application d’authentification."
        case .codeLabel: return "Code de validation"
        case .verifyButton: return "Valider"
        case .mfaEnrollNeeded:
            return "Ce compte nécessite la validation en deux étapes. Configurez-la d’abord dans l’application."
        case .signupTitle: return "Créer votre compte"
        case .signupLead: return "pour %1"
        case .emailLabel: return "Adresse e-mail"
        case .nameLabel: return "Nom (facultatif)"
        case .continueWithPasskey: return "Continuer avec une clé d’accès"
        case .usePasswordInstead: return "Utiliser plutôt un mot de passe"
        case .newPasswordLabel: return "Mot de passe"
        case .signUpWithPassword: return "S’inscrire avec un mot de passe"
        case .haveAccount: return "Vous avez déjà un compte ?"
        case .signInLink: return "Se connecter"
        case .createPasskeyTitle: return "Créer une clé d’accès"
        case .createPasskeyLead:
            return
                "pour %1. Votre appareil vous demandera votre empreinte digitale, votre visage ou le verrouillage de l’écran. Aucune donnée ne quitte l’appareil."
        case .createPasskeyButton: return "Créer la clé d’accès"
        case .formPostTitle: return "Redirection vers l’application"
        case .formPostLead: return "Si rien ne se passe, appuyez sur « Continuer »."
        case .continueToApp: return "Continuer"
        case .logoutTitle: return "Déconnexion"
        case .logoutLead: return "Vous déconnecter de %1 sur ce navigateur ?"
        case .logoutButton: return "Se déconnecter"
        case .signedOutTitle: return "Déconnexion réussie"
        case .signedOutLead: return "Votre session est terminée. Vous pouvez fermer cette page."
        case .backToApp: return "Revenir à l’application"
        case .errorTitle: return "Un problème est survenu"
        case .errorWaysOn: return "Pour continuer"
        case .passwordRulesHeading: return "Votre mot de passe doit respecter ces règles :"
        case .ruleMinLength: return "Au moins %1 caractères"
        case .ruleMaxLength: return "Pas plus de %1 caractères"
        case .ruleRequired: return "Au moins 1 %1"
        case .ruleAllowed: return "Caractères autorisés : %1"
        case .ruleRepeating: return "Pas plus de %1 fois le même caractère à la suite"
        case .ruleSequential: return "Pas plus de %1 caractères qui se suivent, comme abc ou 321"
        case .ruleOr: return " ou "
        case .ruleAnd: return ", "
        case .classLower: return "lettre minuscule (a–z)"
        case .classUpper: return "lettre majuscule (A–Z)"
        case .classDigit: return "chiffre (0–9)"
        case .classSpecial: return "symbole, comme ! ou #"
        case .classASCII: return "lettres, chiffres, espaces et symboles d’un clavier anglais"
        case .classAny: return "n’importe quel caractère"
        case .classCustom: return "caractère parmi %1"
        case .errorWeakPasswordBecause: return "Ce mot de passe ne respecte pas les exigences : %1."
        case .showPassword: return "Afficher"
        case .passkeyMenu: return "Options pour %1"
        case .passkeyNewName: return "Nouveau nom pour %1"
        case .removePasskeyLink: return "Supprimer"
        case .removePasskeyTitle: return "Supprimer cette clé d’accès ?"
        case .removePasskeyLead:
            return
                "Vous ne pourrez plus vous connecter avec « %1 ». Elle reste enregistrée dans %2 jusqu’à ce que vous l’y supprimiez également."
        case .removePasskeyButton: return "Supprimer la clé d’accès"
        case .cancelLink: return "Annuler"
        case .passwordManager: return "votre gestionnaire de mots de passe"
        case .passkeyCancelled:
            return "La fenêtre de la clé d’accès s’est fermée avant la fin. Réessayez ou utilisez une autre méthode."
        case .adminOnlyTitle: return "Réservé aux administrateurs"
        case .signedInAs: return "Compte connecté : %1"
        case .useAnotherAccount: return "Utiliser un autre compte"
        case .listSeparator: return ", "
        case .adoptionTotal: return "Total"
        case .adoptionPasskey: return "Clé d’accès"
        case .adoptionDeviceKey: return "Clé d’appareil"
        case .adoptionPassword: return "Mot de passe"
        case .adoptionApple: return "Se connecter avec Apple"
        case .adoptionRefresh: return "Actualisation du jeton"
        case .adoptionShare: return "Part des clés d’accès"
        case .errorLastPasskey:
            return
                "Cette clé d’accès est votre seul moyen de connexion. Ajoutez une autre clé d’accès ou un mot de passe avant de la supprimer."
        case .errorLastPassword:
            return
                "Votre mot de passe est votre seul moyen de connexion. Ajoutez une clé d’accès avant de le supprimer."
        case .hidePassword: return "Masquer"
        case .errorAccountLink: return "Accéder à votre compte"
        case .languageName: return "Français"
        case .languageMenu: return "Langue"
        case .errorWrongCredentials: return "Adresse e-mail ou mot de passe incorrect."
        case .errorTooManyAttempts: return "Trop de tentatives. Patientez un moment, puis réessayez."
        case .errorExpired:
            return
                "Cette connexion n’est plus en attente : elle est terminée, a expiré ou a commencé dans un autre navigateur. Revenez à l’application et recommencez."
        case .errorWrongCode: return "Ce code est incorrect. Réessayez."
        case .errorUnknownCredential:
            return
                "Cette clé d’accès n’est plus enregistrée ici. Connectez-vous d’une autre manière ; votre appareil a été invité à l’oublier."
        case .errorGeneric: return "Cela n’a pas fonctionné. Vérifiez ce que vous avez saisi et réessayez."
        case .errorUserExists: return "Un compte existe déjà avec cette adresse e-mail. Connectez-vous plutôt."
        case .errorWeakPassword: return "Ce mot de passe ne respecte pas les exigences."
        case .errorLeakedPassword:
            return "Ce mot de passe est apparu dans une fuite de données. Choisissez-en un autre."
        case .errorBlocked: return "Ce compte est bloqué."
        case .errorForm:
            return "Ce formulaire a expiré ou a été envoyé depuis un autre site. Actualisez la page et réessayez."
        case .errorUnavailable: return "Le service est surchargé. Réessayez dans un instant."
        case .errorPasskeyFailed: return "Impossible de vérifier la clé d’accès. Réessayez."
        case .resetRequestTitle: return "Réinitialiser votre mot de passe"
        case .resetRequestLead:
            return "Saisissez votre adresse e-mail. Nous vous enverrons un lien pour choisir un nouveau mot de passe."
        case .sendResetLink: return "Envoyer le lien"
        case .resetSentLead:
            return
                "Si un compte utilise cette adresse, un lien est en route. Il ne fonctionne qu’une fois, pendant 30 minutes."
        case .backToSignIn: return "Retour à la connexion"
        case .resetTitle: return "Choisir un nouveau mot de passe"
        case .resetLead: return "Votre nouveau mot de passe remplace l’ancien, et tous les appareils sont déconnectés."
        case .newPasswordButton: return "Enregistrer le nouveau mot de passe"
        case .resetDoneTitle: return "Mot de passe modifié"
        case .resetDoneLead:
            return "Votre mot de passe a été modifié. Utilisez-le pour vous connecter depuis votre application."
        case .errorResetExpired:
            return "Ce lien a expiré ou a déjà été utilisé. Demandez-en un nouveau depuis la page de connexion."
        case .verifyTitle: return "Confirmer votre adresse e-mail"
        case .verifyLead: return "Confirmez que %1 est bien votre adresse."
        case .confirmEmailButton: return "Confirmer"
        case .verifiedTitle: return "Adresse e-mail confirmée"
        case .verifiedLead: return "Merci. Vous pouvez fermer cette page."
        case .errorVerifyExpired: return "Ce lien a expiré ou a déjà été utilisé."
        case .verifyPriorLead:
            return
                "Ce compte a été créé le %1. Avant la confirmation de cette adresse, ces moyens de connexion ont été ajoutés :"
        case .priorPasskeys: return "Clés d’accès : %1"
        case .priorPassword: return "Un mot de passe"
        case .priorSecondFactors: return "Méthodes de validation en deux étapes : %1"
        case .priorDeviceKeys: return "Clés d’appareil : %1"
        case .priorAppleID: return "Un identifiant Apple associé"
        case .verifyPriorQuestion: return "Les avez-vous ajoutés ?"
        case .keepPriorButton: return "Oui, je les ai ajoutés"
        case .removePriorButton: return "Non, les supprimer"
        case .verifyPriorHint:
            return
                "Quelle que soit votre réponse, votre adresse sera confirmée. Si quelqu’un d’autre s’est inscrit avec elle, les supprimer déconnecte définitivement cette personne ; vous pourrez ensuite ajouter votre propre clé d’accès ou mot de passe."
        case .verifiedClearedLead:
            return
                "Votre adresse est confirmée. Les moyens de connexion ajoutés auparavant ont été supprimés, et tous les appareils ont été déconnectés."
        case .setUpSignInLink: return "Ajouter votre propre clé d’accès ou mot de passe"
        case .mfaEnrollTitle: return "Configurer la validation en deux étapes"
        case .mfaEnrollLead:
            return
                "Scannez ce code avec une application d’authentification, puis saisissez le code à 6 chiffres qu’elle affiche."
        case .secretKeyLabel: return "Ou saisissez cette clé dans l’application :"
        case .recoveryCodeLead:
            return
                "Votre code de récupération vous permet de vous connecter si vous perdez l’application. Conservez-le en lieu sûr : il ne s’affiche que maintenant."
        case .smsLead: return "Saisissez le code à 6 chiffres que nous avons envoyé par SMS à votre téléphone."
        case .accountTitle: return "Votre compte"
        case .passkeysHeading: return "Clés d’accès"
        case .passkeyName: return "Nom"
        case .passkeyProvider: return "Emplacement"
        case .passkeyCreated: return "Date d’ajout"
        case .passkeyLastUsed: return "Dernière utilisation"
        case .passkeySynced: return "Synchronisée sur vos appareils"
        case .passkeyDeviceBound: return "Sur un seul appareil"
        case .renameButton: return "Renommer"
        case .deleteButton: return "Supprimer"
        case .addPasskeyButton: return "Ajouter une clé d’accès"
        case .noPasskeys: return "Vous n’avez pas encore de clé d’accès."
        case .passwordHeading: return "Mot de passe"
        case .passwordSetOn: return "Dernière modification : %1."
        case .noPassword: return "Vous vous connectez sans mot de passe."
        case .currentPasswordLabel: return "Mot de passe actuel"
        case .changePasswordButton: return "Modifier le mot de passe"
        case .setPasswordButton: return "Définir un mot de passe"
        case .factorsHeading: return "Validation en deux étapes"
        case .noFactors: return "La validation en deux étapes n’est pas configurée."
        case .factorTOTP: return "Application d’authentification"
        case .factorSMS: return "SMS vers %1"
        case .factorRecovery: return "Code de récupération"
        case .sessionsHeading: return "Où votre compte est connecté"
        case .sessionThisBrowser: return "Ce navigateur"
        case .sessionStarted: return "Connexion : %1"
        case .sessionLastSeen: return "dernière activité : %1"
        case .endSessionButton: return "Déconnecter cette session"
        case .signOutEverywhereButton: return "Se déconnecter partout"
        case .signOutButton: return "Se déconnecter"
        case .neverUsed: return "jamais"
        case .addPasskeyLead:
            return
                "Une clé d’accès vous permet de vous connecter avec votre empreinte digitale, votre visage ou le verrouillage de l’écran. Votre appareil vous demandera de confirmer."
        case .doneRenamed: return "La clé d’accès a été renommée."
        case .doneDeleted: return "Suppression effectuée."
        case .doneAdded: return "La clé d’accès a été ajoutée."
        case .donePassword: return "Votre mot de passe a été modifié. Vos autres appareils ont été déconnectés."
        case .doneFactor: return "La méthode de validation en deux étapes a été supprimée."
        case .doneSession: return "Cette session a été déconnectée."
        case .errorReauth: return "Pour effectuer cette modification, reconnectez-vous d’abord."
        case .enrollPromptTitle: return "Connectez-vous plus vite la prochaine fois"
        case .enrollPromptLead:
            return
                "Créez une clé d’accès pour %1 : la prochaine fois, vous vous connecterez avec votre empreinte digitale, votre visage ou le verrouillage de l’écran, sans mot de passe."
        case .localEnrollTitle: return "Créer une clé d’accès sur cet appareil"
        case .localEnrollLead:
            return
                "Vous avez utilisé la clé d’accès d’un autre appareil pour vous connecter. Créez-en une ici pour vous connecter directement la prochaine fois."
        case .notNowButton: return "Pas maintenant"
        case .neverAskButton: return "Ne plus demander sur cet appareil"
        case .deviceKeyEnrollTitle: return "Passer à une clé d’accès"
        case .deviceKeyEnrollLead:
            return
                "Créez une clé d’accès pour %1 : elle vous connecte sur cet appareil et sur vos autres appareils, et reste en sécurité si vous changez de téléphone."
        case .enrollDoneTitle: return "Clé d’accès créée"
        case .enrollDoneLead:
            return "La prochaine fois, connectez-vous avec votre clé d’accès. Vous pouvez revenir à l’application."
        case .enrollSkippedTitle: return "Pas de clé d’accès pour l’instant"
        case .enrollSkippedLead:
            return "Vous pourrez en créer une plus tard depuis votre compte. Vous pouvez revenir à l’application."
        case .alreadyRegisteredTitle: return "Vous avez déjà une clé d’accès"
        case .alreadyRegisteredLead:
            return
                "Ce compte a déjà une clé d’accès dans %1. Utilisez-la pour vous connecter la prochaine fois ; il n’y a rien à créer."
        case .errorAlreadyRegistered: return "Ce compte a déjà une clé d’accès de ce fournisseur."
        case .enrollBenefitNoPassword: return "Aucun mot de passe à retenir ni à saisir."
        case .enrollBenefitUnlock:
            return "Déverrouillez-la avec votre empreinte, votre visage ou le verrouillage de l’écran."
        case .enrollBenefitPhishing: return "Elle ne fonctionne que sur ce site : elle résiste à l’hameçonnage."
        case .adminTitle: return "Console d’administration"
        case .adoptionTitle: return "Adoption des clés d’accès"
        case .adoptionLead:
            return
                "Part des clés d’accès dans les authentifications par appareil (clé d’accès ÷ (clé d’accès + clé d’appareil)), jour par jour, en UTC."
        case .adoptionChartLabel: return "Part des clés d’accès dans les authentifications par appareil du %1 au %2"
        case .adoptionDownload: return "Télécharger le CSV"
        case .adoptionUsers:
            return
                "%1 utilisateurs : %2 avec une clé d’accès, %3 avec une clé d’appareil uniquement, %4 avec aucune des deux"
        case .adoptionShow: return "Afficher"
        case .adoptionFrom: return "Du"
        case .adoptionTo: return "Au"
        case .adoptionDate: return "Jour"
        case .adminSetupTitle: return "Devenir administrateur"
        case .adminSetupLead: return "Compte connecté : %1. Faire de ce compte l’administrateur de %2 ?"
        case .adminSetupButton: return "Devenir administrateur"
        case .adminUsers: return "Utilisateurs"
        case .adminClients: return "Applications clientes"
        case .adminConnections: return "Connexions"
        case .adminNewClient: return "Nouvelle application"
        case .adminClientName: return "Nom"
        case .adminClientType: return "Type d’application"
        case .adminCreateButton: return "Créer"
        case .adminSaveButton: return "Enregistrer"
        case .adminCallbacks: return "URL de rappel"
        case .adminLogoutURLs: return "URL de déconnexion autorisées"
        case .adminOrigins: return "Origines web autorisées"
        case .adminGrantTypes: return "Types d’autorisation"
        case .adminIOS: return "App iOS (apple-app-site-association)"
        case .adminTeamID: return "ID d’équipe"
        case .adminBundleID: return "ID de bundle"
        case .adminAndroid: return "App Android (assetlinks.json)"
        case .adminPackage: return "Nom du package"
        case .adminFingerprints: return "Empreintes SHA-256 du certificat de signature"
        case .adminOnePerLine: return "Une par ligne."
        case .adminSecretOnce: return "Le secret client, affiché uniquement maintenant : %1"
        case .adminSaved: return "Modifications enregistrées."
        case .adminBack: return "Retour à la vue d’ensemble"
        case .adminPasskeyCount: return "Clés d’accès"
        case .adminHasPassword: return "Mot de passe"
        case .adminNotAdmin: return "Cette page est réservée aux administrateurs du locataire."
        case .adminAllUsers: return "Rechercher parmi tous les utilisateurs"
        case .adminSearchLabel: return "E-mail, nom ou ID utilisateur"
        case .adminSearchButton: return "Rechercher"
        case .adminNoUsers: return "Aucun utilisateur ne correspond."
        case .adminUser: return "Utilisateur"
        case .adminUserID: return "ID utilisateur"
        case .adminEmailVerified: return "E-mail vérifié"
        case .adminCreated: return "Date de création"
        case .adminLastLogin: return "Dernière connexion"
        case .adminPreviousPage: return "Page précédente"
        case .adminNextPage: return "Page suivante"
        case .adminYes: return "oui"
        case .adminNo: return "non"
        case .adminConnection: return "Connexion"
        case .adminBlocked: return "Bloqué"
        case .adminNoUserPasskeys: return "Aucune clé d’accès."
        case .adminPasskeyKind: return "Type"
        case .adminBackedUp: return "Sauvegarde"
        case .adminSynced: return "synchronisée"
        case .adminDeviceBound: return "liée à l’appareil"
        case .adminPasswordChanged: return "Défini ; dernière modification :"
        case .adminNoUserPassword: return "Cet utilisateur ne se connecte pas avec un mot de passe."
        case .adminDeviceKeys: return "Anciennes clés d’appareil"
        case .adminFactor: return "Méthode"
        case .adminFactorActive: return "Confirmée"
        case .adminFactorPending: return "Pas encore confirmée"
        case .adminResetFactors: return "Réinitialiser la validation en deux étapes"
        case .adminResetFactorsHint:
            return
                "Pour un utilisateur qui a perdu toutes ses méthodes de validation et son code de récupération. Vérifiez d’abord que la personne qui en fait la demande est bien titulaire du compte, comme pour toute récupération de compte. Ses méthodes et son code de récupération sont supprimés, tous ses appareils sont déconnectés et un e-mail lui est envoyé ; elle configurera de nouveau une méthode lors de sa prochaine connexion."
        case .adminFactorsReset:
            return "La validation en deux étapes a été réinitialisée, et un e-mail a été envoyé à l’utilisateur."
        case .adminDevice: return "Appareil"
        case .adminPlatform: return "Plateforme"
        case .adminState: return "État"
        case .adminRecentLogs: return "Entrées de journal récentes"
        case .adminNoLogs: return "Aucune entrée de journal."
        case .adminLogType: return "Catégorie"
        case .adminLogDescription: return "Événement"
        case .recoverLink: return "Vous avez perdu votre clé d’accès ?"
        case .recoverTitle: return "Récupérer votre compte"
        case .recoverLead:
            return "Saisissez votre adresse e-mail. Nous vous enverrons un code qui prouve qu’elle vous appartient."
        case .sendCodeButton: return "Envoyer le code"
        case .recoverCodeLead:
            return "Si un compte utilise cette adresse, nous lui avons envoyé un code à 6 chiffres. Saisissez-le ici."
        case .recoveryEnrollTitle: return "Choisir un nouveau moyen de connexion"
        case .recoveryEnrollLead:
            return "Créez une clé d’accès sur cet appareil. Ensuite, tous les autres appareils seront déconnectés."
        case .recoveryPasswordLead: return "Ou choisissez un nouveau mot de passe :"
        case .errorPasswordReused: return "Choisissez un mot de passe différent de l’actuel."
        case .errorSignsInWithApple: return "Ce compte utilise « Se connecter avec Apple »."
        case .errorSignsInWithPasskey: return "Pour ce compte, connectez-vous avec une clé d’accès."
        case .upgradeHeading: return "Sécurité du compte"
        case .upgradeLead: return "Remplacez le mot de passe de votre compte par une méthode plus sûre."
        case .upgradeWeakLead:
            return "Votre mot de passe ne respecte plus les règles de ce site. Sécurisez votre compte dès maintenant."
        case .upgradeBreachedLead:
            return
                "Votre mot de passe est apparu dans une fuite de données sur un autre site. Sécurisez votre compte dès maintenant."
        case .upgradePasskeyButton: return "Remplacer mon mot de passe par une clé d’accès"
        case .upgradeStrongPasswordButton: return "Choisir un mot de passe fort"
        case .upgradeAppleButton: return "Utiliser « Se connecter avec Apple »"
        case .upgradeNotNow: return "Plus tard"
        case .doneUpgraded: return "Votre compte est maintenant mieux protégé."
        case .passwordReplacedApple: return "Remplacé par « Se connecter avec Apple »"
        case .passwordReplacedPasskey: return "Remplacé par une clé d’accès"
        case .poweredBy: return "Sécurisé par Sesame"
        case .mfaOtherWays: return "Autres méthodes de validation"
        case .useRecoveryCodeButton: return "Utiliser un code de récupération"
        case .useSMSButton: return "Recevoir plutôt un code par SMS"
        case .useAppButton: return "Utiliser mon application d’authentification"
        case .usePasskeyInstead: return "Se connecter plutôt avec une clé d’accès"
        case .cancelSignIn: return "Annuler et recommencer"
        case .recoveryCodeStepLead:
            return
                "Saisissez le code de récupération de 24 caractères que vous avez enregistré lors de la configuration de la validation en deux étapes."
        case .recoveryCodeLabel: return "Code de récupération"
        case .mfaSupportHint:
            return
                "Vous avez perdu à la fois votre application d’authentification et votre code de récupération ? Demandez à l’assistance de ce site de réinitialiser votre validation en deux étapes ; elle vérifiera d’abord votre identité."
        case .recoverySecondFactorLead:
            return
                "Votre adresse e-mail est confirmée. Ce compte utilise aussi la validation en deux étapes : confirmez votre identité pour continuer."
        case .saveRecoveryTitle: return "Enregistrez votre code de récupération"
        case .saveRecoveryLead:
            return
                "Si vous perdez votre téléphone ou votre application d’authentification, ce code vous permet de vous connecter une fois. Conservez-le en lieu sûr, par exemple dans un gestionnaire de mots de passe. Vous en recevrez un nouveau à chaque utilisation."
        case .copyButton: return "Copier"
        case .copiedNotice: return "Copié"
        case .downloadButton: return "Télécharger"
        case .savedCheckbox: return "J’ai enregistré mon code de récupération"
        case .passkeyCreateFailed: return "Aucune clé d’accès n’a été créée. Réessayez ou continuez sans clé d’accès."
        case .errorPasskeyNotRegistered:
            return
                "Cette clé d’accès n’est pas enregistrée ici. Choisissez-en une autre ou saisissez votre adresse e-mail."
        case .profileHeading: return "Profil"
        case .profileNameLabel: return "Votre nom"
        case .emailVerifiedBadge: return "Confirmée"
        case .emailUnverifiedBadge: return "Non confirmée"
        case .resendVerificationButton: return "Renvoyer le lien de confirmation"
        case .saveButton: return "Enregistrer"
        case .doneProfile: return "Votre profil est enregistré."
        case .doneVerificationSent:
            return
                "Si votre adresse doit encore être confirmée, un nouveau lien vous a été envoyé. Consultez votre boîte de réception."
        case .sessionDevice: return "%1 sur %2"
        case .sessionUnknownDevice: return "Appareil inconnu"
        case .appsHeading: return "Applications connectées"
        case .appsLead:
            return
                "Applications qui restent connectées à votre compte. Retirer l’accès déconnecte l’application sur tous les appareils."
        case .appsNone: return "Aucune application ne reste connectée à votre compte."
        case .appActivity: return "Connectée depuis le %1 · dernière activité : %2"
        case .revokeAppButton: return "Retirer l’accès"
        case .revokeAppNamed: return "Retirer l’accès de %1"
        case .doneAppRevoked: return "L’accès de l’application a été retiré. Elle vous demandera de vous reconnecter."
        case .checkupHeading: return "Bilan de sécurité"
        case .checkupAddPasskey:
            return
                "Ajoutez une clé d’accès pour vous connecter avec votre empreinte digitale, votre visage ou le verrouillage de l’écran au lieu d’un mot de passe."
        case .checkupSecondPasskey:
            return
                "Ajoutez une deuxième clé d’accès pour pouvoir vous connecter même si vous perdez l’appareil qui contient la première."
        case .checkupRemovePassword:
            return
                "Vous vous connectez avec une clé d’accès. Supprimez votre mot de passe pour qu’il ne puisse être ni volé ni deviné."
        case .checkupSaveRecovery:
            return
                "Confirmez que vous avez enregistré votre code de récupération. Il vous permet de vous connecter si vous perdez votre méthode de validation en deux étapes."
        case .checkupAllGood: return "Votre compte est bien protégé. Vous n’avez rien à faire."
        case .removePasswordLink: return "Supprimer le mot de passe"
        case .removePasswordTitle: return "Supprimer votre mot de passe ?"
        case .removePasswordLead:
            return
                "Vous vous connecterez avec vos clés d’accès. Vous pourrez définir un nouveau mot de passe plus tard sur la page de votre compte."
        case .donePasswordRemoved:
            return "Votre mot de passe a été supprimé. Vous vous connectez avec vos clés d’accès."
        case .showRecoveryLink: return "Afficher le code de récupération"
        case .doneRecoverySaved: return "Votre code de récupération est confirmé."
        case .deleteAccountHeading: return "Supprimer votre compte"
        case .deleteAccountLead:
            return
                "La suppression de votre compte supprime vos clés d’accès et vous déconnecte de toutes les applications. Cette action est irréversible."
        case .deleteAccountLink: return "Supprimer le compte"
        case .deleteAccountTitle: return "Supprimer votre compte ?"
        case .deleteAccountConfirmLabel: return "Pour confirmer, saisissez %1"
        case .deleteAccountButton: return "Supprimer mon compte"
        case .errorDeleteConfirmation:
            return "Votre saisie ne correspond pas. Saisissez le texte exactement comme indiqué."
        case .accountDeletedTitle: return "Votre compte a été supprimé"
        case .accountDeletedLead:
            return "Vos clés d’accès ont été supprimées et tous vos appareils ont été déconnectés."
        }
    }
}
