#ifndef SESAME_CCRYPT_SHIM_H
#define SESAME_CCRYPT_SHIM_H
#include <crypt.h>
#endif
