#ifndef SESAME_CSHIMS_H
#define SESAME_CSHIMS_H
/* Wrappers for OpenSSL macros and variadic functions that Swift cannot call directly.
   Nothing here holds logic; every symbol is prefixed sesame_. */
#include <stddef.h>
#include <stdint.h>
#include <openssl/crypto.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>

void sesame_OPENSSL_free(void *ptr);

/* STACK_OF(X509). */
STACK_OF(X509) *sesame_sk_X509_new_null(void);
int sesame_sk_X509_push(STACK_OF(X509) *stack, X509 *cert);
void sesame_sk_X509_free(STACK_OF(X509) *stack);
void sesame_sk_X509_pop_free(STACK_OF(X509) *stack);
int sesame_sk_X509_num(const STACK_OF(X509) *stack);
X509 *sesame_sk_X509_value(const STACK_OF(X509) *stack, int index);

/* The X.509 extensions' stacks: GENERAL_NAME and ASN1_OBJECT. */
int sesame_sk_GENERAL_NAME_num(const STACK_OF(GENERAL_NAME) *stack);
GENERAL_NAME *sesame_sk_GENERAL_NAME_value(const STACK_OF(GENERAL_NAME) *stack, int index);
int sesame_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *stack);
ASN1_OBJECT *sesame_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *stack, int index);

#endif
