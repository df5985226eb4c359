#include "CShims.h"

void sesame_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }

STACK_OF(X509) *sesame_sk_X509_new_null(void) { return sk_X509_new_null(); }
int sesame_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
void sesame_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
void sesame_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }
int sesame_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
X509 *sesame_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }

/* X.509 helpers (helper "x509"). */
int sesame_sk_GENERAL_NAME_num(const STACK_OF(GENERAL_NAME) *stack) { return sk_GENERAL_NAME_num(stack); }
GENERAL_NAME *sesame_sk_GENERAL_NAME_value(const STACK_OF(GENERAL_NAME) *stack, int index) {
    return sk_GENERAL_NAME_value(stack, index);
}
int sesame_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *stack) { return sk_ASN1_OBJECT_num(stack); }
ASN1_OBJECT *sesame_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *stack, int index) {
    return sk_ASN1_OBJECT_value(stack, index);
}
