extension Catalog {
    /// Spanish (`es`). Glossary: docs/i18n.md.
    static func spanish(_ text: Text) -> String {
        switch text {
        case .signInTitle: return "Iniciar sesión"
        case .signInLead: return "para ir a %1"
        case .identifierLabel: return "Correo electrónico o nombre de usuario"
        case .continueButton: return "Siguiente"
        case .passkeyButton: return "Iniciar sesión con una llave de acceso"
        case .orDivider: return "o"
        case .noAccount: return "¿No tienes una cuenta?"
        case .signUpLink: return "Crear cuenta"
        case .passwordLabel: return "Contraseña"
        case .signInButton: return "Iniciar sesión"
        case .changeIdentifier: return "Cambiar"
        case .forgotPassword: return "¿Has olvidado tu contraseña?"
        case .passkeyFailed:
            return "No se ha podido usar la llave de acceso. Vuelve a intentarlo o inicia sesión de otra forma."
        case .passkeyUnsupported: return "Este navegador no puede usar llaves de acceso."
        case .passkeyExists: return "Este dispositivo ya tiene una llave de acceso para esta cuenta."
        case .passkeyNotOffered: return "Usa tu llave de acceso para iniciar sesión en esta cuenta."
        case .mfaTitle: return "Verifica que eres tú"
        case .mfaLead: return "Introduce el código de 6 dígitos de tu aplicación de autenticación."
        case .codeLabel: return "Código"
        case .verifyButton: return "Verificar"
        case .mfaEnrollNeeded:
            return "Esta cuenta necesita la verificación en dos pasos. Configúrala primero en la aplicación."
        case .signupTitle: return "Crea tu cuenta"
        case .signupLead: return "para %1"
        case .emailLabel: return "Correo electrónico"
        case .nameLabel: return "Nombre (opcional)"
        case .continueWithPasskey: return "Continuar con una llave de acceso"
        case .usePasswordInstead: return "Usar una contraseña en su lugar"
        case .newPasswordLabel: return "Contraseña"
        case .signUpWithPassword: return "Crear cuenta con una contraseña"
        case .haveAccount: return "¿Ya tienes una cuenta?"
        case .signInLink: return "Iniciar sesión"
        case .createPasskeyTitle: return "Crea una llave de acceso"
        case .createPasskeyLead:
            return
                "para %1. Tu dispositivo te pedirá tu huella digital, tu cara o el bloqueo de pantalla. Nada sale del dispositivo."
        case .createPasskeyButton: return "Crear llave de acceso"
        case .formPostTitle: return "Volviendo a la aplicación"
        case .formPostLead: return "Si no pasa nada, pulsa Continuar."
        case .continueToApp: return "Continuar"
        case .logoutTitle: return "Cerrar sesión"
        case .logoutLead: return "¿Quieres cerrar sesión en %1 en este navegador?"
        case .logoutButton: return "Cerrar sesión"
        case .signedOutTitle: return "Sesión cerrada"
        case .signedOutLead: return "Has cerrado sesión. Ya puedes cerrar esta página."
        case .backToApp: return "Volver a la aplicación"
        case .errorTitle: return "Se ha producido un error"
        case .errorWaysOn: return "Qué puedes hacer ahora"
        case .passwordRulesHeading: return "Tu contraseña debe tener:"
        case .ruleMinLength: return "Al menos %1 caracteres"
        case .ruleMaxLength: return "Como máximo %1 caracteres"
        case .ruleRequired: return "Al menos 1 %1"
        case .ruleAllowed: return "Caracteres permitidos: %1"
        case .ruleRepeating: return "No más de %1 caracteres iguales seguidos"
        case .ruleSequential: return "No más de %1 caracteres consecutivos, como abc o 321"
        case .ruleOr: return " o "
        case .ruleAnd: return ", "
        case .classLower: return "letra minúscula (a–z)"
        case .classUpper: return "letra mayúscula (A–Z)"
        case .classDigit: return "número (0–9)"
        case .classSpecial: return "símbolo, como ! o #"
        case .classASCII: return "letras, números, espacios y símbolos de un teclado inglés"
        case .classAny: return "cualquier carácter"
        case .classCustom: return "carácter de entre %1"
        case .errorWeakPasswordBecause: return "Esta contraseña no cumple los requisitos: %1."
        case .showPassword: return "Mostrar"
        case .passkeyMenu: return "Opciones de %1"
        case .passkeyNewName: return "Nuevo nombre para %1"
        case .removePasskeyLink: return "Quitar"
        case .removePasskeyTitle: return "¿Quitar esta llave de acceso?"
        case .removePasskeyLead:
            return "Ya no podrás iniciar sesión con “%1”. Seguirá en %2 hasta que también la elimines allí."
        case .removePasskeyButton: return "Quitar llave de acceso"
        case .cancelLink: return "Cancelar"
        case .passwordManager: return "tu gestor de contraseñas"
        case .passkeyCancelled:
            return "La ventana de la llave de acceso se cerró antes de terminar. Vuelve a intentarlo o usa otra forma."
        case .adminOnlyTitle: return "Solo para administradores"
        case .signedInAs: return "Has iniciado sesión como %1"
        case .useAnotherAccount: return "Usar otra cuenta"
        case .listSeparator: return ", "
        case .adoptionTotal: return "Total"
        case .adoptionPasskey: return "Llave de acceso"
        case .adoptionDeviceKey: return "Clave del dispositivo"
        case .adoptionPassword: return "Contraseña"
        case .adoptionApple: return "Iniciar sesión con Apple"
        case .adoptionRefresh: return "Renovación de token"
        case .adoptionShare: return "Proporción de llaves de acceso"
        case .errorLastPasskey:
            return
                "Esta llave de acceso es tu única forma de iniciar sesión. Añade otra llave de acceso o una contraseña antes de quitarla."
        case .errorLastPassword:
            return "Tu contraseña es tu única forma de iniciar sesión. Añade una llave de acceso antes de quitarla."
        case .hidePassword: return "Ocultar"
        case .errorAccountLink: return "Ir a tu cuenta"
        case .languageName: return "Español"
        case .languageMenu: return "Idioma"
        case .errorWrongCredentials: return "El correo electrónico o la contraseña no son correctos."
        case .errorTooManyAttempts: return "Demasiados intentos. Espera un poco y vuelve a intentarlo."
        case .errorExpired:
            return
                "Este inicio de sesión ya no está pendiente: se completó, caducó o empezó en otro navegador. Vuelve a la aplicación y empieza de nuevo."
        case .errorWrongCode: return "Ese código no es correcto. Vuelve a intentarlo."
        case .errorUnknownCredential:
            return
                "Esta llave de acceso ya no está registrada aquí. Inicia sesión de otra forma; hemos pedido a tu dispositivo que la olvide."
        case .errorGeneric: return "No ha funcionado. Revisa lo que has introducido y vuelve a intentarlo."
        case .errorUserExists: return "Ya existe una cuenta con esta dirección de correo electrónico. Inicia sesión."
        case .errorWeakPassword: return "Esta contraseña no cumple los requisitos."
        case .errorLeakedPassword: return "Esta contraseña ha aparecido en una filtración de datos. Elige otra."
        case .errorBlocked: return "Esta cuenta está bloqueada."
        case .errorForm:
            return
                "Este formulario ha caducado o se envió desde otro sitio. Vuelve a cargar la página e inténtalo de nuevo."
        case .errorUnavailable: return "El servicio está ocupado. Vuelve a intentarlo en un momento."
        case .errorPasskeyFailed: return "No se ha podido verificar la llave de acceso. Vuelve a intentarlo."
        case .resetRequestTitle: return "Restablece tu contraseña"
        case .resetRequestLead:
            return
                "Introduce tu dirección de correo electrónico y te enviaremos un enlace para elegir una contraseña nueva."
        case .sendResetLink: return "Enviar enlace"
        case .resetSentLead:
            return
                "Si hay una cuenta con esa dirección, ya le hemos enviado un enlace. Funciona una sola vez, durante 30 minutos."
        case .backToSignIn: return "Volver al inicio de sesión"
        case .resetTitle: return "Elige una contraseña nueva"
        case .resetLead:
            return "La contraseña nueva sustituye a la anterior y se cerrará la sesión en todos los dispositivos."
        case .newPasswordButton: return "Guardar la contraseña nueva"
        case .resetDoneTitle: return "Contraseña cambiada"
        case .resetDoneLead: return "Se ha cambiado tu contraseña. Úsala para iniciar sesión desde tu aplicación."
        case .errorResetExpired:
            return "Este enlace ha caducado o ya se ha usado. Pide uno nuevo desde la página de inicio de sesión."
        case .verifyTitle: return "Confirma tu dirección de correo electrónico"
        case .verifyLead: return "Confirma que %1 es tu dirección."
        case .confirmEmailButton: return "Confirmar"
        case .verifiedTitle: return "Dirección de correo electrónico confirmada"
        case .verifiedLead: return "Gracias. Ya puedes cerrar esta página."
        case .errorVerifyExpired: return "Este enlace ha caducado o ya se ha usado."
        case .verifyPriorLead:
            return
                "Esta cuenta se creó el %1. Antes de confirmar esta dirección, se añadieron estas formas de iniciar sesión:"
        case .priorPasskeys: return "Llaves de acceso: %1"
        case .priorPassword: return "Una contraseña"
        case .priorSecondFactors: return "Métodos de verificación en dos pasos: %1"
        case .priorDeviceKeys: return "Claves del dispositivo: %1"
        case .priorAppleID: return "Un ID de Apple vinculado"
        case .verifyPriorQuestion: return "¿Los añadiste tú?"
        case .keepPriorButton: return "Sí, los añadí yo"
        case .removePriorButton: return "No, quitarlos"
        case .verifyPriorHint:
            return
                "Con cualquiera de las dos respuestas se confirma tu dirección. Si otra persona creó una cuenta con ella, al quitarlos se cerrará su sesión para siempre y después podrás añadir tu propia llave de acceso o contraseña."
        case .verifiedClearedLead:
            return
                "Tu dirección está confirmada. Se han quitado las formas de iniciar sesión que se añadieron antes y se ha cerrado la sesión en todos los dispositivos."
        case .setUpSignInLink: return "Añade tu propia llave de acceso o contraseña"
        case .mfaEnrollTitle: return "Configura la verificación en dos pasos"
        case .mfaEnrollLead:
            return
                "Escanea este código con una aplicación de autenticación e introduce el código de 6 dígitos que te muestre."
        case .secretKeyLabel: return "O introduce esta clave en la aplicación:"
        case .recoveryCodeLead:
            return
                "Con tu código de recuperación puedes iniciar sesión si pierdes la aplicación. Guárdalo en un lugar seguro: solo se muestra ahora."
        case .smsLead: return "Introduce el código de 6 dígitos que te hemos enviado por SMS."
        case .accountTitle: return "Tu cuenta"
        case .passkeysHeading: return "Llaves de acceso"
        case .passkeyName: return "Nombre"
        case .passkeyProvider: return "Dónde se guarda"
        case .passkeyCreated: return "Añadida"
        case .passkeyLastUsed: return "Último uso"
        case .passkeySynced: return "Sincronizada entre tus dispositivos"
        case .passkeyDeviceBound: return "En un solo dispositivo"
        case .renameButton: return "Cambiar nombre"
        case .deleteButton: return "Eliminar"
        case .addPasskeyButton: return "Añadir una llave de acceso"
        case .noPasskeys: return "Aún no tienes llaves de acceso."
        case .passwordHeading: return "Contraseña"
        case .passwordSetOn: return "Último cambio: %1."
        case .noPassword: return "Inicias sesión sin contraseña."
        case .currentPasswordLabel: return "Contraseña actual"
        case .changePasswordButton: return "Cambiar contraseña"
        case .setPasswordButton: return "Establecer una contraseña"
        case .factorsHeading: return "Verificación en dos pasos"
        case .noFactors: return "No has configurado la verificación en dos pasos."
        case .factorTOTP: return "Aplicación de autenticación"
        case .factorSMS: return "SMS a %1"
        case .factorRecovery: return "Código de recuperación"
        case .sessionsHeading: return "Dónde has iniciado sesión"
        case .sessionThisBrowser: return "Este navegador"
        case .sessionStarted: return "Sesión iniciada el %1"
        case .sessionLastSeen: return "última actividad el %1"
        case .endSessionButton: return "Cerrar sesión ahí"
        case .signOutEverywhereButton: return "Cerrar sesión en todos los dispositivos"
        case .signOutButton: return "Cerrar sesión"
        case .neverUsed: return "nunca"
        case .addPasskeyLead:
            return
                "Con una llave de acceso puedes iniciar sesión con tu huella digital, tu cara o el bloqueo de pantalla. Tu dispositivo te pedirá que lo confirmes."
        case .doneRenamed: return "Se ha cambiado el nombre de la llave de acceso."
        case .doneDeleted: return "Se ha eliminado."
        case .doneAdded: return "Se ha añadido la llave de acceso."
        case .donePassword: return "Se ha cambiado tu contraseña. Se ha cerrado la sesión en tus otros dispositivos."
        case .doneFactor: return "Se ha quitado el método de verificación en dos pasos."
        case .doneSession: return "Se ha cerrado esa sesión."
        case .errorReauth: return "Para hacer este cambio, primero vuelve a iniciar sesión."
        case .enrollPromptTitle: return "Inicia sesión más rápido la próxima vez"
        case .enrollPromptLead:
            return
                "Crea una llave de acceso para %1: la próxima vez iniciarás sesión con tu huella digital, tu cara o el bloqueo de pantalla, sin contraseña."
        case .localEnrollTitle: return "Crea una llave de acceso en este dispositivo"
        case .localEnrollLead:
            return
                "Has iniciado sesión con una llave de acceso de otro dispositivo. Crea una aquí para iniciar sesión directamente la próxima vez."
        case .notNowButton: return "Ahora no"
        case .neverAskButton: return "No volver a preguntar en este dispositivo"
        case .deviceKeyEnrollTitle: return "Pásate a una llave de acceso"
        case .deviceKeyEnrollLead:
            return
                "Crea una llave de acceso para %1: con ella iniciarás sesión en este y en tus otros dispositivos, y seguirá a salvo si cambias de teléfono."
        case .enrollDoneTitle: return "Llave de acceso creada"
        case .enrollDoneLead:
            return "La próxima vez, inicia sesión con tu llave de acceso. Ya puedes volver a la aplicación."
        case .enrollSkippedTitle: return "Sin llave de acceso por ahora"
        case .enrollSkippedLead: return "Puedes crear una más tarde desde tu cuenta. Ya puedes volver a la aplicación."
        case .alreadyRegisteredTitle: return "Ya tienes una llave de acceso"
        case .alreadyRegisteredLead:
            return
                "Esta cuenta ya tiene una llave de acceso en %1. Úsala para iniciar sesión la próxima vez; no hay nada que crear."
        case .errorAlreadyRegistered: return "Esta cuenta ya tiene una llave de acceso de este proveedor."
        case .enrollBenefitNoPassword: return "No tienes que recordar ni escribir ninguna contraseña."
        case .enrollBenefitUnlock: return "Desbloquéala con tu huella, tu cara o el bloqueo de pantalla."
        case .enrollBenefitPhishing: return "Solo funciona en este sitio, así que está protegida frente al phishing."
        case .adminTitle: return "Administración"
        case .adoptionTitle: return "Adopción de llaves de acceso"
        case .adoptionLead:
            return
                "La proporción de llaves de acceso en las autenticaciones de dispositivos (llave de acceso ÷ (llave de acceso + clave del dispositivo)), día a día, en UTC."
        case .adoptionChartLabel:
            return "Proporción de llaves de acceso en las autenticaciones de dispositivos del %1 al %2"
        case .adoptionDownload: return "Descargar CSV"
        case .adoptionUsers:
            return "%1 usuarios: %2 con llave de acceso, %3 solo con clave del dispositivo, %4 sin ninguna"
        case .adoptionShow: return "Mostrar"
        case .adoptionFrom: return "Desde"
        case .adoptionTo: return "Hasta"
        case .adoptionDate: return "Fecha"
        case .adminSetupTitle: return "Conviértete en administrador"
        case .adminSetupLead:
            return "Has iniciado sesión como %1. ¿Quieres que esta cuenta sea la administradora de %2?"
        case .adminSetupButton: return "Convertirme en administrador"
        case .adminUsers: return "Usuarios"
        case .adminClients: return "Aplicaciones"
        case .adminConnections: return "Conexiones"
        case .adminNewClient: return "Nueva aplicación"
        case .adminClientName: return "Nombre"
        case .adminClientType: return "Tipo"
        case .adminCreateButton: return "Crear"
        case .adminSaveButton: return "Guardar"
        case .adminCallbacks: return "URL de retorno"
        case .adminLogoutURLs: return "URL permitidas tras cerrar sesión"
        case .adminOrigins: return "Orígenes web permitidos"
        case .adminGrantTypes: return "Tipos de concesión"
        case .adminIOS: return "Aplicación de iOS (apple-app-site-association)"
        case .adminTeamID: return "ID de equipo"
        case .adminBundleID: return "ID de paquete"
        case .adminAndroid: return "Aplicación de Android (assetlinks.json)"
        case .adminPackage: return "Nombre del paquete"
        case .adminFingerprints: return "Huellas digitales SHA-256 del certificado de firma"
        case .adminOnePerLine: return "Uno por línea."
        case .adminSecretOnce: return "El secreto de cliente (solo se muestra ahora): %1"
        case .adminSaved: return "Guardado."
        case .adminBack: return "Volver al resumen"
        case .adminPasskeyCount: return "Llaves de acceso"
        case .adminHasPassword: return "Contraseña"
        case .adminNotAdmin: return "Esta página es para los administradores del inquilino."
        case .adminAllUsers: return "Buscar en todos los usuarios"
        case .adminSearchLabel: return "Correo electrónico, nombre o ID de usuario"
        case .adminSearchButton: return "Buscar"
        case .adminNoUsers: return "Ningún usuario coincide."
        case .adminUser: return "Usuario"
        case .adminUserID: return "ID de usuario"
        case .adminEmailVerified: return "Correo electrónico verificado"
        case .adminCreated: return "Fecha de creación"
        case .adminLastLogin: return "Último inicio de sesión"
        case .adminPreviousPage: return "Página anterior"
        case .adminNextPage: return "Página siguiente"
        case .adminYes: return "Sí"
        case .adminNo: return "No"
        case .adminConnection: return "Conexión"
        case .adminBlocked: return "Bloqueado"
        case .adminNoUserPasskeys: return "No hay llaves de acceso."
        case .adminPasskeyKind: return "Tipo"
        case .adminBackedUp: return "Con copia de seguridad"
        case .adminSynced: return "sincronizada"
        case .adminDeviceBound: return "vinculada al dispositivo"
        case .adminPasswordChanged: return "Establecida; último cambio:"
        case .adminNoUserPassword: return "Este usuario no inicia sesión con contraseña."
        case .adminDeviceKeys: return "Claves del dispositivo (antiguas)"
        case .adminFactor: return "Método"
        case .adminFactorActive: return "Confirmado"
        case .adminFactorPending: return "Aún sin confirmar"
        case .adminResetFactors: return "Restablecer la verificación en dos pasos"
        case .adminResetFactorsHint:
            return
                "Para un usuario que ha perdido todos sus métodos y su código de recuperación. Primero comprueba que quien lo pide es el titular de la cuenta, como en cualquier recuperación de cuenta. Se quitan sus métodos y su código de recuperación, se cierra la sesión en todos sus dispositivos y se le envía un correo electrónico; volverá a configurar un método la próxima vez que inicie sesión."
        case .adminFactorsReset:
            return "Se ha restablecido la verificación en dos pasos y se ha enviado un correo electrónico al usuario."
        case .adminDevice: return "Dispositivo"
        case .adminPlatform: return "Plataforma"
        case .adminState: return "Estado"
        case .adminRecentLogs: return "Entradas de registro recientes"
        case .adminNoLogs: return "No hay entradas de registro."
        case .adminLogType: return "Tipo"
        case .adminLogDescription: return "Evento"
        case .recoverLink: return "¿Has perdido tu llave de acceso?"
        case .recoverTitle: return "Recupera tu cuenta"
        case .recoverLead:
            return "Introduce tu dirección de correo electrónico. Te enviaremos un código para demostrar que es tuya."
        case .sendCodeButton: return "Enviar código"
        case .recoverCodeLead:
            return "Si hay una cuenta con esa dirección, le hemos enviado un código de 6 dígitos. Introdúcelo aquí."
        case .recoveryEnrollTitle: return "Elige una nueva forma de iniciar sesión"
        case .recoveryEnrollLead:
            return
                "Crea una llave de acceso en este dispositivo. Cuando termines, se cerrará la sesión en todos los demás dispositivos."
        case .recoveryPasswordLead: return "O elige una contraseña nueva:"
        case .errorPasswordReused: return "Elige una contraseña distinta de la actual."
        case .errorSignsInWithApple: return "En esta cuenta se inicia sesión con Apple."
        case .errorSignsInWithPasskey: return "En esta cuenta se inicia sesión con una llave de acceso."
        case .upgradeHeading: return "Seguridad de la cuenta"
        case .upgradeLead: return "Deja de usar una contraseña en tu cuenta y pásate a algo más seguro."
        case .upgradeWeakLead:
            return "Tu contraseña ya no cumple las reglas de este sitio. Haz que tu cuenta sea más segura ahora."
        case .upgradeBreachedLead:
            return
                "Tu contraseña ha aparecido en una filtración de datos de otro sitio. Haz que tu cuenta sea más segura ahora."
        case .upgradePasskeyButton: return "Sustituir mi contraseña por una llave de acceso"
        case .upgradeStrongPasswordButton: return "Elegir una contraseña segura"
        case .upgradeAppleButton: return "Usar “Iniciar sesión con Apple”"
        case .upgradeNotNow: return "Ahora no"
        case .doneUpgraded: return "Tu cuenta ahora es más segura."
        case .passwordReplacedApple: return "Sustituida por “Iniciar sesión con Apple”"
        case .passwordReplacedPasskey: return "Sustituida por una llave de acceso"
        case .poweredBy: return "Protegido por Sesame"
        case .mfaOtherWays: return "Otras formas de verificar"
        case .useRecoveryCodeButton: return "Usar un código de recuperación"
        case .useSMSButton: return "Enviarme un código por SMS"
        case .useAppButton: return "Usar mi aplicación de autenticación"
        case .usePasskeyInstead: return "Iniciar sesión con una llave de acceso en su lugar"
        case .cancelSignIn: return "Cancelar y empezar de nuevo"
        case .recoveryCodeStepLead:
            return
                "Introduce el código de recuperación de 24 caracteres que guardaste al configurar la verificación en dos pasos."
        case .recoveryCodeLabel: return "Código de recuperación"
        case .mfaSupportHint:
            return
                "¿Has perdido tu aplicación de autenticación y tu código de recuperación? Pide al soporte de este sitio que restablezca tu verificación en dos pasos; antes comprobarán tu identidad."
        case .recoverySecondFactorLead:
            return
                "Tu dirección de correo electrónico está confirmada. Esta cuenta también tiene la verificación en dos pasos: verifica que eres tú para continuar."
        case .saveRecoveryTitle: return "Guarda tu código de recuperación"
        case .saveRecoveryLead:
            return
                "Si pierdes el teléfono o la aplicación de autenticación, con este código puedes iniciar sesión una vez. Guárdalo en un lugar seguro, como un gestor de contraseñas. Cada vez que lo uses, recibirás uno nuevo."
        case .copyButton: return "Copiar"
        case .copiedNotice: return "Copiado"
        case .downloadButton: return "Descargar"
        case .savedCheckbox: return "He guardado mi código de recuperación"
        case .passkeyCreateFailed:
            return "No se ha creado ninguna llave de acceso. Vuelve a intentarlo o continúa sin ella."
        case .errorPasskeyNotRegistered:
            return
                "Esa llave de acceso no está registrada aquí. Elige otra llave de acceso o introduce tu dirección de correo electrónico."
        case .profileHeading: return "Perfil"
        case .profileNameLabel: return "Tu nombre"
        case .emailVerifiedBadge: return "Confirmado"
        case .emailUnverifiedBadge: return "Sin confirmar"
        case .resendVerificationButton: return "Volver a enviar el enlace de confirmación"
        case .saveButton: return "Guardar"
        case .doneProfile: return "Se ha guardado tu perfil."
        case .doneVerificationSent:
            return
                "Si tu dirección aún no está confirmada, te hemos enviado un enlace nuevo. Revisa tu bandeja de entrada."
        case .sessionDevice: return "%1 en %2"
        case .sessionUnknownDevice: return "Dispositivo desconocido"
        case .appsHeading: return "Aplicaciones conectadas"
        case .appsLead:
            return
                "Aplicaciones que mantienen la sesión iniciada en tu cuenta. Si quitas el acceso, se cerrará la sesión de la aplicación en todos los dispositivos."
        case .appsNone: return "Ninguna aplicación mantiene la sesión iniciada en tu cuenta."
        case .appActivity: return "Sesión iniciada desde el %1 · última actividad el %2"
        case .revokeAppButton: return "Quitar acceso"
        case .revokeAppNamed: return "Quitar el acceso de %1"
        case .doneAppRevoked: return "Se ha quitado el acceso de la aplicación. Te pedirá que vuelvas a iniciar sesión."
        case .checkupHeading: return "Revisión de seguridad"
        case .checkupAddPasskey:
            return
                "Añade una llave de acceso para iniciar sesión con tu huella digital, tu cara o el bloqueo de pantalla en lugar de con una contraseña."
        case .checkupSecondPasskey:
            return
                "Añade una segunda llave de acceso para poder iniciar sesión aunque pierdas el dispositivo que tiene la primera."
        case .checkupRemovePassword:
            return
                "Inicias sesión con una llave de acceso. Quita tu contraseña para que nadie pueda robarla ni adivinarla."
        case .checkupSaveRecovery:
            return
                "Confirma que has guardado tu código de recuperación. Con él puedes iniciar sesión si pierdes tu método de verificación en dos pasos."
        case .checkupAllGood: return "Tu cuenta está bien protegida. No tienes nada que hacer."
        case .removePasswordLink: return "Quitar contraseña"
        case .removePasswordTitle: return "¿Quitar tu contraseña?"
        case .removePasswordLead:
            return
                "Iniciarás sesión con tus llaves de acceso. Puedes establecer una contraseña nueva más adelante en la página de tu cuenta."
        case .donePasswordRemoved: return "Se ha quitado tu contraseña. Inicias sesión con tus llaves de acceso."
        case .showRecoveryLink: return "Mostrar código de recuperación"
        case .doneRecoverySaved: return "Se ha confirmado tu código de recuperación."
        case .deleteAccountHeading: return "Eliminar tu cuenta"
        case .deleteAccountLead:
            return
                "Si eliminas tu cuenta, se quitarán tus llaves de acceso y se cerrará tu sesión en todas las aplicaciones. No se puede deshacer."
        case .deleteAccountLink: return "Eliminar cuenta"
        case .deleteAccountTitle: return "¿Eliminar tu cuenta?"
        case .deleteAccountConfirmLabel: return "Para confirmar, escribe %1"
        case .deleteAccountButton: return "Eliminar mi cuenta"
        case .errorDeleteConfirmation: return "Lo que has escrito no coincide. Escríbelo exactamente como se muestra."
        case .accountDeletedTitle: return "Se ha eliminado tu cuenta"
        case .accountDeletedLead:
            return "Se han quitado tus llaves de acceso y se ha cerrado tu sesión en todas partes."
        }
    }
}
